// All texts come from the page language's dictionary (web/i18n/<lang>.json), one place per
// language, fetched once from the hashed URL that base.html preloads (`#i18n-data`) and kept by
// the browser; every module that shows text imports this one, so none runs before it arrived.
// The grammar that a filled-in name changes lives here: French elision (« au tour d'Ordinateur »)
// and plurals (« −5 points », « 1 point »). French spacing before ; : ! ? is in fr.json itself.
const el = typeof document === 'undefined' ? null : document.getElementById('i18n-data');
let strings = el ? await (await fetch(el.href, { credentials: 'same-origin' })).json() : {};
export let lang = (typeof document !== 'undefined' && document.documentElement.lang) || 'fr';

/** Use another dictionary (the Node tests; a page never needs it). */
export function setStrings(dict, language) {
  strings = dict;
  lang = language;
}

/**
 * Whether French elides « de » / « que » before `word`: a vowel or a mute h (« d'Hugo »,
 * « d'Ordinateur », « d'Élise »), a Y before a consonant (« d'Yves », not « de Yann »).
 * Digits and symbols never elide (« de 8♥ »).
 */
export function elides(word) {
  const w = String(word).trim().normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (/^[aeiouh]/.test(w)) return true;
  return /^y[^aeiouy]/.test(w);
}

// « de {name} », « que {name} » at a word start (« De {name} » too).
const ELIDABLE = /(^|[\s(«\u00a0])([dD]e|[qQ]ue) \{(\w+)\}/g;

/** The text for `key`, with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  let text = strings[key];
  if (text === undefined) return key;
  if (params) {
    if (lang === 'fr') {
      text = text.replace(ELIDABLE, (all, before, word, name) => (
        name in params && elides(params[name]) ? `${before}${word.slice(0, -1)}'{${name}}` : all));
    }
    for (const [name, value] of Object.entries(params)) text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/**
 * Plural: `key.one` or `key.other` by the language's rule (CLDR): in French 0, 1 and −1 are
 * singular (« 0 point », « −5 points »); in English only 1 and −1 (« 0 points »).
 */
export function plural(n, language = lang) {
  const abs = Math.abs(Number(n));
  if (language === 'fr') return abs < 2 ? 'one' : 'other';
  return abs === 1 ? 'one' : 'other';
}

export function tn(key, n, params) {
  return t(`${key}.${plural(n)}`, { n: formatNumber(n), ...params });
}

/** A signed score with a real minus sign (« −5 »), as the scores table writes it. */
export const formatNumber = (n) => (typeof n === 'number' && n < 0 ? `−${-n}` : String(n));

/**
 * A seat's name for this page: a computer player is named in the page's language from its
 * level (« Ordinateur 2 (moyen) », "Computer 2 (medium)"), using the number of the server's
 * French pseudo (PROTOCOL.md 3.7); a person keeps their pseudo.
 */
export function playerName(seat) {
  if (!seat) return '';
  if (!seat.is_bot || !seat.bot_level) return seat.pseudo;
  const number = /^\S+ (\d+) \(/.exec(seat.pseudo || '');
  const level = t(`bot.level.${seat.bot_level}`);
  return number ? t('bot.name_n', { n: number[1], level }) : t('bot.name', { level });
}
