// Code tokenization for the keyword (BM25) index and for queries against it:
// identifiers are kept whole AND split at camelCase, snake_case and digit
// boundaries, all lower-cased, so `user name` meets `getUserName` and
// `get_user_name`; operator runs are kept as tokens. Query and index text go
// through the same function, so they always agree.

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9][0-9A-Za-z_.]*|[=!<>&|+\-*/%^~?:]{1,3}/g;

// Identifiers repeat heavily within a corpus, so their splits are memoised;
// the cache is cleared when it grows past a bound to keep memory flat.
const SPLIT_CACHE = new Map<string, string[]>();
const SPLIT_CACHE_MAX = 200_000;

/** Split one identifier into its lower-cased parts: getHTTPResponse2 -> get http response 2 */
export function splitIdentifier(id: string): string[] {
  const t = identifierTokens(id);
  return t.length > 1 ? t.slice(1) : t;
}

/** The whole identifier (lower-cased, separators dropped) followed by its parts when it has several. */
export function identifierTokens(id: string): string[] {
  let parts = SPLIT_CACHE.get(id);
  if (parts) return parts;
  parts = splitUncached(id);
  if (SPLIT_CACHE.size >= SPLIT_CACHE_MAX) SPLIT_CACHE.clear();
  SPLIT_CACHE.set(id, parts);
  return parts;
}

function splitUncached(id: string): string[] {
  const pieces = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter((p) => p.length > 0)
    .map((p) => p.toLowerCase());
  // the whole identifier first (minus separators) when it splits, so an exact
  // identifier query matches as one token as well as by its parts
  const whole = id.toLowerCase().replace(/[_$]/g, '');
  if (whole.length > 0 && (pieces.length !== 1 || pieces[0] !== whole)) pieces.unshift(whole);
  return pieces;
}

/** Tokens of a piece of code or prose, in order, whole identifiers before their parts. */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IDENT)) {
    const t = m[0];
    const c = t.charCodeAt(0);
    const isWord = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!isWord) {
      if (c >= 48 && c <= 57) { if (t.length <= 12) out.push(t.toLowerCase()); }
      else out.push(t);
      continue;
    }
    for (const p of identifierTokens(t)) out.push(p);
  }
  return out;
}

/** The text stored in the `words` index for a piece of code. */
export function codeTokenText(text: string): string {
  return codeTokens(text).join(' ');
}
