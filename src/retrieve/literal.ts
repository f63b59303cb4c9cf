// Trigram prefilter queries and literal line matching. This module owns the
// trigram vocabulary shared with the FTS5 table (tokenize='trigram', which folds
// case, detail=none, one row per file), the TrigramQuery tree with its
// simplifier, evaluator and FTS5 rendering, the grep-like literal matcher, and
// the per-character case variants that regex.ts also uses. It must not touch
// the database or parse regexes, and it must never build a query that could
// exclude a file holding a match: every shortcut here only weakens a query.

/** Query tree for the trigram prefilter. 'all' = no constraint (must scan every file). */
export type TrigramQuery =
  | { op: 'all' }
  | { op: 'none' }
  | { op: 'and'; args: TrigramQuery[] }
  | { op: 'or'; args: TrigramQuery[] }
  | { op: 'tri'; t: string };

export interface LineMatcher {
  /** ranges of matches in one line (no newline inside); empty array = no match */
  match(line: string): [number, number][];
}

export const ALL: TrigramQuery = { op: 'all' };
export const NONE: TrigramQuery = { op: 'none' };

/** Bounds that keep the MATCH expression small; dropping AND terms or widening an OR is always sound. */
const MAX_AND = 50;
const MAX_OR = 20;
const MAX_LEAVES = 200;

// ---------------------------------------------------------------------------
// Trigram keys

/**
 * The key a code point gets inside a trigram, or null when it cannot be part
 * of one. FTS5 folds case on both the indexed text and the query, so keys only
 * need to be consistent, not identical to SQLite's fold: ASCII is lower-cased
 * so that 'Get' and 'get' dedupe, and the Kelvin sign and long s (which SQLite
 * 3.53 folds to k and s, checked by test) join their ASCII letters so a
 * case-insensitive 'k' does not double every OR. Everything else is left as is
 * and SQLite folds it. NUL and lone surrogates never make a trigram: how they
 * reach the index is not something we can promise.
 */
export function trigramKey(cp: number): string | null {
  if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  if (cp >= 0x41 && cp <= 0x5a) return String.fromCharCode(cp + 32);
  if (cp === 0x212a) return 'k';
  if (cp === 0x17f) return 's';
  return String.fromCodePoint(cp);
}

