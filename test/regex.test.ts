// Tests for the regex dialect, its trigram prefilter and the literal helpers.
// The prefilter's one hard promise is soundness (never exclude a file holding
// a match), so besides table-driven cases there is a property-style sweep and
// a check against a real FTS5 trigram table. Linear time is checked without
// any clock: the engine's own `l` oracle must accept every pattern we
// generate, and pathological inputs must finish inside the test timeout.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { UsageError } from '../src/errors.js';
import {
  literalMatcher,
  literalQuery,
  simplify,
  toFtsMatch,
  trigramsOf,
  type TrigramQuery,
} from '../src/retrieve/literal.js';
import { RegexError, compileRegex, evalQuery, hasUpperCaseLiteral } from '../src/retrieve/regex.js';
import { seeded } from '../src/retrieve/vectors.js';

const tri = (t: string): TrigramQuery => ({ op: 'tri', t });
const and = (...args: TrigramQuery[]): TrigramQuery => ({ op: 'and', args });
const or = (...args: TrigramQuery[]): TrigramQuery => ({ op: 'or', args });
const ALL: TrigramQuery = { op: 'all' };
const NONE: TrigramQuery = { op: 'none' };

/** The MATCH text, or 'all' / 'none' for the two queries that have none. */
function fts(q: TrigramQuery): string {
  const s = simplify(q);
  return s.op === 'all' || s.op === 'none' ? s.op : toFtsMatch(s);
}

function rx(p: string, caseInsensitive = false) {
  return compileRegex(p, { caseInsensitive });
}


// ---------------------------------------------------------------------------

test('trigramsOf: code points, folded ASCII, deduped, nothing under 3 chars', () => {
  const cases: [string, string[]][] = [
    ['getUser', ['get', 'etu', 'tus', 'use', 'ser']],
    ['ab', []],
    ['', []],
    ['abc', ['abc']],
    ['aaaaa', ['aaa']],
    ['ABCabc', ['abc', 'bca', 'cab']],
    ['😀ab', ['😀ab']],
    ['a\0bcd', ['bcd']],
    ['x\u212Ay', ['xky']], // Kelvin sign: SQLite folds it to k (checked against FTS5 below)
  ];
  for (const [s, want] of cases) assert.deepEqual(trigramsOf(s), want, s);
});

test('literalQuery: short, long, newline, case-insensitive', () => {
  assert.deepEqual(literalQuery('ab'), ALL);
  assert.deepEqual(literalQuery('abc'), tri('abc'));
  assert.equal(fts(literalQuery('getUser')), '"get" AND "etu" AND "tus" AND "use" AND "ser"');
  assert.deepEqual(literalQuery('a\nbcd'), NONE);
  const long = literalQuery('the quick brown fox jumps over the lazy dog; '.repeat(5));
  assert.equal(long.op, 'and');
  assert.ok(long.op === 'and' && long.args.length <= 50 && long.args.length >= 10);
  // ASCII needs no extra spellings; é does (SQLite folds it, but we do not rely on that)
  assert.equal(fts(literalQuery('GetUser', true)), '"get" AND "etu" AND "tus" AND "use" AND "ser"');
  assert.equal(fts(literalQuery('café', true)), '"caf" AND ("afé" OR "afÉ")');
});

