// Card art drawn by code: one set of shapes (suits, power star, three half-figures, the back)
// defined once per page, then every face is a few <use> of them laid out on a 100×140 card.
// Suit-coloured parts use currentColor, so one figure serves the four suits.
import { svg } from './icons.js';

const GOLD = '#e0a800';
const DARK = '#5c4400';
const SKIN = '#f3d3ad';
const BLUE = '#2f55a4';

// Suits centred on 0,0, about 20 units tall (the club: three leaves, then its stem).
const SUITS = {
  H: 'M0 9C-6 3-10-1-10-4.5-10-8-7.5-10-5-10-2.7-10-.8-8.5 0-6.5.8-8.5 2.7-10 5-10 7.5-10 10-8 10-4.5 10-1 6 3 0 9Z',
  D: 'M0-10Q3-4 8 0 3 4 0 10-3 4-8 0-3-4 0-10Z',
  S: 'M0-10C-6-4-10-1-10 2.5-10 5.5-7.5 7.2-5 7.2-3 7.2-1.5 6-.8 4.5-1 7-2 8.5-4 10H4C2 8.5 1 7 .8 4.5 1.5 6 3 7.2 5 7.2 7.5 7.2 10 5.5 10 2.5 10-1 6-4 0-10Z',
  C: ['M-4.6-4.8a4.6 4.6 0 1 0 9.2 0 4.6 4.6 0 1 0-9.2 0M-9.6 1.5a4.6 4.6 0 1 0 9.2 0 4.6 4.6 0 1 0-9.2 0M.4 1.5a4.6 4.6 0 1 0 9.2 0 4.6 4.6 0 1 0-9.2 0',
    'M-1.3 0Q-1 7-4 10H4Q1 7 1.3 0Z'],
};
const STAR = 'M0-6 1.5-2.1 5.7-1.9 2.5.8 3.5 4.9 0 2.6-3.5 4.9-2.5.8-5.7-1.9-1.5-2.1Z';

const p = (d, fill, extra = {}) => svg('path', { d, fill, ...extra });
const line = (d, stroke, width) => svg('path', { d, fill: 'none', stroke, 'stroke-width': width, 'stroke-linecap': 'round' });

// The top half of a court figure, in the frame x 24..76, y 10..70; the card shows it twice.
function body(...over) {
  return [
    p('M26 70C26 58 34 51 50 51S74 58 74 70Z', 'currentColor'),
    p('M43 51h14l-2 19H45Z', BLUE),
    line('M39 52 50 61 61 52', GOLD, 2.5),
    p('M46 43h8v9h-8Z', SKIN),
    svg('ellipse', { cx: 50, cy: 37, rx: 8, ry: 9, fill: SKIN, stroke: '#5a4632', 'stroke-width': 0.7 }),
    line('M46.5 36h1.5M52 36h1.5', '#222', 1.3),
    line('M48.3 41.5h3.4', '#a33', 1),
    ...over,
  ];
}
const hand = (x, y) => svg('circle', { cx: x, cy: y, r: 3, fill: SKIN, stroke: '#5a4632', 'stroke-width': 0.6 });
const FIGURES = {
  // Valet: feathered cap and a halberd.
  11: () => [line('M33 68V21', '#6b4a2b', 2), p('M33 14l2.5 7h-5ZM33 23l-6 4 6 5Z', '#9aa4ad', { stroke: '#444', 'stroke-width': 0.6 }),
    ...body(p('M42 34Q42 28 50 28T58 34Q54 31 50 31T42 34Z', '#8a5a2b'),
      p('M39 31Q40 20 50 20T62 30Q50 26 39 31Z', BLUE), line('M40 30Q50 26 61 29', GOLD, 1.5),
      p('M58 24Q67 12 73 14 67 19 60 27Z', 'currentColor')), hand(33, 57)],
  // Dame: long hair, a tiara and a flower.
  12: () => [p('M39 40Q38 26 50 26T61 40Q62 50 57 52H43Q38 50 39 40Z', '#4a2f1b'),
    ...body(p('M43 29l2-6 2.5 4 2.5-5 2.5 5 2.5-4 2 6Z', GOLD, { stroke: DARK, 'stroke-width': 0.6 })),
    line('M34 67V51', '#2f7d32', 1.6), svg('circle', { cx: 34, cy: 48, r: 4, fill: '#d04a6f' }),
    svg('circle', { cx: 34, cy: 48, r: 1.4, fill: GOLD }), hand(34, 57)],
  // Roi: crown, beard and a sceptre.
  13: () => [...body(p('M42 39Q43 50 50 51 57 50 58 39 54 44 50 43 46 44 42 39Z', '#6b4a2b'),
    p('M41 30V19l4.5 5L50 16l4.5 8 4.5-5v11Z', GOLD, { stroke: DARK, 'stroke-width': 0.7 })),
    line('M67 68V27', DARK, 2.2), svg('circle', { cx: 67, cy: 24, r: 3.2, fill: GOLD, stroke: DARK, 'stroke-width': 0.6 }), hand(67, 57)],
};

