// The ranking evaluation: does `hanzo code search` put the file a developer
// has to open near the top? The set (test/ranking/queries.json) pairs real
// questions about the Python 3.11 standard library and the Go 1.19 tree with
// the file(s) that answer them; this module prepares the corpus subset, indexes
// it, runs every query through each tier and scores the first expected file's
// rank among the distinct files returned.
//
// `node dist/bench/ranking.js [--write] [--tiers text,hybrid]`
//   prints the figures; --write also stores them in test/ranking/figures.txt,
//   which test/ranking.test.ts holds hybrid recall@5 to.
//
// evaluate() and formatFigures() are the API: bench/bench.ts --ranking and the
// regression test call them, so all three agree on what a figure means.

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { indexCheckout, search } from '../src/api.js';

// ---- the set -----------------------------------------------------------------

export const STYLES = ['bug', 'identifier', 'where'] as const;
export type Style = (typeof STYLES)[number];
export const TIERS = ['text', 'symbol', 'semantic', 'hybrid'] as const;
export type EvalTier = (typeof TIERS)[number];

/**
 * Which files of a Debian-installed tree make up one corpus. Patterns are
 * root-relative globs ('*' within a segment, '**\/' any leading segments)
 * matched against a file's path and each of its ancestor folders, so "test"
 * drops the whole test/ folder and "**\/*_test.go" drops files anywhere.
 */
export interface CorpusDef {
  root: string;
  /** kept when the path or an ancestor matches one; absent: everything */
  include?: string[];
  /** dropped when the path or an ancestor matches one (wins over include) */
  exclude?: string[];
  /** only files ending so ('.py'); absent: every regular file */
  extensions?: string[];
}

export interface RankingQuery {
  id: string;
  corpus: string;
  style: Style;
  query: string;
  /** corpus-relative paths, any of which answers the query */
  expected: string[];
}

export interface RankingSet {
  corpora: Record<string, CorpusDef>;
  queries: RankingQuery[];
}

