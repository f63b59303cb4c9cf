// The tools hanzo is measured against: ripgrep (grep speed and the line
// counts hanzo must agree with), cindex/csearch (a trigram index, the
// nearest peer in design), universal-ctags (the definitions hanzo's `tree`
// should list). Also the process plumbing shared with the hanzo half:
// timing a child, reading its peak RSS, counting its output lines.

import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, lstatSync } from 'node:fs';
import { delimiter, join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';

const MAX_BUFFER = 1 << 30;

// ---- processes -------------------------------------------------------------

/** The absolute path of an executable on PATH, or undefined. */
export function which(cmd: string): string | undefined {
  if (cmd.includes('/')) return existsSync(cmd) ? cmd : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export interface Timed {
  ms: number;
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Run a command to completion, capturing stdout, and time it wall-clock. */
export function timed(cmd: string, args: readonly string[], opts: SpawnSyncOptions = {}): Timed {
  const t0 = performance.now();
  const r = spawnSync(cmd, args as string[], { maxBuffer: MAX_BUFFER, ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout as Buffer, stderr: String(r.stderr ?? '') };
}

/** Number of lines in a buffer (a final line without '\n' counts). */
export function countLines(buf: Buffer | undefined): number {
  if (!buf || buf.length === 0) return 0;
  let n = 0;
  let i = -1;
  while ((i = buf.indexOf(10, i + 1)) !== -1) n++;
  if (buf[buf.length - 1] !== 10) n++;
  return n;
}

export interface Measured extends Timed {
  /** peak resident set size in bytes, undefined when it could not be read */
  peakRss?: number;
  /** how peakRss was read */
  rssSource: 'time -v' | '/proc VmHWM' | 'none';
}

const TIME = '/usr/bin/time';

/**
 * Run a command, timing it and reading its peak RSS: through `/usr/bin/time
 * -v` (Debian package `time`) when present, else by polling
 * /proc/<pid>/status VmHWM while it runs.
 */
export async function measured(cmd: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Measured> {
  if (existsSync(TIME)) {
    const r = timed(TIME, ['-v', cmd, ...args], { env: opts.env, cwd: opts.cwd });
    // time -v appends its report to the child's stderr; split it off.
    const at = r.stderr.lastIndexOf('\tCommand being timed:');
    const report = at >= 0 ? r.stderr.slice(at) : '';
    let stderr = at >= 0 ? r.stderr.slice(0, at) : r.stderr;
    stderr = stderr.replace(/Command exited with non-zero status \d+\n?$/, '');
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
    const st = /Exit status: (\d+)/.exec(report);
    return {
      ms: r.ms,
      status: st ? Number(st[1]) : r.status,
      stdout: r.stdout,
      stderr,
      peakRss: m ? Number(m[1]) * 1024 : undefined,
      rssSource: m ? 'time -v' : 'none',
    };
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args as string[], { env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let peak = 0;
    const poll = () => {
      try {
        const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const m = /VmHWM:\s+(\d+) kB/.exec(s);
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        /* exited */
      }
    };
    const timer = setInterval(poll, 20);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({
        ms: performance.now() - t0,
        status: code,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8'),
        peakRss: peak || undefined,
        rssSource: peak ? '/proc VmHWM' : 'none',
      });
    });
  });
}

/** First line of `<cmd> --version` (or of stderr), for the JSON record. */
export function version(cmd: string, flag = '--version'): string | undefined {
  if (!which(cmd)) return undefined;
  const r = spawnSync(cmd, [flag], { encoding: 'utf8' });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  return text.split('\n')[0] || undefined;
}

// ---- corpus ------------------------------------------------------------------

export interface CorpusSize {
  files: number;
  bytes: number;
  /** file count per extension ('' for none), to pick a query set */
  byExt: Map<string, number>;
}

/** Regular files under root (symlinks not followed) and their total size. */
export function corpusSize(root: string): CorpusSize {
  const byExt = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let ents;
    try {
      ents = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of ents) {
      const p = join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        files++;
        bytes += lstatSync(p).size;
        const dot = e.name.lastIndexOf('.');
        const ext = dot > 0 ? e.name.slice(dot + 1) : '';
        byExt.set(ext, (byExt.get(ext) ?? 0) + 1);
      }
    }
  }
  return { files, bytes, byExt };
}

/** Total size of every file under a directory (the store, with -wal/-shm). */
export function dirBytes(root: string): number {
  return corpusSize(root).bytes;
}

// ---- ripgrep -----------------------------------------------------------------

export function rgArgs(query: string, corpus: string, literal: boolean, smartCase: boolean): string[] {
  return ['-n', '--no-heading', ...(smartCase ? ['-S'] : []), ...(literal ? ['-F'] : []), '-e', query, corpus];
}

export interface Found {
  ms: number;
  lines: number;
  error?: string;
  /** the raw output, for the parity check's line-by-line comparison */
  stdout?: Buffer;
  /** exit status and first stderr line, for diagnosing a run that went wrong */
  detail?: string;
}

/** One rg run: wall ms and matching lines printed. */
export function rg(query: string, corpus: string, literal: boolean, smartCase: boolean): Found {
  const r = timed('rg', rgArgs(query, corpus, literal, smartCase));
  // 0 = matches, 1 = none, 2 = error (rg still prints what it found)
  const error = r.status === 0 || r.status === 1 ? undefined : r.stderr.trim().split('\n')[0] || `exit ${r.status}`;
  return { ms: r.ms, lines: countLines(r.stdout), error, stdout: r.stdout };
}

/**
 * The set of "file:line" keys in `path:line:text` output, paths made
 * relative to `root` so rg's and hanzo's outputs compare.
 */
export function lineKeys(out: Buffer | undefined, root: string): Set<string> {
  const keys = new Set<string>();
  if (!out) return keys;
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (const l of out.toString('utf8').split('\n')) {
    const m = /^(.*?):(\d+):/.exec(l);
    if (!m) continue;
    const f = m[1]!.startsWith(prefix) ? m[1]!.slice(prefix.length) : m[1]!.replace(/^\.\//, '');
    keys.add(`${f}:${m[2]}`);
  }
  return keys;
}

/** rg's smart case, approximately: no uppercase letter outside an escape like \W or \S. */
export function hasUpper(query: string, literal: boolean): boolean {
  const q = literal ? query : query.replace(/\\[A-Za-z]/g, '');
  return /\p{Lu}/u.test(q);
}

// ---- cindex / csearch --------------------------------------------------------

export interface CindexResult {
  ms: number;
  indexBytes: number;
  peakRss?: number;
  /** "N data bytes" cindex reports: what it actually indexed */
  dataBytes?: number;
  /** files cindex logged as skipped (binary, long lines, too many trigrams) */
  skipped: number;
}

export async function cindex(corpus: string, indexFile: string): Promise<CindexResult> {
  const env = { ...process.env, CSEARCHINDEX: indexFile };
  const r = await measured('cindex', [corpus], { env });
  if (r.status !== 0) throw new Error(`cindex failed (${r.status}): ${r.stderr.slice(-400)}`);
  const data = /(\d+) data bytes/.exec(r.stderr);
  const skipped = r.stderr.split('\n').filter((l) => /: (skipping|too many|invalid|Binary|binary|line too long)/i.test(l)).length;
  return {
    ms: r.ms,
    indexBytes: statSync(indexFile).size,
    peakRss: r.peakRss,
    dataBytes: data ? Number(data[1]) : undefined,
    skipped,
  };
}

/** Escape a literal for RE2 (csearch's regex syntax). */
export function escapeRe2(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** csearch has no smart case: -i when the query has no uppercase letter and smart case is on. */
export function csearch(query: string, indexFile: string, literal: boolean, smartCase: boolean): Found {
  const env = { ...process.env, CSEARCHINDEX: indexFile };
  const ci = smartCase && !hasUpper(query, literal) ? ['-i'] : [];
  const r = timed('csearch', [...ci, '-n', literal ? escapeRe2(query) : query], { env });
  const error = r.status === 0 || r.status === 1 ? undefined : r.stderr.trim().split('\n')[0] || `exit ${r.status}`;
  return { ms: r.ms, lines: countLines(r.stdout), error };
}

// ---- universal-ctags -------------------------------------------------------

/** A definition as ctags reports it, path relative to the corpus root. */
export interface CtagsDef {
  name: string;
  file: string;
  line: number;
  /** normalised kind: func | method | type | struct | interface | class | alias | enum | generator */
  kind: string;
  language: string;
}

/**
 * Which ctags kinds count as "definitions" per language, and what each is
 * called in the report. Go methods are ctags `func` with a non-package
 * scope; they are split out as `method`.
 */
export const CTAGS_KINDS: Record<string, { letters: string; names: Record<string, string> }> = {
  Go: {
    letters: 'fatsi',
    names: { func: 'func', talias: 'alias', type: 'type', struct: 'struct', interface: 'interface' },
  },
  Python: {
    letters: 'cfm',
    names: { class: 'class', function: 'function', member: 'method' },
  },
  TypeScript: {
    letters: 'fcmiagG',
    names: { function: 'function', class: 'class', method: 'method', interface: 'interface', alias: 'type alias', enum: 'enum', generator: 'function' },
  },
  JavaScript: {
    letters: 'fcmg',
    names: { function: 'function', class: 'class', method: 'method', generator: 'function' },
  },
};

/** TS/JS kinds whose declaration must show `keyword name` on the tagged line. */
const KEYWORD: Record<string, string> = { class: 'class', interface: 'interface', alias: 'type', enum: 'enum' };

/**
 * Definitions ctags reports, minus what is ctags noise rather than a
 * definition, counted per reason in `dropped`:
 * - `anonymous`: names ctags makes up (AnonymousFunction0abd5e2c0f00)
 * - `interface member`: TypeScript method signatures inside an interface
 *   (the counterpart of Go's methodSpec, which is not asked for either)
 * - `no keyword`: TS/JS class/interface/type/enum tags whose line does not
 *   say `class X` / `interface X` / `type X` / `enum X` (ctags 5.9 calls object
 *   literals classes and `import type X` an alias)
 */
export function ctagsDefinitions(
  corpus: string,
  languages: readonly (keyof typeof CTAGS_KINDS)[],
): { defs: CtagsDef[]; ms: number; warnings: number; dropped: Record<string, number> } {
  const dropped: Record<string, number> = {};
  const drop = (why: string) => (dropped[why] = (dropped[why] ?? 0) + 1);
  const args = [
    '-R',
    `--languages=${languages.join(',')}`,
    ...languages.map((l) => `--kinds-${l}=${CTAGS_KINDS[l]!.letters}`),
    '--output-format=json',
    '--fields=+nKzSl',
    '-f',
    '-',
    corpus,
  ];
  const r = timed('ctags', args);
  if (r.status !== 0) throw new Error(`ctags failed (${r.status}): ${r.stderr.slice(-400)}`);
  const defs: CtagsDef[] = [];
  const root = corpus.endsWith(sep) ? corpus : corpus + sep;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let t: { _type?: string; name?: string; path?: string; line?: number; kind?: string; language?: string; scopeKind?: string; pattern?: string };
    try {
      t = JSON.parse(line);
    } catch {
      continue;
    }
    if (t._type !== 'tag' || !t.name || !t.path || !t.line || !t.kind) continue;
    const lang = t.language ?? '';
    const names = CTAGS_KINDS[lang]?.names;
    let kind = names?.[t.kind];
    if (!kind) continue;
    if (lang === 'Go' && t.kind === 'func' && t.scopeKind && t.scopeKind !== 'package') kind = 'method';
    if (lang === 'TypeScript' || lang === 'JavaScript') {
      if (/^Anonymous[A-Za-z]*[0-9a-f]{8,}$/.test(t.name)) {
        drop('anonymous');
        continue;
      }
      if (lang === 'TypeScript' && t.kind === 'method' && t.scopeKind === 'interface') {
        drop('interface member');
        continue;
      }
      const kw = KEYWORD[t.kind];
      const esc = t.name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
      if (kw && t.pattern && !new RegExp(`\\b${kw}\\s+${esc}(?![\\w$])`).test(t.pattern)) {
        drop('no keyword');
        continue;
      }
    }
    const file = t.path.startsWith(root) ? t.path.slice(root.length) : relative(corpus, t.path);
    defs.push({ name: t.name, file, line: t.line, kind, language: lang });
  }
  const warnings = r.stderr.split('\n').filter((l) => l.includes('Warning')).length;
  return { defs, ms: r.ms, warnings, dropped };
}
