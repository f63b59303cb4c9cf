// The local REST server: the hosted API's paths and fields over one org's
// store, problem-details errors, and the org fixed at start.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import test from 'node:test';
import { serve } from '../src/server/rest.js';
import { BIN, cli, makeRepo, tempDir } from './support/repo.js';

const REPO = {
  'src/user.ts': 'export function getUserName(id: number): string {\n  return String(id);\n}\n',
  'src/main.ts': "import { getUserName } from './user.js';\nexport function main() {\n  return getUserName(1);\n}\n",
};

test('REST: search, context, tree, file, index; errors are problem-details', async () => {
  const data = tempDir();
  const repo = makeRepo(REPO);
  await cli(['code', 'index', repo, '--repo', 'acme/app'], { dataDir: data });
  await cli(['code', 'index', makeRepo({ 'x.txt': 'other org secret\n' }), '--org', 'other'], { dataDir: data });
  const s = await serve({ dataDir: data, org: 'local', port: 0 });
  try {
    const get = async (p: string) => {
      const r = await fetch(s.url + p);
      return { status: r.status, type: r.headers.get('content-type'), body: await r.json() as any };
    };
    const post = async (p: string, b: unknown) => {
      const r = await fetch(s.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      return { status: r.status, body: await r.json() as any };
    };
    const sr = await get('/v1/code/search?q=getUserName&type=symbol&limit=5');
    assert.equal(sr.status, 200);
    assert.deepEqual(Object.keys(sr.body), ['query', 'type', 'results', 'degraded', 'capped']);
    assert.deepEqual(Object.keys(sr.body.results[0]), ['repo', 'file', 'line', 'endLine', 'kind', 'symbol', 'role', 'tier', 'score', 'snippet']);
    assert.equal(sr.body.results[0].file, 'src/user.ts');
    const ctx = await post('/v1/code/context', { query: 'main', budgetTokens: 500 });
    assert.equal(ctx.status, 200);
    assert.equal(ctx.body.budgetTokens, 500);
    assert.ok(ctx.body.spans.length > 0);
    const tr = await get('/v1/code/tree?symbols=true');
    assert.equal(tr.body.length, 2);
    assert.ok(tr.body[0].definitions.length > 0);
    const fl = await get('/v1/code/file?path=src/user.ts');
    assert.equal(fl.body.content, REPO['src/user.ts']);
    const ix = await post('/v1/code/index', { path: repo, repo: 'acme/app' });
    assert.equal(ix.status, 200);
    assert.equal(ix.body.unchanged, 2);
    // errors
    const bad = await get('/v1/code/search?q=(x&type=regex');
    assert.equal(bad.status, 400);
    assert.equal(bad.type, 'application/problem+json');
    assert.match(bad.body.detail, /regex "\(x"/);
    assert.equal((await get('/v1/code/search?q=x&limit=500')).status, 400);
    assert.equal((await get('/v1/code/file?path=../etc/passwd')).status, 400);
    assert.equal((await get('/v1/code/file?path=nope.ts')).status, 404);
    assert.equal((await get('/v1/code/nope')).status, 404);
    const badJson = await fetch(s.url + '/v1/code/context', { method: 'POST', body: '{nope' });
    assert.equal(badJson.status, 400);
    // the org is fixed at start: nothing reaches the other org's rows
    const leak = await get('/v1/code/search?q=secret&type=text&org=other');
    assert.equal(leak.body.results.length, 0);
  } finally {
    await s.close();
  }
});

test('hanzo code serve runs until SIGTERM and prints where it listens', async () => {
  const data = tempDir();
  await cli(['code', 'index', makeRepo(REPO)], { dataDir: data });
  const child = spawn(process.execPath, [BIN, 'code', 'serve', '--port', '0', '--json'], { env: { ...process.env, HANZO_DATA_DIR: data }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  try {
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
    const { url } = JSON.parse(line);
    const r = await fetch(`${url}/v1/code/search?q=getUserName&type=symbol`);
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as any).results[0].file, 'src/user.ts');
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0);
});
