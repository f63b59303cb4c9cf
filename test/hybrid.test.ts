// Hybrid search and context: RRF arithmetic, the planner's cases, packing
// edge cases, and the expansion roles over a real indexed repo.

import assert from 'node:assert/strict';
import test from 'node:test';
import { rrf } from '../src/fuse/rrf.js';
import { pack, estimateTokens, type Candidate } from '../src/pack/pack.js';
import { planQuery } from '../src/plan/plan.js';
import type { Span } from '../src/types.js';
import { cli, makeRepo, tempDir } from './support/repo.js';

test('rrf: Σ 1/(60+rank), an id once per list at its best rank, ties by id', () => {
  const f = rrf([
    { name: 'a', ids: ['x', 'y', 'x', 'z'] },
    { name: 'b', ids: ['y', 'w'] },
  ]);
  const score = Object.fromEntries(f.map((r) => [r.id, r.score]));
  assert.equal(score.x, 1 / 61);
  assert.equal(score.y, 1 / 62 + 1 / 61);
  assert.equal(score.z, 1 / 63);
  assert.equal(score.w, 1 / 62);
  assert.deepEqual(f.map((r) => r.id), ['y', 'x', 'w', 'z']);
  assert.deepEqual(f[0]!.ranks, { a: 2, b: 1 });
  const weighted = rrf([{ name: 'a', ids: ['p'], weight: 2 }]);
  assert.equal(weighted[0]!.score, 2 / 61);
});

test('planner: traceback frames, dotted names, quoted literals, prose, short identifiers', () => {
  const tb = planQuery(`Traceback (most recent call last):
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    obj, end = self.scan_once(s, idx)
StopIteration: 0`);
  assert.ok(tb.paths.includes('json/decoder.py'), JSON.stringify(tb.paths));
  assert.ok(tb.symbols.includes('raw_decode'));
  assert.ok(tb.symbols.includes('scan_once'));
  assert.equal(tb.exact, null);

  const dotted = planQuery('why does os.path.join drop the first argument');
  assert.ok(dotted.symbols.includes('os.path.join'));
  assert.ok(dotted.symbols.includes('join'));
  assert.ok(dotted.prose);

  const quoted = planQuery('the error says "connection reset by peer" when the pool is full');
  assert.ok(quoted.literals.includes('connection reset by peer'));
  assert.ok(quoted.keywords.includes('pool'));
  assert.ok(!quoted.keywords.includes('the'), 'stop words dropped');

  const prose = planQuery('Session cookie loses its domain after redirect');
  assert.equal(prose.exact, null, 'prose never becomes one trigram phrase');
  assert.ok(prose.prose);
  assert.ok(prose.keywords.includes('cooki') || prose.keywords.includes('cookie'));

  const words = planQuery('reciprocal rank');
  assert.deepEqual([words.exact, words.identifier, words.symbols], ['reciprocal rank', false, ['reciprocal rank']], 'plain words: one sub-word lookup, not a symbol each');
  assert.equal(planQuery('http.StripPrefix').identifier, true);

  const ident = planQuery('getUserName');
  assert.equal(ident.exact, 'getUserName');
  assert.equal(ident.symbols[0], 'getUserName');
  assert.ok(ident.keywords.includes('user'), 'identifiers are split for BM25 too');

  const go = planQuery('panic: runtime error\nnet/http.(*Transport).roundTrip(0xc000)\n\t/usr/lib/go-1.19/src/net/http/transport.go:562 +0x2c');
  assert.ok(go.symbols.includes('Transport.roundTrip'));
  assert.ok(go.paths.includes('net/http'));
  assert.deepEqual(go.frames, [{ path: 'net/http/transport.go', line: 562 }], 'the location line is a frame, root stripped');
  assert.deepEqual(tb.frames, [{ path: 'json/decoder.py', line: 355, func: 'raw_decode' }]);

  const fence = planQuery('this fails:\n```\nconst x = parseConfig(raw)\n```\nwhy?');
  assert.ok(fence.literals.includes('const x = parseConfig(raw)'));
  assert.ok(fence.symbols.includes('parseConfig'));
});