/** Code points of a string; lone surrogates come through as themselves. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/** Trigrams of a literal, as FTS5 trigram tokens (FTS5 folds case itself). Under 3 chars → []. */
export function trigramsOf(s: string): string[] {
  const keys = codePoints(s).map(trigramKey);
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = 0; i + 3 <= keys.length; i++) {
    const a = keys[i], b = keys[i + 1], c = keys[i + 2];
    if (a === null || b === null || c === null) continue;
    const t = a + b + c;
    if (!seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Case variants

/**
 * Case-fold orbits with more than two members (Unicode simple case folding as
 * V8's /iu applies it). A code point's upper and lower forms find the rest of
 * its orbit; these are the members they miss (e.g. 'k' never reaches the
 * Kelvin sign). Generated once from Node 20's ICU.
 */
const WIDE_ORBITS: number[][] = [
  [0x4b, 0x6b, 0x212a], [0x53, 0x73, 0x17f], [0xb5, 0x39c, 0x3bc], [0xc5, 0xe5, 0x212b],
  [0x1c4, 0x1c5, 0x1c6], [0x1c7, 0x1c8, 0x1c9], [0x1ca, 0x1cb, 0x1cc], [0x1f1, 0x1f2, 0x1f3],
  [0x345, 0x399, 0x3b9, 0x1fbe], [0x392, 0x3b2, 0x3d0], [0x395, 0x3b5, 0x3f5],
  [0x398, 0x3b8, 0x3d1, 0x3f4], [0x39a, 0x3ba, 0x3f0], [0x3a0, 0x3c0, 0x3d6], [0x3a1, 0x3c1, 0x3f1],
  [0x3a3, 0x3c2, 0x3c3], [0x3a6, 0x3c6, 0x3d5], [0x3a9, 0x3c9, 0x2126], [0x412, 0x432, 0x1c80],
  [0x414, 0x434, 0x1c81], [0x41e, 0x43e, 0x1c82], [0x421, 0x441, 0x1c83],
  [0x422, 0x442, 0x1c84, 0x1c85], [0x42a, 0x44a, 0x1c86], [0x462, 0x463, 0x1c87],
  [0x1c88, 0xa64a, 0xa64b], [0x1e60, 0x1e61, 0x1e9b],
];
const orbitOf = new Map<number, number[]>();
for (const o of WIDE_ORBITS) for (const cp of o) orbitOf.set(cp, o);

const variantCache = new Map<number, number[]>();

function singleCp(s: string): number | null {
  const cp = s.codePointAt(0);
  return cp !== undefined && String.fromCodePoint(cp) === s ? cp : null;
}

/**
 * Every code point that matches `cp` case-insensitively, `cp` first. Used to
 * rewrite patterns (the linear-time engine refuses the `i` flag) and to build
 * case-insensitive trigram queries, so both agree on what a letter matches.
 */
export function caseVariants(cp: number): number[] {
  if (cp < 0x80) {
    const lower = cp | 0x20;
    if (lower < 0x61 || lower > 0x7a) return [cp];
    const other = cp ^ 0x20;
    if (lower === 0x6b) return [cp, other, 0x212a];
    if (lower === 0x73) return [cp, other, 0x17f];
    return [cp, other];
  }
  const cached = variantCache.get(cp);
  if (cached) return cached;
  const ch = String.fromCodePoint(cp);
  const cands = new Set<number>([cp]);
  for (const s of [ch.toLowerCase(), ch.toUpperCase(), ch.toUpperCase().toLowerCase(), ch.toLowerCase().toUpperCase()]) {
    const c = singleCp(s);
    if (c !== null) cands.add(c);
  }
  for (const c of orbitOf.get(cp) ?? []) cands.add(c);
  // toUpperCase links some letters that do not fold together (dotless ı → I),
  // so keep only what /iu itself calls equal. A one-character pattern cannot
  // backtrack, so the `iu` flags are harmless here.
  const probe = cp >= 0xd800 && cp <= 0xdfff ? null : new RegExp(`^\\u{${cp.toString(16)}}$`, 'iu');
  const out = [...cands].filter((c) => c === cp || (probe !== null && probe.test(String.fromCodePoint(c))));
  variantCache.set(cp, out);
  return out;
}

// ---------------------------------------------------------------------------
// Query construction

function tri(t: string): TrigramQuery {
  return { op: 'tri', t };
}

export function andQ(...args: TrigramQuery[]): TrigramQuery {
  const out: TrigramQuery[] = [];
  for (const a of args) {
    if (a.op === 'none') return NONE;
    if (a.op === 'all') continue;
    if (a.op === 'and') out.push(...a.args);
    else out.push(a);
  }
  if (out.length === 0) return ALL;
  if (out.length === 1) return out[0]!;
  return { op: 'and', args: out };
}

export function orQ(...args: TrigramQuery[]): TrigramQuery {
  const out: TrigramQuery[] = [];
  for (const a of args) {
    if (a.op === 'all') return ALL;
    if (a.op === 'none') continue;
    if (a.op === 'or') out.push(...a.args);
    else out.push(a);
  }
  if (out.length === 0) return NONE;
  if (out.length === 1) return out[0]!;
  return { op: 'or', args: out };
}

/** AND of the trigrams of one string (given as trigram keys); 'all' when it is too short. */
export function keysQuery(keys: string[]): TrigramQuery {
  const args: TrigramQuery[] = [];
  for (let i = 0; i + 3 <= keys.length; i++) args.push(tri(keys[i]! + keys[i + 1]! + keys[i + 2]!));
  return andQ(...args);
}

/** Windows with more spellings than this are dropped from a case-insensitive literal query. */
const MAX_WINDOW_SPELLINGS = 4;

/**
 * The prefilter for a literal. Case-insensitive: each 3-character window
 * becomes an OR over the spellings its letters can take; for ASCII they all
 * share one key, so this only widens for letters outside ASCII. A literal
 * holding a newline can never match one line, so it matches nothing.
 */
export function literalQuery(s: string, caseInsensitive = false): TrigramQuery {
  if (s.includes('\n')) return NONE;
  const cps = codePoints(s);
  if (!caseInsensitive) return simplify(literalAnd(cps));
  const sets = cps.map((c) => {
    const keys = new Set<string>();
    for (const v of caseVariants(c)) {
      const k = trigramKey(v);
      if (k === null) return null;
      keys.add(k);
    }
    return [...keys];
  });
  const args: TrigramQuery[] = [];
  for (let i = 0; i + 3 <= sets.length; i++) {
    const a = sets[i], b = sets[i + 1], c = sets[i + 2];
    if (!a || !b || !c || a.length * b.length * c.length > MAX_WINDOW_SPELLINGS) continue;
    const alts: TrigramQuery[] = [];
    for (const x of a) for (const y of b) for (const z of c) alts.push(tri(x + y + z));
    args.push(orQ(...alts));
  }
  return simplify(andQ(...args));
}

function literalAnd(cps: number[]): TrigramQuery {
  const keys = cps.map(trigramKey);
  const args: TrigramQuery[] = [];
  for (let i = 0; i + 3 <= keys.length; i++) {
    const a = keys[i], b = keys[i + 1], c = keys[i + 2];
    if (a === null || b === null || c === null) continue;
    args.push(tri(a + b + c));
  }
  return andQ(...args);
}

// ---------------------------------------------------------------------------
// Simplification

/** Canonical text of a query, for dedupe; cached because factoring asks for it often. */
const keyCache = new WeakMap<TrigramQuery, string>();
function keyOf(q: TrigramQuery): string {
  if (q.op === 'tri') return 't:' + q.t;
  if (q.op === 'all' || q.op === 'none') return q.op;
  let k = keyCache.get(q);
  if (k === undefined) {
    k = q.op + '(' + q.args.map(keyOf).join(',') + ')';
    keyCache.set(q, k);
  }
  return k;
}

/** The trigrams of a query that is a plain conjunction of trigrams, else null. */
function triSet(q: TrigramQuery): Set<string> | null {
  if (q.op === 'tri') return new Set([q.t]);
  if (q.op === 'and' && q.args.every((a) => a.op === 'tri')) return new Set(q.args.map((a) => (a as { t: string }).t));
  return null;
}

function subset(a: Set<string>, b: Set<string>): boolean {
  if (a.size > b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/**
 * A rough guess at how selective a trigram is: common English letters and
 * space say little, punctuation and digits say more. Only used to pick which
 * terms of an oversized AND to keep, so it needs to be deterministic, not right.
 */
function rarity(t: string): number {
  let r = 0;
  for (const ch of t) {
    if ('etaoinsrlcdu _'.includes(ch)) r += 0;
    else if (/[a-z0-9]/.test(ch)) r += 1;
    else r += 2;
  }
  return r;
}

function leaves(q: TrigramQuery): number {
  if (q.op === 'and' || q.op === 'or') return q.args.reduce((n, a) => n + leaves(a), 0);
  return q.op === 'tri' ? 1 : 0;
}

function simplifyNode(q: TrigramQuery): TrigramQuery {
  if (q.op !== 'and' && q.op !== 'or') return q;
  const kids = q.args.map(simplifyNode);
  const flat = q.op === 'and' ? andQ(...kids) : orQ(...kids);
  if (flat.op !== 'and' && flat.op !== 'or') return flat;

  // dedupe, keeping first occurrences so the output is deterministic
  const seen = new Set<string>();
  let args = flat.args.filter((a) => {
    const k = keyOf(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });

  if (flat.op === 'and') {
    // and(t, or(t, u)) = t: an OR already implied by our own trigrams adds nothing
    const direct = new Set(args.filter((a) => a.op === 'tri').map((a) => (a as { t: string }).t));
    args = args.filter((a) => {
      if (a.op !== 'or') return true;
      return !a.args.some((b) => {
        const s = triSet(b);
        return s !== null && subset(s, direct);
      });
    });
    if (args.length > MAX_AND) {
      const ranked = args
        .map((a, i) => ({ a, i, r: a.op === 'tri' ? rarity(a.t) : -1 }))
        .sort((x, y) => (x.a.op === 'tri') === (y.a.op === 'tri') ? y.r - x.r || x.i - y.i : x.a.op === 'tri' ? -1 : 1);
      const keep = new Set(ranked.slice(0, MAX_AND).map((x) => x.i));
      args = args.filter((_, i) => keep.has(i));
    }
    return andQ(...args);
  }

  // or(a, and(a, b)) = a: drop a branch whose trigrams include another branch's
  const sets = args.map(triSet);
  args = args.filter((_, i) => {
    const si = sets[i];
    if (!si) return true;
    return !sets.some((sj, j) => j !== i && sj !== null && subset(sj, si) && (sj.size < si.size || j < i));
  });
  if (args.length > MAX_OR) return ALL;
  // or(and(c, x), and(c, y)) = and(c, or(x, y)): pull out what every branch shares
  if (args.length > 1) {
    const branchArgs = args.map((a) => (a.op === 'and' ? a.args : [a]));
    const branchKeys = branchArgs.map((b) => new Set(b.map(keyOf)));
    const common = [...branchKeys[0]!].filter((k) => branchKeys.every((b) => b.has(k)));
    if (common.length > 0) {
      const commonSet = new Set(common);
      const shared = branchArgs[0]!.filter((x) => commonSet.has(keyOf(x)));
      const rest = branchArgs.map((b) => andQ(...b.filter((x) => !commonSet.has(keyOf(x)))));
      return simplifyNode(andQ(...shared, orQ(...rest)));
    }
  }
  return orQ(...args);
}

/** Flatten, dedupe, apply the identities of all/none, and bound the size. Never narrows the query. */
export function simplify(q: TrigramQuery): TrigramQuery {
  let out = simplifyNode(q);
  // Still too big: drop the widest OR terms of the top AND (dropping an AND
  // term only widens), and give up on an oversized OR at the top.
  while (leaves(out) > MAX_LEAVES) {
    if (out.op === 'and') {
      const args = out.args;
      let widest = -1;
      for (let i = 0; i < args.length; i++) {
        if (args[i]!.op !== 'tri' && (widest < 0 || leaves(args[i]!) > leaves(args[widest]!))) widest = i;
      }
      if (widest < 0) break; // only trigrams left, already bounded by MAX_AND
      out = simplifyNode(andQ(...args.filter((_, i) => i !== widest)));
    } else {
      return ALL;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Rendering and evaluation

function quote(t: string): string {
  return '"' + t.replace(/"/g, '""') + '"';
}

function render(q: TrigramQuery, nested: boolean): string {
  switch (q.op) {
    case 'tri':
      return quote(q.t);
    case 'and':
    case 'or': {
      const s = q.args.map((a) => render(a, true)).join(q.op === 'and' ? ' AND ' : ' OR ');
      return nested ? '(' + s + ')' : s;
    }
    default:
      throw new Error(`toFtsMatch: '${q.op}' has no MATCH expression`);
  }
}

/**
 * Render as an FTS5 MATCH expression, quoting each trigram ("" doubles a quote).
 * Throws on 'all'/'none' (callers handle those). Every compound term is
 * parenthesised so FTS5's operator precedence never matters.
 */
export function toFtsMatch(q: TrigramQuery): string {
  const s = simplify(q);
  if (s.op === 'all' || s.op === 'none') throw new Error(`toFtsMatch: '${s.op}' has no MATCH expression`);
  return render(s, false);
}

/** Whether a text whose trigram keys are `trigrams` (see trigramsOf) passes the query. */
export function evalQuery(q: TrigramQuery, trigrams: ReadonlySet<string>): boolean {
  switch (q.op) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'tri':
      return trigrams.has(q.t);
    case 'and':
      return q.args.every((a) => evalQuery(a, trigrams));
    case 'or':
      return q.args.some((a) => evalQuery(a, trigrams));
  }
}

// ---------------------------------------------------------------------------
// Literal matching

/**
 * toLowerCase is per character except for the final-sigma rule, which turns
 * Σ into ς or σ by context; mapping ς to σ on both sides undoes that.
 */
function lower(s: string): string {
  const l = s.toLowerCase();
  return l.includes('ς') ? l.replace(/ς/g, 'σ') : l;
}

/** Per-code-point comparison for lines where lower-casing changes the length (İ). */
function slowCaseless(line: string, litFolds: string[]): [number, number][] {
  const starts: number[] = [];
  const folds: string[] = [];
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    const n = cp > 0xffff ? 2 : 1;
    starts.push(i);
    folds.push(lower(line.slice(i, i + n)));
    i += n;
  }
  starts.push(line.length);
  const out: [number, number][] = [];
  const m = litFolds.length;
  for (let i = 0; i + m <= folds.length; ) {
    let j = 0;
    while (j < m && folds[i + j] === litFolds[j]) j++;
    if (j === m) {
      out.push([starts[i]!, starts[i + m]!]);
      i += m;
    } else {
      i++;
    }
  }
  return out;
}

/** grep-like line matcher for a literal: returns match ranges [start,end) in UTF-16 units per line. */
export function literalMatcher(lit: string, caseInsensitive: boolean): LineMatcher {
  if (lit === '') return { match: () => [[0, 0]] };
  if (!caseInsensitive) {
    return {
      match(line) {
        const out: [number, number][] = [];
        for (let i = line.indexOf(lit); i >= 0; i = line.indexOf(lit, i + lit.length)) out.push([i, i + lit.length]);
        return out;
      },
    };
  }
  const low = lower(lit);
  const litFolds = [...lit].map(lower);
  // If lower-casing changes the literal's length, indexOf on lowered text would
  // mis-map offsets; compare code point by code point instead.
  const fast = low.length === lit.length;
  return {
    match(line) {
      const l = lower(line);
      if (!fast || l.length !== line.length) return slowCaseless(line, litFolds);
      const out: [number, number][] = [];
      for (let i = l.indexOf(low); i >= 0; i = l.indexOf(low, i + low.length)) out.push([i, i + low.length]);
      return out;
    },
  };
}
