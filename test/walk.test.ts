// Tests for the walk stage against real folders: each case builds a git
// repository in a temp directory with real files, real .gitignore files and
// real symlinks, and the ignore rules are checked against git itself
// (`git ls-files`), so the walker is held to git's behaviour rather than to
// our reading of it. Git runs with the user's and the system's config shut
// out, so a developer's global excludes file cannot change the answer.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walk, type WalkedFile } from '../src/walk/walk.js';
import { classify, MAX_LINE_BYTES, DEFAULT_MAX_FILE_SIZE } from '../src/walk/classify.js';
import { UsageError } from '../src/errors.js';

const temps: string[] = [];
after(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(tag: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `hanzo-walk-${tag}-`));
  temps.push(d);
  return d;
}

const gitHome = tempDir('home');
const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: gitHome,
  XDG_CONFIG_HOME: gitHome,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_SYSTEM: '/dev/null',
  GIT_AUTHOR_NAME: 'walk test',
  GIT_AUTHOR_EMAIL: 'walk@test.invalid',
  GIT_COMMITTER_NAME: 'walk test',
  GIT_COMMITTER_EMAIL: 'walk@test.invalid',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function repo(tag: string): string {
  const d = tempDir(tag);
  git(d, 'init', '-q');
  return d;
}

function write(root: string, rel: string, content: string | Buffer = `${rel}\n`): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

async function paths(root: string, opts?: Parameters<typeof walk>[1]): Promise<string[]> {
  return (await walk(root, opts)).map((f) => f.path);
}

