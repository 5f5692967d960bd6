// @ts-check
// References as a reader sees them. The engine's lists give each reference as the paper's own
// numbering ("§2.1", "eq. (2)", "Alg. 4, line 11") and/or "SPEC-NOTES#anchor" for a convention the
// paper leaves open, parts joined by "; " (csc::config::ParamInfo::reference). A convention links
// to the rendered notes the bundle ships (docs/SPEC-NOTES.html, scripts/dist.sh).

/** The rendered conventions page, next to index.html. */
export const NOTES = new URL('../docs/SPEC-NOTES.html', import.meta.url).href;

const parts = (reference) => String(reference || '').split('; ').filter(Boolean);

/** A reference as plain text (for a tooltip): conventions read "our convention (notes)". */
export function citeText(reference) {
  return parts(reference).map((p) => {
    if (!p.startsWith('SPEC-NOTES#')) return p;
    const [anchor, ...rest] = p.slice(11).split(' ');
    return `our convention, docs/SPEC-NOTES.html#${anchor}${rest.length ? ` ${rest.join(' ')}` : ''}`;
  }).join('; ');
}

/** A reference as nodes: the paper's numbering as text, each convention a link to the notes. */
export function citeNodes(reference) {
  const out = [];
  parts(reference).forEach((p, i) => {
    if (i) out.push(document.createTextNode('; '));
    if (p.startsWith('SPEC-NOTES#')) {
      const [anchor, ...rest] = p.slice(11).split(' ');
      const a = document.createElement('a');
      a.href = `${NOTES}#${anchor}`;
      a.target = '_blank';
      a.rel = 'noopener';
      a.textContent = 'our convention';
      a.className = 'cite';
      out.push(a);
      if (rest.length) out.push(document.createTextNode(` ${rest.join(' ')}`));
    } else {
      out.push(document.createTextNode(p));
    }
  });
  return out;
}
