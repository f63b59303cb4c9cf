// The semantic tier against a real OpenAI-protocol server on 127.0.0.1:
// incremental embedding, resume after a failure, model switch, the scan cap,
// fail-honest faults, and that nothing touches the network unless asked.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { search } from '../src/api.js';
import { startFakeGateway, type FakeGateway } from './support/fake-gateway.js';
import { cli, makeRepo, tempDir, writeFiles } from './support/repo.js';

function repoWith(n: number): Record<string, string> {
  const files: Record<string, string> = {
    'src/user.ts': 'export function getUserName(id: number): string {\n  return lookupUser(id).displayName;\n}\n',
    'src/copy-a.ts': 'export function sameBody() {\n  return 42;\n}\n',
    'src/copy-b.ts': 'export function sameBody() {\n  return 42;\n}\n',
  };
  for (let i = 0; i < n; i++) files[`gen/f${i}.ts`] = `export function handler${i}(req: Request) {\n  return route${i}(req.url);\n}\n`;
  return files;
}

function inputs(gw: FakeGateway): number {
  return gw.calls.filter((c) => c.path.endsWith('/embeddings')).reduce((n, c) => n + (c.body.input as string[]).length, 0);
}

test('index --embed: every chunk once, then only new or changed ones; vectors of deleted chunks go', async () => {
  const gw = await startFakeGateway({ apiKey: 'sk-test' });
  try {
    const env = { HANZO_BASE_URL: gw.url, HANZO_API_KEY: 'sk-test', HANZO_EMBED_MODEL: 'fake-embed' };
    const repo = makeRepo(repoWith(100));
    const data = tempDir();
    const r = await cli(['code', 'index', repo, '--embed', '--json'], { dataDir: data, env });
    assert.equal(r.code, 0, r.err);
    const s = JSON.parse(r.out);
    // 103 files, one chunk each; the two identical bodies are embedded once
    assert.equal(s.embedded, 102);
    assert.equal(inputs(gw), 102);
    const calls = gw.calls.length;
    assert.ok(calls >= 2, 'batched: 64 inputs per request at most');
    assert.ok(gw.calls.every((c) => (c.body.input as string[]).length <= 64));
    assert.equal(gw.calls[0]!.headers.authorization, 'Bearer sk-test');
    assert.equal(gw.calls[0]!.body.model, 'fake-embed');

    // no change: nothing sent
    const again = JSON.parse((await cli(['code', 'index', repo, '--embed', '--json'], { dataDir: data, env })).out);
    assert.equal(again.embedded, 0);
    assert.equal(gw.calls.length, calls);

    // one change, one new file, one deletion
    writeFiles(repo, { 'gen/f1.ts': 'export function handler1() { return "changed"; }\n', 'gen/new.ts': 'export const fresh = 1;\n' });
    fs.rmSync(path.join(repo, 'gen/f2.ts'));
    const third = JSON.parse((await cli(['code', 'index', repo, '--embed', '--json'], { dataDir: data, env })).out);
    assert.equal(third.embedded, 2);
    assert.equal(inputs(gw), 104);

    // semantic search answers from the vectors: "user name" meets getUserName
    const q = await cli(['code', 'search', '--type', 'semantic', 'user name', '--json'], { dataDir: data, env });
    assert.equal(q.code, 0, q.err);
    const res = JSON.parse(q.out);
    assert.equal(res.type, 'semantic');
    assert.equal(res.degraded, false);
    assert.equal(res.capped, false);
    assert.equal(res.results[0].file, 'src/user.ts');
    assert.equal(res.results[0].tier, 'semantic');
    assert.ok(res.results[0].score > 0 && res.results[0].score <= 1);

    // the same text in two files was embedded once, but both places are results
    const same = JSON.parse((await cli(['code', 'search', '--type', 'semantic', 'same body', '--json'], { dataDir: data, env })).out);
    const files = same.results.filter((r: { symbol: string }) => r.symbol === 'sameBody').map((r: { file: string }) => r.file).sort();
    assert.deepEqual(files, ['src/copy-a.ts', 'src/copy-b.ts']);
    assert.ok(same.results.every((r: { score: number }) => r.score > 0), 'no unrelated (cosine <= 0) hits');

    // the scan cap: fewer stored vectors read than exist -> capped
    const capped = await search('user name', { dataDir: data, org: 'local', type: 'semantic', env, scanCap: 10 });
    assert.equal(capped.capped, true);

    // hybrid uses the semantic tier once vectors exist
    const before = gw.calls.length;
    const h = await cli(['code', 'search', 'user name', '--json'], { dataDir: data, env });
    assert.equal(JSON.parse(h.out).type, 'hybrid');
    assert.equal(gw.calls.length, before + 1, 'the query was embedded once');

    // a different model is a separate vector set, never mixed
    const other = JSON.parse((await cli(['code', 'index', repo, '--embed', '--embed-model', 'other-embed', '--json'], { dataDir: data, env })).out);
    assert.equal(other.embedded, 102);
    assert.equal(gw.calls[gw.calls.length - 1]!.body.model, 'other-embed');
  } finally {
    await gw.close();
  }
});