function span(file: string, line: number, endLine: number, chars: number, role: Span['role'] = 'match'): Span {
  return { repo: 'r', file, line, endLine, kind: 'func', symbol: 'f', role, tier: 'hybrid', score: 1, snippet: 'x'.repeat(chars) };
}

test('pack: greedy fill, no duplicates, budget never exceeded, top match truncated to fit', () => {
  const cands: Candidate[] = [
    { seed: span('a.ts', 1, 10, 400), callees: [span('b.ts', 1, 5, 200, 'definition')], callers: [span('c.ts', 1, 5, 4000, 'caller')] },
    { seed: span('a.ts', 5, 8, 100), callees: [], callers: [] }, // overlaps the first seed
    { seed: span('d.ts', 1, 3, 80), callees: [span('b.ts', 2, 3, 50, 'definition')], callers: [] },
  ];
  const p = pack(cands, 200);
  assert.deepEqual(p.spans.map((s) => `${s.file}:${s.role}`), ['a.ts:match', 'b.ts:definition', 'd.ts:match']);
  assert.equal(p.usedTokens, 100 + 50 + 20);
  assert.ok(p.usedTokens <= 200);
  assert.deepEqual(p.omitted.map((o) => o.file), ['c.ts']);
  assert.equal(p.omitted[0]!.tokens, 1000);

  // a top match larger than the whole budget is truncated, never dropped
  const big = { seed: { ...span('big.ts', 10, 20, 0), snippet: Array.from({ length: 11 }, (_, i) => `line ${i} ${'y'.repeat(30)}`).join('\n') }, callees: [], callers: [] };
  const t = pack([big], 25);
  assert.equal(t.spans.length, 1);
  assert.ok(t.usedTokens <= 25 && t.usedTokens > 0);
  assert.equal(t.spans[0]!.line, 10);
  assert.equal(t.spans[0]!.endLine, 11, 'endLine follows the lines kept (two 37-char lines fit 100 chars)');
  // a tiny budget still gives a prefix of the top match
  const tiny = pack([big], 1);
  assert.equal(tiny.spans[0]!.snippet, 'line');
  assert.equal(estimateTokens('abcd'), 1);
  // nothing to pack
  assert.deepEqual(pack([], 100), { spans: [], usedTokens: 0, omitted: [] });
});

