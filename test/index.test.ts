// `hanzo code index` end to end: counts, incremental changes, skip reasons,
// repo naming, crash safety, and the errors a user can make.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import { repoFromRemote } from '../src/index/indexer.js';
import { BIN, cli, makeRepo, tempDir, writeFiles } from './support/repo.js';

function json(out: string): Record<string, any> {
  return JSON.parse(out);
}

test('index: fresh, no-op, modify, add, delete give exact counts and JSON keys', async () => {
  const repo = makeRepo({
    'a.ts': 'export function getUserName() { return "x"; }\n',
    'b.py': 'def load_config():\n    return 1\n',
    'docs/readme.md': '# hello\n',
  });
  const data = tempDir();
  let r = await cli(['code', 'index', repo, '--json'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  let s = json(r.out);
  assert.deepEqual(Object.keys(s).slice(0, 8), ['scanned', 'added', 'updated', 'unchanged', 'pruned', 'skipped', 'bytes', 'seconds']);
  assert.equal(s.scanned, 3);
  assert.equal(s.added, 3);
  assert.equal(s.unchanged, 0);
  assert.ok(s.bytes > 0);
  assert.ok(fs.existsSync(path.join(data, 'orgs', 'local', 'code.db')));

  r = await cli(['code', 'index', repo, '--json'], { dataDir: data });
  s = json(r.out);
  assert.deepEqual([s.scanned, s.added, s.updated, s.unchanged, s.pruned], [3, 0, 0, 3, 0]);

  writeFiles(repo, { 'a.ts': 'export function getUserName() { return "y"; }\n', 'c.go': 'package main\nfunc main() {}\n' });
  fs.rmSync(path.join(repo, 'b.py'));
  r = await cli(['code', 'index', repo, '--json'], { dataDir: data });
  s = json(r.out);
  assert.deepEqual([s.scanned, s.added, s.updated, s.unchanged, s.pruned], [3, 1, 1, 1, 1]);

  // the deleted file is gone from search, the changed one answers with new text
  r = await cli(['code', 'search', '--type', 'text', 'load_config'], { dataDir: data });
  assert.equal(r.code, 1);
  r = await cli(['code', 'search', '--type', 'text', 'return "y"'], { dataDir: data });
  assert.equal(r.code, 0);
  assert.equal(r.out, 'a.ts:1:export function getUserName() { return "y"; }\n');
});

test('index: touching a file without changing it is unchanged, a same-size edit is caught', async () => {
  const repo = makeRepo({ 'x.txt': 'alpha\n' });
  const data = tempDir();
  await cli(['code', 'index', repo], { dataDir: data });
  const future = new Date(Date.now() + 10_000);
  fs.utimesSync(path.join(repo, 'x.txt'), future, future);
  let s = json((await cli(['code', 'index', repo, '--json'], { dataDir: data })).out);
  assert.deepEqual([s.updated, s.unchanged], [0, 1]);
  // same size, same mtime as before: the racy-mtime rule must still re-read it
  const st = fs.statSync(path.join(repo, 'x.txt'));
  fs.writeFileSync(path.join(repo, 'x.txt'), 'omega\n');
  fs.utimesSync(path.join(repo, 'x.txt'), st.atime, st.mtime);
  s = json((await cli(['code', 'index', repo, '--json'], { dataDir: data })).out);
  assert.deepEqual([s.updated, s.unchanged], [1, 0]);
  const r = await cli(['code', 'search', 'omega'], { dataDir: data });
  assert.equal(r.out, 'x.txt:1:omega\n');
});

test('index: skipped files are recorded with their reason, never silently', async () => {
  const repo = makeRepo({
    'ok.js': 'const ok = 1;\n',
    'bin.dat': Buffer.from([1, 2, 0, 3]),
    'long.txt': 'x'.repeat(2001) + '\n',
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'big.txt': 'y'.repeat(3000) .replace(/(.{100})/g, '$1\n'),
  });
  const data = tempDir();
  const r = await cli(['code', 'index', repo, '--json', '--max-file-size', '2500'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  const s = json(r.out);
  assert.deepEqual(s.skipped, { binary: 1, 'long-line': 1, 'invalid-utf8': 1, 'too-large': 1 });
  const t = await cli(['code', 'tree', '--json'], { dataDir: data });
  const entries = JSON.parse(t.out) as { file: string; skipped?: string }[];
  assert.equal(entries.find((e) => e.file === 'bin.dat')?.skipped, 'binary');
  assert.equal(entries.find((e) => e.file === 'ok.js')?.skipped, undefined);
  // the skip is remembered: a re-run counts it again without re-reading
  const s2 = json((await cli(['code', 'index', repo, '--json', '--max-file-size', '2500'], { dataDir: data })).out);
  assert.deepEqual(s2.skipped, s.skipped);
  assert.equal(s2.unchanged, 5);
});

test('index: repo name from --repo, from the origin remote, else the folder', async () => {
  assert.equal(repoFromRemote('https://github.com/hanzoai/cloud.git'), 'hanzoai/cloud');
  assert.equal(repoFromRemote('git@github.com:hanzoai/cloud.git'), 'hanzoai/cloud');
  assert.equal(repoFromRemote('ssh://git@github.com:22/hanzoai/cloud'), 'hanzoai/cloud');
  const withRemote = makeRepo({ 'a.txt': 'needle\n' }, { remote: 'git@example.com:acme/widgets.git' });
  const data = tempDir();
  assert.equal(json((await cli(['code', 'index', withRemote, '--json'], { dataDir: data })).out).repo, 'acme/widgets');
  const plain = makeRepo({ 'b.txt': 'needle\n' });
  assert.equal(json((await cli(['code', 'index', plain, '--json'], { dataDir: data })).out).repo, path.basename(plain));
  assert.equal(json((await cli(['code', 'index', plain, '--json', '--repo', 'me/thing'], { dataDir: data })).out).repo, 'me/thing');
  // several repos answer: plain output is prefixed with the repo
  const r = await cli(['code', 'search', 'needle'], { dataDir: data });
  const lines = r.out.trim().split('\n').sort();
  assert.ok(lines.includes('acme/widgets:a.txt:1:needle'), r.out);
  assert.ok(lines.includes('me/thing:b.txt:1:needle'), r.out);
  // --repo narrows
  const one = await cli(['code', 'search', 'needle', '--repo', 'acme/widgets'], { dataDir: data });
  assert.equal(one.out, 'a.txt:1:needle\n');
});

test('errors: bad org, bad repo name, bad path, bad limit, unknown repo, no store', async () => {
  const data = tempDir();
  const repo = makeRepo({ 'a.txt': 'hello\n' });
  let r = await cli(['code', 'index', repo, '--org', 'Bad_Org'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid org "Bad_Org".*a-z, 0-9 and '-'/);
  assert.equal(fs.existsSync(path.join(data, 'orgs')), false, 'nothing written for a bad slug');
  r = await cli(['code', 'search', 'x', '--org', '../etc'], { dataDir: data });
  assert.equal(r.code, 2);
  r = await cli(['code', 'search', 'hello'], { dataDir: data });
  assert.equal(r.code, 3);
  assert.match(r.err, /no index for org "local"/);
  assert.match(r.err, /hanzo code index \./);
  r = await cli(['code', 'index', repo, '--repo', 'a/../b'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid repo name "a\/\.\.\/b"/);
  r = await cli(['code', 'index', path.join(repo, 'nope')], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot index ".*nope": not a readable directory/);
  assert.equal((await cli(['code', 'index', repo], { dataDir: data })).code, 0);
  r = await cli(['code', 'search', 'hello', '--limit', '101'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid --limit "101": use a whole number from 1 to 100/);
  r = await cli(['code', 'search', 'hello', '--type', 'fuzzy'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid --type "fuzzy"/);
  r = await cli(['code', 'search', 'hello', '--repo', 'nope/nope'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown repo "nope\/nope"/);
  r = await cli(['code', 'search', '--type', 'regex', '(hello'], { dataDir: data });
  assert.equal(r.code, 2);
  assert.match(r.err, /regex "\(hello"/);
  // the store survived every error
  r = await cli(['code', 'search', 'hello'], { dataDir: data });
  assert.equal(r.code, 0);
  // global options after the subcommand and before it
  const org = await cli(['code', '--org', 'team-a', 'index', repo, '--json'], { dataDir: data });
  assert.equal(org.code, 0, org.err);
  assert.ok(fs.existsSync(path.join(data, 'orgs', 'team-a', 'code.db')));
});

test('org boundary: one org never answers with another org\'s rows', async () => {
  const data = tempDir();
  const a = makeRepo({ 'secret.txt': 'tenant-a-secret\n' });
  const b = makeRepo({ 'other.txt': 'tenant-b\n' });
  await cli(['code', 'index', a, '--org', 'a'], { dataDir: data });
  await cli(['code', 'index', b, '--org', 'b'], { dataDir: data });
  const r = await cli(['code', 'search', '--type', 'text', 'tenant-a-secret', '--org', 'b'], { dataDir: data });
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  for (const type of ['hybrid', 'symbol', 'regex']) {
    const h = await cli(['code', 'search', '--type', type, 'secret', '--org', 'b', '--json'], { dataDir: data });
    assert.ok(!h.out.includes('secret.txt'), `${type} leaked another org's file`);
  }
  const own = await cli(['code', 'search', '--type', 'text', 'tenant-a-secret', '--org', 'a'], { dataDir: data });
  assert.equal(own.out, 'secret.txt:1:tenant-a-secret\n');
});

test('store: another schema version is refused with a rebuild hint', async () => {
  const data = tempDir();
  const repo = makeRepo({ 'a.txt': 'hello\n' });
  await cli(['code', 'index', repo], { dataDir: data });
  const file = path.join(data, 'orgs', 'local', 'code.db');
  const db = new Database(file);
  db.pragma('user_version = 99');
  db.close();
  const r = await cli(['code', 'search', 'hello'], { dataDir: data });
  assert.equal(r.code, 3);
  assert.match(r.err, /schema version 99/);
  assert.match(r.err, /rebuild it: rm /);
});

test('crash safety: SIGKILL mid-index leaves a consistent, searchable store that the next run completes', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) {
    files[`pkg${i % 30}/mod${i}.ts`] = `export function handler${i}(req: Request) {\n  return fetchThing${i}(req) // marker-${i}\n}\n`.repeat(20);
  }
  const repo = makeRepo(files, { commit: false });
  const data = tempDir();
  const dbFile = path.join(data, 'orgs', 'local', 'code.db');
  const child = spawn(process.execPath, [BIN, 'code', 'index', repo, '--json'], {
    env: { ...process.env, HANZO_DATA_DIR: data, HANZO_INDEX_BATCH_FILES: '40' },
    stdio: 'ignore',
  });
  let killedAt = -1;
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  while (killedAt < 0) {
    await new Promise((r) => setTimeout(r, 5));
    if (!fs.existsSync(dbFile)) continue;
    try {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      const n = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
      db.close();
      if (n > 0) {
        child.kill('SIGKILL');
        killedAt = n;
      }
    } catch {
      /* schema not there yet */
    }
  }
  await exited;
  assert.ok(killedAt > 0 && killedAt < 3000, `killed mid-run (${killedAt} files committed)`);
  const db = new Database(dbFile);
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  const committed = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  db.close();
  assert.ok(committed >= killedAt && committed < 3000);
  // the committed part answers searches
  const some = await cli(['code', 'search', '--type', 'text', 'marker-', '--limit', '5'], { dataDir: data });
  assert.equal(some.code, 0, some.err);
  // the next run finishes the job: every file accounted for exactly once
  const r = await cli(['code', 'index', repo, '--json'], { dataDir: data });
  const s = JSON.parse(r.out);
  assert.equal(s.scanned, 3000);
  assert.equal(s.added + s.unchanged, 3000);
  assert.equal(s.updated, 0);
  const all = await cli(['code', 'search', '--type', 'text', 'marker-2999', '--all'], { dataDir: data });
  assert.equal(all.out.trim().split('\n').length, 20);
});

test('two index runs at once into one store both finish (the second waits for the write lock)', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++) files[`m${i}.ts`] = `export function f${i}() { return ${i}; }\n`.repeat(30);
  const a = makeRepo(files);
  const b = makeRepo(Object.fromEntries(Object.entries(files).map(([k, v]) => [`b/${k}`, v])));
  const data = tempDir();
  const runOne = (repo: string, name: string) => new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
    const c = spawn(process.execPath, [BIN, 'code', 'index', repo, '--repo', name, '--json'], {
      env: { ...process.env, HANZO_DATA_DIR: data, HANZO_INDEX_BATCH_FILES: '50' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    c.stderr.on('data', (d) => { err += d; });
    c.stdout.on('data', (d) => { out += d; });
    c.on('exit', (code) => resolve({ code, err, out }));
  });
  const [x, y] = await Promise.all([runOne(a, 'acme/a'), runOne(b, 'acme/b')]);
  assert.equal(x.code, 0, x.err);
  assert.equal(y.code, 0, y.err);
  assert.equal(JSON.parse(x.out).added, 600);
  assert.equal(JSON.parse(y.out).added, 600);
  const db = new Database(path.join(data, 'orgs', 'local', 'code.db'), { readonly: true });
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
});

test('bad data dirs and odd paths: clear errors, a backslash is a file-name character, skipped files say why', async () => {
  const tmp = tempDir();
  const notDir = path.join(tmp, 'afile');
  fs.writeFileSync(notDir, 'x');
  const repo = makeRepo({ 'back\\slash.txt': 'needle\n', 'big.txt': 'y'.repeat(3000) + '\n' });
  let r = await cli(['code', 'index', repo, '--data-dir', path.join(notDir, 'x')], { dataDir: tmp });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid data dir ".*afile\/x": cannot create .* \(ENOTDIR\)/);
  assert.doesNotMatch(r.err, /internal error/);
  r = await cli(['code', 'search', 'x', '--data-dir', ''], { dataDir: tmp });
  assert.equal(r.code, 2);
  assert.match(r.err, /invalid data dir ""/);
  const data = tempDir();
  await cli(['code', 'index', repo, '--max-file-size', '2000'], { dataDir: data });
  r = await cli(['code', 'file', 'back\\slash.txt'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'needle\n');
  r = await cli(['code', 'file', 'big.txt'], { dataDir: data });
  assert.equal(r.code, 1);
  assert.match(r.err, /big\.txt has no indexed content: skipped \(too-large\)/);
  // a space is a fine literal; the ranked tiers need something to rank by
  assert.equal((await cli(['code', 'search', '-t', 'text', ' '], { dataDir: data })).code, 1);
  assert.equal((await cli(['code', 'search', ' '], { dataDir: data })).code, 2);
});
