// User regexes: parse, reject what a linear-time engine cannot run, rewrite
// into a JavaScript pattern V8 can always fall back to its linear-time engine
// for, and derive the trigram prefilter (Russ Cox's codesearch algorithm). It
// owns the regex dialect users get (JavaScript syntax without backreferences
// and lookaround, plus a leading RE2-style `(?i)`, `(?s)`, `(?m)` and scoped
// `(?i:...)`), and must never hand out a RegExp that can backtrack without
// bound, nor a prefilter that excludes a file holding a match. It does not
// read files or the index; literal.ts owns the query tree and its rendering.

import v8 from 'node:v8';
import regjsparser from 'regjsparser';
import type { CharacterClassBody, RootNode } from 'regjsparser';
import { UsageError } from '../errors.js';
import {
  ALL,
  NONE,
  andQ,
  caseVariants,
  keysQuery,
  orQ,
  simplify,
  trigramKey,
  type LineMatcher,
  type TrigramQuery,
} from './literal.js';

// V8's breadth-first engine takes over from a RegExp that backtracks too much,
// but only for patterns it can handle (no i/u/d flags, no backreferences or
// lookaround, bounded replication of counted repeats). The second flag enables
// the `l` flag, which we use only as an oracle: compiling with it throws
// exactly when the fallback would not be available. Matching itself runs on
// the ordinary engine because the linear one is 10-100x slower on the common
// patterns that never backtrack much. Flags must be set before any user
// RegExp is compiled, hence module load.
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
v8.setFlagsFromString('--enable-experimental-regexp-engine');
const LINEAR_ORACLE = (() => {
  try {
    new RegExp('', 'l');
    return true;
  } catch {
    return false;
  }
})();

export { evalQuery } from './literal.js';

/** A regex the user typed that we cannot run. The CLI reports it as a usage error (exit 2). */
export class RegexError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'RegexError';
  }
}

export interface CompiledRegex {
  /** what the user typed */
  source: string;
  matcher: LineMatcher;
  prefilter: TrigramQuery;
  /** the JavaScript pattern actually run (flag 'g'); for debugging and tests */
  jsSource: string;
}

const LINEAR_WHY = '(the regex engine is linear-time, like RE2 and ripgrep\'s default)';
const FEATURES = { namedGroups: true, lookbehind: true, modifiers: true } as const;
type Feat = typeof FEATURES;
type Ast = RootNode<Feat>;

// ---------------------------------------------------------------------------
// Our own tree: what the rest of the module works on. Case-insensitivity is
// already applied (letters became classes of their case variants), groups are
// gone (we never report captures), and surrogate pairs are single code points.

type Range = [number, number];
type Node =
  | { t: 'char'; cp: number }
  | { t: 'class'; negative: boolean; ranges: Range[]; escapes: string[] }
  | { t: 'dot' }
  | { t: 'esc'; v: string }
  | { t: 'assert'; src: string }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'repeat'; body: Node; min: number; max: number; greedy: boolean };

interface Ctx {
  ci: boolean;
  dotAll: boolean;
}

const isHigh = (cp: number) => cp >= 0xd800 && cp <= 0xdbff;
const isLow = (cp: number) => cp >= 0xdc00 && cp <= 0xdfff;
const combine = (hi: number, lo: number) => 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);

/** Past this many code points a range keeps only its ASCII case variants (enumerating is the cost). */
const MAX_FOLD_ENUM = 2000;