// The joker (classic Yaniv): a jester's cap with bells over a grinning face, in the card's
// colour (red or black joker); its corners carry a star instead of a rank.
const JESTER = () => [
  p('M31 74Q28 52 16 44Q35 44 42 60Q43 38 50 26Q57 38 58 60Q65 44 84 44Q72 52 69 74Z', 'currentColor'),
  ...[[16, 44], [50, 26], [84, 44]].map(([cx, cy]) => svg('circle', { cx, cy, r: 4.5, fill: GOLD, stroke: DARK, 'stroke-width': 0.8 })),
  p('M29 72h42v9H29Z', GOLD, { stroke: DARK, 'stroke-width': 0.8 }),
  svg('ellipse', { cx: 50, cy: 96, rx: 15, ry: 16, fill: SKIN, stroke: '#5a4632', 'stroke-width': 0.8 }),
  line('M43 92h3M54 92h3', '#222', 1.8),
  p('M41 100Q50 110 59 100Q50 105 41 100Z', '#a33'),
  p('M33 110Q50 122 67 110L63 124Q50 130 37 124Z', 'currentColor'),
];

let defs = null;
/** Put the shared shapes in the page once (hidden; faces refer to them by id). */
function ensureDefs() {
  if (defs) return;
  defs = svg('defs', null,
    Object.entries(SUITS).map(([s, d]) => svg('g', { id: `y-${s}` }, [d].flat().map((x) => p(x)))),
    p(STAR, GOLD, { id: 'y-pw', stroke: DARK, 'stroke-width': 0.9, 'stroke-linejoin': 'round' }),
    Object.entries(FIGURES).map(([r, draw]) => svg('g', { id: `y-${r}` }, draw())),
    svg('g', { id: 'y-jk' }, JESTER()),
    p(STAR, 'currentColor', { id: 'y-st' }),
    svg('pattern', { id: 'y-bp', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      svg('rect', { width: 8, height: 8, fill: '#24428a' }), p('M0 0h4v4H0ZM4 4h4v4H4Z', '#3a5fb8')),
    svg('g', { id: 'y-back' },
      svg('rect', { x: 5, y: 5, width: 90, height: 130, rx: 6, fill: 'url(#y-bp)', stroke: '#f2c94c', 'stroke-width': 2 }),
      svg('ellipse', { cx: 50, cy: 70, rx: 21, ry: 29, fill: '#1b326b', stroke: '#f2c94c', 'stroke-width': 2.5 }),
      svg('text', { x: 50, y: 81, 'text-anchor': 'middle', 'font-size': 32, 'font-weight': 800, fill: '#f2c94c' }, 'Y')));
  document.body.append(svg('svg', { class: 'sprite', 'aria-hidden': 'true', focusable: 'false' }, defs));
}

// The corner index is drawn from the hidden sprite too (`#y-i-<index>`), so that a card holds no
// text of its own: its name is its aria-label alone ("Roi de pique"), and what is drawn ("R",
// twice) is not read as a visible label that the name must contain (WCAG 2.5.3).
const indexes = new Set();
function indexId(index) {
  const id = `y-i-${index}`;
  if (!indexes.has(id)) {
    indexes.add(id);
    defs.append(svg('text', { id, 'text-anchor': 'middle', 'font-size': 31, 'font-weight': 800, fill: 'currentColor',
      textLength: index.length > 1 ? 24 : undefined, lengthAdjust: 'spacingAndGlyphs' }, index));
  }
  return id;
}

const use = (id, transform, cls) => svg('use', { href: `#y-${id}`, transform, class: cls });
const face = (...kids) => svg('svg', { viewBox: '0 0 100 140', class: 'art', 'aria-hidden': 'true', focusable: 'false' }, ...kids);

// Pip columns and rows; pips below the middle are drawn upside down, as on printed cards.
const [L, M, R] = [37, 50, 63];
const ROWS4 = [24, 54.7, 85.3, 116];
const PIPS = {
  2: [[M, 24], [M, 116]],
  3: [[M, 24], [M, 70], [M, 116]],
  4: [[L, 24], [R, 24], [L, 116], [R, 116]],
  6: [24, 70, 116].flatMap((y) => [[L, y], [R, y]]),
  9: ROWS4.flatMap((y) => [[L, y], [R, y]]),
};
PIPS[5] = [...PIPS[4], [M, 70]];
PIPS[7] = [...PIPS[6], [M, 47]];
PIPS[8] = [...PIPS[7], [M, 93]];
PIPS[10] = [...PIPS[9], [M, 39.3], [M, 100.7]];
PIPS[9] = [...PIPS[9], [M, 70]];

/**
 * The drawing of one face: the corner index (rank text, suit, ★ for a power card) top left
 * and, turned, bottom right; pips for A..10, a double-headed figure in a frame for V/D/R.
 */
export function faceArt(rank, suit, index, power) {
  ensureDefs();
  // Every render redraws the visible cards: each face is built once, then cloned.
  const key = `${rank}${suit}${index}${power ? '*' : ''}`;
  let art = drawn.get(key);
  if (!art) {
    art = drawFace(rank, suit, index, power);
    drawn.set(key, art);
  }
  return art.cloneNode(true);
}

const drawn = new Map();

function drawFace(rank, suit, index, power) {
  const corner = (turn) => svg('g', { class: 'index', transform: turn ? 'rotate(180 50 70)' : undefined },
    svg('use', { href: `#${indexId(index)}`, x: 13, y: 29, class: 'idx' }),
    use(suit, 'translate(13 41) scale(.8)'),
    power ? use('pw', 'translate(13 58) scale(1.3)', 'power') : null);
  let middle;
  if (rank > 10) {
    middle = [
      svg('rect', { x: 24, y: 10, width: 52, height: 120, rx: 3, fill: '#fbf5e6', stroke: 'currentColor' }),
      use(rank, undefined, 'figure'), use(rank, 'rotate(180 50 70)', 'figure'),
      use(suit, 'translate(31 18) scale(.4)'), use(suit, 'rotate(180 50 70) translate(31 18) scale(.4)'),
      line('M24 70h52', 'currentColor', 0.8),
    ];
  } else if (rank === 1) {
    middle = [use(suit, 'translate(50 70) scale(2.4)', 'pip')];
  } else {
    middle = PIPS[rank].map(([x, y]) => use(suit, `translate(${x} ${y}) scale(.75)${y > 70 ? ' rotate(180)' : ''}`, 'pip'));
  }
  return face(corner(false), corner(true), middle);
}

/** A joker's face, `suit` R (red) or B (black): its colour is the card's (`.card.red`). */
export function jokerArt(suit) {
  ensureDefs();
  const key = `X${suit}`;
  let art = drawn.get(key);
  if (!art) {
    const corner = (turn) => svg('g', { class: 'index', transform: turn ? 'rotate(180 50 70)' : undefined },
      use('st', 'translate(13 20) scale(1.5)'), use('st', 'translate(13 36) scale(1)'));
    art = face(corner(false), corner(true), use('jk'));
    drawn.set(key, art);
  }
  return art.cloneNode(true);
}

/** The back of a card (the pile, hidden cards). */
export function backArt() {
  ensureDefs();
  return face(use('back'));
}
