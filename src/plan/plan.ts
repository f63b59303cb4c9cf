// Query planning: one user query (an identifier, a pasted traceback, a bug
// report of 300 words) -> what each retrieval tier should be asked. Pure: a
// string in, a plan out, no store access. The rule that matters most: prose
// never reaches the lexical tier as one long trigram phrase; it becomes a
// ranked keyword search, while the identifiers, paths and quoted literals
// found inside it go to the exact tiers.

import { codeTokens } from '../parse/tokens.js';

export interface Plan {
  /** the query as given */
  raw: string;
  /** short, code-like: run the exact text and symbol tiers on the whole query */
  exact: string | null;
  /** exact is one identifier or qualified name: definitions are what is meant */
  identifier: boolean;
  /** quoted strings and code-fence lines: exact text searches */
  literals: string[];
  /** identifiers, dotted names and frame functions: symbol-tier lookups, best first */
  symbols: string[];
  /** file paths or path fragments named in the query */
  paths: string[];
  /** stack frames (Python tracebacks, Go panics, file:line mentions): the strongest pointer a user can paste */
  frames: { path: string; line?: number; func?: string }[];
  /** BM25 keyword terms (code-tokenized, stop words dropped) */
  keywords: string[];
  /** true when the query reads as prose (a sentence, a report) */
  prose: boolean;
}

const STOP = new Set(
  `a an the and or but if then else when while of to in on at by for with from into onto over under about as is are was were be been
  being it its this that these those there here i me my we our you your he she they them their what which who whom whose why how
  do does did done doing not no yes can could should would will shall may might must have has had having get gets got so such than
  too very just also only even still yet after before again once all any both each few more most other some same own out up down
  off via per like use used using seems seem instead without within between because where whats wheres isnt doesnt dont cant
  wont didnt hasnt havent wasnt arent im ive thats its lets one two new find found handled handle handles configured set sets`.split(/\s+/),
);

// identifiers that are clearly code: camelCase, snake_case, has digits or $,
// or a dotted / :: qualified name
const QUALIFIED = /\b[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)+\b/g;
const CODEY = /\b(?:[a-z]+[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|[A-Za-z]+_[\w$]*|_[\w$]+|[A-Z]{2,}[a-z][\w$]*|[A-Za-z]+\d[\w$]*)\b/g;
const PY_FRAME = /File "([^"]+)", line (\d+), in ([\w$<>]+)/g;
const GO_FRAME = /(?:^|\s)([\w./-]+)\.(?:\(\*?([\w$]+)\)\.)?([\w$]+)\(/gm;
const PATHLIKE = /(?:^|[\s("'`])(\/?(?:[\w.-]+\/)*[\w.-]+\.(?:py|go|rs|java|ts|tsx|js|jsx|mjs|c|h|cc|cpp|hpp|rb|php|kt|swift|cs|sol))(?::(\d+))?\b/g;
const QUOTED = /"([^"\n]{2,200})"|'([^'\n]{2,200})'|`([^`\n]{2,200})`/g;
const FENCE = /```[\w-]*\n([\s\S]*?)```/g;

function stripRoot(p: string): string {
  // absolute paths from a traceback: keep the tail that a repo could hold
  const parts = p.replace(/\\/g, '/').split('/').filter(Boolean);
  let at = -1;
  for (let i = parts.length - 2; i >= 0 && at < 0; i--) if (/^(site-packages|dist-packages|src|lib|python\d(\.\d+)?)$/.test(parts[i]!)) at = i;
  const tail = at >= 0 ? parts.slice(at + 1) : parts.slice(-3);
  return tail.join('/');
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs.filter(Boolean))];
}

export function planQuery(raw: string): Plan {
  const q = raw.trim();
  const words = q.split(/\s+/).filter(Boolean);
  const symbols: string[] = [];
  const paths: string[] = [];
  const literals: string[] = [];
  const frames: Plan['frames'] = [];

  for (const m of q.matchAll(PY_FRAME)) {
    const p = stripRoot(m[1]!);
    paths.push(p);
    const func = m[3] && m[3] !== '<module>' ? m[3] : undefined;
    if (func) symbols.push(func);
    frames.push({ path: p, line: Number(m[2]), func });
  }
  for (const m of q.matchAll(GO_FRAME)) {
    if (!m[1]!.includes('/') && !m[2]) continue; // plain calls in prose are not frames
    if (m[2]) symbols.push(`${m[2]}.${m[3]}`);
    symbols.push(m[3]!);
    if (m[1]!.includes('/')) paths.push(m[1]!.replace(/\.$/, ''));
  }
  for (const m of q.matchAll(FENCE)) {
    for (const line of m[1]!.split('\n')) if (line.trim().length >= 4) literals.push(line.trim());
  }
  const noFences = q.replace(FENCE, ' ');
  for (const m of noFences.matchAll(QUOTED)) {
    const lit = (m[1] ?? m[2] ?? m[3])!;
    // a quoted identifier is a symbol too
    if (/^[\w$.:]+$/.test(lit)) symbols.push(lit);
    literals.push(lit);
  }
  for (const m of noFences.matchAll(PATHLIKE)) {
    const p = m[1]!.startsWith('/') ? stripRoot(m[1]!) : m[1]!;
    paths.push(p);
    // file:line (a Go panic's location line, a compiler error) is a frame
    if (m[2] && !frames.some((f) => f.path === p && f.line === Number(m[2]))) frames.push({ path: p, line: Number(m[2]) });
  }
  // identifiers count wherever they are, code fences included
  for (const m of q.matchAll(QUALIFIED)) {
    const s = m[0];
    if (/\.(py|go|rs|java|ts|tsx|js|jsx|c|h|md|txt|json)$/.test(s)) continue;
    symbols.push(s);
    const last = s.split(/\.|::|#/).pop()!;
    symbols.push(last);
  }
  for (const m of q.matchAll(CODEY)) symbols.push(m[0]);

  const keywords = uniq(
    codeTokens(noFences.replace(PY_FRAME, ' $3 ').replace(QUOTED, ' $1$2$3 '))
      .filter((t) => /^[a-z0-9]/.test(t) && t.length >= 2 && !STOP.has(t) && !/^\d+$/.test(t)),
  );

  const prose = words.length >= 4 || /[.?!]\s|[.?!]$/.test(q) && words.length >= 3;
  // a short query with no sentence shape is searched as written, exactly
  const exact = !prose && q.length <= 200 && !q.includes('\n') ? q : null;
  if (exact && /^[\w$]+$/.test(q)) symbols.unshift(q);
  // a few plain words ("user name") are one sub-word lookup, not a symbol each:
  // `rank` alone would find every function called rank
  else if (exact && words.length <= 3 && words.every((w) => /^[\w$.:#]+$/.test(w))) symbols.push(q);

  return {
    raw, exact, identifier: !!exact && /^[\w$]+(?:(?:\.|::|#)[\w$]+)*$/.test(exact), literals: uniq(literals).slice(0, 8), symbols: uniq(symbols).slice(0, 12),
    paths: uniq(paths).slice(0, 8), frames: frames.slice(0, 8), keywords: keywords.slice(0, 64), prose,
  };
}