function findRepoRoot(): string {
  // dist/bench/ranking.js when compiled, bench/ranking.ts under a TS runner:
  // walk up to the package rather than assume either depth.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'ranking'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export const REPO_ROOT = findRepoRoot();
export const QUERIES_PATH = join(REPO_ROOT, 'test', 'ranking', 'queries.json');
export const FIGURES_PATH = join(REPO_ROOT, 'test', 'ranking', 'figures.txt');
/** results asked for per query; rank past this is a miss */
export const LIMIT = 50;
const ORG = 'ranking';

/** Reads and checks the set's shape; a malformed entry is an error, not a silent skip. */
export function loadSet(path = QUERIES_PATH): RankingSet {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<RankingSet>;
  const problems: string[] = [];
  const corpora = raw.corpora ?? {};
  for (const [name, c] of Object.entries(corpora)) {
    if (!c || typeof c.root !== 'string' || !isAbsolute(c.root)) problems.push(`corpus ${name}: root must be an absolute path`);
  }
  const seen = new Set<string>();
  for (const q of raw.queries ?? []) {
    const where = `query ${q.id ?? '(no id)'}`;
    if (!q.id || seen.has(q.id)) problems.push(`${where}: missing or duplicate id`);
    seen.add(q.id);
    if (!(q.corpus in corpora)) problems.push(`${where}: unknown corpus "${q.corpus}"`);
    if (!STYLES.includes(q.style)) problems.push(`${where}: style must be one of ${STYLES.join(', ')}`);
    if (typeof q.query !== 'string' || q.query.trim() === '') problems.push(`${where}: empty query`);
    if (!Array.isArray(q.expected) || q.expected.length < 1 || q.expected.length > 3) {
      problems.push(`${where}: expected must list 1 to 3 files`);
    }
  }
  if (!raw.queries?.length) problems.push('no queries');
  if (problems.length) throw new Error(`${path}:\n  ${problems.join('\n  ')}`);
  return { corpora, queries: raw.queries! };
}

/** Corpus roots that are not installed (run bench/corpus.sh). */
export function missingRoots(set: RankingSet): string[] {
  return Object.values(set.corpora).map((c) => c.root).filter((r) => !existsSync(r));
}

// ---- the corpus subset ---------------------------------------------------------

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The path and every ancestor folder: "a/b/c.py" -> a, a/b, a/b/c.py. */
function prefixes(rel: string): string[] {
  const parts = rel.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Every file of the corpus, root-relative with '/', sorted so the copy and its hash are stable. */
export function selectFiles(def: CorpusDef): { rel: string; size: number; mtimeMs: number }[] {
  const inc = def.include?.map(globToRegExp);
  const exc = (def.exclude ?? []).map(globToRegExp);
  const out: { rel: string; size: number; mtimeMs: number }[] = [];
  const walk = (dir: string, relDir: string): void => {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const rel = relDir ? `${relDir}/${ent.name}` : ent.name;
      // an excluded folder is pruned here; include can only be judged per file
      if (exc.some((re) => re.test(rel))) continue;
      // symlinks are skipped: Debian's point into /etc or duplicate a file,
      // and either would make the corpus depend on the machine
      if (ent.isDirectory()) walk(join(dir, ent.name), rel);
      else if (ent.isFile()) {
        if (def.extensions && !def.extensions.some((e) => ent.name.endsWith(e))) continue;
        if (inc && !prefixes(rel).some((p) => inc.some((re) => re.test(p)))) continue;
        const st = lstatSync(join(dir, ent.name));
        out.push({ rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
      }
    }
  };
  walk(def.root, '');
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

export interface PreparedCorpus {
  name: string;
  /** the folder `hanzo code index` is pointed at */
  dir: string;
  files: Set<string>;
  bytes: number;
  reused: boolean;
}

/**
 * Copies each corpus's selected files into `<base>/<name>/` so one index run
 * per corpus sees exactly the subset. A manifest beside the copy (not inside:
 * it would be indexed) records a hash of the definition and of every source
 * file's path, size and mtime; a matching manifest means the copy is reused.
 */
export function prepareCorpora(set: RankingSet, base: string): PreparedCorpus[] {
  mkdirSync(base, { recursive: true });
  const out: PreparedCorpus[] = [];
  for (const [name, def] of Object.entries(set.corpora)) {
    const files = selectFiles(def);
    const hash = createHash('sha256').update(JSON.stringify({ def, files })).digest('hex');
    const dir = join(base, name);
    const manifest = join(base, `${name}.manifest`);
    const reused = existsSync(dir) && existsSync(manifest) && readFileSync(manifest, 'utf8').trim() === hash;
    if (!reused) {
      rmSync(dir, { recursive: true, force: true });
      for (const f of files) {
        const to = join(dir, ...f.rel.split('/'));
        mkdirSync(dirname(to), { recursive: true });
        copyFileSync(join(def.root, ...f.rel.split('/')), to);
      }
      writeFileSync(manifest, hash + '\n');
    }
    out.push({ name, dir, files: new Set(files.map((f) => f.rel)), bytes: files.reduce((n, f) => n + f.size, 0), reused });
  }
  return out;
}

/** Every expected file must be in the corpus as installed and kept by the subset. */
export function checkExpected(set: RankingSet, corpora: PreparedCorpus[]): void {
  const byName = new Map(corpora.map((c) => [c.name, c]));
  const missing: string[] = [];
  for (const q of set.queries) {
    const c = byName.get(q.corpus)!;
    for (const e of q.expected) {
      if (!c.files.has(e)) missing.push(`${q.id}: ${e} is not in corpus ${q.corpus} (${set.corpora[q.corpus]!.root} less the subset's exclusions)`);
    }
  }
  if (missing.length) throw new Error(`ranking set names files the corpus does not have:\n  ${missing.join('\n  ')}`);
}

// ---- scoring ------------------------------------------------------------------

export interface GroupFigures {
  n: number;
  hits1: number;
  hits5: number;
  hits10: number;
  /** sum of 1/rank over hits within LIMIT; mrr = rr / n */
  rr: number;
}

export interface TierFigures {
  /** set when the tier was not run, with why */
  skipped?: string;
  /** keys: each style, each corpus, 'all' */
  groups: Record<string, GroupFigures>;
  /** query id -> 1-based rank of the first expected file, null for a miss */
  ranks: Record<string, number | null>;
  /** responses flagged degraded (a tier failed inside) */
  degraded: number;
  /** query id -> error message, for searches that threw */
  errors: Record<string, string>;
}

export interface Figures {
  queries: number;
  limit: number;
  corpora: { name: string; files: number; bytes: number }[];
  tiers: Partial<Record<EvalTier, TierFigures>>;
}

/** 1-based position of the first expected file among the distinct files, or null. */
export function rankOf(files: string[], expected: string[]): number | null {
  const want = new Set(expected);
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f)) continue;
    seen.add(f);
    if (want.has(f)) return seen.size;
  }
  return null;
}

function normalizeFile(file: string, corpusDir: string): string {
  let f = file.replace(/\\/g, '/');
  // the API promises repo-relative paths; an absolute one still scores right
  if (isAbsolute(file)) f = relative(corpusDir, file).split(sep).join('/');
  return f.replace(/^(\.\/)+/, '');
}

function emptyGroup(): GroupFigures {
  return { n: 0, hits1: 0, hits5: 0, hits10: 0, rr: 0 };
}

function score(set: RankingSet, ranks: Record<string, number | null>): Record<string, GroupFigures> {
  const groups: Record<string, GroupFigures> = {};
  for (const q of set.queries) {
    for (const key of [q.style, q.corpus, 'all']) {
      const g = (groups[key] ??= emptyGroup());
      const r = ranks[q.id] ?? null;
      g.n++;
      if (r !== null) {
        if (r <= 1) g.hits1++;
        if (r <= 5) g.hits5++;
        if (r <= 10) g.hits10++;
        g.rr += 1 / r;
      }
    }
  }
  return groups;
}

// ---- evaluate -------------------------------------------------------------------

export interface EvaluateOptions {
  /** a hanzo data dir to index into; default: a temp dir removed afterwards */
  dataDir?: string;
  org?: string;
  /** where the subset is copied; default: env HANZO_RANKING_CORPUS, else a temp dir removed afterwards */
  corpusDir?: string;
  /** default: text, symbol, semantic (only with HANZO_BASE_URL), hybrid */
  tiers?: EvalTier[];
  set?: RankingSet;
  /** progress lines; default: stderr */
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export async function evaluate(opts: EvaluateOptions = {}): Promise<Figures> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const set = opts.set ?? loadSet();
  const missing = missingRoots(set);
  if (missing.length) throw new Error(`corpus not installed (${missing.join(', ')}): run bench/corpus.sh`);

  const temps: string[] = [];
  const temp = (prefix: string): string => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    temps.push(d);
    return d;
  };
  try {
    const corpusBase = opts.corpusDir ?? (env.HANZO_RANKING_CORPUS ? resolve(env.HANZO_RANKING_CORPUS) : temp('hanzo-ranking-corpus-'));
    const dataDir = opts.dataDir ?? temp('hanzo-ranking-data-');
    const org = opts.org ?? ORG;

    const corpora = prepareCorpora(set, corpusBase);
    checkExpected(set, corpora);
    const dirOf = new Map(corpora.map((c) => [c.name, c.dir]));
    for (const c of corpora) {
      const t0 = performance.now();
      const s = await indexCheckout(c.dir, { dataDir, org, repo: c.name });
      log(`indexed ${c.name}: ${c.files.size} files, ${(c.bytes / 1e6).toFixed(1)} MB${c.reused ? ' (reused copy)' : ''}, ` +
        `${s.scanned} scanned, ${s.added} added in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const gateway = Boolean(env.HANZO_BASE_URL);
    const tiers = opts.tiers ?? [...TIERS];
    const figures: Figures = {
      queries: set.queries.length,
      limit: LIMIT,
      corpora: corpora.map((c) => ({ name: c.name, files: c.files.size, bytes: c.bytes })),
      tiers: {},
    };
    for (const tier of tiers) {
      if (tier === 'semantic' && !gateway) {
        figures.tiers.semantic = { skipped: 'no gateway configured', groups: {}, ranks: {}, degraded: 0, errors: {} };
        continue;
      }
      const tf: TierFigures = { groups: {}, ranks: {}, degraded: 0, errors: {} };
      const t0 = performance.now();
      for (const q of set.queries) {
        try {
          const res = await search(q.query, { dataDir, org, type: tier, repo: q.corpus, limit: LIMIT });
          if (res.degraded) tf.degraded++;
          const files = res.results
            .filter((r) => !r.repo || r.repo === q.corpus)
            .map((r) => normalizeFile(r.file, dirOf.get(q.corpus)!));
          tf.ranks[q.id] = rankOf(files, q.expected);
        } catch (e) {
          // one query the tier rejects (a regex it cannot compile, say) is a
          // miss worth reporting, not a reason to lose the other figures
          tf.ranks[q.id] = null;
          tf.errors[q.id] = (e as Error).message.split('\n')[0]!;
        }
      }
      tf.groups = score(set, tf.ranks);
      figures.tiers[tier] = tf;
      const all = tf.groups.all!;
      log(`${tier}: recall@5 ${all.hits5}/${all.n}, ${((performance.now() - t0) / set.queries.length).toFixed(0)} ms/query` +
        (Object.keys(tf.errors).length ? `, ${Object.keys(tf.errors).length} errors` : ''));
    }
    return figures;
  } finally {
    for (const d of temps) rmSync(d, { recursive: true, force: true });
  }
}

// ---- the table --------------------------------------------------------------------

const GROUP_ORDER = [...STYLES, 'python', 'go', 'all'];

function pad(s: string | number, w: number, left = false): string {
  const t = String(s);
  return left ? t.padEnd(w) : t.padStart(w);
}

/**
 * One row per tier and group, then one line per query with its rank in each
 * tier: a change in ranking shows in a diff as the rows and queries that moved.
 * Nothing time- or machine-dependent goes in, so re-running on an unchanged
 * tree writes the same bytes.
 */
export function formatFigures(f: Figures): string {
  const lines: string[] = [];
  lines.push('# hanzo-code ranking figures: node dist/bench/ranking.js --write');
  lines.push(`# ${f.queries} queries (test/ranking/queries.json), ${f.limit} results per query, ` +
    `rank = first expected file among distinct result files`);
  lines.push(`# corpora: ${f.corpora.map((c) => `${c.name} ${c.files} files ${(c.bytes / 1e6).toFixed(1)} MB`).join(', ')}`);
  lines.push('');
  const head = `${pad('tier', 9, true)}${pad('group', 11, true)}${pad('n', 4)}${pad('@1', 5)}${pad('@5', 5)}${pad('@10', 5)}` +
    `${pad('R@1', 8)}${pad('R@5', 7)}${pad('R@10', 7)}${pad('MRR', 7)}`;
  lines.push(head);
  const run: EvalTier[] = [];
  for (const tier of TIERS) {
    const t = f.tiers[tier];
    if (!t) continue;
    if (t.skipped) {
      lines.push(`${tier}: skipped (${t.skipped})`);
      continue;
    }
    run.push(tier);
    const keys = [...GROUP_ORDER.filter((k) => t.groups[k]), ...Object.keys(t.groups).filter((k) => !GROUP_ORDER.includes(k)).sort()];
    for (const k of keys) {
      const g = t.groups[k]!;
      const r = (x: number): string => (g.n ? x / g.n : 0).toFixed(3);
      lines.push(`${pad(tier, 9, true)}${pad(k, 11, true)}${pad(g.n, 4)}${pad(g.hits1, 5)}${pad(g.hits5, 5)}${pad(g.hits10, 5)}` +
        `${pad(r(g.hits1), 8)}${pad(r(g.hits5), 7)}${pad(r(g.hits10), 7)}${pad(r(g.rr), 7)}`);
    }
    if (t.degraded) lines.push(`${tier}: ${t.degraded} degraded responses`);
    for (const [id, msg] of Object.entries(t.errors)) lines.push(`${tier}: ${id} failed: ${msg}`);
  }
  if (run.length) {
    lines.push('');
    lines.push(`# rank per query ('-' = not in the first ${f.limit} files)`);
    lines.push(`${pad('query', 9, true)}${run.map((t) => pad(t, 9)).join('')}`);
    const ids = Object.keys(f.tiers[run[0]!]!.ranks);
    for (const id of ids) {
      lines.push(`${pad(id, 9, true)}${run.map((t) => pad(f.tiers[t]!.ranks[id] ?? '-', 9)).join('')}`);
    }
  }
  return lines.join('\n') + '\n';
}

export interface CommittedFigures {
  /** tier -> group -> counts as committed */
  groups: Partial<Record<EvalTier, Record<string, { n: number; hits1: number; hits5: number; hits10: number }>>>;
  /** tier -> query id -> rank (null = miss) */
  ranks: Partial<Record<EvalTier, Record<string, number | null>>>;
}

/**
 * Reads figures.txt back. Tolerant of reflowed whitespace, comments and rows
 * it does not know, so a hand-edited or older file still yields its counts;
 * the integer hit columns are read rather than the ratios, which round.
 */
export function parseFigures(text: string): CommittedFigures {
  const out: CommittedFigures = { groups: {}, ranks: {} };
  let rankTiers: EvalTier[] | null = null;
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const cols = t.split(/\s+/);
    if (cols[0] === 'query') {
      rankTiers = cols.slice(1).filter((c): c is EvalTier => (TIERS as readonly string[]).includes(c));
      continue;
    }
    if ((TIERS as readonly string[]).includes(cols[0]!) && cols.length >= 6 && /^\d+$/.test(cols[2]!)) {
      const [tier, group, n, h1, h5, h10] = cols as [EvalTier, string, string, string, string, string];
      if (![h1, h5, h10].every((x) => /^\d+$/.test(x))) continue;
      (out.groups[tier] ??= {})[group] = { n: +n, hits1: +h1, hits5: +h5, hits10: +h10 };
      continue;
    }
    if (rankTiers && /^[a-z]+-\d+$/.test(cols[0]!) && cols.length === rankTiers.length + 1) {
      rankTiers.forEach((tier, i) => {
        const v = cols[i + 1]!;
        (out.ranks[tier] ??= {})[cols[0]!] = /^\d+$/.test(v) ? +v : null;
      });
    }
  }
  return out;
}

// ---- CLI ------------------------------------------------------------------------

async function main(argv: string[]): Promise<void> {
  let write = false;
  let tiers: EvalTier[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--write') write = true;
    else if (a === '--tiers' || a.startsWith('--tiers=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i] ?? '';
      tiers = v.split(',').map((x) => x.trim()).filter(Boolean) as EvalTier[];
      const bad = tiers.filter((x) => !(TIERS as readonly string[]).includes(x));
      if (bad.length) throw new Error(`unknown tier ${bad.join(', ')}: use ${TIERS.join(', ')}`);
    } else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node dist/bench/ranking.js [--write] [--tiers text,symbol,semantic,hybrid]\n');
      return;
    } else throw new Error(`unknown argument ${a}`);
  }
  if (write && tiers && !tiers.includes('hybrid')) {
    // the regression test reads hybrid's row; a file without it would disarm it
    throw new Error('--write needs the hybrid tier');
  }
  const figures = await evaluate({ tiers });
  const text = formatFigures(figures);
  process.stdout.write(text);
  if (write) {
    writeFileSync(FIGURES_PATH, text);
    process.stderr.write(`wrote ${relative(process.cwd(), FIGURES_PATH) || FIGURES_PATH}\n`);
  }
}

const invoked = process.argv[1] ? resolve(process.argv[1]) : '';
if (invoked === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`ranking: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
