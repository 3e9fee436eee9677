// All texts come from the page's inline dictionary (web/i18n/<lang>.json), one place per language.
const el = document.getElementById('i18n-data');
const strings = el ? JSON.parse(el.textContent) : {};
export const lang = document.documentElement.lang || 'fr';

/** The text for `key`, with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  let text = strings[key];
  if (text === undefined) return key;
  if (params) {
    for (const [name, value] of Object.entries(params)) text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** Plural helper: uses `key.one` when n === 1 (or 0 in French), `key.other` otherwise. */
export function tn(key, n, params) {
  const one = lang === 'fr' ? n <= 1 : n === 1;
  return t(`${key}.${one ? 'one' : 'other'}`, { n, ...params });
}
