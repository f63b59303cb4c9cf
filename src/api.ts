// The library surface the CLI (and the REST/MCP front ends) call. Each
// function opens the org's store, runs one operation and closes it; callers
// never see SQL, workers or the gateway. Argument checking that depends on the
// store (unknown repo) happens here; flag syntax is the CLI's job.

import { SEARCH_TYPES, type SearchType } from './config.js';
import { UsageError } from './errors.js';
import { indexCheckout as runIndex, type IndexOptions, type IndexSummary } from './index/indexer.js';
import { Gateway, gatewayConfig } from './gateway/client.js';
import { embedChunks, type EmbedSummary } from './index/embed.js';
import { hybridSearch } from './retrieve/hybrid.js';
import { hasVectors, semanticSearch } from './retrieve/semantic.js';
import { lexicalSearch } from './retrieve/lexical.js';
import { RegexError } from './retrieve/regex.js';
import { referenceSearch, symbolSearch } from './retrieve/symbols.js';
import type { CaseMode, Hit, RetrieverResult } from './retrieve/types.js';
import { Store } from './store/store.js';
import { pack, type Candidate } from './pack/pack.js';
import type { ContextBundle, Kind, Role, SearchResults, Span, Tier } from './types.js';

export type { IndexSummary } from './index/indexer.js';
export type { Hit } from './retrieve/types.js';

export interface StoreOptions { dataDir: string; org: string }

/** Where the gateway settings come from: the environment (HANZO_BASE_URL, HANZO_API_KEY, HANZO_EMBED_MODEL) and flags. */
export interface GatewayOptions {
  env?: NodeJS.ProcessEnv;
  embedModel?: string;
  /** tests: a smaller semantic scan cap than the API's 50,000 */
  scanCap?: number;
}

