// @ts-check
// Your own policy's code in a link: the module's text, compressed (CompressionStream
// 'deflate-raw') and written as base64url in the URL fragment (`#policy=…`), so a link shares
// the policy; the fragment never reaches a server.

/** @param {Uint8Array} bytes */
const toBase64url = (bytes) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** @param {string} s */
const fromBase64url = (s) => {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
};

/** @param {Uint8Array<ArrayBuffer>} bytes @param {CompressionStream | DecompressionStream} stream */
async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The fragment value of `code`. @param {string} code */
export async function encodeCode(code) {
  return toBase64url(await through(/** @type {Uint8Array<ArrayBuffer>} */ (new TextEncoder().encode(code)), new CompressionStream('deflate-raw')));
}

/** The code of a fragment value; throws a plain message when it is not one. @param {string} value */
export async function decodeCode(value) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await through(/** @type {Uint8Array<ArrayBuffer>} */ (fromBase64url(value)), new DecompressionStream('deflate-raw')));
  } catch (_) {
    throw new Error('the link\'s policy (#policy=…) could not be read: it is cut short or not one this page wrote');
  }
}

/** The `policy` value of a URL fragment, or null. */
export function linkedPolicy(hash = location.hash) {
  return new URLSearchParams(hash.replace(/^#/, '')).get('policy');
}
