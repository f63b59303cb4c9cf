// `npm run bench [-- <corpus>] [--ranking] [--symbols-recall] [--runs N] [--keep]`
//
// One run, one corpus (default: Debian's golang-1.19-src). Every hanzo figure
// is printed beside its peer's and the ratio:
//   1. index:   hanzo `code index` vs cindex (seconds, MB/s, size, peak RSS)
//   2. queries: 20 literal + 10 regex queries; p50/p90 latency of hanzo
//               in-process, hanzo as a process, rg and csearch, plus the lines
//               each returned (hanzo vs rg must be equal: the parity column)
//   3. --symbols-recall: share of universal-ctags definitions `tree --symbols`
//               lists, on the Go stdlib, the Python stdlib and a TS/JS corpus
//   4. semantic scan: benchScan(50000, 1536) when src/retrieve/vectors exports it
//   5. --ranking: bench/ranking.ts's figures when that module exists
// Raw numbers go to .bench/last.json.

import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  CTAGS_KINDS,
  type CtagsDef,
  cindex,
  corpusSize,
  countLines,
  csearch,
  ctagsDefinitions,
  dirBytes,
  type Found,
  lineKeys,
  measured,
  rg,
  timed,
  version,
  which,
} from './peers.js';
import { MB, clip, fixed, int, median, ms, pct, percentile, ratio, table } from './stats.js';

// ---- where things are ------------------------------------------------------

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

const ROOT = findRoot();
/** the CLI and the compiled tree the bench runs: a snapshot of them once main() has taken it */
let BIN = join(ROOT, 'bin', 'hanzo.js');
let DIST = dirname(dirname(fileURLToPath(import.meta.url))); // dist/

/**
 * Copy bin/ and dist/{src,bench} to .bench/snapshot-<pid>/ and run those:
 * other people's `tsc` runs rewrite dist/ in place, and a CLI started while
 * that happens loads half old, half new modules (seen as runs that print
 * nothing). Inside the repo so node_modules still resolves from it.
 */