function gatewayFor(o: GatewayOptions): { gateway: Gateway; model: string } {
  const cfg = gatewayConfig(o.env ?? process.env, { embedModel: o.embedModel });
  return { gateway: new Gateway(cfg), model: cfg.embedModel };
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export { defaultDataDir, SEARCH_TYPES, type SearchType } from './config.js';

export function withStore<T>(o: StoreOptions, fn: (s: Store) => T, create = false): T {
  const store = Store.open(o.dataDir, o.org, { create });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

async function withStoreAsync<T>(o: StoreOptions, fn: (s: Store) => Promise<T>, create = false): Promise<T> {
  const store = Store.open(o.dataDir, o.org, { create });
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

export interface IndexCheckoutOptions extends StoreOptions, IndexOptions, GatewayOptions {
  /** embed new and changed chunks through the gateway after indexing */
  embed?: boolean;
  onEmbedProgress?: (p: { done: number; total: number; tokens: number; seconds: number }) => void;
}

export async function indexCheckout(root: string, opts: IndexCheckoutOptions): Promise<IndexSummary & { store: string; embed?: EmbedSummary }> {
  return withStoreAsync(opts, async (store) => {
    const s = await runIndex(store, root, opts);
    if (!opts.embed) return { ...s, store: store.file };
    const { gateway, model } = gatewayFor(opts);
    const e = await embedChunks(store, gateway, model, opts.onEmbedProgress);
    store.checkpoint();
    return { ...s, bytes: store.sizeBytes(), store: store.file, embed: e };
  }, true);
}

export function repoId(store: Store, repo: string | undefined): number | undefined {
  if (repo === undefined) return undefined;
  const r = store.repo(repo);
  if (!r) {
    const known = store.repos().map((x) => x.name);
    throw new UsageError(
      `unknown repo "${repo}": this org's index has ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'no repos yet'}`,
    );
  }
  return r.id;
}

export interface SearchOptions extends StoreOptions, GatewayOptions {
  type?: SearchType;
  repo?: string;
  limit?: number;
  /** lift the limit (text and regex tiers) */
  all?: boolean;
  caseMode?: CaseMode;
  /** symbol tier: list the references to the best-matching definition */
  refs?: boolean;
}

export interface SearchOutput extends SearchResults {
  results: Hit[];
  /** lines for stderr: what failed or is missing */
  warnings: string[];
}

/** The semantic tier for hybrid use: only when vectors of the model exist, so the network is used only when asked. */
function semanticFor(store: Store, opts: GatewayOptions, rid: number | undefined) {
  const cfg = gatewayConfig(opts.env ?? process.env, { embedModel: opts.embedModel });
  if (!hasVectors(store, cfg.embedModel, rid)) return undefined;
  const gateway = new Gateway(cfg);
  return (q: string, k: number) => semanticSearch(store, gateway, cfg.embedModel, q, { repoId: rid, limit: k, scanCap: opts.scanCap });
}

/** A hit as the API's Span: exactly the spec's fields, in its order. */
export function toSpan(h: Span): Span {
  return {
    repo: h.repo, file: h.file, line: h.line, endLine: h.endLine, kind: h.kind, symbol: h.symbol,
    role: h.role, tier: h.tier, score: h.score, snippet: h.snippet,
  };
}

/** code.searchResults as the wire shows it (the CLI's --json, REST, MCP). */
export function toSearchResults(r: SearchOutput): SearchResults {
  return { query: r.query, type: r.type, results: r.results.map(toSpan), degraded: r.degraded, capped: r.capped };
}

export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new UsageError(`invalid limit ${limit}: use a whole number from 1 to ${MAX_LIMIT}, or --all for every match`);
  }
  return limit;
}

export async function search(query: string, opts: SearchOptions): Promise<SearchOutput> {
  const type = opts.type ?? 'hybrid';
  if (!SEARCH_TYPES.includes(type)) throw new UsageError(`invalid type "${type}": use one of ${SEARCH_TYPES.join(', ')}`);
  // a space is a fine literal (rg -F ' '); the ranked tiers need something to rank by
  if (query === '' || (query.trim() === '' && type !== 'text' && type !== 'regex')) {
    throw new UsageError('empty query: give a string, a regex or a symbol name to search for');
  }
  const limit = checkLimit(opts.limit);
  return withStoreAsync(opts, async (store) => {
    const rid = repoId(store, opts.repo);
    const caseMode = opts.caseMode ?? 'smart';
    if (opts.refs && type !== 'symbol') throw new UsageError(`--refs goes with --type symbol (got --type ${type})`);
    if (opts.all && !(type === 'text' || type === 'regex' || (type === 'symbol' && opts.refs))) {
      throw new UsageError(`--all goes with --type text or regex (or symbol --refs); --type ${type} answers at most ${MAX_LIMIT} ranked results`);
    }
    const unlimited = opts.all && (type === 'text' || type === 'regex');
    let res: RetrieverResult;
    try {
      switch (type) {
        case 'symbol':
          if (opts.refs) {
            const r = referenceSearch(store, query, { repoId: rid, limit: opts.all ? null : limit });
            res = { tier: 'symbol', hits: r.definition ? [r.definition, ...r.refs] : [], status: 'ok', capped: false };
          } else {
            res = symbolSearch(store, query, { repoId: rid, limit });
          }
          break;
        case 'regex':
          res = lexicalSearch(store, query, { mode: 'regex', caseMode, repoId: rid, limit: unlimited ? null : limit });
          break;
        case 'semantic': {
          const { gateway, model } = gatewayFor(opts);
          res = await semanticSearch(store, gateway, model, query, { repoId: rid, limit, scanCap: opts.scanCap });
          break;
        }
        case 'text':
          res = lexicalSearch(store, query, { mode: 'text', caseMode, repoId: rid, limit: unlimited ? null : limit });
          break;
        default:
          res = await hybridSearch(store, query, { repoId: rid, limit, caseMode, semantic: semanticFor(store, opts, rid) });
          break;
      }
    } catch (e) {
      if (e instanceof RegexError) throw new UsageError(e.message);
      if (e instanceof UsageError) throw e;
      // fail-honest: an outage inside retrieval is an empty, degraded answer
      return { query, type, results: [], degraded: true, capped: false, warnings: [`retrieval failed: ${(e as Error).message}`] };
    }
    const warnings = res.message ? [res.message] : [];
    // fail-honest: a tier that failed answers with no hits of its own (semantic, or hybrid with nothing else)
    return {
      query, type: res.tier as Tier, results: res.hits, degraded: res.status === 'failed', capped: res.capped, warnings,
    };
  });
}

// ---- tree and file -------------------------------------------------------

export interface TreeEntry {
  repo: string;
  file: string;
  language: string;
  symbols: number;
  lines: number;
  skipped?: string;
  definitions?: { name: string; kind: string; line: number; endLine: number; container: string }[];
}

export interface TreeOptions extends StoreOptions { repo?: string; symbols?: boolean }

/** Every indexed file of a repo (or of every repo) with its per-file symbol count. */
export function tree(opts: TreeOptions): TreeEntry[] {
  return withStore(opts, (store) => {
    const rid = repoId(store, opts.repo);
    const repos = store.repos().filter((r) => rid === undefined || r.id === rid);
    const out: TreeEntry[] = [];
    for (const r of repos) {
      const counts = store.symbolCounts(r.id);
      for (const f of store.filesOf(r.id)) {
        const e: TreeEntry = { repo: r.name, file: f.path, language: f.language, symbols: counts.get(f.id) ?? 0, lines: f.lines };
        if (f.skipReason) e.skipped = f.skipReason;
        if (opts.symbols) {
          e.definitions = store.symbolsOf(f.id).map((s) => ({ name: s.name, kind: s.kind, line: s.line, endLine: s.endLine, container: s.container }));
        }
        out.push(e);
      }
    }
    return out;
  });
}

export interface FileOptions extends StoreOptions { repo?: string; lines?: [number, number] }

export interface FileResult {
  repo: string;
  file: string;
  language: string;
  line: number;
  endLine: number;
  totalLines: number;
  content: string;
  skipped?: string;
  definitions: { name: string; kind: string; line: number; endLine: number; container: string; signature: string }[];
}

/** Repo-relative, '/'-separated, inside the repo; anything else is a usage error. */
export function normalizeRepoPath(p: string): string {
  // a backslash is an ordinary file-name character on POSIX: paths are '/'-separated only
  if (p.startsWith('/')) {
    throw new UsageError(`invalid path "${p}": give a path relative to the repo root, not an absolute one`);
  }
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') throw new UsageError(`invalid path "${p}": it leaves the repo ('..' is not allowed)`);
    parts.push(seg);
  }
  if (parts.length === 0) throw new UsageError(`invalid path "${p}": name a file inside the repo`);
  return parts.join('/');
}