function normalizeRanges(rs: Range[]): Range[] {
  const sorted = rs.map((r) => [r[0], r[1]] as Range).sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/** Close a set of ranges under case variants, so [a-c] becomes [a-cA-C]. */
function foldRanges(rs: Range[]): Range[] {
  const out: Range[] = [...rs];
  for (const [lo, hi] of rs) {
    if (hi - lo < MAX_FOLD_ENUM) {
      for (let cp = lo; cp <= hi; cp++) for (const v of caseVariants(cp)) if (v !== cp) out.push([v, v]);
    } else {
      // a huge range: only the ASCII letters inside it get their other case
      for (let cp = Math.max(lo, 0x41); cp <= Math.min(hi, 0x7a); cp++) {
        for (const v of caseVariants(cp)) if (v !== cp) out.push([v, v]);
      }
    }
  }
  return normalizeRanges(out);
}

function charNode(cp: number, ctx: Ctx): Node {
  if (!ctx.ci) return { t: 'char', cp };
  const vs = caseVariants(cp);
  if (vs.length === 1) return { t: 'char', cp };
  return { t: 'class', negative: false, ranges: normalizeRanges(vs.map((v) => [v, v])), escapes: [] };
}

class Converter {
  constructor(private readonly pattern: string) {}

  fail(why: string): never {
    throw new RegexError(`regex "${this.pattern}": ${why}`);
  }

  /** Escapes JavaScript accepts without the u flag but that mean something else (or nothing) to RE2 users. */
  checkValue(n: Extract<Ast, { type: 'value' }>, inClass: boolean): void {
    const raw = n.raw;
    if (!inClass && /^\\[1-9]/.test(raw)) this.fail(`backreferences are not supported ${LINEAR_WHY}`);
    if (raw === '\\') this.fail('unsupported escape \\c (use \\cA-\\cZ or \\xHH)');
    const m = /^\\([A-Za-z])$/.exec(raw);
    if (n.kind === 'identifier' && m) {
      const c = m[1]!;
      if (c === 'k' && !inClass) this.fail(`backreferences are not supported ${LINEAR_WHY}`);
      if (c === 'p' || c === 'P') this.fail('Unicode property escapes (\\p{...}) are not supported');
      const hint = c === 'u' ? ' (use \\uHHHH)' : c === 'x' ? ' (use \\xHH)' : c === 'A' || c === 'z' ? ' (use ^ and $)' : '';
      this.fail(`unsupported escape \\${c}${hint}`);
    }
  }

  seq(body: Ast[], ctx: Ctx): Node {
    const items: Node[] = [];
    for (let i = 0; i < body.length; i++) {
      const n = body[i]!;
      const next = body[i + 1];
      // Without the u flag a surrogate pair arrives as two values; join them so
      // a quantifier after an emoji repeats the whole character.
      if (n.type === 'value' && isHigh(n.codePoint) && next) {
        if (next.type === 'value' && isLow(next.codePoint)) {
          this.checkValue(n, false);
          items.push(charNode(combine(n.codePoint, next.codePoint), ctx));
          i++;
          continue;
        }
        const qb = next.type === 'quantifier' ? next.body[0] : undefined;
        if (next.type === 'quantifier' && qb && qb.type === 'value' && isLow(qb.codePoint)) {
          items.push({ t: 'repeat', body: charNode(combine(n.codePoint, qb.codePoint), ctx), ...this.bounds(next) });
          i++;
          continue;
        }
      }
      items.push(this.node(n, ctx));
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  bounds(q: Extract<Ast, { type: 'quantifier' }>): { min: number; max: number; greedy: boolean } {
    return { min: q.min, max: q.max ?? Infinity, greedy: q.greedy };
  }

  classNode(n: Extract<Ast, { type: 'characterClass' }>, ctx: Ctx): Node {
    const ranges: Range[] = [];
    const escapes: string[] = [];
    const body = n.body as CharacterClassBody[];
    for (let i = 0; i < body.length; i++) {
      const it = body[i]!;
      if (it.type === 'value') {
        this.checkValue(it as Extract<Ast, { type: 'value' }>, true);
        const nx = body[i + 1];
        if (isHigh(it.codePoint) && nx && nx.type === 'value' && isLow(nx.codePoint)) {
          const cp = combine(it.codePoint, nx.codePoint);
          ranges.push([cp, cp]);
          i++;
        } else {
          ranges.push([it.codePoint, it.codePoint]);
        }
      } else if (it.type === 'characterClassRange') {
        this.checkValue(it.min as Extract<Ast, { type: 'value' }>, true);
        this.checkValue(it.max as Extract<Ast, { type: 'value' }>, true);
        ranges.push([it.min.codePoint, it.max.codePoint]);
      } else if (it.type === 'characterClassEscape') {
        escapes.push(it.value);
      } else {
        this.fail('Unicode property escapes (\\p{...}) are not supported');
      }
    }
    const norm = normalizeRanges(ranges);
    return { t: 'class', negative: n.negative, ranges: ctx.ci ? foldRanges(norm) : norm, escapes };
  }

  node(n: Ast, ctx: Ctx): Node {
    switch (n.type) {
      case 'alternative':
        return this.seq(n.body, ctx);
      case 'disjunction':
        return { t: 'alt', items: n.body.map((b) => this.node(b, ctx)) };
      case 'group': {
        if (n.behavior === 'lookahead' || n.behavior === 'negativeLookahead') {
          this.fail(`lookahead is not supported ${LINEAR_WHY}`);
        }
        if (n.behavior === 'lookbehind' || n.behavior === 'negativeLookbehind') {
          this.fail(`lookbehind is not supported ${LINEAR_WHY}`);
        }
        let inner = ctx;
        const mods = n.behavior === 'ignore' ? n.modifierFlags : undefined;
        if (mods) {
          inner = { ...ctx };
          if (mods.enabling.includes('i')) inner.ci = true;
          if (mods.disabling.includes('i')) inner.ci = false;
          if (mods.enabling.includes('s')) inner.dotAll = true;
          if (mods.disabling.includes('s')) inner.dotAll = false;
        }
        return this.seq(n.body, inner);
      }
      case 'quantifier':
        return { t: 'repeat', body: this.node(n.body[0], ctx), ...this.bounds(n) };
      case 'value':
        this.checkValue(n, false);
        return charNode(n.codePoint, ctx);
      case 'characterClass':
        return this.classNode(n, ctx);
      case 'characterClassEscape':
        return { t: 'esc', v: n.value };
      case 'dot':
        return ctx.dotAll ? { t: 'class', negative: true, ranges: [[10, 10]], escapes: [] } : { t: 'dot' };
      case 'anchor': {
        const src = { start: '^', end: '$', boundary: '\\b', 'not-boundary': '\\B' }[n.kind as string];
        if (!src) this.fail(`unsupported anchor ${n.raw}`);
        return { t: 'assert', src };
      }
      case 'reference':
        return this.fail(`backreferences are not supported ${LINEAR_WHY}`);
      default:
        return this.fail(`unsupported construct ${(n as { raw: string }).raw}`);
    }
  }
}

// ---------------------------------------------------------------------------
// Generating JavaScript source (no u flag, so astral characters are spelled
// as surrogate pairs and the parser's leniencies never matter: everything
// that is not plainly a literal is escaped).

const hex4 = (n: number) => '\\u' + n.toString(16).toUpperCase().padStart(4, '0');
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CLASS_SYNTAX = new Set('\\]^-[');

function unit(cp: number, inClass: boolean): string {
  if (cp >= 0x20 && cp < 0x7f) {
    const c = String.fromCharCode(cp);
    return (inClass ? CLASS_SYNTAX : SYNTAX).has(c) ? '\\' + c : c;
  }
  return hex4(cp);
}

function astral(cp: number): [number, number] {
  return [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)];
}

function unitRange(a: number, b: number): string {
  return a === b ? hex4(a) : `[${hex4(a)}-${hex4(b)}]`;
}

/** Alternatives matching the surrogate pairs of the astral code points lo..hi. */
function astralRange(lo: number, hi: number): string[] {
  const [h1, l1] = astral(lo);
  const [h2, l2] = astral(hi);
  if (h1 === h2) return [hex4(h1) + unitRange(l1, l2)];
  const out = [hex4(h1) + unitRange(l1, 0xdfff)];
  if (h2 - h1 > 1) out.push(unitRange(h1 + 1, h2 - 1) + unitRange(0xdc00, 0xdfff));
  out.push(hex4(h2) + unitRange(0xdc00, l2));
  return out;
}

class Emitter {
  constructor(private readonly fail: (why: string) => never, private readonly expand: boolean) {}

  /** prec: 0 = inside an alternation, 1 = item of a sequence, 2 = operand of a quantifier */
  emit(n: Node, prec: number): string {
    switch (n.t) {
      case 'char':
        if (n.cp > 0xffff) {
          const [h, l] = astral(n.cp);
          return prec >= 2 ? `(?:${hex4(h)}${hex4(l)})` : hex4(h) + hex4(l);
        }
        return unit(n.cp, false);
      case 'class':
        return this.klass(n);
      case 'dot':
        return '.';
      case 'esc':
        return '\\' + n.v;
      case 'assert':
        return n.src;
      case 'seq': {
        const s = n.items.map((i) => this.emit(i, 1)).join('');
        return prec >= 2 ? `(?:${s})` : s;
      }
      case 'alt': {
        const s = n.items.map((i) => this.emit(i, 0)).join('|');
        return prec >= 1 ? `(?:${s})` : s;
      }
      case 'repeat': {
        const s = this.repeat(n);
        return prec >= 2 ? `(?:${s})` : s;
      }
    }
  }

  klass(n: Extract<Node, { t: 'class' }>): string {
    const bmp = n.ranges.filter((r) => r[0] <= 0xffff).map((r): Range => [r[0], Math.min(r[1], 0xffff)]);
    const high = n.ranges.filter((r) => r[1] > 0xffff).map((r): Range => [Math.max(r[0], 0x10000), r[1]]);
    if (!n.negative && n.escapes.length === 0 && high.length === 0 && bmp.length === 1 && bmp[0]![0] === bmp[0]![1]) {
      return unit(bmp[0]![0], false);
    }
    const body =
      n.escapes.map((e) => '\\' + e).join('') +
      bmp.map(([a, b]) => (a === b ? unit(a, true) : `${unit(a, true)}-${unit(b, true)}`)).join('');
    if (high.length === 0) return `[${n.negative ? '^' : ''}${body}]`;
    if (n.negative) this.fail('negated classes with characters beyond U+FFFF are not supported');
    const single = n.escapes.length === 0 && bmp.length === 1 && bmp[0]![0] === bmp[0]![1];
    const alts = single ? [unit(bmp[0]![0], false)] : body ? [`[${body}]`] : [];
    for (const [a, b] of high) alts.push(...astralRange(a, b));
    return `(?:${alts.join('|')})`;
  }

  repeat(n: Extract<Node, { t: 'repeat' }>): string {
    const b = this.emit(n.body, 2);
    const lazy = n.greedy ? '' : '?';
    if (!this.expand) {
      const { min, max } = n;
      const q =
        min === 0 && max === Infinity ? '*'
        : min === 1 && max === Infinity ? '+'
        : min === 0 && max === 1 ? '?'
        : max === Infinity ? `{${min},}`
        : min === max ? `{${min}}`
        : `{${min},${max}}`;
      return b + q + lazy;
    }
    // Spelled out so that no quantifier but ? and * is left: the linear engine
    // copies the body of a counted repeat, and refuses when nested copies
    // multiply past 16; ? and * cost it nothing.
    let s = b.repeat(n.min);
    if (n.max === Infinity) return s + b + '*' + lazy;
    let opt = '';
    for (let i = n.min; i < n.max; i++) opt = `(?:${b}${opt})?${lazy}`;
    return s + opt;
  }
}

/** Rough size of the expanded source, to refuse before building something enormous. */
function expandedSize(n: Node): number {
  switch (n.t) {
    case 'seq':
    case 'alt':
      return n.items.reduce((s, i) => s + expandedSize(i), 2);
    case 'repeat':
      return expandedSize(n.body) * (n.max === Infinity ? n.min + 1 : n.max) * 1.5 + 8;
    case 'class':
      return 4 + n.ranges.length * 14 + n.escapes.length * 2;
    default:
      return 12;
  }
}

const MAX_SOURCE = 200_000;

// ---------------------------------------------------------------------------
// Trigram extraction, after Russ Cox, "Regular Expression Matching with a
// Trigram Index" (codesearch's index/regexp.go). For each node we know whether
// it can match empty, the exact set of strings it matches (when small), sets
// every match starts / ends with, and a query every match satisfies. Strings
// are sequences of trigram keys (see literal.ts), so case is already folded.

interface Info {
  canEmpty: boolean;
  /** every string the node can match; null = unknown or too many. An empty set = matches nothing. */
  exact: Set<string> | null;
  /** every match starts with one of these (only meaningful when exact is null) */
  prefix: Set<string>;
  /** every match ends with one of these (only meaningful when exact is null) */
  suffix: Set<string>;
  match: TrigramQuery;
}

const MAX_EXACT = 16;
const MAX_SET = 20;
/** cross products bigger than this are not formed; the smaller side alone is still true */
const MAX_CROSS = 32;
/** boundary strings between two inexact halves are only used when this few (each is an OR branch) */
const MAX_OR_BRANCHES = 20;
const MAX_CLASS = 8;
const MAX_CLASS_ENUM = 64;
const MAX_EXACT_CHARS = 256;

const cps = (s: string) => [...s];
const cpLen = (s: string) => cps(s).length;
function minLen(set: Set<string>): number {
  let m = Infinity;
  for (const s of set) m = Math.min(m, cpLen(s));
  return m;
}

function emptyString(): Info {
  return { canEmpty: true, exact: new Set(['']), prefix: new Set(), suffix: new Set(), match: ALL };
}
function anyChar(): Info {
  return { canEmpty: false, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}
function anyMatch(): Info {
  return { canEmpty: true, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}
function noMatch(): Info {
  return { canEmpty: false, exact: new Set(), prefix: new Set(), suffix: new Set(), match: NONE };
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}
function union(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a, ...b]);
}

/** q AND (some string of `set` occurs): the OR over the strings of the AND of their trigrams. */
function andTrigrams(q: TrigramQuery, set: Set<string>): TrigramQuery {
  if (set.size === 0) return NONE;
  if (minLen(set) < 3) return q; // a short string promises no trigram at all
  return andQ(q, orQ(...[...set].map((s) => keysQuery(cps(s)))));
}

/** Move an exact set into the query, keeping only the ends that can still form trigrams with neighbours. */
function toAffix(info: Info): Info {
  if (!info.exact) return info;
  const prefix = new Set<string>();
  const suffix = new Set<string>();
  for (const s of info.exact) {
    const c = cps(s);
    prefix.add(c.slice(0, 2).join(''));
    suffix.add(c.slice(-2).join(''));
  }
  return { canEmpty: info.canEmpty, exact: null, prefix, suffix, match: andTrigrams(info.match, info.exact) };
}

/**
 * Fold a prefix or suffix set into the query, then cut its strings to two
 * characters (all a neighbour needs to form a trigram across the boundary),
 * or shorter while the set is too big.
 */
function simplifySet(info: Info, which: 'prefix' | 'suffix'): Info {
  const match = andTrigrams(info.match, info[which]);
  let t = info[which];
  for (let n = 2; n >= 0; n--) {
    const cut = new Set<string>();
    for (const s of t) {
      const c = cps(s);
      cut.add(c.length <= n ? s : (which === 'prefix' ? c.slice(0, n) : c.slice(c.length - n)).join(''));
    }
    t = cut;
    if (t.size <= MAX_SET) break;
  }
  // "ab" adds nothing when "a" is already a possible prefix
  const arr = [...t];
  const kept = new Set(
    arr.filter((s) => !arr.some((o) => o !== s && (which === 'prefix' ? s.startsWith(o) : s.endsWith(o)))),
  );
  return { ...info, match, [which]: kept };
}

function simplifyInfo(info: Info, force: boolean): Info {
  let out = info;
  if (out.exact) {
    const total = [...out.exact].reduce((n, s) => n + s.length, 0);
    if (out.exact.size > MAX_EXACT || total > MAX_EXACT_CHARS || (force && out.exact.size > 0 && minLen(out.exact) >= 3)) {
      out = toAffix(out);
    }
  }
  if (!out.exact) out = simplifySet(simplifySet(out, 'prefix'), 'suffix');
  return out;
}

function concat(a: Info, b: Info): Info {
  let x = a;
  let y = b;
  if (x.exact && y.exact && x.exact.size * y.exact.size > MAX_EXACT) {
    x = toAffix(x);
    y = toAffix(y);
  }
  let match = andQ(x.match, y.match);
  const canEmpty = x.canEmpty && y.canEmpty;
  if (x.exact && y.exact) {
    return simplifyInfo({ canEmpty, exact: cross(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match }, false);
  }
  const yPre = y.exact ?? y.prefix;
  const xSuf = x.exact ?? x.suffix;
  let prefix: Set<string>;
  if (x.exact) prefix = x.exact.size * yPre.size <= MAX_CROSS ? cross(x.exact, yPre) : x.exact;
  else prefix = x.canEmpty ? union(x.prefix, yPre) : x.prefix;
  let suffix: Set<string>;
  if (y.exact) suffix = xSuf.size * y.exact.size <= MAX_CROSS ? cross(xSuf, y.exact) : y.exact;
  else suffix = y.canEmpty ? union(y.suffix, xSuf) : y.suffix;
  // Neither side exact: the end of x's match meets the start of y's, and the
  // strings formed there hold trigrams neither prefix nor suffix records.
  if (!x.exact && !y.exact && x.suffix.size * y.prefix.size <= MAX_OR_BRANCHES) {
    match = andTrigrams(match, cross(x.suffix, y.prefix));
  }
  return simplifyInfo({ canEmpty, exact: null, prefix, suffix, match }, false);
}

function alternate(x: Info, y: Info): Info {
  const canEmpty = x.canEmpty || y.canEmpty;
  if (x.exact && y.exact) {
    return simplifyInfo({ canEmpty, exact: union(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match: orQ(x.match, y.match) }, false);
  }
  // One side exact: its strings serve as its prefixes and suffixes, and their
  // trigrams go into its branch of the OR.
  const xm = x.exact ? andTrigrams(x.match, x.exact) : x.match;
  const ym = y.exact ? andTrigrams(y.match, y.exact) : y.match;
  return simplifyInfo(
    {
      canEmpty,
      exact: null,
      prefix: union(x.exact ?? x.prefix, y.exact ?? y.prefix),
      suffix: union(x.exact ?? x.suffix, y.exact ?? y.suffix),
      match: orQ(xm, ym),
    },
    false,
  );
}

/** x+: every match starts and ends with a match of x, but is no longer exact. */
function plusLike(x: Info): Info {
  if (!x.exact) return x;
  return simplifyInfo({ canEmpty: x.canEmpty, exact: null, prefix: new Set(x.exact), suffix: new Set(x.exact), match: x.match }, false);
}

function repeatInfo(child: Info, min: number, max: number): Info {
  if (max === 0) return emptyString();
  if (min === 0) return max === 1 ? alternate(child, emptyString()) : anyMatch();
  if (min === max && min <= 4) {
    let info = child;
    for (let i = 1; i < min; i++) info = concat(info, child);
    return info;
  }
  // x{n,m} = x^(n-1) x{1,m-n+1}; past three copies the middle is "anything".
  const k = Math.min(min - 1, 3);
  let info = emptyString();
  for (let i = 0; i < k; i++) info = concat(info, child);
  if (min - 1 > k) info = concat(info, anyMatch());
  return concat(info, min === max ? child : plusLike(child));
}

function classInfo(n: Extract<Node, { t: 'class' }>): Info {
  if (n.negative || n.escapes.length > 0) return anyChar();
  let count = 0;
  for (const [a, b] of n.ranges) count += b - a + 1;
  if (count > MAX_CLASS_ENUM) return anyChar();
  const keys = new Set<string>();
  for (const [a, b] of n.ranges) {
    for (let cp = a; cp <= b; cp++) {
      if (cp === 10) continue; // a line never holds a newline
      const k = trigramKey(cp);
      if (k === null) return anyChar();
      keys.add(k);
    }
  }
  if (keys.size === 0) return noMatch();
  if (keys.size > MAX_CLASS) return anyChar();
  return { canEmpty: false, exact: keys, prefix: new Set(), suffix: new Set(), match: ALL };
}

function analyze(n: Node): Info {
  switch (n.t) {
    case 'char': {
      if (n.cp === 10) return noMatch();
      const k = trigramKey(n.cp);
      return k === null ? anyChar() : { canEmpty: false, exact: new Set([k]), prefix: new Set(), suffix: new Set(), match: ALL };
    }
    case 'class':
      return classInfo(n);
    case 'dot':
    case 'esc':
      return anyChar();
    case 'assert':
      return emptyString(); // zero-width; `a^b` is over-approximated, which is sound
    case 'seq':
      return n.items.reduce((acc, i) => concat(acc, analyze(i)), emptyString());
    case 'alt':
      return n.items.map(analyze).reduce((acc, i) => alternate(acc, i));
    case 'repeat':
      return repeatInfo(analyze(n.body), n.min, n.max);
  }
}

function prefilterOf(n: Node): TrigramQuery {
  const info = simplifyInfo(analyze(n), true);
  return simplify(info.exact ? andTrigrams(info.match, info.exact) : info.match);
}

// ---------------------------------------------------------------------------
// Entry points

/** A leading RE2-style flag group, which JavaScript lacks: `(?i)`, `(?s)`, `(?m)` or a mix. */
function stripFlags(pattern: string): { body: string; ci: boolean; dotAll: boolean } {
  const m = /^\(\?([ims]+)\)/.exec(pattern);
  if (!m) return { body: pattern, ci: false, dotAll: false };
  // `m` changes nothing: we match one line at a time, so ^ and $ are line anchors anyway
  return { body: pattern.slice(m[0].length), ci: m[1]!.includes('i'), dotAll: m[1]!.includes('s') };
}

/** V8's reason without its "Invalid regular expression: /src/flags: " head (src is shown escaped, so match loosely). */
function v8Message(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
}

function parseOrFail(pattern: string, body: string): Ast {
  try {
    return regjsparser.parse(body, '', FEATURES) as Ast;
  } catch (e) {
    // V8's wording ("Unterminated group") reads better than the parser's, when V8 objects too
    let why: string;
    try {
      new RegExp(body);
      why = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
    } catch (v8err) {
      why = v8Message(v8err);
    }
    throw new RegexError(`regex "${pattern}": ${why}`);
  }
}

/** Whether V8 could hand this source to its linear-time engine. */
function linearOk(src: string, pattern: string): boolean {
  if (!LINEAR_ORACLE) return true;
  try {
    new RegExp(src, 'gl');
    return true;
  } catch (e) {
    const why = v8Message(e);
    if (/linear time/i.test(why)) return false;
    throw new RegexError(`regex "${pattern}": ${why}`);
  }
}

function lineMatcher(re: RegExp): LineMatcher {
  return {
    match(line) {
      const out: [number, number][] = [];
      let empty = -1;
      re.lastIndex = 0;
      for (;;) {
        const m = re.exec(line);
        if (!m) break;
        const start = m.index;
        const end = start + m[0].length;
        if (end > start) {
          out.push([start, end]);
          re.lastIndex = end;
          continue;
        }
        // An empty match still makes the line match (rg prints `a*` on every
        // line) but is no range worth highlighting; step over it, never into
        // the middle of a surrogate pair.
        if (empty < 0) empty = start;
        if (start >= line.length) break;
        const c = line.charCodeAt(start);
        re.lastIndex = start + (isHigh(c) && isLow(line.charCodeAt(start + 1)) ? 2 : 1);
      }
      if (out.length === 0 && empty >= 0) return [[empty, empty]];
      return out;
    },
  };
}

/**
 * Compile a user regex into a line matcher that cannot hang and a trigram
 * prefilter. Matches never span a newline and `.` never matches one. Throws
 * RegexError for malformed patterns and for constructs the linear-time engine
 * cannot run.
 */
// POSIX bracket classes, as RE2 and ripgrep accept them inside [...]
const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

/**
 * RE2 syntax JavaScript reads differently, fixed before parsing: POSIX
 * classes inside brackets ([[:alpha:]] would otherwise be the class [[:alph]
 * then a literal ]), and an unclosed counted repetition (a{2), which JS takes
 * as literal text but RE2 and ripgrep refuse.
 */
export function fromRe2(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      const m = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
      if (m) {
        const set = POSIX[m[2]!];
        if (!set) throw new RegexError(`regex "${pattern}": unknown POSIX class [:${m[2]}:] (known: ${Object.keys(POSIX).join(', ')})`);
        if (m[1]) throw new RegexError(`regex "${pattern}": negated POSIX classes ([:^${m[2]}:]) are not supported; use [^[:${m[2]}:]]`);
        out += set;
        i += m[0].length - 1;
        continue;
      }
      if (c === ']' && !out.endsWith('[') && !out.endsWith('[^')) inClass = false;
      out += c;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === '{' && /^\{\d+(,\d*)?(?!\d|,|\})/.test(pattern.slice(i)) && !/^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
      throw new RegexError(`regex "${pattern}": unclosed counted repetition at offset ${i} (write \\{ for a literal brace)`);
    }
    out += c;
  }
  return out;
}

export function compileRegex(pattern: string, opts: { caseInsensitive: boolean }): CompiledRegex {
  const { body: raw, ci, dotAll } = stripFlags(pattern);
  const body = fromRe2(raw);
  const ast = parseOrFail(pattern, body);
  const conv = new Converter(pattern);
  const tree = conv.node(ast, { ci: opts.caseInsensitive || ci, dotAll });
  const fail = (why: string): never => conv.fail(why);

  let src = new Emitter(fail, false).emit(tree, 0);
  if (!linearOk(src, pattern)) {
    if (expandedSize(tree) > MAX_SOURCE) fail('counted repetitions are too large for the linear-time engine');
    src = new Emitter(fail, true).emit(tree, 0);
    if (src.length > MAX_SOURCE) fail('counted repetitions are too large for the linear-time engine');
    if (!linearOk(src, pattern)) fail('this pattern cannot run in linear time');
  }
  let re: RegExp;
  try {
    re = new RegExp(src, 'g');
  } catch (e) {
    fail(v8Message(e));
  }
  return { source: pattern, matcher: lineMatcher(re!), prefilter: prefilterOf(tree), jsSource: src };
}

function isUpper(cp: number): boolean {
  const s = String.fromCodePoint(cp);
  return s !== s.toLowerCase();
}

/**
 * true when the pattern has an upper-case letter outside escapes/classes
 * meaning (for smart case: `\W` or `\S` must not count as upper case).
 * Letters inside brackets count (`[A-Z]` asks for capitals), as do escaped
 * literals like `\x41`; group names and escape letters do not.
 */
export function hasUpperCaseLiteral(pattern: string): boolean {
  const { body } = stripFlags(pattern);
  let ast: Ast;
  try {
    ast = regjsparser.parse(body, '', FEATURES) as Ast;
  } catch {
    // unparsable (compileRegex will say why): skip whatever follows a backslash
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\') i++;
      else if (isUpper(body.codePointAt(i)!)) return true;
    }
    return false;
  }
  const value = (v: { codePoint: number; kind: string; raw: string }) =>
    !(v.kind === 'identifier' && /^\\[A-Za-z]$/.test(v.raw)) && isUpper(v.codePoint);
  const walk = (n: Ast): boolean => {
    switch (n.type) {
      case 'value':
        return value(n);
      case 'characterClass':
        return (n.body as CharacterClassBody[]).some((it) =>
          it.type === 'value' ? value(it) : it.type === 'characterClassRange' ? value(it.min) || value(it.max) : false,
        );
      case 'alternative':
      case 'disjunction':
      case 'group':
      case 'quantifier':
        return (n.body as Ast[]).some(walk);
      default:
        return false;
    }
  };
  return walk(ast);
}