function takeSnapshot(): string | undefined {
  const dir = join(ROOT, '.bench', `snapshot-${process.pid}`);
  if (!existsSync(join(DIST, 'src')) || !existsSync(BIN)) return undefined;
  // leftovers of runs that were killed
  for (const e of existsSync(join(ROOT, '.bench')) ? readdirSync(join(ROOT, '.bench')) : []) {
    const pid = /^snapshot-(\d+)$/.exec(e)?.[1];
    if (!pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch {
      rmSync(join(ROOT, '.bench', e), { recursive: true, force: true });
    }
  }
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ['src', 'bench']) if (existsSync(join(DIST, sub))) cpSync(join(DIST, sub), join(dir, 'dist', sub), { recursive: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(BIN, join(dir, 'bin', 'hanzo.js'));
  BIN = join(dir, 'bin', 'hanzo.js');
  DIST = join(dir, 'dist');
  return dir;
}
const GO_CORPUS = '/usr/share/go-1.19/src';
const NODE = process.execPath;
/** every hanzo store the bench writes is this org's, under a temp data dir */
const ORG = 'bench';
const CHILD_ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

/** A transient status line on a terminal; nothing when stderr is piped. */
function progress(s: string): void {
  if (process.stderr.isTTY) process.stderr.write(s);
}

// ---- arguments ---------------------------------------------------------------

interface Args {
  corpus: string;
  ranking: boolean;
  symbolsRecall: boolean;
  runs: number;
  keep: boolean;
  /** hanzo -s and plain rg instead of smart case on both */
  caseSensitive: boolean;
  /** only section 3 (implies --symbols-recall) */
  recallOnly: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { corpus: GO_CORPUS, ranking: false, symbolsRecall: false, runs: 5, keep: false, caseSensitive: false, recallOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--ranking') a.ranking = true;
    else if (x === '--symbols-recall') a.symbolsRecall = true;
    else if (x === '--keep') a.keep = true;
    else if (x === '--case-sensitive') a.caseSensitive = true;
    else if (x === '--recall-only') a.symbolsRecall = a.recallOnly = true;
    else if (x === '--runs') a.runs = Math.max(1, Number(argv[++i]) || 5);
    else if (x.startsWith('--runs=')) a.runs = Math.max(1, Number(x.slice(7)) || 5);
    else if (x === '-h' || x === '--help') {
      console.log('usage: npm run bench [-- <corpus-path>] [--ranking] [--symbols-recall] [--runs N] [--keep] [--case-sensitive] [--recall-only]');
      process.exit(0);
    } else if (x.startsWith('-')) {
      console.error(`bench: unknown flag ${x}`);
      process.exit(2);
    } else a.corpus = resolve(x);
  }
  return a;
}

// ---- queries -------------------------------------------------------------------

interface QuerySet {
  name: string;
  text: string[];
  regex: string[];
}

const GO_QUERIES: QuerySet = {
  name: 'go',
  text: [
    'func (c *Client) Do',
    'http.StatusNotFound',
    'sync.Mutex',
    'ErrUnexpectedEOF',
    'context.Context',
    'func NewReader(',
    'io.EOF',
    'errors.New("',
    'fmt.Errorf(',
    'defer mu.Unlock()',
    'bytes.Buffer',
    'strings.HasPrefix(',
    'atomic.AddInt64',
    't.Fatalf(',
    'runtime.GOOS == "windows"',
    'json.Unmarshal',
    'func (b *Buffer) Write(',
    'time.Duration',
    'os.Getenv(',
    'panic("unreachable")',
  ],
  regex: [
    'func \\(\\w+ \\*Reader\\) Read',
    '[A-Z]\\w+Error\\b',
    'TODO\\(.*\\)',
    'func Test\\w+\\(t \\*testing\\.T\\)',
    '^package \\w+_test$',
    'errors\\.New\\("[^"]*"\\)',
    '\\bmake\\(\\[\\]byte, \\d+\\)',
    '0x[0-9a-fA-F]{8,}',
    'func \\(\\w+ \\*?\\w+\\) String\\(\\) string',
    '//go:(noinline|nosplit|linkname)',
  ],
};

const PY_QUERIES: QuerySet = {
  name: 'python',
  text: [
    'def __init__(self',
    'raise ValueError(',
    'import os',
    'self.assertEqual(',
    'isinstance(',
    '@property',
    'except KeyError:',
    'with open(',
    'return None',
    'os.path.join(',
    'super().__init__(',
    'sys.platform == "win32"',
    'threading.Lock()',
    'raise NotImplementedError',
    "__name__ == '__main__'",
    'logging.getLogger(',
    'yield from',
    'async def',
    'collections.abc',
    'f"{',
  ],
  regex: [
    'def test_\\w+\\(self\\)',
    'class \\w+\\(Exception\\)',
    '[A-Z]\\w+Error\\b',
    'TODO|XXX|FIXME',
    '^from \\w+ import \\*$',
    'self\\.\\w+ = None',
    '@\\w+\\.setter',
    'raise \\w+Error\\(f?"',
    '0x[0-9a-fA-F]{8,}',
    '^\\s+async def \\w+',
  ],
};

const JS_QUERIES: QuerySet = {
  name: 'js/ts',
  text: [
    'module.exports',
    'require("',
    'return null;',
    'new Error(',
    'Object.defineProperty(',
    'typeof ',
    'Promise.resolve(',
    'export function',
    'export interface',
    'async function',
    'JSON.stringify(',
    'process.env',
    'this.state',
    '=== undefined',
    'Array.isArray(',
    'throw new TypeError(',
    'export declare',
    'readonly ',
    'console.log(',
    '.prototype.',
  ],
  regex: [
    'function \\w+\\(',
    'class \\w+ extends \\w+',
    '[A-Z]\\w+Error\\b',
    'TODO|FIXME',
    '^import .* from',
    'export (const|let) \\w+ =',
    '\\bawait \\w+\\(',
    '0x[0-9a-fA-F]{8,}',
    'interface \\w+<\\w+>',
    '=> \\{$',
  ],
};

function pickQueries(byExt: Map<string, number>): QuerySet {
  const go = byExt.get('go') ?? 0;
  const py = byExt.get('py') ?? 0;
  const js = ['js', 'ts', 'mjs', 'cjs', 'tsx', 'jsx'].reduce((n, e) => n + (byExt.get(e) ?? 0), 0);
  if (go >= py && go >= js && go > 0) return GO_QUERIES;
  if (py >= js && py > 0) return PY_QUERIES;
  return js > 0 ? JS_QUERIES : GO_QUERIES;
}

// ---- the hanzo half ------------------------------------------------------------

type SearchType = 'text' | 'regex';
type SearchFn = (
  query: string,
  opts: { dataDir: string; org: string; type: SearchType; all: boolean; caseMode?: 'smart' | 'sensitive' },
) => unknown;

function hanzoAvailable(): boolean {
  return existsSync(BIN);
}

async function loadSearch(): Promise<SearchFn | undefined> {
  const url = pathToFileURL(join(DIST, 'src', 'api.js')).href;
  try {
    const mod = (await import(url)) as { search?: SearchFn };
    return typeof mod.search === 'function' ? mod.search : undefined;
  } catch (e) {
    console.error(`bench: cannot load src/api.js search(): ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

/** The org the store was written under: ORG, or failing that the only dir in orgs/. */
function findOrg(dataDir: string): string | undefined {
  const orgs = join(dataDir, 'orgs');
  if (!existsSync(orgs)) return undefined;
  const dirs = readdirSync(orgs, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  return dirs.includes(ORG) ? ORG : dirs[0];
}

function parseJson(buf: Buffer): unknown {
  const s = buf.toString('utf8').trim();
  if (!s) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    // a progress line before the JSON: take the last JSON-looking line
    const last = s.split('\n').reverse().find((l) => l.startsWith('{') || l.startsWith('['));
    try {
      return last ? JSON.parse(last) : undefined;
    } catch {
      return undefined;
    }
  }
}

interface IndexRun {
  ms: number;
  peakRss?: number;
  rssSource: string;
  status: number | null;
  json: unknown;
  stderrTail: string;
}

async function hanzoIndex(corpus: string, dataDir: string, extra: string[] = []): Promise<IndexRun> {
  const r = await measured(NODE, [BIN, 'code', 'index', corpus, '--data-dir', dataDir, '--org', ORG, '--json', ...extra], { env: CHILD_ENV });
  return {
    ms: r.ms,
    peakRss: r.peakRss,
    rssSource: r.rssSource,
    status: r.status,
    json: parseJson(r.stdout),
    stderrTail: r.stderr.trim().split('\n').slice(-5).join('\n'),
  };
}

function hanzoProcessArgs(q: string, type: SearchType, dataDir: string, caseSensitive: boolean): string[] {
  return [BIN, 'code', 'search', '--type', type, '--all', ...(caseSensitive ? ['-s'] : []), '--data-dir', dataDir, '--org', ORG, '--', q];
}

function hanzoProcess(q: string, type: SearchType, dataDir: string, caseSensitive: boolean): Found {
  const r = timed(NODE, hanzoProcessArgs(q, type, dataDir, caseSensitive), { env: CHILD_ENV });
  const error = r.status === 0 || r.status === 1 ? undefined : r.stderr.trim().split('\n')[0] || `exit ${r.status}`;
  const detail = `exit ${r.status}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`;
  return { ms: r.ms, lines: countLines(r.stdout), error, stdout: r.stdout, detail };
}

async function hanzoInProcess(
  search: SearchFn,
  q: string,
  type: SearchType,
  dataDir: string,
  org: string,
  caseSensitive: boolean,
): Promise<Found> {
  const t0 = performance.now();
  try {
    const r = (await search(q, { dataDir, org, type, all: true, caseMode: caseSensitive ? 'sensitive' : 'smart' })) as { results?: unknown[] };
    const t = performance.now() - t0;
    return { ms: t, lines: Array.isArray(r?.results) ? r.results.length : NaN };
  } catch (e) {
    return { ms: performance.now() - t0, lines: NaN, error: (e as Error).message.split('\n')[0] };
  }
}

// ---- sections ------------------------------------------------------------------

function label(p: string): string {
  return `${basename(dirname(p))}/${basename(p)}`;
}

function heading(s: string): void {
  console.log(`\n== ${s} ${'='.repeat(Math.max(0, 76 - s.length))}`);
}

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${fixed(bytes / MB, 0)} MB`);

interface Sample {
  ms: number[];
  lines?: number;
  error?: string;
}

interface QueryRow {
  type: SearchType;
  query: string;
  hanzoIn: Sample;
  hanzoProc: Sample;
  rg: Sample;
  csearch: Sample;
  /**
   * equal: hanzo printed exactly rg's file:line set; skipped-only: the only
   * difference is rg lines in files hanzo's indexer skips by policy
   * (long-line, too-large, binary, invalid-utf8); differs: anything else
   */
  parity?: 'equal' | 'skipped-only' | 'differs';
  /** rg lines in files hanzo skipped */
  rgInSkipped?: number;
  /** file:line keys only hanzo / only rg printed (a few, when they differ) */
  onlyHanzo?: string[];
  onlyRg?: string[];
  onlyHanzoCount?: number;
  onlyRgCount?: number;
}

async function runQueries(
  set: QuerySet,
  corpus: string,
  runs: number,
  tools: {
    hanzo: boolean;
    search?: SearchFn;
    org?: string;
    dataDir: string;
    rg: boolean;
    csIndex?: string;
    caseSensitive: boolean;
    /** file -> skip reason, from `tree --json` */
    skipped: Map<string, string>;
  },
): Promise<QueryRow[]> {
  const rows: QueryRow[] = [];
  const all: [SearchType, string][] = [...set.text.map((q) => ['text', q] as [SearchType, string]), ...set.regex.map((q) => ['regex', q] as [SearchType, string])];
  let done = 0;
  for (const [type, query] of all) {
    const literal = type === 'text';
    const row: QueryRow = { type, query, hanzoIn: { ms: [] }, hanzoProc: { ms: [] }, rg: { ms: [] }, csearch: { ms: [] } };
    const smart = !tools.caseSensitive;
    type Runner = () => Promise<Found> | Found;
    const runners: [Sample, Runner | undefined][] = [
      [row.hanzoIn, tools.search && tools.org ? () => hanzoInProcess(tools.search!, query, type, tools.dataDir, tools.org!, tools.caseSensitive) : undefined],
      [row.hanzoProc, tools.hanzo ? () => hanzoProcess(query, type, tools.dataDir, tools.caseSensitive) : undefined],
      [row.rg, tools.rg ? () => rg(query, corpus, literal, smart) : undefined],
      [row.csearch, tools.csIndex ? () => csearch(query, tools.csIndex!, literal, smart) : undefined],
    ];
    // warm-up: one untimed run of every tool, which also gives the line count
    const outputs = new Map<Sample, Buffer | undefined>();
    for (const [s, run] of runners) {
      if (!run) continue;
      const r = await run();
      s.lines = r.lines;
      s.error = r.error;
      outputs.set(s, r.stdout);
    }
    // parity: the same set of file:line as rg, not just the same count
    if (outputs.has(row.hanzoProc) && outputs.has(row.rg) && !row.hanzoProc.error) {
      const h = lineKeys(outputs.get(row.hanzoProc), corpus);
      const g = lineKeys(outputs.get(row.rg), corpus);
      const onlyH = [...h].filter((k) => !g.has(k));
      const onlyG = [...g].filter((k) => !h.has(k));
      const fileOf = (k: string) => k.slice(0, k.lastIndexOf(':'));
      const onlyGReal = onlyG.filter((k) => !tools.skipped.has(fileOf(k)));
      row.rgInSkipped = onlyG.length - onlyGReal.length;
      const same = row.hanzoProc.lines === row.rg.lines && onlyH.length === 0 && onlyG.length === 0;
      row.parity = same ? 'equal' : onlyH.length === 0 && onlyGReal.length === 0 ? 'skipped-only' : 'differs';
      if (!same) {
        row.onlyHanzoCount = onlyH.length;
        row.onlyRgCount = onlyG.length;
        row.onlyHanzo = onlyH.sort().slice(0, 5);
        row.onlyRg = (onlyGReal.length ? onlyGReal : onlyG).sort().slice(0, 5);
      }
    }
    outputs.clear();
    // timed runs, tools interleaved so drift hits them alike
    for (let i = 0; i < runs; i++) {
      for (const [s, run] of runners) {
        if (!run || s.error) continue;
        const r = await run();
        s.ms.push(r.ms);
        if (r.lines !== s.lines && !s.error)
          s.error = `line count changed between runs: ${s.lines} then ${r.lines}${r.detail ? ` (${r.detail})` : ''}`;
      }
    }
    rows.push(row);
    done++;
    progress(`\r  queries ${done}/${all.length}`);
  }
  progress('\r' + ' '.repeat(30) + '\r');
  return rows;
}

// ---- symbols recall ----------------------------------------------------------

interface TreeFile {
  file: string;
  skipped?: string;
  language?: string;
  symbols?: number;
  definitions?: { name: string; kind: string; line: number; endLine?: number }[];
}

/** `Client.Do`, `Client#Do`, `a::b` -> the last name: ctags names members bare. */
function bareName(n: string): string {
  const m = /[^.#:]+$/.exec(n);
  return m ? m[0] : n;
}

function normFile(f: string, corpus: string): string {
  let x = f.replace(/\\/g, '/');
  if (x.startsWith('/')) x = relative(corpus, x);
  return x.replace(/^\.\//, '');
}

interface RecallResult {
  corpus: string;
  path: string;
  ctagsDefs: number;
  ctagsFiles: number;
  treeFiles: number;
  treeDefs: number;
  matched: number;
  exact: number;
  nearOnly: number;
  recall: number;
  /** recall counting only files `tree` listed */
  listedDefs: number;
  listedMatched: number;
  recallListed: number;
  unlistedFiles: number;
  /** ctags definitions in files tree lists as skipped, by reason */
  skippedDefs: Record<string, number>;
  byKind: Record<string, { ctags: number; matched: number; recall: number }>;
  misses: { file: string; line: number; kind: string; name: string; near: string }[];
  /** misses in listed files with a same-named tree definition 2-3 lines away (multi-line decorators, doc blocks) */
  missOffBy2to3: number;
  /** ctags tags left out as noise, by reason (see peers.ctagsDefinitions) */
  ctagsDropped?: Record<string, number>;
  indexSeconds?: number;
  treeSeconds?: number;
  ctagsSeconds?: number;
  error?: string;
}

function recall(name: string, corpus: string, ctags: CtagsDef[], tree: TreeFile[]): RecallResult {
  const byFile = new Map<string, Map<string, number[]>>();
  const rawByFile = new Map<string, { name: string; kind: string; line: number }[]>();
  let treeDefs = 0;
  const skippedFiles = new Map<string, string>();
  for (const f of tree) {
    const file = normFile(f.file, corpus);
    if (f.skipped) {
      skippedFiles.set(file, f.skipped);
      continue;
    }
    const m = byFile.get(file) ?? new Map<string, number[]>();
    byFile.set(file, m);
    const raw = rawByFile.get(file) ?? [];
    rawByFile.set(file, raw);
    for (const d of f.definitions ?? []) {
      treeDefs++;
      const n = bareName(d.name);
      const lines = m.get(n) ?? [];
      lines.push(d.line);
      m.set(n, lines);
      raw.push({ name: d.name, kind: d.kind, line: d.line });
    }
  }
  let exact = 0;
  let near = 0;
  let listedDefs = 0;
  let listedMatched = 0;
  let offBy = 0;
  const byKind: RecallResult['byKind'] = {};
  const misses: CtagsDef[] = [];
  const unlisted = new Set<string>();
  const skippedDefs: Record<string, number> = {};
  const ctagsFiles = new Set<string>();
  for (const d of ctags) {
    ctagsFiles.add(d.file);
    const k = (byKind[d.kind] ??= { ctags: 0, matched: 0, recall: 0 });
    k.ctags++;
    const m = byFile.get(d.file);
    if (!m) {
      unlisted.add(d.file);
      const why = skippedFiles.get(d.file);
      if (why) skippedDefs[why] = (skippedDefs[why] ?? 0) + 1;
    } else listedDefs++;
    const lines = m?.get(bareName(d.name));
    let hit = false;
    if (lines?.includes(d.line)) {
      exact++;
      hit = true;
    } else if (lines?.some((l) => Math.abs(l - d.line) <= 1)) {
      near++;
      hit = true;
    }
    if (hit) {
      k.matched++;
      if (m) listedMatched++;
    } else {
      misses.push(d);
      if (lines?.some((l) => Math.abs(l - d.line) <= 3)) offBy++;
    }
  }
  for (const k of Object.values(byKind)) k.recall = k.ctags ? k.matched / k.ctags : NaN;
  // a spread of example misses: every n-th, so they come from different places
  const examples: RecallResult['misses'] = [];
  // misses in files tree lists come first: those are the parser's to fix;
  // the ones in skipped files are already counted by reason
  const want = 10;
  const listedMisses = misses.filter((d) => rawByFile.has(d.file));
  const pool = listedMisses.length >= want ? listedMisses : [...listedMisses, ...misses.filter((d) => !rawByFile.has(d.file))];
  const step = Math.max(1, Math.floor(pool.length / want));
  for (let i = 0; i < pool.length && examples.length < want; i += step) {
    const d = pool[i]!;
    const raw = rawByFile.get(d.file);
    let nearStr: string;
    if (skippedFiles.has(d.file)) nearStr = `file skipped by the indexer: ${skippedFiles.get(d.file)}`;
    else if (!raw) nearStr = 'file not listed by tree';
    else {
      const close = raw.filter((r) => Math.abs(r.line - d.line) <= 3).map((r) => `${r.name}:${r.kind}@${r.line}`);
      nearStr = close.length ? `tree near: ${close.join(', ')}` : `tree has ${raw.length} defs in file, none within ±3 lines`;
    }
    examples.push({ file: d.file, line: d.line, kind: d.kind, name: d.name, near: nearStr });
  }
  const matched = exact + near;
  return {
    corpus: name,
    path: corpus,
    ctagsDefs: ctags.length,
    ctagsFiles: ctagsFiles.size,
    treeFiles: byFile.size,
    treeDefs,
    matched,
    exact,
    nearOnly: near,
    recall: ctags.length ? matched / ctags.length : NaN,
    listedDefs,
    listedMatched,
    recallListed: listedDefs ? listedMatched / listedDefs : NaN,
    unlistedFiles: unlisted.size,
    skippedDefs,
    byKind,
    misses: examples,
    missOffBy2to3: offBy,
  };
}

function hanzoTree(dataDir: string): { ms: number; files?: TreeFile[]; error?: string } {
  const r = timed(NODE, [BIN, 'code', 'tree', '--symbols', '--json', '--data-dir', dataDir, '--org', ORG], { env: CHILD_ENV });
  if (r.status !== 0) return { ms: r.ms, error: `tree exited ${r.status}: ${r.stderr.trim().split('\n')[0] ?? ''}` };
  const j = parseJson(r.stdout);
  if (!Array.isArray(j)) return { ms: r.ms, error: 'tree --symbols --json did not print a JSON array' };
  return { ms: r.ms, files: j as TreeFile[] };
}

/** file -> skip reason for every file `tree --json` lists as skipped. */
function hanzoSkipped(dataDir: string): Map<string, string> {
  const m = new Map<string, string>();
  const r = timed(NODE, [BIN, 'code', 'tree', '--json', '--data-dir', dataDir, '--org', ORG], { env: CHILD_ENV });
  const j = parseJson(r.stdout);
  if (Array.isArray(j)) for (const e of j as TreeFile[]) if (e.skipped) m.set(e.file, e.skipped);
  return m;
}

function pythonStdlib(): string | undefined {
  if (existsSync('/usr/lib/python3.11/os.py')) return '/usr/lib/python3.11';
  const r = timed('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])']);
  const p = r.stdout.toString('utf8').trim();
  return p && existsSync(p) ? p : undefined;
}

/**
 * A TS/JS corpus from the repo's own node_modules: every .ts/.js (and
 * .mts/.cts/.mjs/.cjs/.tsx/.jsx, .d.ts kept) of at most 1 MB, copied with
 * `node_modules` path segments renamed so no walker skips them.
 */
function tsCorpus(dest: string): string | undefined {
  const src = join(ROOT, 'node_modules');
  if (!existsSync(src)) return undefined;
  const EXT = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;
  const stack = [src];
  let n = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.bin') stack.push(p);
      } else if (e.isFile() && EXT.test(e.name) && !e.name.endsWith('.min.js') && statSync(p).size <= 1e6) {
        const rel = relative(src, p).split('/').map((s) => (s === 'node_modules' ? 'nm' : s)).join('/');
        const out = join(dest, rel);
        mkdirSync(dirname(out), { recursive: true });
        copyFileSync(p, out);
        n++;
      }
    }
  }
  return n ? dest : undefined;
}

// ---- main ----------------------------------------------------------------------

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const corpus = args.corpus;
  if (!existsSync(corpus)) {
    const script = join(ROOT, 'bench', 'corpus.sh');
    console.error(`bench: corpus ${corpus} is missing.`);
    if (corpus === GO_CORPUS)
      console.error(
        existsSync(script)
          ? `  install it with: bash bench/corpus.sh   (Debian's golang-1.19-src and the peer tools)`
          : `  install it with: sudo apt-get install -y golang-1.19-src ripgrep codesearch universal-ctags time`,
      );
    process.exit(1);
  }

  const snap = takeSnapshot();
  const tmpRoot = mkdtempSync(join(tmpdir(), 'hanzo-bench-'));
  const dataDir = join(tmpRoot, 'data');
  const csIndex = join(tmpRoot, 'csearchindex');
  const started = Date.now();
  const out: Record<string, unknown> = {
    date: new Date().toISOString(),
    corpus,
    node: process.version,
    runs: args.runs,
    tools: {
      rg: version('rg'),
      cindex: which('cindex') ? 'present' : undefined,
      csearch: which('csearch') ? 'present' : undefined,
      ctags: version('ctags'),
      time: existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined,
    },
  };

  try {
    const size = corpusSize(corpus);
    const set = pickQueries(size.byExt);
    const srcMB = size.bytes / MB;
    out.source = { files: size.files, bytes: size.bytes };

    const hasHanzo = hanzoAvailable();
    let idx: IndexRun | undefined;
    let noop: IndexRun | undefined;
    let lex: IndexRun | undefined;
    let lexStoreBytes: number | undefined;
    let storeBytes: number | undefined;
    let org: string | undefined;
    let hanzoOk = false;
    if (!args.recallOnly) {
      // 1. index ------------------------------------------------------------------
      heading(`index  ${label(corpus)}  (${int(size.files)} files, ${fixed(srcMB, 1)} MB on disk)`);
      if (!hasHanzo) console.log(`  hanzo: ${BIN} does not exist yet; hanzo columns are n/a`);
      else {
        progress('  hanzo code index …\r');
        idx = await hanzoIndex(corpus, dataDir);
        if (idx.status !== 0) console.log(`  hanzo code index exited ${idx.status}:\n${idx.stderrTail.replace(/^/gm, '    ')}`);
        else {
          hanzoOk = true;
          storeBytes = dirBytes(dataDir);
          org = findOrg(dataDir);
          progress('  hanzo code index (no-op) …\r');
          noop = await hanzoIndex(corpus, dataDir);
          if (noop.status !== 0) console.log(`  no-op re-index exited ${noop.status}:\n${noop.stderrTail.replace(/^/gm, '    ')}`);
          // the same corpus lexical only: what symbols, references and AST chunks cost
          progress('  hanzo code index --no-symbols …\r');
          const lexDir = dataDir + '-lexical';
          lex = await hanzoIndex(corpus, lexDir, ['--no-symbols']);
          if (lex.status === 0) lexStoreBytes = dirBytes(lexDir);
          else console.log(`  --no-symbols index exited ${lex.status}:\n${lex.stderrTail.replace(/^/gm, '    ')}`);
          rmSync(lexDir, { recursive: true, force: true });
        }
      }
      let cs: Awaited<ReturnType<typeof cindex>> | undefined;
      if (which('cindex')) {
        progress('  cindex …                  \r');
        try {
          cs = await cindex(corpus, csIndex);
        } catch (e) {
          console.log(`  ${(e as Error).message}`);
        }
      } else console.log('  cindex: not installed (apt-get install codesearch)');
      progress(' '.repeat(40) + '\r');

      const ij = (idx?.json ?? {}) as Record<string, unknown>;
      const hanzoFiles = typeof ij.scanned === 'number' ? ij.scanned : typeof ij.files === 'number' ? ij.files : undefined;
      const skippedMap = (ij.skipped && typeof ij.skipped === 'object' ? ij.skipped : {}) as Record<string, number>;
      const skippedStr = Object.entries(skippedMap).map(([k, v]) => `${int(v)} ${k}`).join(', ');
      const hs = hanzoOk ? idx!.ms / 1000 : undefined;
      const cs_s = cs ? cs.ms / 1000 : undefined;
      console.log(
        table(
          ['', 'files', 'MB', 's', 'MB/s', 'store/src', 'peakRSS', 'no-op s'],
          [
            [
              'hanzo',
              int(hanzoFiles ?? size.files),
              fixed(srcMB, 1),
              fixed(hs, 1),
              hs ? fixed(srcMB / hs, 2) : 'n/a',
              storeBytes !== undefined ? fixed(storeBytes / size.bytes, 2) : 'n/a',
              hanzoOk ? mb(idx!.peakRss) : 'n/a',
              noop && noop.status === 0 ? fixed(noop.ms / 1000, 2) : 'n/a',
            ],
            ...(lex && lex.status === 0
              ? [[
                  'hanzo --no-symbols',
                  int(hanzoFiles ?? size.files),
                  fixed(srcMB, 1),
                  fixed(lex.ms / 1000, 1),
                  fixed(srcMB / (lex.ms / 1000), 2),
                  lexStoreBytes !== undefined ? fixed(lexStoreBytes / size.bytes, 2) : 'n/a',
                  mb(lex.peakRss),
                  '',
                ]]
              : []),
            [
              'cindex',
              '',
              cs?.dataBytes !== undefined ? fixed(cs.dataBytes / MB, 1) : '',
              fixed(cs_s, 1),
              cs_s ? fixed(srcMB / cs_s, 2) : 'n/a',
              cs ? fixed(cs.indexBytes / size.bytes, 2) : 'n/a',
              mb(cs?.peakRss),
              '',
            ],
            [
              'hanzo/cindex',
              '',
              '',
              ratio(hs, cs_s),
              '',
              ratio(storeBytes, cs?.indexBytes),
              ratio(hanzoOk ? idx!.peakRss : undefined, cs?.peakRss),
              '',
            ],
          ],
          ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
      );
      console.log(
        `  MB = 10^6 bytes of every regular file under the corpus; MB/s = that ÷ wall seconds; store/src = all files under the data dir ÷ source bytes.` +
          (cs?.dataBytes !== undefined ? `\n  cindex MB is what cindex says it indexed (it skips binary/long-line files).` : '') +
          `\n  peakRSS via ${hanzoOk ? idx!.rssSource : cs ? 'time -v' : 'n/a'}.` +
          (hanzoFiles === undefined && hanzoOk ? '\n  (hanzo files: index --json reported no file count; shown: files on disk)' : '') +
          (hanzoOk ? `\n  hanzo files = scanned (${int(size.files)} on disk); skipped: ${skippedStr || 'none'}.` : ''),
      );
      out.index = {
        hanzo: hanzoOk
          ? { seconds: hs, peakRssBytes: idx!.peakRss, storeBytes, org, noopSeconds: noop?.status === 0 ? noop.ms / 1000 : undefined, json: idx!.json, noopJson: noop?.json }
          : { error: hasHanzo ? `exit ${idx?.status}: ${idx?.stderrTail}` : 'bin/hanzo.js missing' },
        cindex: cs ? { seconds: cs_s, indexBytes: cs.indexBytes, dataBytes: cs.dataBytes, peakRssBytes: cs.peakRss } : undefined,
      };

      // 2. queries --------------------------------------------------------------------
      heading(`queries  ${label(corpus)}  (${set.name} set: ${set.text.length} text + ${set.regex.length} regex, warm-up + ${args.runs} runs each)`);
      const search = hanzoOk ? await loadSearch() : undefined;
      if (hanzoOk && !org) console.log('  (no org directory under the data dir: in-process search skipped)');
      const tools_skipped = hanzoOk ? hanzoSkipped(dataDir) : new Map<string, string>();
      const rows = await runQueries(set, corpus, args.runs, {
        skipped: tools_skipped,
        hanzo: hanzoOk,
        search,
        org,
        dataDir,
        rg: !!which('rg'),
        csIndex: cs ? csIndex : undefined,
        caseSensitive: args.caseSensitive,
      });
      const cell = (s: Sample) => (s.error ? 'ERR' : s.ms.length ? ms(median(s.ms)) : 'n/a');
      const cnt = (s: Sample) => (s.error && s.lines === undefined ? 'ERR' : s.lines === undefined || Number.isNaN(s.lines) ? 'n/a' : int(s.lines));
      console.log(
        table(
          ['#', 'type', 'query', 'in ms', 'proc ms', 'rg ms', 'cs ms', 'in lines', 'proc lines', 'rg lines', 'cs lines', '='],
          rows.map((r, i) => [
            String(i + 1),
            r.type,
            clip(r.query, 36),
            cell(r.hanzoIn),
            cell(r.hanzoProc),
            cell(r.rg),
            cell(r.csearch),
            cnt(r.hanzoIn),
            cnt(r.hanzoProc),
            cnt(r.rg),
            cnt(r.csearch),
            r.parity === undefined ? '-' : r.parity === 'equal' ? '✓' : r.parity === 'skipped-only' ? '≈' : '✗',
          ]),
          ['r', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
        ),
      );
      console.log('  in = hanzo in-process search(); proc = `hanzo code search --all` as a process; cs = csearch; ms = median of the timed runs;');
      console.log('  lines = matching lines returned (in: results.length); = is ✓ when hanzo (proc) printed exactly the file:line set rg printed.');
      console.log(
        args.caseSensitive
          ? '  case: sensitive everywhere (hanzo -s, rg and csearch as given).'
          : "  case: smart everywhere, hanzo's default: rg -S; csearch -i when the query has no uppercase letter.",
      );

      const sumRows: string[][] = [];
      const summary: Record<string, unknown> = {};
      for (const type of ['text', 'regex'] as SearchType[]) {
        const rs = rows.filter((r) => r.type === type);
        const per = (pick: (r: QueryRow) => Sample) => {
          const meds = rs.map(pick).filter((s) => !s.error && s.ms.length).map((s) => median(s.ms));
          return meds.length === rs.length ? { p50: percentile(meds, 50), p90: percentile(meds, 90) } : undefined;
        };
        const t = { in: per((r) => r.hanzoIn), proc: per((r) => r.hanzoProc), rg: per((r) => r.rg), cs: per((r) => r.csearch) };
        summary[type] = t;
        sumRows.push([
          type,
          ms(t.in?.p50), ms(t.in?.p90),
          ms(t.proc?.p50), ms(t.proc?.p90),
          ms(t.rg?.p50), ms(t.rg?.p90),
          ms(t.cs?.p50), ms(t.cs?.p90),
          ratio(t.proc?.p50, t.rg?.p50),
          ratio(t.in?.p50, t.rg?.p50),
          ratio(t.proc?.p50, t.cs?.p50),
          ratio(t.in?.p50, t.cs?.p50),
        ]);
      }
      console.log('');
      console.log(
        table(
          ['ms', 'in p50', 'in p90', 'proc p50', 'proc p90', 'rg p50', 'rg p90', 'cs p50', 'cs p90', 'proc/rg', 'in/rg', 'proc/cs', 'in/cs'],
          sumRows,
          ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
      );
      console.log('  p50/p90 over the queries of a type, each query counted by its median run; ratios are of the p50s.');
      const mismatches = rows.filter((r) => r.parity === 'differs');
      const policy = rows.filter((r) => r.parity === 'skipped-only');
      const inVsProc = rows.filter((r) => r.hanzoIn.lines !== undefined && r.hanzoProc.lines !== undefined && !Number.isNaN(r.hanzoIn.lines) && r.hanzoIn.lines !== r.hanzoProc.lines);
      const errors = rows.flatMap((r) =>
        (
          [
            ['in', r.hanzoIn],
            ['proc', r.hanzoProc],
            ['rg', r.rg],
            ['csearch', r.csearch],
          ] as [string, Sample][]
        )
          .filter(([, s]) => s.error)
          .map(([t, s]) => `  ${t} error on ${r.type} ${JSON.stringify(r.query)}: ${s.error}`),
      );
      const checked = rows.filter((r) => r.parity !== undefined).length;
      console.log(
        `\n  parity (hanzo process vs rg, file:line sets): ${
          checked ? `${mismatches.length} mismatch${mismatches.length === 1 ? '' : 'es'} of ${checked}; ${policy.length} ≈ (differ only by rg lines in files hanzo skips)` : 'not checked (hanzo or rg unavailable)'
        }`,
      );
      if (policy.length) {
        const reasons = new Map<string, number>();
        for (const [, why] of tools_skipped) reasons.set(why, (reasons.get(why) ?? 0) + 1);
        console.log(
          `    ≈ ${policy.map((r) => `#${rows.indexOf(r) + 1} (rg +${int(r.rgInSkipped)})`).join(', ')}; hanzo skipped ${[...reasons].map(([k, v]) => `${int(v)} ${k}`).join(', ')} files`,
        );
      }
      for (const r of mismatches) {
        console.log(
          `    ✗ ${r.type} ${JSON.stringify(r.query)}: hanzo ${int(r.hanzoProc.lines)}  rg ${int(r.rg.lines)}  (only hanzo ${int(r.onlyHanzoCount)}, only rg ${int(r.onlyRgCount)}, of which ${int(r.rgInSkipped)} in skipped files)`,
        );
        if (r.onlyHanzo?.length) console.log(`        only hanzo: ${r.onlyHanzo.join('  ')}`);
        if (r.onlyRg?.length) console.log(`        only rg:    ${r.onlyRg.join('  ')}`);
      }
      for (const r of inVsProc) console.log(`    in-process vs process differ on ${r.type} ${JSON.stringify(r.query)}: in ${int(r.hanzoIn.lines)}  proc ${int(r.hanzoProc.lines)}`);
      for (const e of errors) console.log(e);
      out.queries = {
        set: set.name,
        rows: rows.map((r) => ({
          type: r.type,
          query: r.query,
          hanzoInProcess: r.hanzoIn,
          hanzoProcess: r.hanzoProc,
          rg: r.rg,
          csearch: r.csearch,
          parity: r.parity,
          rgInSkipped: r.rgInSkipped,
          onlyHanzo: r.onlyHanzo,
          onlyRg: r.onlyRg,
          onlyHanzoCount: r.onlyHanzoCount,
          onlyRgCount: r.onlyRgCount,
        })),
        summary,
        mismatches: mismatches.length,
      };
    }

    // 3. symbols recall -----------------------------------------------------------
    if (args.symbolsRecall) {
      heading('symbols recall vs universal-ctags');
      const results: RecallResult[] = [];
      if (!hasHanzo || (!args.recallOnly && !hanzoOk)) console.log('  skipped: hanzo code index does not work yet');
      else if (!which('ctags')) console.log('  skipped: ctags not installed (apt-get install universal-ctags)');
      else {
        const corpora: { name: string; path?: string; langs: (keyof typeof CTAGS_KINDS)[] }[] = [
          { name: 'go', path: existsSync(GO_CORPUS) ? GO_CORPUS : undefined, langs: ['Go'] },
          { name: 'python', path: pythonStdlib(), langs: ['Python'] },
          { name: 'ts/js', path: undefined, langs: ['TypeScript', 'JavaScript'] },
        ];
        for (const c of corpora) {
          if (c.name === 'ts/js') c.path = tsCorpus(join(tmpRoot, 'ts-corpus'));
          if (!c.path) {
            console.log(`  ${c.name}: corpus not found, skipped`);
            continue;
          }
          progress(`  ${c.name}: index …\r`);
          let dd = dataDir;
          let indexSeconds: number | undefined;
          if (c.path !== corpus || !hanzoOk) {
            dd = join(tmpRoot, `data-${c.name.replace(/\W/g, '')}`);
            const r = await hanzoIndex(c.path, dd);
            indexSeconds = r.ms / 1000;
            if (r.status !== 0) {
              console.log(`  ${c.name}: hanzo code index exited ${r.status}: ${r.stderrTail.split('\n')[0]}`);
              results.push({ corpus: c.name, path: c.path, error: `index exit ${r.status}` } as RecallResult);
              continue;
            }
          }
          progress(`  ${c.name}: tree …  \r`);
          const tr = hanzoTree(dd);
          if (tr.error || !tr.files) {
            console.log(`  ${c.name}: ${tr.error}`);
            results.push({ corpus: c.name, path: c.path, error: tr.error } as RecallResult);
            continue;
          }
          progress(`  ${c.name}: ctags …  \r`);
          const ct = ctagsDefinitions(c.path, c.langs);
          const res = recall(c.name, c.path, ct.defs, tr.files);
          res.indexSeconds = indexSeconds;
          res.treeSeconds = tr.ms / 1000;
          res.ctagsSeconds = ct.ms / 1000;
          res.ctagsDropped = ct.dropped;
          results.push(res);
        }
        progress(' '.repeat(40) + '\r');
        const ok = results.filter((r) => !r.error);
        console.log(
          table(
            ['corpus', 'ctags defs', 'matched', 'exact', '±1 only', 'recall', 'in listed files', 'recall (listed)', 'files unlisted', 'tree defs', 'target'],
            ok.map((r) => [
              r.corpus,
              int(r.ctagsDefs),
              int(r.matched),
              int(r.exact),
              int(r.nearOnly),
              pct(r.recall),
              int(r.listedDefs),
              pct(r.recallListed),
              `${int(r.unlistedFiles)}/${int(r.ctagsFiles)}`,
              int(r.treeDefs),
              // judged over the files the index holds: minified and generated files it skips by rule (lines over 2000 bytes) cannot list definitions
              r.recallListed >= 0.97 ? '✓ ≥97% (listed)' : '✗ <97% (listed)',
            ]),
            ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
          ),
        );
        console.log('  a ctags definition matches when tree lists the same file and name (bare: `T.m` counts as `m`) at the same line,');
        console.log('  or at ±1 line (decorators, comments, receivers shifting the reported line): "±1 only" counts those.');
        console.log('  "in listed files": only the ctags definitions in files tree listed with content (skipped and missing files left out);');
        console.log('  the target is judged on that figure, since the skipped files (binary, over 1 MiB, lines over 2000 bytes) are out of scope by rule.');
        for (const r of ok) {
          const sk = Object.entries(r.skippedDefs);
          const dr = Object.entries(r.ctagsDropped ?? {});
          const notes = [
            sk.length ? `ctags definitions in files the indexer skipped: ${sk.map(([k, v]) => `${int(v)} (${k})`).join(', ')}` : '',
            r.missOffBy2to3 ? `${int(r.missOffBy2to3)} misses have the same name 2-3 lines away` : '',
            dr.length ? `ctags tags left out as noise: ${dr.map(([k, v]) => `${int(v)} ${k}`).join(', ')}` : '',
          ].filter(Boolean);
          if (notes.length) console.log(`  ${r.corpus}: ${notes.join('; ')}`);
        }
        console.log('');
        const kindRows: string[][] = [];
        for (const r of ok)
          for (const [k, v] of Object.entries(r.byKind).sort((a, b) => b[1].ctags - a[1].ctags))
            kindRows.push([r.corpus, k, int(v.ctags), int(v.matched), pct(v.recall)]);
        console.log(table(['corpus', 'kind', 'ctags', 'matched', 'recall'], kindRows, ['l', 'l', 'r', 'r', 'r']));
        for (const r of ok) {
          if (!r.misses.length) continue;
          console.log(`\n  example misses, ${r.corpus} (${int(r.ctagsDefs - r.matched)} in all, ${int(r.listedDefs - r.listedMatched)} in listed files):`);
          for (const m of r.misses) console.log(`    ${m.file}:${m.line}  ${m.kind} ${m.name}  — ${m.near}`);
        }
      }
      out.symbolsRecall = results;
    }

    // 4. semantic scan ------------------------------------------------------------
    if (!args.recallOnly) {
      const url = pathToFileURL(join(DIST, 'src', 'retrieve', 'vectors.js')).href;
      let mod: { benchScan?: (n: number, dim: number) => unknown } | undefined;
      try {
        mod = (await import(url)) as typeof mod;
      } catch {
        mod = undefined;
      }
      if (mod && typeof mod.benchScan === 'function') {
        heading('semantic scan');
        const t0 = performance.now();
        const r = await mod.benchScan(50000, 1536);
        const wall = performance.now() - t0;
        // a number of ms, or an object of figures ({ floatMs, int8Ms, int8SameTop10 }): print what it gave
        let shown: string;
        if (typeof r === 'number') shown = `${ms(r)} ms`;
        else if (r && typeof r === 'object')
          shown = Object.entries(r as Record<string, unknown>)
            .map(([k, v]) => (typeof v === 'number' ? `${k.replace(/Ms$/, '')} ${ms(v)} ms` : typeof v === 'boolean' ? `${k} ${v ? '✓' : '✗'}` : `${k} ${String(v)}`))
            .join('  ');
        else shown = `${ms(wall)} ms (wall)`;
        console.log(`  benchScan(50000, 1536): ${shown}   (whole call incl. building the matrix and repeats: ${fixed(wall / 1000, 1)} s)`);
        out.semanticScan = { n: 50000, dim: 1536, wallMs: wall, returned: r };
      }
    }

    // 5. ranking ------------------------------------------------------------------
    if (args.ranking) {
      heading('ranking');
      const url = pathToFileURL(join(DIST, 'bench', 'ranking.js')).href;
      let mod: { evaluate?: (opts: unknown) => unknown; formatFigures?: (figs: unknown) => string } | undefined;
      try {
        mod = (await import(url)) as typeof mod;
      } catch (e) {
        console.log(`  bench/ranking.ts is not there yet (${(e as Error).message.split('\n')[0]})`);
      }
      if (mod?.evaluate) {
        // its own corpus subset and store: a data dir of its own, removed with ours
        const figs = await mod.evaluate({ dataDir: join(tmpRoot, 'data-ranking'), org: ORG });
        console.log(mod.formatFigures ? mod.formatFigures(figs) : JSON.stringify(figs, null, 2));
        out.ranking = figs;
      } else if (mod) console.log('  bench/ranking.js exports no evaluate()');
    }
  } finally {
    out.totalSeconds = (Date.now() - started) / 1000;
    const dir = join(ROOT, '.bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'last.json'), JSON.stringify(out, null, 2) + '\n');
    console.log(`\n  raw numbers: ${relative(process.cwd(), join(dir, 'last.json')) || join(dir, 'last.json')}   total ${fixed(out.totalSeconds as number, 0)} s`);
    if (args.keep) console.log(`  kept ${tmpRoot}${snap ? ` and ${snap}` : ''}`);
    else {
      rmSync(tmpRoot, { recursive: true, force: true });
      if (snap) rmSync(snap, { recursive: true, force: true });
    }
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
