// Lexical search through the real CLI: case rules, output formats, exit
// codes, a closed pipe, and parity with ripgrep over real code.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { classify } from '../src/walk/classify.js';
import { BIN, cli, makeRepo, tempDir, writeFiles } from './support/repo.js';

const SRC = {
  'src/user.ts': [
    'export function getUserName(id: number): string {',
    '  // TODO: cache the user name',
    '  return lookup(id).userName;',
    '}',
    'export const USER_LIMIT = 10;',
    '',
  ].join('\n'),
  'lib/util.py': ['def get_user_name(uid):', '    """Return the User name."""', '    return USERS[uid]', ''].join('\n'),
};

async function indexed(): Promise<string> {
  const repo = makeRepo(SRC);
  const data = tempDir();
  const r = await cli(['code', 'index', repo], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  return data;
}

test('smart case: lower-case query ignores case, an upper-case letter makes it exact; -s and -i override', async () => {
  const data = await indexed();
  const lines = async (...a: string[]) => (await cli(['code', 'search', '--type', 'text', ...a], { dataDir: data })).out.trim().split('\n').filter(Boolean).sort();
  assert.deepEqual(await lines('user name'), ['lib/util.py:2:    """Return the User name."""', 'src/user.ts:2:  // TODO: cache the user name']);
  assert.deepEqual(await lines('User name'), ['lib/util.py:2:    """Return the User name."""']);
  assert.deepEqual(await lines('-s', 'user name'), ['src/user.ts:2:  // TODO: cache the user name']);
  assert.deepEqual(await lines('-i', 'USER_LIMIT'), ['src/user.ts:5:export const USER_LIMIT = 10;']);
  assert.equal((await lines('-i', 'user_limit')).length, 1);
  assert.equal((await lines('-s', 'user_limit')).length, 0);
  // regex smart case looks at literal letters only: \W is not an upper-case letter
  const re = await cli(['code', 'search', '--type', 'regex', 'get\\Wuser'], { dataDir: data });
  assert.equal(re.code, 1, 'no line has get<non-word>user');
  const re2 = await cli(['code', 'search', '--type', 'regex', 'getuser\\w+'], { dataDir: data });
  assert.equal(re2.out, 'src/user.ts:1:export function getUserName(id: number): string {\n');
});

test('output: JSON is the searchResults object; TTY is grouped; exit 1 on no match', async () => {
  const data = await indexed();
  const j = await cli(['code', 'search', '--type', 'text', 'userName', '--json'], { dataDir: data });
  assert.equal(j.code, 0);
  const o = JSON.parse(j.out);
  assert.deepEqual(Object.keys(o), ['query', 'type', 'results', 'degraded', 'capped']);
  assert.equal(o.query, 'userName');
  assert.equal(o.type, 'text');
  assert.equal(o.degraded, false);
  assert.equal(o.capped, false);
  assert.equal(o.results.length, 1);
  const span = o.results[0];
  assert.deepEqual(Object.keys(span), ['repo', 'file', 'line', 'endLine', 'kind', 'symbol', 'role', 'tier', 'score', 'snippet']);
  assert.equal(span.file, 'src/user.ts');
  assert.equal(span.line, 3);
  assert.equal(span.endLine, 3);
  assert.equal(span.role, 'match');
  assert.equal(span.tier, 'text');
  assert.equal(span.snippet, '  return lookup(id).userName;');

  const tty = await cli(['code', 'search', '--type', 'text', 'user', '--color', 'never'], { dataDir: data, tty: true });
  assert.match(tty.out, /^(src\/user\.ts|lib\/util\.py)\n\d+:/);
  assert.ok(tty.out.includes('\n\n'), 'a blank line between file groups');
  const colour = await cli(['code', 'search', '--type', 'text', 'lookup', '--color', 'always'], { dataDir: data, tty: true });
  assert.ok(colour.out.includes('\u001b['), 'ANSI colour on a TTY');

  const none = await cli(['code', 'search', 'zzzqqq'], { dataDir: data });
  assert.equal(none.code, 1);
  assert.equal(none.out, '');
  const noneJson = await cli(['code', 'search', 'zzzqqq', '--json'], { dataDir: data });
  assert.equal(noneJson.code, 1);
  assert.deepEqual(JSON.parse(noneJson.out).results, []);
});

test('limit and --all: default 20, --all gives every line', async () => {
  const repo = makeRepo({ 'many.txt': Array.from({ length: 150 }, (_, i) => `needle ${i}`).join('\n') + '\n' });
  const data = tempDir();
  await cli(['code', 'index', repo], { dataDir: data });
  assert.equal((await cli(['code', 'search', '-t', 'text', 'needle'], { dataDir: data })).out.trim().split('\n').length, 20);
  assert.equal((await cli(['code', 'search', '-t', 'text', 'needle', '--limit', '100'], { dataDir: data })).out.trim().split('\n').length, 100);
  assert.equal((await cli(['code', 'search', '-t', 'text', 'needle', '--all'], { dataDir: data })).out.trim().split('\n').length, 150);
  const hybridAll = await cli(['code', 'search', 'needle', '--all'], { dataDir: data });
  assert.equal(hybridAll.code, 2);
  assert.match(hybridAll.err, /--all goes with --type text or regex/);
  // short queries (no trigram) still work, by scanning
  assert.equal((await cli(['code', 'search', '--type', 'text', 'e 1', '--all'], { dataDir: data })).out.trim().split('\n').length, 61);
});

test('a closed pipe ends quietly with exit 0', async () => {
  const repo = makeRepo({ 'many.txt': Array.from({ length: 5000 }, (_, i) => `needle ${i}`).join('\n') + '\n' });
  const data = tempDir();
  await cli(['code', 'index', repo], { dataDir: data });
  const r = spawnSync('bash', ['-c', `set -o pipefail; node ${JSON.stringify(BIN)} code search -t text needle --all | head -1`], {
    env: { ...process.env, HANZO_DATA_DIR: data }, encoding: 'utf8',
  });
  assert.equal(r.stdout, 'many.txt:1:needle 0\n');
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
});

test('a failed write (a full disk) is exit 2 with a message, never "no results"', { skip: !fs.existsSync('/dev/full') && 'no /dev/full' }, async () => {
  const data = await indexed();
  const r = spawnSync('bash', ['-c', `node ${JSON.stringify(BIN)} code search -t text user --all > /dev/full`], { env: { ...process.env, HANZO_DATA_DIR: data }, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /hanzo: cannot write the output: ENOSPC/);
});

test('a pathological regex does not hang', { timeout: 60_000 }, async () => {
  const repo = makeRepo({ 'a.txt': 'a'.repeat(1500) + 'b\n' + 'aaaa\n' });
  const data = tempDir();
  await cli(['code', 'index', repo], { dataDir: data });
  const r = await cli(['code', 'search', '--type', 'regex', '(a+)+$', '--all'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'a.txt:2:aaaa\n');
  const ci = await cli(['code', 'search', '--type', 'regex', '-i', '(A|AA)+c'], { dataDir: data });
  assert.equal(ci.code, 1);
});

// ---- parity with ripgrep over real code --------------------------------

function haveRg(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

/** A few hundred real files from node_modules, limited to those the index accepts. */
function realCorpus(): string {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../node_modules');
  const dest = tempDir('hanzo-parity-');
  const picked: string[] = [];
  const walk = (dir: string) => {
    if (picked.length >= 400) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (picked.length >= 400) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== '.bin' && e.name !== 'node_modules') walk(p); continue; }
      if (!e.isFile() || !/\.(js|ts|mjs|cjs|json|md)$/.test(e.name)) continue;
      const buf = fs.readFileSync(p);
      if (buf.length > 200_000 || !classify(buf).ok) continue;
      picked.push(p);
    }
  };
  for (const pkg of ['@types/node', 'commander', 'fast-glob', 'ignore', 'chalk', 'cli-table3', 'ora', '@babel/parser', 'better-sqlite3/lib', 'micromatch', 'picomatch']) {
    const dir = path.join(root, pkg);
    if (fs.existsSync(dir)) walk(dir);
  }
  const files: Record<string, Buffer> = {};
  for (const p of picked) files[path.relative(root, p)] = fs.readFileSync(p);
  writeFiles(dest, files);
  execFileSync('git', ['init', '-q', dest]);
  return dest;
}

test('parity: text and regex results equal `rg -n --no-heading` on real code', { skip: !haveRg() && 'ripgrep not installed' }, async () => {
  const corpus = realCorpus();
  const data = tempDir();
  const idx = await cli(['code', 'index', corpus, '--json'], { dataDir: data });
  assert.equal(idx.code, 0, idx.err);
  assert.ok(JSON.parse(idx.out).added >= 150, idx.out);
  const cases: { args: string[]; rg: string[] }[] = [
    ...['function', 'require(', '=> {', 'TODO', 'module.exports', 'this.', '[]', 'a', 'Error(', 'use strict', 'é'].map((q) => ({
      args: ['--type', 'text', '-s', q], rg: ['-F', '-s', q],
    })),
    ...['Options', 'return null', 'PROMISE'].map((q) => ({ args: ['--type', 'text', '-i', q], rg: ['-F', '-i', q] })),
    ...['\\bexport\\s+(default\\s+)?function\\b', '[A-Z][a-z]+Error', '^\\s*//', '\\d{3,}', 'if \\(.*\\) \\{', 'colou?r', '(get|set)[A-Z]\\w*\\('].map((q) => ({
      args: ['--type', 'regex', '-s', q], rg: ['-s', q],
    })),
    ...['readfile', 'new (map|set)\\b'].map((q) => ({ args: ['--type', 'regex', '-i', q], rg: ['-i', q] })),
  ];
  for (const c of cases) {
    const ours = await cli(['code', 'search', '--all', ...c.args], { dataDir: data });
    const rg = spawnSync('rg', ['-n', '--no-heading', '--hidden', '--no-config', '-g', '!.git', ...c.rg], { cwd: corpus, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
    const want = rg.stdout.split('\n').filter(Boolean).sort();
    const got = ours.out.split('\n').filter(Boolean).sort();
    assert.equal(ours.code, want.length > 0 ? 0 : 1, `${c.args.join(' ')}: exit ${ours.code} ${ours.err}`);
    assert.deepEqual(got, want, `results differ for ${c.args.join(' ')}`);
  }
});

test('fail-honest: a failure inside retrieval answers degraded with no results, exit 0, and says what failed', async () => {
  const data = await indexed();
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(data, 'orgs', 'local', 'code.db'));
  db.exec('DROP TABLE lex');
  db.close();
  const r = await cli(['code', 'search', '--type', 'text', 'userName', '--json'], { dataDir: data });
  assert.equal(r.code, 0);
  const o = JSON.parse(r.out);
  assert.equal(o.degraded, true);
  assert.deepEqual(o.results, []);
  assert.match(r.err, /retrieval failed: .*lex/);
});