/** Edit distance, bounded, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[n]!;
}

export class NotIndexedError extends UsageError {
  readonly suggestions: string[];
  constructor(message: string, suggestions: string[]) {
    super(message, suggestions.length ? `closest indexed paths: ${suggestions.join(', ')}` : undefined);
    this.suggestions = suggestions;
    // "not found" is exit 1, as a search with no results
    (this as { exitCode: number }).exitCode = 1;
  }
}

export function file(p: string, opts: FileOptions): FileResult {
  const rel = normalizeRepoPath(p);
  return withStore(opts, (store) => {
    const rid = repoId(store, opts.repo);
    const repos = store.repos().filter((r) => rid === undefined || r.id === rid);
    for (const r of repos) {
      const f = store.fileByPath(r.id, rel);
      if (!f) continue;
      const text = store.content(f.id) ?? '';
      const all = text.split('\n');
      if (all.length > 0 && all[all.length - 1] === '' ) all.pop();
      const [a, b] = opts.lines ?? [1, all.length];
      if (opts.lines && (a > all.length || a < 1)) {
        throw new UsageError(`invalid --lines ${a}:${b}: ${rel} has ${all.length} lines`);
      }
      const end = Math.min(b, all.length);
      const content = all.slice(a - 1, end).join('\n') + (end >= a ? '\n' : '');
      const res: FileResult = {
        repo: r.name, file: f.path, language: f.language, line: a, endLine: end, totalLines: all.length, content,
        definitions: store.symbolsOf(f.id).map((s) => ({ name: s.name, kind: s.kind, line: s.line, endLine: s.endLine, container: s.container, signature: s.signature })),
      };
      if (f.skipReason) res.skipped = f.skipReason;
      return res;
    }
    const candidates = repos.flatMap((r) => store.filesOf(r.id).map((f) => f.path));
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const scored = candidates
      .map((c) => ({ c, d: Math.min(distance(rel, c), distance(base, c.slice(c.lastIndexOf('/') + 1)) + 1) }))
      .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
      .slice(0, 3)
      .map((x) => x.c);
    throw new NotIndexedError(`"${rel}" is not indexed${opts.repo ? ` in repo "${opts.repo}"` : ''}`, scored);
  });
}

// ---- context ---------------------------------------------------------------

export const DEFAULT_BUDGET = 8000;
export const MAX_BUDGET = 200_000;
const CONTEXT_SEEDS = 12;
const CALLEES_PER_SEED = 4;
const CALLERS_PER_SEED = 3;

export interface ContextOptions extends StoreOptions, GatewayOptions { repo?: string; budgetTokens?: number; caseMode?: CaseMode }

function chunkSpan(store: Store, c: { fileId: number; line: number; endLine: number; kind: Kind; symbol: string }, meta: { repo: string; file: string }, role: Role, tier: Tier, score: number): Span {
  const lines = (store.content(c.fileId) ?? '').split('\n');
  return {
    repo: meta.repo, file: meta.file, line: c.line, endLine: c.endLine, kind: c.kind, symbol: c.symbol,
    role, tier, score, snippet: lines.slice(c.line - 1, c.endLine).join('\n'),
  };
}

/** The most relevant code for a query, packed into a token budget (code.ContextBundle). */
export async function context(query: string, opts: ContextOptions): Promise<ContextBundle> {
  const budget = opts.budgetTokens ?? DEFAULT_BUDGET;
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_BUDGET) {
    throw new UsageError(`invalid budget ${budget}: use a whole number of tokens from 1 to ${MAX_BUDGET}`);
  }
  if (query.trim() === '') throw new UsageError('empty query: say what the context is for');
  return withStoreAsync(opts, async (store) => {
    const rid = repoId(store, opts.repo);
    const empty: ContextBundle = { query, repo: opts.repo ?? '', budgetTokens: budget, usedTokens: 0, spans: [], capped: false, degraded: false, omitted: [] };
    let seeds: RetrieverResult;
    try {
      seeds = await hybridSearch(store, query, { repoId: rid, limit: CONTEXT_SEEDS, caseMode: opts.caseMode ?? 'smart', semantic: semanticFor(store, opts, rid) });
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return { ...empty, degraded: true };
    }
    const candidates: Candidate[] = [];
    for (const h of seeds.hits) {
      const chunk = store.chunkAt(h.fileId, h.line);
      if (!chunk) continue;
      const seed = chunkSpan(store, chunk, h, 'match', 'hybrid', h.score);
      const callees: Span[] = [];
      for (const c of store.calleesOf(chunk.id, CALLEES_PER_SEED * 3)) {
        if (callees.length >= CALLEES_PER_SEED) break;
        const d = store.symbolById(c.symbolId);
        if (!d || (d.fileId === chunk.fileId && d.line >= chunk.line && d.line <= chunk.endLine)) continue;
        const dc = store.chunkAt(d.fileId, d.line);
        if (!dc) continue;
        callees.push(chunkSpan(store, { ...dc, kind: d.kind, symbol: d.name }, { repo: d.repo, file: d.path }, 'definition', 'symbol', c.n));
      }
      // key callers: of what this chunk defines, the chunks that reference it most
      const callers: Span[] = [];
      const counts = new Map<number, { n: number; ref: { fileId: number; path: string; repo: string } }>();
      for (const s of store.symbolsOf(chunk.fileId).filter((s) => s.line >= chunk.line && s.line <= chunk.endLine)) {
        for (const r of store.refsTo(s.id, 200)) {
          if (r.chunk === null || r.chunk === chunk.id) continue;
          const e = counts.get(r.chunk);
          if (e) e.n++;
          else counts.set(r.chunk, { n: 1, ref: r });
        }
      }
      for (const [cid, e] of [...counts.entries()].sort((a, b) => b[1].n - a[1].n).slice(0, CALLERS_PER_SEED)) {
        const cc = store.chunk(cid);
        if (cc) callers.push(chunkSpan(store, cc, { repo: e.ref.repo, file: e.ref.path }, 'caller', 'symbol', e.n));
      }
      candidates.push({ seed, callees, callers });
    }
    const packed = pack(candidates, budget);
    return { ...empty, usedTokens: packed.usedTokens, spans: packed.spans, omitted: packed.omitted, capped: seeds.capped, degraded: seeds.status === 'failed' };
  });
}

