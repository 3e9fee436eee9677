// The tables the room page can show, by game id (the room's `settings.game`). A game's table
// is a module with:
//   render(ctx, fresh)  draw the match from ctx.state (`fresh`: a new state message arrived)
//   hear(events, info)  say the events of a state message in the live region (announce.js)
// Adding a game to the client means writing its table and listing it here; room.js and the
// shared components (cards, hand, pile, prompts, reveal, cues, focus, keys) stay as they are.
import { yannivTable } from './yanniv.js';
import { yanivTable } from './yaniv/table.js';

export const TABLES = { yanniv: yannivTable, yaniv: yanivTable };
export const DEFAULT_GAME = 'yanniv';

/** The game id of `room` (a room summary), and the table that shows it. */
export const gameOf = (room) => (room && room.settings && TABLES[room.settings.game] ? room.settings.game : DEFAULT_GAME);
export const tableFor = (room) => TABLES[gameOf(room)];
