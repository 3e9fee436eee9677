// Rules page: the card placeholders of the examples (<span data-card="QH">Dame de cœur</span>,
// written by the server) become the table's card faces, named by the same words.
import { cardFace } from './cards.js';

for (const ph of document.querySelectorAll('[data-card]')) {
  const face = cardFace(ph.dataset.card);
  face.classList.add('mini');
  face.removeAttribute('title');
  ph.replaceWith(face);
}
