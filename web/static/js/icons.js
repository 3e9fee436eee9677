// Inline SVG: a tiny element builder, and icons that <use> the page's sprite
// (web/templates/_icons.html) instead of emoji, which need an emoji font to show at all.
const NS = 'http://www.w3.org/2000/svg';

/** An SVG element: attributes as given (numbers become strings), children appended. */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

/** A decorative icon: `icon('bot')` draws the sprite's `#i-bot`. */
export const icon = (name, cls = '') => svg('svg', { class: `icon ${cls}`.trim(), viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
  svg('use', { href: `#i-${name}` }));
