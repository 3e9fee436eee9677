// Rules page: the card placeholders of the examples (<span data-card="QH">Dame de cœur</span>,
// written by the server) become the table's card faces, named by the same words. The ★ of
// YANNIV's power cards is drawn on YANNIV's page only: another game's cards have no power.
import { cardFace, cardSpeech, colourOf, rankOf, rankShort, suitOf } from './cards.js';
import { h } from './dom.js';
import { faceArt } from './card_art.js';

const article = document.querySelector('.rules');
const powers = !article || article.dataset.game === 'yanniv';

function plainFace(code) {
  const rank = rankOf(code);
  return h('span', { class: `card ${colourOf(code)}`, role: 'img', 'aria-label': cardSpeech(code), dataset: { code } },
    faceArt(rank, suitOf(code), rankShort(rank), false));
}

for (const ph of document.querySelectorAll('[data-card]')) {
  const face = powers ? cardFace(ph.dataset.card) : plainFace(ph.dataset.card);
  face.classList.add('mini');
  face.removeAttribute('title');
  ph.replaceWith(face);
}