test('simplify: identities, flattening, dedupe, absorption, bounds', () => {
  assert.deepEqual(simplify(and(ALL, tri('abc'))), tri('abc'));
  assert.deepEqual(simplify(or(ALL, tri('abc'))), ALL);
  assert.deepEqual(simplify(and(NONE, tri('abc'))), NONE);
  assert.deepEqual(simplify(or(NONE, tri('abc'))), tri('abc'));
  assert.deepEqual(simplify(and()), ALL);
  assert.deepEqual(simplify(or()), NONE);
  assert.deepEqual(simplify(and(tri('abc'), and(tri('bcd'), tri('abc')))), and(tri('abc'), tri('bcd')));
  // or(a, and(a, b)) = a ; and(a, or(a, b)) = a
  assert.deepEqual(simplify(or(tri('abc'), and(tri('abc'), tri('xyz')))), tri('abc'));
  assert.deepEqual(simplify(and(tri('abc'), or(tri('abc'), tri('xyz')))), tri('abc'));
  // common factor pulled out of an OR
  assert.equal(fts(or(and(tri('aaa'), tri('ccc')), and(tri('bbb'), tri('ccc')))), '"ccc" AND ("aaa" OR "bbb")');
  const wide = or(...Array.from({ length: 25 }, (_, i) => tri('x' + String(i).padStart(2, '0'))));
  assert.deepEqual(simplify(wide), ALL);
  const big = and(...Array.from({ length: 80 }, (_, i) => tri('y' + String(i).padStart(2, '0'))));
  const b = simplify(big);
  assert.ok(b.op === 'and' && b.args.length === 50);
  assert.deepEqual(simplify(big), b, 'deterministic');
});

test('toFtsMatch: quoting, grouping, refusing all/none', () => {
  assert.equal(toFtsMatch(tri('a"b')), '"a""b"');
  assert.equal(toFtsMatch(and(tri('abc'), or(tri('def'), and(tri('ghi'), tri('jkl'))))), '"abc" AND ("def" OR ("ghi" AND "jkl"))');
  assert.throws(() => toFtsMatch(ALL), /all/);
  assert.throws(() => toFtsMatch(NONE), /none/);
  assert.throws(() => toFtsMatch(and(tri('abc'), NONE)), /none/);
});

test('regex prefilter: codesearch-style trigram extraction', () => {
  const cases: [string, string][] = [
    ['foo.*bar', '"foo" AND "bar"'],
    ['(abc|def)ghi', '"ghi" AND (("abc" AND "bcg" AND "cgh") OR ("def" AND "efg" AND "fgh"))'],
    ['a+bcd', '"abc" AND "bcd"'],
    ['[ab]cde', '"cde" AND ("acd" OR "bcd")'],
    ['x?yzw', '"yzw"'],
    ['\\bparseInt\\(', '"par" AND "ars" AND "rse" AND "sei" AND "ein" AND "int" AND "nt("'],
    ['Hello', '"hel" AND "ell" AND "llo"'],
    ['abc|de', 'all'],
    ['a.c', 'all'],
    ['', 'all'],
    ['(a+)+$', 'all'],
    ['a\\nb', 'none'],
    ['[]abc', 'none'],
    ['abc{2,3}def', '"abc" AND "bcc" AND "cde" AND "def"'],
    ['(foo|foobar)baz', '"foo" AND "oob" AND "oba" AND "baz"'],
    ['k{3}', '"kkk"'],
    ['(?:ab){2}', '"aba" AND "bab"'],
    ['^foo$', '"foo"'],
    ['[^a]bcd', '"bcd"'],
    ['😀+abc', '"😀ab" AND "abc"'],
    ['foo+|bar', '"foo" OR "bar"'],
    ['(ab)+(cd)+', '"abc" AND "bcd"'],
    ['(a+)?bcd', '"bcd"'],
  ];
  for (const [p, want] of cases) assert.equal(fts(rx(p).prefilter), want, p);
});

test('regex prefilter: case-insensitive extraction folds the same way', () => {
  assert.equal(fts(rx('Hello', true).prefilter), '"hel" AND "ell" AND "llo"');
  assert.equal(fts(rx('(?i)GetUser').prefilter), '"get" AND "etu" AND "tus" AND "use" AND "ser"');
  assert.equal(fts(rx('kiss', true).prefilter), '"kis" AND "iss"');
  assert.equal(fts(rx('[a-c]xyz', true).prefilter), '"xyz" AND ("axy" OR "bxy" OR "cxy")');
  // rewriting is visible in what runs, and never uses the i flag
  assert.equal(rx('Hello', true).jsSource, '[Hh][Ee][Ll][Ll][Oo]');
  assert.equal(rx('[a-c]x', true).jsSource, '[A-Ca-c][Xx]');
  assert.equal(rx('\\w\\d', true).jsSource, '\\w\\d');
});

