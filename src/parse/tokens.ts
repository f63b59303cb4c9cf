// Code tokenization for the keyword (BM25) index and for queries against it:
// identifiers are kept whole AND split at camelCase, snake_case and digit
// boundaries, all lower-cased, so `user name` meets `getUserName` and
// `get_user_name`; operator runs are kept as tokens. Query and index text go
// through the same function, so they always agree.

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9][0-9A-Za-z_.]*|[=!<>&|+\-*/%^~?:]{1,3}/g;

/** Split one identifier into its lower-cased parts: getHTTPResponse2 -> get http response 2 */
export function splitIdentifier(id: string): string[] {
  const parts = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter((p) => p.length > 0)
    .map((p) => p.toLowerCase());
  return parts;
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
    const lower = t.toLowerCase().replace(/\$/g, '');
    if (lower.length === 0) continue;
    const parts = splitIdentifier(t);
    if (parts.length !== 1 || parts[0] !== lower) out.push(lower.replace(/_/g, ''));
    for (const p of parts) out.push(p);
  }
  return out;
}

/** The text stored in the `words` index for a piece of code. */
export function codeTokenText(text: string): string {
  return codeTokens(text).join(' ');
}
