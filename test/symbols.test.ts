// The symbol tier, --refs, tree and file through the real CLI, and the
// linker's incremental re-resolution (issue 3).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import { queryPieces, subwordMatch } from '../src/retrieve/symbols.js';
import { cli, makeRepo, tempDir, writeFiles } from './support/repo.js';

const REPO = {
  'src/user.ts': [
    'export function getUserName(id: number): string {',
    '  return String(id);',
    '}',
    'export function getUser(id: number) { return { id }; }',
    'export const get_user_name_cache = new Map();',
    'export class UserStore {',
    '  find(id: number) { return getUserName(id); }',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { getUserName } from './user.js';",
    'export function main(parse: (s: string) => string) {',
    '  console.log(getUserName(1));',
    '  return parse("x");',
    '}',
    'function parse(s: string) { return s; }',
    '',
  ].join('\n'),
  'lib/names.py': ['def get_user_name(uid):', '    return str(uid)', '', 'class Registry:', '    def lookup(self, uid):', '        return get_user_name(uid)', ''].join('\n'),
};

async function indexed(files: Record<string, string> = REPO): Promise<{ data: string; repo: string }> {
  const repo = makeRepo(files);
  const data = tempDir();
  const r = await cli(['code', 'index', repo, '--repo', 'acme/app'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  return { data, repo };
}

test('sub-word matching: camel humps and snake parts', () => {
  assert.deepEqual(queryPieces('gUN'), ['g', 'u', 'n']);
  assert.deepEqual(queryPieces('get user'), ['get', 'user']);
  assert.deepEqual(queryPieces('get_user'), ['get', 'user']);
  assert.ok(subwordMatch(queryPieces('gUN'), 'getUserName'));
  assert.ok(subwordMatch(queryPieces('get user'), 'get_user_name'));
  assert.ok(subwordMatch(queryPieces('user name'), 'getUserName'));
  assert.ok(!subwordMatch(queryPieces('name user'), 'getUserName'), 'order matters');
  assert.ok(!subwordMatch(queryPieces('gUX'), 'getUserName'));
});

test('--type symbol: exact > case-insensitive > prefix > sub-word > substring', async () => {
  const { data } = await indexed();
  const names = async (q: string) =>
    JSON.parse((await cli(['code', 'search', '--type', 'symbol', q, '--json'], { dataDir: data })).out).results.map((r: { symbol: string }) => r.symbol);
  assert.deepEqual((await names('getUserName')).slice(0, 1), ['getUserName']);
  assert.deepEqual((await names('getuser')).slice(0, 2), ['getUser', 'getUserName'], 'case-insensitive exact, then prefix');
  const humps = await names('gUN');
  assert.equal(humps[0], 'getUserName');
  assert.ok(humps.includes('get_user_name'));
  assert.ok((await names('get user')).includes('get_user_name_cache'));
  assert.deepEqual(await names('Store'), ['UserStore'], 'substring last');
  // sub-word: the name made of exactly the pieces beats names that only contain them
  const { data: d2 } = await indexed({
    'a.go': 'package a\nfunc TestReplaceAllFunc() {}\nfunc BenchmarkReplaceAll() {}\nfunc ReplaceAll() {}\nfunc pedanticReadAll() {}\nfunc TestChunkReaderAllocs() {}\n',
  });
  const n2 = async (q: string) => JSON.parse((await cli(['code', 'search', '--type', 'symbol', q, '--json'], { dataDir: d2 })).out).results.map((r: { symbol: string }) => r.symbol);
  assert.equal((await n2('rAll'))[0], 'ReplaceAll');
  assert.equal((await n2('read all'))[0], 'pedanticReadAll');
  const j = JSON.parse((await cli(['code', 'search', '--type', 'symbol', 'UserStore.find', '--json'], { dataDir: data })).out);
  assert.equal(j.type, 'symbol');
  const top = j.results[0];
  assert.deepEqual([top.file, top.symbol, top.kind, top.role, top.line, top.endLine], ['src/user.ts', 'find', 'method', 'definition', 7, 7]);
  assert.ok(j.results.every((r: { tier: string }) => r.tier === 'symbol'));
  assert.ok(j.results[0].score > j.results[j.results.length - 1].score || j.results.length === 1);
});

test('--refs: the references to the best definition, grouped by file; shadowed names do not bind', async () => {
  const { data } = await indexed();
  const r = await cli(['code', 'search', '--type', 'symbol', '--refs', 'getUserName'], { dataDir: data });
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.trim().split('\n'), [
    'src/user.ts:1:export function getUserName(id: number): string {',
    'src/main.ts:3:  console.log(getUserName(1));',
    'src/user.ts:7:  find(id: number) { return getUserName(id); }',
  ]);
  const j = JSON.parse((await cli(['code', 'search', '--type', 'symbol', '--refs', 'getUserName', '--json'], { dataDir: data })).out);
  assert.equal(j.results[0].role, 'definition');
  assert.ok(j.results.slice(1).every((s: { role: string }) => s.role === 'caller'));
  // main's `parse` is its parameter, not the module's function parse
  const p = await cli(['code', 'search', '--type', 'symbol', '--refs', 'parse'], { dataDir: data });
  assert.ok(!p.out.includes('src/main.ts:4:'), p.out);
  // python: a call inside a method binds to the module function
  const py = await cli(['code', 'search', '--type', 'symbol', '--refs', 'get_user_name'], { dataDir: data });
  assert.ok(py.out.includes('lib/names.py:6:'), py.out);
});

test('linker: re-index replaces edges, re-resolves references into changed files, leaves none dangling', async () => {
  const { data, repo } = await indexed({
    'pkg/a.go': 'package pkg\n\nfunc Helper() int { return 1 }\n',
    'pkg/b.go': 'package pkg\n\nfunc Use() int { return Helper() }\n',
    'other/c.go': 'package other\n\nfunc Helper() int { return 2 }\n',
  });
  const refs = async () => (await cli(['code', 'search', '--type', 'symbol', '--refs', 'pkg.Helper'], { dataDir: data })).out;
  assert.match(await refs(), /pkg\/b\.go:3:/, 'the same-package definition wins over the other package');
  // delete the definition: the edge goes, nothing dangles
  fs.rmSync(path.join(repo, 'pkg/a.go'));
  await cli(['code', 'index', repo, '--repo', 'acme/app'], { dataDir: data });
  const db = new Database(path.join(data, 'orgs', 'local', 'code.db'), { readonly: true });
  const dangling = db.prepare('SELECT count(*) AS n FROM refs WHERE target IS NOT NULL AND target NOT IN (SELECT id FROM symbols)').get() as { n: number };
  assert.equal(dangling.n, 0);
  const bound = db.prepare("SELECT r.target, f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = 'Helper'").all() as { target: number | null; path: string }[];
  db.close();
  // with only other/c.go left, the unqualified call in pkg binds repo-wide to the one remaining Helper
  assert.equal(bound.length, 1);
  assert.notEqual(bound[0]!.target, null);
  // a new definition appears in the package again: the reference in an unchanged file is re-resolved to it
  writeFiles(repo, { 'pkg/a2.go': 'package pkg\n\nfunc Helper() int { return 3 }\n' });
  await cli(['code', 'index', repo, '--repo', 'acme/app'], { dataDir: data });
  assert.match(await refs(), /^pkg\/a2\.go:3:func Helper/m);
  assert.match(await refs(), /pkg\/b\.go:3:/);
});

test('tree: files with language and symbol counts; --symbols; --json flat list', async () => {
  const { data } = await indexed();
  const t = await cli(['code', 'tree'], { dataDir: data });
  assert.equal(t.code, 0);
  assert.match(t.out, /^acme\/app\n/);
  assert.match(t.out, /\n {2}src\/\n {4}main\.ts {2}\(typescript, 2 symbols\)\n {4}user\.ts {2}\(typescript, \d+ symbols\)/);
  const s = await cli(['code', 'tree', '--symbols'], { dataDir: data });
  assert.match(s.out, /func getUserName {2}1-3/);
  assert.match(s.out, /method UserStore\.find {2}7-7/);
  const j = JSON.parse((await cli(['code', 'tree', '--symbols', '--json'], { dataDir: data })).out);
  const py = j.find((e: { file: string }) => e.file === 'lib/names.py');
  assert.deepEqual(py, {
    repo: 'acme/app', file: 'lib/names.py', language: 'python', symbols: 3,
    definitions: [
      { name: 'get_user_name', kind: 'func', line: 1, endLine: 2 },
      { name: 'Registry', kind: 'class', line: 4, endLine: 6 },
      { name: 'lookup', kind: 'method', line: 5, endLine: 6 },
    ],
  });
  const plain = JSON.parse((await cli(['code', 'tree', '--json'], { dataDir: data })).out);
  assert.equal(plain[0].definitions, undefined);
  assert.equal((await cli(['code', 'tree', '--repo', 'nope'], { dataDir: data })).code, 2);
});

test('file: indexed content, --lines, --json, escapes and misses', async () => {
  const { data } = await indexed();
  const f = await cli(['code', 'file', 'src/main.ts'], { dataDir: data });
  assert.equal(f.code, 0);
  assert.equal(f.out, REPO['src/main.ts']);
  const lines = await cli(['code', 'file', 'src/main.ts', '--lines', '2:3'], { dataDir: data });
  assert.equal(lines.out, 'export function main(parse: (s: string) => string) {\n  console.log(getUserName(1));\n');
  const tty = await cli(['code', 'file', './src/main.ts', '--lines', '3:3'], { dataDir: data, tty: true });
  assert.equal(tty.out, '3    console.log(getUserName(1));\n', 'number, two spaces, the line');
  const j = JSON.parse((await cli(['code', 'file', 'src/user.ts', '--json'], { dataDir: data })).out);
  assert.equal(j.file, 'src/user.ts');
  assert.ok(j.definitions.some((d: { name: string }) => d.name === 'UserStore'));
  for (const bad of ['../etc/passwd', '/etc/passwd', 'src/../../x']) {
    const r = await cli(['code', 'file', bad], { dataDir: data });
    assert.equal(r.code, 2, bad);
    assert.match(r.err, /invalid path/);
  }
  const miss = await cli(['code', 'file', 'src/mian.ts'], { dataDir: data });
  assert.equal(miss.code, 1);
  assert.match(miss.err, /"src\/mian\.ts" is not indexed/);
  assert.match(miss.err, /closest indexed paths: src\/main\.ts/);
  assert.equal((await cli(['code', 'file', 'src/main.ts', '--lines', '5:2'], { dataDir: data })).code, 2);
});

test('index --no-symbols is lexical only; a later full index re-parses the unchanged files', async () => {
  const repo = makeRepo(REPO);
  const data = tempDir();
  const lex = JSON.parse((await cli(['code', 'index', repo, '--no-symbols', '--json'], { dataDir: data })).out);
  assert.equal(lex.added, 3);
  assert.equal((await cli(['code', 'search', '--type', 'symbol', 'getUserName'], { dataDir: data })).code, 1);
  assert.equal((await cli(['code', 'search', '--type', 'text', 'getUserName'], { dataDir: data })).code, 0);
  const full = JSON.parse((await cli(['code', 'index', repo, '--json'], { dataDir: data })).out);
  assert.equal(full.updated, 3, 'derived by another extractor: re-parsed');
  assert.equal((await cli(['code', 'search', '--type', 'symbol', 'getUserName'], { dataDir: data })).code, 0);
  const again = JSON.parse((await cli(['code', 'index', repo, '--json'], { dataDir: data })).out);
  assert.equal(again.unchanged, 3);
});