/** What git would list: tracked plus untracked-not-ignored, minus symlinks. */
function gitFiles(root: string): string[] {
  const out = git(root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard');
  return [...new Set(out.split('\0').filter(Boolean))]
    .filter((p) => !fs.lstatSync(path.join(root, p)).isSymbolicLink())
    .sort();
}

// ---- walk ---------------------------------------------------------------

test('root .gitignore excludes files, anchored and unanchored', async () => {
  const r = repo('root');
  write(r, '.gitignore', '*.tmp\n/secret.txt\n');
  for (const f of ['a.ts', 'b.tmp', 'sub/c.tmp', 'secret.txt', 'sub/secret.txt']) write(r, f);
  assert.deepEqual(await paths(r), ['.gitignore', 'a.ts', 'sub/secret.txt']);
});

test('nested .gitignore negation re-includes a file a parent rule excluded', async () => {
  const r = repo('negate');
  write(r, '.gitignore', '*.log\n');
  write(r, 'sub/.gitignore', '!keep.log\n');
  for (const f of ['root.log', 'keep.log', 'sub/keep.log', 'sub/other.log', 'other/keep.log', 'sub/deeper/keep.log']) {
    write(r, f);
  }
  const got = await paths(r);
  assert.deepEqual(got, ['.gitignore', 'sub/.gitignore', 'sub/deeper/keep.log', 'sub/keep.log']);
  assert.deepEqual(got, gitFiles(r));
});

test('a nested .gitignore can re-include a directory a parent rule excluded', async () => {
  // The case ignore's public test() gets wrong: the root's `logs/` must not
  // exclude sub/logs/a.txt once sub/.gitignore has re-included sub/logs/.
  const r = repo('redir');
  write(r, '.gitignore', 'logs/\n');
  write(r, 'sub/.gitignore', '!logs/\n');
  for (const f of ['logs/a.txt', 'sub/logs/a.txt', 'sub/logs/deep/b.txt']) write(r, f);
  const got = await paths(r);
  assert.deepEqual(got, ['.gitignore', 'sub/.gitignore', 'sub/logs/a.txt', 'sub/logs/deep/b.txt']);
  assert.deepEqual(got, gitFiles(r));
});

test('a directory rule prunes the directory, and nothing below it can be re-included', async () => {
  const r = repo('dirrule');
  write(r, '.gitignore', 'build/\n');
  // If the walker read build/.gitignore it would bring these back; git does not.
  write(r, 'build/.gitignore', '!*\n');
  for (const f of ['build/out.js', 'build/deep/x.js', 'src/build/y.js', 'src/main.ts']) write(r, f);
  // `build/` matches directories only: a file named build stays.
  write(r, 'lib/build');
  const got = await paths(r);
  assert.deepEqual(got, ['.gitignore', 'lib/build', 'src/main.ts']);
  assert.deepEqual(got, gitFiles(r));
});

test('.git/info/exclude applies, below every .gitignore in precedence', async () => {
  const r = repo('exclude');
  fs.writeFileSync(path.join(r, '.git', 'info', 'exclude'), '# local\n*.secret\n');
  write(r, 'sub/.gitignore', '!b.secret\n');
  for (const f of ['a.secret', 'sub/a.secret', 'sub/b.secret', 'plain.txt']) write(r, f);
  const got = await paths(r);
  assert.deepEqual(got, ['plain.txt', 'sub/.gitignore', 'sub/b.secret']);
  assert.deepEqual(got, gitFiles(r));
});

test('deny list: node_modules and friends are never walked, without any .gitignore', async () => {
  const r = repo('deny');
  for (const f of [
    'index.ts',
    'node_modules/x/index.js',
    'pkg/node_modules/y/index.js',
    'bower_components/z.js',
    'py/__pycache__/m.cpython-311.pyc',
    '.DS_Store',
    'deep/.DS_Store',
    '.hg/store',
    '.svn/entries',
  ]) {
    write(r, f);
  }
  assert.deepEqual(await paths(r), ['index.ts']);
  // extraDeny: [] adds nothing and lifts nothing.
  assert.deepEqual(await paths(r, { extraDeny: [] }), ['index.ts']);
});

test('a root that is itself named node_modules is walked; only descendants are denied', async () => {
  const base = tempDir('nmroot');
  const nm = path.join(base, 'node_modules');
  write(nm, 'left-pad/index.js');
  write(nm, 'left-pad/package.json');
  write(nm, 'left-pad/node_modules/dep/index.js');
  assert.deepEqual(await paths(nm, { extraDeny: [] }), ['left-pad/index.js', 'left-pad/package.json']);
});

test('dotfiles and dot-folders are walked; .git contents are not', async () => {
  const r = repo('dot');
  write(r, '.github/workflows/ci.yml', 'on: push\n');
  write(r, '.eslintrc', '{}\n');
  write(r, '.config/tool/settings.json', '{}\n');
  write(r, 'src/.env.example', 'A=1\n');
  git(r, 'add', '-A');
  git(r, 'commit', '-q', '-m', 'init');
  const got = await paths(r);
  assert.deepEqual(got, ['.config/tool/settings.json', '.eslintrc', '.github/workflows/ci.yml', 'src/.env.example']);
  assert.ok(fs.readdirSync(path.join(r, '.git', 'objects')).length > 2, 'the commit wrote objects that could leak');
  assert.ok(!got.some((p) => p === '.git' || p.startsWith('.git/')));
  assert.deepEqual(got, gitFiles(r));
});

// The timeout turns a walker that follows links into a failure, not a hang.
test('a symlink loop does not hang and yields no duplicates', { timeout: 20_000 }, async () => {
  const r = repo('loop');
  write(r, 'a.ts');
  write(r, 'sub/b.ts');
  fs.symlinkSync('..', path.join(r, 'sub', 'loop'));
  fs.symlinkSync('.', path.join(r, 'self'));
  fs.symlinkSync('a.ts', path.join(r, 'link-to-a.ts'));
  const got = await paths(r);
  // Symlinks are skipped outright, the file one included (documented choice).
  assert.deepEqual(got, ['a.ts', 'sub/b.ts']);
  assert.equal(new Set(got).size, got.length);
});

test('a symlink pointing outside the root yields nothing from outside', async () => {
  const r = repo('outside');
  const other = tempDir('other');
  write(other, 'outside.txt', 'secret\n');
  write(other, 'nested/more.txt', 'secret\n');
  write(r, 'in.txt');
  fs.symlinkSync(other, path.join(r, 'ext'));
  fs.symlinkSync(path.join(other, 'outside.txt'), path.join(r, 'ext-file.txt'));
  const files = await walk(r);
  assert.deepEqual(
    files.map((f) => f.path),
    ['in.txt'],
  );
  for (const f of files) assert.ok(f.abs.startsWith(r + path.sep), f.abs);
});

test('paths are relative, /-separated, byte-sorted; abs, size and mtimeMs come from the file', async () => {
  const r = repo('shape');
  const names = ['b/z.ts', 'b.ts', 'a/b/c/d.ts', 'B.ts', 'a-b.ts', 'a.b/x.ts', 'a/b.ts', 'é.ts', 'z\uE000.ts', 'z😀.ts'];
  for (const n of names) write(r, n, 'x'.repeat(n.length));
  const files: WalkedFile[] = await walk(r);
  const got = files.map((f) => f.path);
  const byBytes = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  assert.deepEqual(got, byBytes);
  // UTF-16 order puts the astral character first; bytes put U+E000 first.
  assert.ok(got.indexOf('z\uE000.ts') < got.indexOf('z😀.ts'));
  for (const f of files) {
    assert.ok(!f.path.startsWith('/') && !f.path.startsWith('./') && !f.path.includes('\\'), f.path);
    assert.equal(f.abs, path.join(r, ...f.path.split('/')));
    const st = fs.statSync(f.abs);
    assert.equal(f.size, st.size);
    assert.equal(f.size, f.path.length);
    assert.equal(f.mtimeMs, st.mtimeMs);
  }
});

test('extraDeny excludes on top of everything, and .gitignore cannot re-include it', async () => {
  const r = repo('extra');
  write(r, 'docs/.gitignore', '!*.md\n');
  for (const f of ['README.md', 'docs/guide.md', 'gen/out.ts', 'src/gen/keep.ts', 'src/a.ts']) write(r, f);
  assert.deepEqual(await paths(r, { extraDeny: ['*.md', '/gen/'] }), ['docs/.gitignore', 'src/a.ts', 'src/gen/keep.ts']);
});

test('an unreadable directory is skipped, not fatal', { skip: process.getuid?.() === 0 ? 'root reads any directory' : false }, async () => {
  const r = repo('perm');
  write(r, 'ok.ts');
  write(r, 'locked/hidden.ts');
  fs.chmodSync(path.join(r, 'locked'), 0o000);
  try {
    assert.deepEqual(await paths(r), ['ok.ts']);
  } finally {
    fs.chmodSync(path.join(r, 'locked'), 0o755);
  }
});

test('a root that is not a readable directory is a usage error', async () => {
  const base = tempDir('missing');
  await assert.rejects(walk(path.join(base, 'nope')), (err) => err instanceof UsageError && /ENOENT/.test(err.message));
  write(base, 'file.txt');
  await assert.rejects(walk(path.join(base, 'file.txt')), (err) => err instanceof UsageError && /ENOTDIR/.test(err.message));
});

test('parity with git ls-files --cached --others --exclude-standard on a committed repo', async () => {
  const r = repo('parity');
  write(
    r,
    '.gitignore',
    [
      '# comment line',
      '.*',
      '!.gitignore',
      '!.github/',
      '*.o',
      '*.LOG',
      '/anchored.txt',
      'doc/*.txt',
      'foo/**',
      '!foo/keep.txt',
      '**/deep/*.c',
      'trailing-space.txt   ',
      '\\#hash.txt',
      '\\!bang.txt',
      'logs/',
      'dir-or-file',
      'a?c.txt',
      '[xy]z.txt',
      '',
    ].join('\n'),
  );
  write(r, 'sub/.gitignore', '!logs/\n!*.o\nlocal-only.txt\n');
  write(r, 'crlf/.gitignore', '*.bak\r\n!keep.bak\r\n');
  write(r, 'bom/.gitignore', '\uFEFF*.gen\n');
  write(r, 'case/.gitignore', 'Upper.txt\n');
  fs.writeFileSync(path.join(r, '.git', 'info', 'exclude'), '*.excluded\n');
  const files = [
    'src/main.c', 'src/main.o', 'sub/kept.o', 'sub/local-only.txt', 'local-only.txt',
    'a.log', 'b.LOG', 'anchored.txt', 'src/anchored.txt',
    'doc/a.txt', 'doc/sub/b.txt', 'foo/x.txt', 'foo/keep.txt', 'foo/sub/y.txt',
    'x/deep/a.c', 'deep/b.c', 'x/deep/more/c.c',
    'trailing-space.txt', '#hash.txt', '!bang.txt',
    'logs/l.txt', 'sub/logs/l.txt', 'sub/logs/inner/m.txt',
    'dir-or-file', 'q/dir-or-file/z.txt',
    'abc.txt', 'ac.txt', 'xz.txt', 'zz.txt',
    '.hidden', '.github/workflows/ci.yml', 'sub/.hidden/x.txt',
    'crlf/a.bak', 'crlf/keep.bak', 'crlf/c.txt',
    'bom/x.gen', 'bom/y.txt',
    'case/Upper.txt', 'case/upper.txt',
    'n.excluded', 'sub/m.excluded',
    'space name/file with space.txt', 'unicode/ünï.txt',
  ];
  for (const f of files) write(r, f);
  fs.symlinkSync('../src/main.c', path.join(r, 'sub', 'link.c'));
  git(r, 'add', '-A');
  git(r, 'commit', '-q', '-m', 'init');
  // Untracked files after the commit, ignored and not, for --others.
  for (const f of ['new/untracked.ts', 'new/untracked.o', 'sub/new.o', 'foo/new.txt']) write(r, f);

  const expected = gitFiles(r);
  const got = await paths(r);
  assert.deepEqual(got, expected);
  // Guard against a vacuous pass: the rules did exclude and re-include things.
  assert.ok(expected.includes('sub/logs/inner/m.txt') && expected.includes('foo/keep.txt'));
  assert.ok(!expected.includes('src/main.o') && !expected.includes('foo/x.txt'));
});

// ---- classify -----------------------------------------------------------

test('classify: a NUL byte in the first 8 KiB is binary, later it is not', () => {
  assert.deepEqual(classify(Buffer.from('abc\0def\n')), { ok: false, reason: 'binary' });
  const at8191 = Buffer.alloc(9000, 'a');
  at8191[8191] = 0;
  assert.deepEqual(classify(at8191), { ok: false, reason: 'binary' });
  const at8192 = Buffer.alloc(9000, 'a\n');
  at8192[8192] = 0;
  assert.equal(classify(at8192).ok, true);
});

test('classify: invalid UTF-8', () => {
  assert.deepEqual(classify(Buffer.from([0xff, 0xfe, 0x41])), { ok: false, reason: 'invalid-utf8' });
  // A multi-byte sequence cut off at the end of the file.
  assert.deepEqual(classify(Buffer.from([0x61, 0xe2, 0x82])), { ok: false, reason: 'invalid-utf8' });
  // An encoded surrogate (CESU-8) is not UTF-8 either.
  assert.deepEqual(classify(Buffer.from([0xed, 0xa0, 0x80])), { ok: false, reason: 'invalid-utf8' });
});

test('classify: rules apply in codesearch order', () => {
  // NUL and invalid UTF-8 and a long line: binary wins; then invalid-utf8.
  const all = Buffer.concat([Buffer.from([0, 0xff]), Buffer.alloc(3000, 'a')]);
  assert.deepEqual(classify(all), { ok: false, reason: 'binary' });
  const bad = Buffer.concat([Buffer.from([0xff]), Buffer.alloc(3000, 'a')]);
  assert.deepEqual(classify(bad), { ok: false, reason: 'invalid-utf8' });
});

test('classify: a line over 2000 bytes is long; exactly 2000 is fine', () => {
  assert.equal(MAX_LINE_BYTES, 2000);
  assert.equal(DEFAULT_MAX_FILE_SIZE, 1048576);
  const a = (n: number): string => 'a'.repeat(n);
  assert.deepEqual(classify(Buffer.from(a(2001))), { ok: false, reason: 'long-line' });
  assert.deepEqual(classify(Buffer.from(`x\n${a(2001)}\ny\n`)), { ok: false, reason: 'long-line' });
  assert.deepEqual(classify(Buffer.from(`x\n${a(1999)}\n${a(2001)}`)), { ok: false, reason: 'long-line' });
  assert.deepEqual(classify(Buffer.from(a(2000))), { ok: true, text: a(2000) });
  assert.deepEqual(classify(Buffer.from(`${a(2000)}\n${a(2000)}\n`)), { ok: true, text: `${a(2000)}\n${a(2000)}\n` });
  // The CR of a CRLF is part of the line (it stays in the text).
  assert.deepEqual(classify(Buffer.from(`${a(2000)}\r\n`)), { ok: false, reason: 'long-line' });
  // Bytes, not characters: 1000 two-byte characters are 2000 bytes.
  assert.equal(classify(Buffer.from('é'.repeat(1000))).ok, true);
  assert.deepEqual(classify(Buffer.from('é'.repeat(1000) + 'a')), { ok: false, reason: 'long-line' });
});

test('classify: the long-line scan agrees with a line-by-line count on random files', () => {
  // The scan jumps up to 2000 bytes at a time; check it against the obvious
  // per-line loop on lines clustered around the limit.
  // xorshift32: deterministic, so a failure names a case that reproduces.
  let seed = 12345;
  const rand = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  let longSeen = 0;
  for (let i = 0; i < 400; i++) {
    const lines: string[] = [];
    const count = 1 + rand(6);
    for (let j = 0; j < count; j++) {
      const len = rand(4) === 0 ? rand(50) : MAX_LINE_BYTES - 3 + rand(5);
      lines.push('b'.repeat(len));
    }
    const text = lines.join('\n') + (rand(2) ? '\n' : '');
    const naive = text.split('\n').some((l) => l.length > MAX_LINE_BYTES);
    if (naive) longSeen++;
    const got = classify(Buffer.from(text));
    assert.equal(!got.ok && got.reason === 'long-line', naive, `case ${i}: ${lines.map((l) => l.length).join(',')}`);
  }
  assert.ok(longSeen > 50 && longSeen < 350, `both outcomes exercised (${longSeen} long)`);
});

test('classify: a UTF-8 BOM is stripped and not counted in the first line', () => {
  assert.deepEqual(classify(Buffer.from('\uFEFFhello\n')), { ok: true, text: 'hello\n' });
  const bomLine = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.alloc(2000, 'a')]);
  assert.deepEqual(classify(bomLine), { ok: true, text: 'a'.repeat(2000) });
  // Only a leading BOM is a BOM.
  assert.deepEqual(classify(Buffer.from('a\uFEFFb')), { ok: true, text: 'a\uFEFFb' });
});

test('classify: ordinary text comes back unchanged, CRLF included', () => {
  const src = 'export const x = 1;\r\n// ünïcødé ✓ 😀\r\nlast line without newline';
  assert.deepEqual(classify(Buffer.from(src)), { ok: true, text: src });
  assert.deepEqual(classify(Buffer.alloc(0)), { ok: true, text: '' });
});