// ---- ask -------------------------------------------------------------------

export const DEFAULT_ASK_BUDGET = 6000;

export interface AskOptions extends ContextOptions { chatModel?: string }

export interface AskResult {
  query: string;
  answer: string;
  /** the spans the model was given, numbered from 1 in order: [n] in the answer cites spans[n-1] */
  spans: Span[];
  /** the span numbers the answer actually cites */
  cited: number[];
  model: string;
  budgetTokens: number;
  usedTokens: number;
  degraded: boolean;
  capped: boolean;
}

const ASK_SYSTEM = [
  'You answer questions about a codebase using ONLY the numbered code spans provided.',
  'Cite every claim with the span numbers in square brackets, like [1] or [2][3].',
  'If the spans do not contain the answer, say so plainly instead of guessing.',
  'Be concise; quote identifiers exactly as they appear in the code.',
].join(' ');

export function askPrompt(query: string, spans: Span[]): string {
  const parts = spans.map((s, i) => `[${i + 1}] ${s.repo}/${s.file}:${s.line}-${s.endLine}${s.symbol ? ` (${s.kind} ${s.symbol})` : ''}\n\`\`\`\n${s.snippet}\n\`\`\``);
  return `Question: ${query}\n\nCode spans:\n\n${parts.join('\n\n')}`;
}