test('matcher: grep-like ranges per line', () => {
  assert.deepEqual(rx('foo').matcher.match('foo foo'), [[0, 3], [4, 7]]);
  assert.deepEqual(rx('foo').matcher.match('bar'), []);
  assert.deepEqual(rx('o+').matcher.match('foo boo'), [[1, 3], [5, 7]]);
  // an empty match still makes the line match, as in rg
  assert.deepEqual(rx('a*').matcher.match('bbb'), [[0, 0]]);
  assert.deepEqual(rx('a*').matcher.match('baab'), [[1, 3]]);
  assert.deepEqual(rx('^').matcher.match(''), [[0, 0]]);
  // ^ and $ anchor at the line's ends
  assert.deepEqual(rx('^ab').matcher.match('abab'), [[0, 2]]);
  assert.deepEqual(rx('ab$').matcher.match('abab'), [[2, 4]]);
  // a quantifier after an emoji repeats the whole character
  assert.deepEqual(rx('😀+').matcher.match('x😀😀y'), [[1, 5]]);
  assert.deepEqual(rx('[a😀]+').matcher.match('a😀b'), [[0, 3]]);
  // counted repetitions that had to be spelled out still mean the same
  assert.deepEqual(rx('[0-9a-f]{40}').matcher.match('sha ' + 'ab12'.repeat(10) + '!'), [[4, 44]]);
  assert.deepEqual(rx('a{2,3}').matcher.match('aaaaaaa'), [[0, 3], [3, 6]]);
  assert.deepEqual(rx('(?s)a.b').matcher.match('a\rb'), [[0, 3]]);
  assert.deepEqual(rx('a.b').matcher.match('a\rb'), []);
  assert.equal(rx('a.b').source, 'a.b');
});

test('case-insensitive matching without the i flag', () => {
  const hello = rx('Hello', true).matcher;
  assert.deepEqual(hello.match('HELLO'), [[0, 5]]);
  assert.deepEqual(hello.match('say hello'), [[4, 9]]);
  assert.deepEqual(hello.match('help'), []);
  assert.deepEqual(rx('Hello').matcher.match('HELLO'), [], 'case-sensitive by default');
  assert.deepEqual(rx('(?i)Hello').matcher.match('hElLo'), [[0, 5]]);
  assert.deepEqual(rx('(?i)Hello', false).matcher.match('hElLo'), [[0, 5]], '(?i) wins over the option');
  assert.deepEqual(rx('(?i:get)User').matcher.match('GETUser GETUSER'), [[0, 7]]);
  assert.deepEqual(rx('[a-c]+', true).matcher.match('xAbCx'), [[1, 4]]);
  assert.deepEqual(rx('[^a]', true).matcher.match('aA'), []);
  assert.deepEqual(rx('k', true).matcher.match('K\u212A'), [[0, 1], [1, 2]]);
  assert.deepEqual(rx('é', true).matcher.match('É'), [[0, 1]]);
  assert.deepEqual(rx('𐐀', true).matcher.match('𐐨'), [[0, 2]]);
  // dotless ı upper-cases to I but does not fold with i
  assert.deepEqual(rx('i', true).matcher.match('ı'), []);
});