const REPO = {
  'src/session.ts': [
    "import { parseCookie } from './cookie.js';",
    '',
    'export class Session {',
    '  domain = "";',
    '  restore(header: string) {',
    '    const c = parseCookie(header);',
    '    this.domain = c.domain;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/cookie.ts': [
    'export interface Cookie { name: string; domain: string }',
    '',
    '/** Parse a Set-Cookie header; the domain attribute is kept lower-cased. */',
    'export function parseCookie(header: string): Cookie {',
    '  const [name] = header.split("=");',
    '  return { name, domain: header.toLowerCase() };',
    '}',
    '',
  ].join('\n'),
  'src/redirect.ts': [
    "import { parseCookie } from './cookie.js';",
    '',
    '/** Follow a redirect, carrying cookies whose domain matches the new host. */',
    'export function followRedirect(location: string, cookies: string[]) {',
    '  return cookies.map((h) => parseCookie(h)).filter((c) => location.endsWith(c.domain));',
    '}',
    '',
  ].join('\n'),
  'test/redirect.test.ts': [
    "import { followRedirect } from '../src/redirect.js';",
    "followRedirect('https://a.example.com', ['sid=1; domain=example.com']);",
    '',
  ].join('\n'),
  'README.md': '# demo\n\nCookies and redirects.\n',
};

test('hybrid: default tier fuses, prose finds the code, identifiers find definitions first', async () => {
  const data = tempDir();
  const repo = makeRepo(REPO);
  assert.equal((await cli(['code', 'index', repo], { dataDir: data })).code, 0);
  const j = JSON.parse((await cli(['code', 'search', 'cookie loses its domain after a redirect', '--json'], { dataDir: data })).out);
  assert.equal(j.type, 'hybrid');
  assert.ok(j.results.length > 0);
  for (const r of j.results) {
    assert.equal(r.tier, 'hybrid');
    assert.ok(r.score > 0 && r.score < 1, 'an RRF sum');
  }
  assert.equal(j.results[0].file, 'src/redirect.ts');
  // no two results overlap in one file
  for (let a = 0; a < j.results.length; a++) for (let b = a + 1; b < j.results.length; b++) {
    const x = j.results[a];
    const y = j.results[b];
    assert.ok(!(x.file === y.file && x.line <= y.endLine && y.line <= x.endLine), 'deduplicated');
  }
  const id = JSON.parse((await cli(['code', 'search', 'parseCookie', '--json'], { dataDir: data })).out);
  assert.equal(id.results[0].file, 'src/cookie.ts');
  assert.equal(id.results[0].symbol, 'parseCookie');
});

test('context: seed, its callee definitions and callers, within the budget; JSON bundle', async () => {
  const data = tempDir();
  const repo = makeRepo(REPO);
  await cli(['code', 'index', repo], { dataDir: data });
  const r = await cli(['code', 'context', 'followRedirect', '--json', '--budget', '2000'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  const b = JSON.parse(r.out);
  for (const k of ['query', 'repo', 'budgetTokens', 'usedTokens', 'spans', 'capped', 'omitted']) assert.ok(k in b, k);
  assert.equal(b.budgetTokens, 2000);
  assert.ok(b.usedTokens <= 2000);
  assert.equal(b.usedTokens, b.spans.reduce((n: number, s: Span) => n + Math.ceil(s.snippet.length / 4), 0));
  assert.equal(b.spans[0].file, 'src/redirect.ts');
  assert.equal(b.spans[0].role, 'match');
  const def = b.spans.find((s: Span) => s.role === 'definition');
  assert.ok(def, 'the callee parseCookie is expanded');
  assert.equal(def.file, 'src/cookie.ts');
  assert.equal(def.symbol, 'parseCookie');
  const caller = b.spans.find((s: Span) => s.role === 'caller');
  assert.ok(caller, 'a caller of followRedirect is expanded');
  assert.equal(caller.file, 'test/redirect.test.ts');
  const keys = b.spans.map((s: Span) => `${s.file}:${s.line}`);
  assert.equal(new Set(keys).size, keys.length, 'no span twice');

  const text = await cli(['code', 'context', 'followRedirect'], { dataDir: data });
  assert.match(text.out, /^[^\n]+\/src\/redirect\.ts:\d+-\d+\n```typescript\n/);

  const tiny = JSON.parse((await cli(['code', 'context', 'followRedirect', '--json', '--budget', '5'], { dataDir: data })).out);
  assert.equal(tiny.spans.length, 1, 'the top match is always included');
  assert.ok(tiny.usedTokens <= 5);
  assert.ok(tiny.omitted.length > 0, 'what did not fit is listed');

  const none = await cli(['code', 'context', 'zzqqxxnothing', '--json'], { dataDir: data });
  assert.equal(none.code, 1);
  assert.deepEqual(JSON.parse(none.out).spans, []);
  const bad = await cli(['code', 'context', 'x', '--budget', '0'], { dataDir: data });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /invalid --budget "0"/);
});

test('context and hybrid on an empty index: an empty bundle, exit 1, not an error', async () => {
  const data = tempDir();
  const repo = makeRepo({});
  assert.equal((await cli(['code', 'index', repo], { dataDir: data })).code, 0);
  const c = await cli(['code', 'context', 'anything at all', '--json'], { dataDir: data });
  assert.equal(c.code, 1);
  const b = JSON.parse(c.out);
  assert.deepEqual([b.spans, b.usedTokens, b.degraded, b.omitted], [[], 0, false, []]);
  const s = await cli(['code', 'search', 'anything at all', '--json'], { dataDir: data });
  assert.equal(s.code, 1);
  assert.equal(JSON.parse(s.out).degraded, false);
});