/** A cited answer written by the chat model over exactly the spans `context` packs. */
export async function ask(query: string, opts: AskOptions): Promise<AskResult & { warnings: string[] }> {
  const bundle = await context(query, { ...opts, budgetTokens: opts.budgetTokens ?? DEFAULT_ASK_BUDGET });
  const cfg = gatewayConfig(opts.env ?? process.env, { chatModel: opts.chatModel, embedModel: opts.embedModel });
  const base = {
    query, spans: bundle.spans, model: cfg.chatModel, budgetTokens: bundle.budgetTokens, usedTokens: bundle.usedTokens,
    capped: bundle.capped,
  };
  if (bundle.spans.length === 0) {
    // nothing to ground an answer in: the model is not asked to invent one
    return { ...base, answer: '', cited: [], degraded: bundle.degraded, warnings: [] };
  }
  try {
    const r = await new Gateway(cfg).chat([
      { role: 'system', content: ASK_SYSTEM },
      { role: 'user', content: askPrompt(query, bundle.spans) },
    ]);
    const cited = [...new Set([...r.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))]
      .filter((n) => n >= 1 && n <= bundle.spans.length)
      .sort((a, b) => a - b);
    return { ...base, answer: r.content.trim(), cited, model: r.model, degraded: false, warnings: [] };
  } catch (e) {
    const err = e as Error & { hint?: string };
    return { ...base, answer: '', cited: [], degraded: true, warnings: [`ask failed: ${err.message}${err.hint ? ` (${err.hint})` : ''}`] };
  }
}