test('an interrupted embedding run keeps its finished batches and the next run resumes', async () => {
  const gw = await startFakeGateway();
  try {
    const env = { HANZO_BASE_URL: gw.url, HANZO_EMBED_MODEL: 'fake-embed' };
    const repo = makeRepo(repoWith(150));
    const data = tempDir();
    // the second request is refused (401 is not retried): the run fails after one batch
    gw.fault = { kind: 'fail-after', okCalls: 1, status: 401 };
    const r = await cli(['code', 'index', repo, '--embed', '--json'], { dataDir: data, env });
    assert.equal(r.code, 2);
    assert.match(r.err, /HANZO_API_KEY/);
    assert.equal(inputs(gw) > 64, true);
    gw.fault = null;
    const sent = gw.calls.length;
    const resumed = JSON.parse((await cli(['code', 'index', repo, '--embed', '--json'], { dataDir: data, env })).out);
    assert.equal(resumed.embedded, 152 - 64, 'only what the first run did not finish');
    const after = gw.calls.slice(sent).reduce((n, c) => n + (c.body.input as string[]).length, 0);
    assert.equal(after, 152 - 64);
    // the lexical index was complete after the first run already
    assert.equal((await cli(['code', 'search', '--type', 'text', 'handler149'], { dataDir: data, env })).code, 0);
  } finally {
    await gw.close();
  }
});

test('semantic faults are fail-honest: degraded, empty, exit 0, one line on stderr', async () => {
  const gw = await startFakeGateway({ apiKey: 'sk-right' });
  try {
    const good = { HANZO_BASE_URL: gw.url, HANZO_API_KEY: 'sk-right', HANZO_EMBED_MODEL: 'fake-embed' };
    const repo = makeRepo(repoWith(3));
    const data = tempDir();
    assert.equal((await cli(['code', 'index', repo, '--embed'], { dataDir: data, env: good })).code, 0);
    const cases: { env: Record<string, string>; fault: FakeGateway['fault']; err: RegExp }[] = [
      { env: { ...good, HANZO_API_KEY: 'sk-wrong' }, fault: null, err: /401.*HANZO_API_KEY|HANZO_API_KEY/s },
      { env: good, fault: { kind: 'malformed', times: 10 }, err: /invalid JSON/i },
      { env: good, fault: { kind: 'wrong-dim', times: 10 }, err: /dim/ },
      { env: { ...good, HANZO_BASE_URL: 'http://127.0.0.1:9/v1' }, fault: null, err: /HANZO_BASE_URL|reach|blocked|port/i },
    ];
    for (const c of cases) {
      gw.fault = c.fault;
      const r = await cli(['code', 'search', '--type', 'semantic', 'user name', '--json'], { dataDir: data, env: c.env });
      assert.equal(r.code, 0, `${JSON.stringify(c.fault)}: ${r.err}`);
      const o = JSON.parse(r.out);
      assert.equal(o.degraded, true);
      assert.deepEqual(o.results, []);
      assert.match(r.err, c.err);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
    }
    // hybrid still answers from the other tiers when the semantic one fails
    gw.fault = null;
    const h = await cli(['code', 'search', 'getUserName', '--json'], { dataDir: data, env: { ...good, HANZO_API_KEY: 'sk-wrong' } });
    assert.equal(h.code, 0);
    assert.equal(JSON.parse(h.out).results[0].file, 'src/user.ts');
    assert.match(h.err, /semantic tier failed/);
  } finally {
    await gw.close();
  }
});

test('no network unless asked: plain index and searches make no request; no vectors says how to make them', async () => {
  const gw = await startFakeGateway();
  try {
    const env = { HANZO_BASE_URL: gw.url, HANZO_EMBED_MODEL: 'fake-embed' };
    const repo = makeRepo(repoWith(3));
    const data = tempDir();
    await cli(['code', 'index', repo], { dataDir: data, env });
    await cli(['code', 'search', 'user name'], { dataDir: data, env });
    await cli(['code', 'search', '--type', 'symbol', 'getUserName'], { dataDir: data, env });
    await cli(['code', 'context', 'user name'], { dataDir: data, env });
    assert.equal(gw.calls.length, 0);
    const r = await cli(['code', 'search', '--type', 'semantic', 'user name'], { dataDir: data, env });
    assert.equal(r.code, 1);
    assert.match(r.err, /index --embed/);
    assert.equal(gw.calls.length, 0, 'no vectors: the query is not even embedded');
  } finally {
    await gw.close();
  }
});
