// Translations for the web app: the server compiles the gettext catalogs (Babel) to JSON
// at /api/i18n/<lang>; this module looks messages up and fills in their {placeholders}.
//
// Why msgids are the English text: the same convention as the Python side, so a missing
// translation falls back to readable English, and Babel's JavaScript extractor finds every
// call of t("..."), tn("...", "...", n) and tc("context", "...") by its literal arguments.
// Keep the arguments literal strings (no template literals, no variables), or the
// extractor cannot see them and the catalogs miss the message.

/** The languages the app speaks, in their own names (the menu shows them like this). */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "pt", name: "Português (Brasil)" },
  { code: "es", name: "Español" },
  { code: "fi", name: "Suomi" },
  { code: "cs", name: "Čeština" },
];

const STORE_KEY = "pyramids.lang";

let current = "en";
let messages = {};
let names = {};
let categories = { one: 0, other: 1 };
let plurals = null;

/** The language in use (a code of LANGUAGES). */
export function lang() {
  return current;
}

/** The language a visitor gets: the one they chose before, else the browser's, else English. */
export function preferredLanguage() {
  const codes = LANGUAGES.map((l) => l.code);
  let saved = null;
  try { saved = localStorage.getItem(STORE_KEY); } catch { saved = null; }
  if (saved && codes.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (codes.includes(base)) return base;
  }
  return "en";
}

/** Remember a language chosen in the menu (it wins over the browser's from then on). */
export function rememberLanguage(code) {
  try { localStorage.setItem(STORE_KEY, code); } catch { /* private mode: just not remembered */ }
}

/** Load a language's catalog from the server and make it current. */
export async function loadLanguage(code) {
  const res = await fetch(`/api/i18n/${encodeURIComponent(code)}`);
  if (!res.ok) throw new Error(`no catalog for ${code}`);
  const data = await res.json();
  current = data.lang;
  messages = data.messages || {};
  names = data.names || {};
  categories = data.plural_categories || { one: 0, other: 1 };
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
  return current;
}

function fillIn(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** Translate `msgid` and fill in its {placeholders} from `params`. */
export function t(msgid, params) {
  const found = messages[msgid];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** Translate with a context (gettext's pgettext): the same English word, two meanings. */
export function tc(context, msgid, params) {
  const found = messages[`${context}\u0004${msgid}`];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/**
 * Translate a message whose wording depends on a count (Czech and Finnish have more forms
 * than English); `{n}` in the text is the count, formatted for the language.
 */
export function tn(singular, plural, n, params) {
  const all = { n: number(n), ...(params || {}) };
  const forms = messages[singular];
  if (Array.isArray(forms) && forms.length) {
    const index = categories[plurals ? plurals.select(n) : "other"] ?? forms.length - 1;
    const text = forms[Math.min(index, forms.length - 1)];
    if (text) return fillIn(text, all);
  }
  return fillIn(n === 1 ? singular : plural, all);
}

/** The name of a thing inside a game (a treasure, a colour, a goal card...) by kind and id. */
export function name(kind, id) {
  const table = names[kind];
  return (table && table[id]) || String(id).replace(/[-_]/g, " ");
}

/** A number formatted for the language (thousands separators, decimal comma...). */
export function number(n, options) {
  return new Intl.NumberFormat(current, options).format(n);
}

/** A percentage (0.42 -> "42 %" or "42%", as the language writes it). */
export function percent(x) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

/** An ordinal place ("1st", "1.", "1º") for result tables. */
export function ordinal(n) {
  return tc("ordinal", "#{n}", { n: number(n) });
}

/** A date and time as the language writes it. */
export function dateTime(ms) {
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}