test('errors: the parser\'s message, and what a linear-time engine refuses', () => {
  const cases: [string, string][] = [
    ['(abc', 'regex "(abc": Unterminated group'],
    ['a)', 'regex "a)": Unmatched \')\''],
    ['*a', 'regex "*a": Nothing to repeat'],
    ['(a)\\1', 'regex "(a)\\1": backreferences are not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['\\1', 'regex "\\1": backreferences are not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['(?<n>a)\\k<n>', 'regex "(?<n>a)\\k<n>": backreferences are not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['\\k<n>', 'regex "\\k<n>": backreferences are not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['(?<=a)b', 'regex "(?<=a)b": lookbehind is not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['(?<!a)b', 'regex "(?<!a)b": lookbehind is not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['a(?=b)', 'regex "a(?=b)": lookahead is not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['a(?!b)', 'regex "a(?!b)": lookahead is not supported (the regex engine is linear-time, like RE2 and ripgrep\'s default)'],
    ['\\p{L}', 'regex "\\p{L}": Unicode property escapes (\\p{...}) are not supported'],
    ['\\z', 'regex "\\z": unsupported escape \\z (use ^ and $)'],
    ['[^😀]', 'regex "[^😀]": negated classes with characters beyond U+FFFF are not supported'],
  ];
  for (const [p, msg] of cases) {
    assert.throws(() => rx(p), (e: unknown) => {
      assert.ok(e instanceof RegexError, p);
      assert.ok(e instanceof UsageError && e.exitCode === 2, p);
      assert.equal(e.message, msg);
      return true;
    });
  }
});

const PATHOLOGICAL: [string, string][] = [
  ['(a+)+$', 'a'.repeat(5000) + 'b'],
  ['(a|aa)*c', 'a'.repeat(5000)],
  ['(x+x+)+y', 'x'.repeat(5000)],
  ['(a*)*b', 'a'.repeat(5000)],
  ['(\\w+\\s?)+$', 'word '.repeat(1000) + '!'],
  ['((a{1,16})+)+$', 'a'.repeat(3000) + 'b'], // past V8's replication limit unless spelled out
  ['(a{2,20}){2,}$', 'a'.repeat(3000) + 'b'],
  ['((((a+)+)+)+)+b', 'a'.repeat(3000)],
  ['(.*a){12}', 'a'.repeat(3000)],
];

test('pathological patterns finish (a regression would hang until the timeout)', { timeout: 20000 }, () => {
  for (const [p, input] of PATHOLOGICAL) {
    for (const ci of [false, true]) {
      const c = rx(p, ci);
      // the engine's own oracle: this throws unless the linear-time fallback can take over
      assert.doesNotThrow(() => new RegExp(c.jsSource, 'gl'), `${p} ci=${ci}`);
      const got = c.matcher.match(input);
      const want = p === '(.*a){12}' ? 1 : 0;
      assert.equal(got.length, want, `${p} ci=${ci}`);
      if (ci) assert.equal(c.matcher.match(input.toUpperCase()).length, want, `${p} upper`);
    }
  }
});

// ---------------------------------------------------------------------------
// Soundness sweep

const SWEEP_PATTERNS = [
  'foo.*bar', '(abc|def)ghi', 'a+bcd', '[ab]cde', 'x?yzw', '\\bparseInt\\(', 'Hello', 'abc|de',
  'a(b|c)+d', '(foo|bar)+', 'ab?c?d', 'x[yz]{2,3}w', 'f.o', '(a|b)*c+d', 'o{2}', 'b(ar|cd)',
  '[^a]bc', 'de?f', 'ghi|foo', 'k+s', 'é+x', 'parse(Int|Float)?\\(', '^foo', 'bar$', '\\bab',
  '(?:ab){2,}', 'c.{0,2}d', '😀+a', 'ſ', 'HELLO (foo|world)', '(x|y)(z|w)(x|a)', 'ab{3}',
  'cd?e?f?g', '(?i:hel)lo', '[a-e]{3}', 'd[^x]f', 'foo+|bar', '(ab)+(cd)+', 'ghi|x+yzw',
];
const TOKENS = [
  'foo', 'bar', 'abc', 'def', 'ghi', 'x', 'y', 'z', 'w', 'a', 'b', 'c', 'd', 'e', 'f', 'o', '(', ')', ' ',
  'parseInt', 'parseFloat(', ' parseInt(', 'Hello', 'HELLO', 'hello', 'é', 'É', 'k', 'K', '\u212A', 'ſ', 's', 'S', '😀',
  'yzw', '_', '1', 'cde', 'bcd', 'world', 'ab', 'bb', 'HELLO ', 'hello ',
  'defghi', 'xzw', 'ywa', 'kks', 'Ks', 'xyzw', 'ABCghi',
];

function sweepLines(): string[] {
  const rand = seeded(20240601);
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    const n = 1 + Math.floor(rand() * 14);
    let s = '';
    for (let j = 0; j < n; j++) s += TOKENS[Math.floor(rand() * TOKENS.length)];
    lines.push(s);
  }
  return lines;
}

test('evalQuery catches an unsound prefilter (the sweep below is not vacuous)', () => {
  const m = rx('foo').matcher;
  const lines = sweepLines().filter((l) => m.match(l).length > 0);
  assert.ok(lines.length > 0);
  assert.ok(lines.some((l) => !evalQuery(literalQuery('zzz'), new Set(trigramsOf(l)))));
  assert.ok(lines.every((l) => evalQuery(rx('foo').prefilter, new Set(trigramsOf(l)))));
});

test('prefilter soundness: every line the matcher accepts passes its prefilter', () => {
  const lines = sweepLines();
  const grams = lines.map((l) => new Set(trigramsOf(l)));
  let constrained = 0;
  for (const p of SWEEP_PATTERNS) {
    for (const ci of [false, true]) {
      const c = rx(p, ci);
      if (c.prefilter.op !== 'all') constrained++;
      let hits = 0;
      lines.forEach((line, i) => {
        if (c.matcher.match(line).length === 0) return;
        hits++;
        assert.ok(evalQuery(c.prefilter, grams[i]!), `${p} ci=${ci} excludes ${JSON.stringify(line)}: ${fts(c.prefilter)}`);
      });
      assert.ok(hits > 0, `${p} ci=${ci} matched no line; the sweep would prove nothing`);
    }
  }
  assert.ok(constrained > SWEEP_PATTERNS.length, 'most prefilters should constrain something');
  // and for literals, both modes
  for (const lit of ['foo', 'Hello', 'HELLO', 'parseInt(', 'ſs', 'É', 'kK', 'foobar', 'world']) {
    for (const ci of [false, true]) {
      const m = literalMatcher(lit, ci);
      const q = literalQuery(lit, ci);
      lines.forEach((line, i) => {
        if (m.match(line).length > 0) assert.ok(evalQuery(q, grams[i]!), `literal ${lit} ci=${ci} excludes ${line}`);
      });
    }
  }
});

test('prefilter soundness against a real FTS5 trigram table', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='trigram', detail=none)");
  const lines = [...sweepLines(), 'xx\u212Axx', 'xxkxx', 'xx\u017Fxx', 'xxsxx', 'a"bc"d', 'İstanbul'];
  const ins = db.prepare('INSERT INTO t(rowid, body) VALUES (?, ?)');
  lines.forEach((l, i) => ins.run(i + 1, l));
  const q = db.prepare('SELECT rowid FROM t WHERE t MATCH ?').pluck();
  const candidates = (pre: TrigramQuery): Set<number> | 'all' => {
    const s = simplify(pre);
    if (s.op === 'all') return 'all';
    if (s.op === 'none') return new Set();
    return new Set(q.all(toFtsMatch(s)) as number[]);
  };
  let checked = 0;
  for (const p of [...SWEEP_PATTERNS, 'xkx', 'x\u212Ax', 'xsx', 'X\u017FX', 'a"bc', 'stan']) {
    for (const ci of [false, true]) {
      const c = rx(p, ci);
      const cand = candidates(c.prefilter);
      if (cand === 'all') continue;
      lines.forEach((line, i) => {
        if (c.matcher.match(line).length === 0) return;
        checked++;
        assert.ok(cand.has(i + 1), `${p} ci=${ci}: FTS5 dropped ${JSON.stringify(line)} (${toFtsMatch(c.prefilter)})`);
      });
    }
  }
  assert.ok(checked > 100);
  // the folds trigramKey relies on: SQLite puts the Kelvin sign with k and long s with s
  const rows = (s: string) => [...(candidates(literalQuery(s)) as Set<number>)].map((r) => lines[r - 1]);
  for (const want of ['xxkxx', 'xx\u212Axx']) assert.ok(rows('xkx').includes(want), want);
  for (const want of ['xxsxx', 'xx\u017Fxx']) assert.ok(rows('xsx').includes(want), want);
  db.close();
});

// ---------------------------------------------------------------------------

test('literalMatcher: non-overlapping, left to right, both cases', () => {
  assert.deepEqual(literalMatcher('aa', false).match('aaaaa'), [[0, 2], [2, 4]]);
  assert.deepEqual(literalMatcher('Foo', false).match('foo Foo'), [[4, 7]]);
  assert.deepEqual(literalMatcher('HeLLo', true).match('say hello HELLO'), [[4, 9], [10, 15]]);
  assert.deepEqual(literalMatcher('x', true).match('abc'), []);
  assert.deepEqual(literalMatcher('', true).match('abc'), [[0, 0]]);
  // İ lower-cases to two code units; offsets must still point into the original line
  assert.deepEqual(literalMatcher('istanbul', true).match('İstanbul istanbul'), [[9, 17]]);
  assert.deepEqual(literalMatcher('STAN', true).match('İstanbul'), [[1, 5]]);
  assert.deepEqual(literalMatcher('İ', true).match('xİx i'), [[1, 2]]);
  // final sigma: Σ lower-cases to ς at the end of a word
  assert.deepEqual(literalMatcher('σ', true).match('ΟΔΟΣ'), [[3, 4]]);
  assert.deepEqual(literalMatcher('😀a', true).match('😀A😀a'), [[0, 3], [3, 6]]);
});

test('hasUpperCaseLiteral: smart case ignores escapes and names', () => {
  const cases: [string, boolean][] = [
    ['foo', false],
    ['Foo', true],
    ['foo\\W\\S\\D\\B', false],
    ['[A-Z]', true],
    ['[a-z\\W]', false],
    ['(?<Name>x)', false],
    ['\\x41', true],
    ['(?i)abc', false],
    ['(abC', true], // unparsable: falls back to a scan that skips escaped characters
    ['(a\\W', false],
    ['É', true],
    ['é', false],
  ];
  for (const [p, want] of cases) assert.equal(hasUpperCaseLiteral(p), want, p);
});

test('RE2 syntax JavaScript reads differently: POSIX classes work, an unclosed {n is refused', () => {
  const m = (p: string, line: string) => compileRegex(p, { caseInsensitive: false }).matcher.match(line);
  assert.deepEqual(m('[[:alpha:]]+Ü', 'x abcÜ'), [[2, 6]]);
  assert.deepEqual(m('[^[:digit:][:space:]]+', '12 ab 3'), [[3, 5]]);
  assert.deepEqual(m('[[:xdigit:]]{4}', 'zz0fA9'), [[2, 6]]);
  assert.throws(() => compileRegex('[[:nope:]]', { caseInsensitive: false }), /unknown POSIX class \[:nope:\]/);
  assert.throws(() => compileRegex('a{2', { caseInsensitive: false }), /regex "a\{2": unclosed counted repetition/);
  assert.throws(() => compileRegex('a{2,', { caseInsensitive: false }), /unclosed counted repetition/);
  assert.deepEqual(m('a{2}', 'aaa'), [[0, 2]]);
  assert.deepEqual(m('\\{2', 'x{2'), [[1, 3]]);
  assert.deepEqual(m('[{]2', 'x{2'), [[1, 3]]);
});
