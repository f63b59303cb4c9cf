// The index pipeline: walk -> change detection -> read + classify -> parse ->
// write, in batches. It decides what changed and in what order rows are
// written; the store owns how. Each batch commits atomically, so an
// interrupted run leaves the last good batch readable and the next run
// resumes: anything it did not write is still "changed" then.

import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { chunkFile } from '../parse/chunk.js';
import { detectLanguage } from '../parse/language.js';
import { ParsePool, parseBatch, type ParseJob } from '../parse/pool.js';
import { chunkHash, type PreparedFile } from '../parse/prepare.js';
import { codeTokenText } from '../parse/tokens.js';
import type { FileRow, FileWrite, Store } from '../store/store.js';
import type { SkipReason } from '../types.js';
import { classify, DEFAULT_MAX_FILE_SIZE } from '../walk/classify.js';
import { walk } from '../walk/walk.js';
import { linkRepo } from './link.js';

export interface IndexOptions {
  repo?: string;
  maxFileSize?: number;
  /** false: lexical only (block chunks, no definitions or references), for speed on huge corpora */
  symbols?: boolean;
  /** parse in worker threads; default: when there are enough files to pay for it */
  workers?: boolean;
  onProgress?: (p: { done: number; total: number; bytes: number; seconds: number }) => void;
  /** for tests: called after each committed batch */
  afterBatch?: (n: number) => void;
}

export interface IndexSummary {
  repo: string;
  root: string;
  scanned: number;
  added: number;
  updated: number;
  unchanged: number;
  pruned: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** size of the org's store file after the run */
  bytes: number;
  /** bytes of source read this run */
  sourceBytes: number;
  seconds: number;
}

const REPO_NAME = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** Files per committed batch; HANZO_INDEX_BATCH_FILES tunes it (small batches: finer resume points). */
const BATCH_FILES = Math.max(1, Number(process.env.HANZO_INDEX_BATCH_FILES) || 400);
// small enough that parsing batch k+1 overlaps writing batch k even on small repos
const BATCH_BYTES = 4 << 20;
/** Below this many files to parse, worker start-up costs more than it saves. */
const POOL_THRESHOLD = 64;
/**
 * Names what derives a file's rows. Bump the version when a parser's output
 * changes, so the next run re-parses files whose content did not change.
 */
export const EXTRACTOR_VERSION = 1;
export function extractorId(symbols: boolean): string {
  return symbols ? `symbols-${EXTRACTOR_VERSION}` : `lexical-${EXTRACTOR_VERSION}`;
}

/** mtime resolution slack: a file modified this close to its indexing may have changed unseen (git's "racy" rule). */
const RACY_MS = 2000;

export function validateRepoName(name: string): string {
  if (!REPO_NAME.test(name) || name.split('/').some((p) => p === '.' || p === '..')) {
    throw new UsageError(`invalid repo name "${name}": use owner/name made of letters, digits, '.', '_' and '-'`);
  }
  return name;
}

/** owner/name from a git remote URL (https, ssh, scp-like), or null. */
export function repoFromRemote(url: string): string | null {
  const u = url.trim().replace(/\/+$/, '').replace(/\.git$/, '');
  const m = u.match(/^[a-z+]+:\/\/(?:[^@/]+@)?[^/]+(?::\d+)?\/(.+)$/i) ?? u.match(/^(?:[^@]+@)?[^:/]+:(.+)$/);
  if (!m) return null;
  const parts = m[1]!.split('/').filter(Boolean);
  if (parts.length < 2) return parts[0] ?? null;
  return parts.slice(-2).join('/');
}

export function detectRepoName(root: string): string {
  try {
    const url = execFileSync('git', ['-C', root, 'config', '--get', 'remote.origin.url'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const name = repoFromRemote(url);
    if (name && REPO_NAME.test(name)) return name;
  } catch {
    /* not a git checkout, or no origin */
  }
  const base = path.basename(root).replace(/[^A-Za-z0-9._-]/g, '-');
  return base && REPO_NAME.test(base) ? base : 'repo';
}

function sha1(data: Buffer | string): string {
  return crypto.createHash('sha1').update(data).digest('hex');
}

interface Pending {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  language: string;
  old?: FileRow;
  text?: string;
  skip?: SkipReason;
}

function toWrite(repoId: number, p: Pending, parsed: PreparedFile | null, extractor: string): FileWrite {
  const base = {
    repoId, path: p.path, hash: p.hash, size: p.size, mtimeMs: p.mtimeMs, language: p.language, extractor,
  };
  if (p.text === undefined || !parsed) {
    return { ...base, skipReason: p.skip ?? 'unreadable', lines: 0, definitions: [], references: [], imports: [], chunks: [] };
  }
  const chunks = parsed.chunks.map((c, i) => {
    const pc = parsed.prepared[i]!;
    return { ...c, hash: pc.hash, words: { path: parsed.pathWords, symbol: pc.symbolWords, body: pc.bodyWords } };
  });
  const w: FileWrite = {
    ...base, skipReason: null, text: p.text, lines: parsed.lines,
    definitions: parsed.definitions, references: parsed.references, imports: parsed.imports, chunks,
  };
  if (parsed.error) w.parseError = parsed.error;
  return w;
}

/** What a crashed worker's batch falls back to: block chunks, no symbols. */
function blocksOnly(j: ParseJob): PreparedFile {
  const lines = j.text.split('\n');
  const chunks = chunkFile(lines, []);
  return {
    language: j.language, definitions: [], references: [], imports: [], chunks, error: 'parser crashed',
    lines: lines.length, pathWords: codeTokenText(j.path),
    prepared: chunks.map((c) => {
      const body = lines.slice(c.line - 1, c.endLine).join('\n');
      return { hash: chunkHash(body), symbolWords: '', bodyWords: codeTokenText(body) };
    }),
  };
}

export async function indexCheckout(store: Store, rootArg: string, opts: IndexOptions = {}): Promise<IndexSummary> {
  const t0 = performance.now();
  let root: string;
  try {
    root = fs.realpathSync(rootArg);
    if (!fs.statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new UsageError(`cannot index "${rootArg}": not a readable directory`);
  }
  const repoName = validateRepoName(opts.repo ?? detectRepoName(root));
  const maxFileSize = opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;

  const walked = await walk(root);
  const repo = store.tx(() => store.upsertRepo(repoName, root));
  const existing = new Map(store.filesOf(repo.id).map((f) => [f.path, f]));
  const summary: IndexSummary = {
    repo: repoName, root, scanned: walked.length, added: 0, updated: 0, unchanged: 0, pruned: 0,
    skipped: {}, bytes: 0, sourceBytes: 0, seconds: 0,
  };
  const countSkip = (r: SkipReason) => { summary.skipped[r] = (summary.skipped[r] ?? 0) + 1; };

  const extractor = extractorId(opts.symbols !== false);
  const now = Date.now();
  const todo: typeof walked = [];
  for (const f of walked) {
    const old = existing.get(f.path);
    const racy = old ? f.mtimeMs >= old.indexedAt - RACY_MS : true;
    if (old && old.size === f.size && old.mtimeMs === Math.trunc(f.mtimeMs) && !racy && (old.skipReason !== null || old.extractor === extractor)) {
      summary.unchanged++;
      if (old.skipReason) countSkip(old.skipReason);
      continue;
    }
    todo.push(f);
  }

  // prune before writing: it is cheap, and a crash after it loses nothing still on disk
  const seen = new Set(walked.map((f) => f.path));
  const gone = [...existing.values()].filter((f) => !seen.has(f.path));
  if (gone.length > 0 || todo.length > 0) store.setMeta(`link_pending:${repo.id}`, '1');
  const changedIds = new Set<number>();
  const changedNames = new Set<string>();
  for (let i = 0; i < gone.length; i += 1000) {
    store.tx(() => {
      for (const f of gone.slice(i, i + 1000)) {
        for (const n of store.symbolNamesOf(f.id)) changedNames.add(n);
        store.deleteFile(f.id);
      }
    });
  }
  summary.pruned = gone.length;

  const pool = (opts.workers ?? todo.length >= POOL_THRESHOLD) ? new ParsePool() : null;
  store.bulk(true);
  let done = summary.unchanged;
  let batchNo = 0;
  const total = walked.length;
  try {
    // read a batch, start parsing it, and write the previous one meanwhile
    type Batch = { pend: Pending[]; parsed: Promise<PreparedFile[]>; touched: [number, number][] };
    let inflight: Batch | null = null;
    const flush = async (b: Batch) => {
      const parsed = await b.parsed;
      let k = 0;
      const writes = b.pend.map((p) => toWrite(repo.id, p, p.text === undefined ? null : parsed[k++]!, extractor));
      store.tx(() => {
        // unchanged files seen with a new mtime: recorded in the batch's transaction, not one commit each
        for (const [id, mtime] of b.touched) store.touchFile(id, mtime, now);
        for (let i = 0; i < writes.length; i++) {
          const old = b.pend[i]!.old;
          if (old) for (const n of store.symbolNamesOf(old.id)) changedNames.add(n);
          const id = store.writeFile(writes[i]!, Date.now());
          changedIds.add(id);
          for (const d of writes[i]!.definitions) changedNames.add(d.name);
        }
      });
      done += b.pend.length;
      opts.afterBatch?.(++batchNo);
      opts.onProgress?.({ done, total, bytes: summary.sourceBytes, seconds: (performance.now() - t0) / 1000 });
    };

    let i = 0;
    while (i < todo.length) {
      const pend: Pending[] = [];
      const touched: [number, number][] = [];
      let bytes = 0;
      while (i < todo.length && pend.length < BATCH_FILES && bytes < BATCH_BYTES) {
        const f = todo[i++]!;
        const old = existing.get(f.path);
        const language = detectLanguage(f.path);
        const base = { path: f.path, size: f.size, mtimeMs: f.mtimeMs, language, old };
        if (f.size > maxFileSize) {
          const p: Pending = { ...base, hash: `size:${f.size}`, skip: 'too-large' };
          countSkip('too-large');
          if (old && old.hash === p.hash && old.skipReason === 'too-large') { summary.unchanged++; done++; touched.push([old.id, Math.trunc(f.mtimeMs)]); continue; }
          old ? summary.updated++ : summary.added++;
          pend.push(p);
          continue;
        }
        let buf: Buffer;
        try {
          buf = fs.readFileSync(path.join(root, f.path));
        } catch {
          countSkip('unreadable');
          if (old) { summary.updated++; } else { summary.added++; }
          pend.push({ ...base, hash: 'unreadable', skip: 'unreadable' });
          continue;
        }
        summary.sourceBytes += buf.length;
        bytes += buf.length;
        const hash = sha1(buf);
        const c = classify(buf);
        if (old && old.hash === hash && (c.ok ? old.skipReason === null && old.extractor === extractor : old.skipReason === c.reason)) {
          summary.unchanged++;
          done++;
          if (!c.ok) countSkip(c.reason);
          touched.push([old.id, Math.trunc(f.mtimeMs)]);
          continue;
        }
        old ? summary.updated++ : summary.added++;
        if (!c.ok) {
          countSkip(c.reason);
          pend.push({ ...base, hash, skip: c.reason });
        } else {
          pend.push({ ...base, hash, text: c.text });
        }
      }
      const jobs: ParseJob[] = pend.filter((p) => p.text !== undefined).map((p) => ({ language: p.language, path: p.path, text: p.text!, symbols: opts.symbols !== false }));
      // a crashed worker must not lose the batch: fall back to block chunks
      const parsed = parseBatch(jobs, pool).catch(() => jobs.map(blocksOnly));
      const next = { pend, parsed, touched };
      if (inflight) await flush(inflight);
      inflight = next;
    }
    if (inflight) await flush(inflight);
  } finally {
    await pool?.close();
    store.bulk(false, summary.added + summary.updated >= Math.max(1000, walked.length / 4));
  }

  // A first index links everything; later runs only what the changes can
  // affect. A run killed before linking leaves the flag set, so the next run
  // links the whole repo even when it finds nothing else to do.
  const pendingKey = `link_pending:${repo.id}`;
  if (store.getMeta(pendingKey) === '1' || existing.size === 0) {
    linkRepo(store, repo.id, { files: null, names: new Set() });
  } else if (changedIds.size > 0 || gone.length > 0) {
    linkRepo(store, repo.id, { files: changedIds, names: changedNames });
  }
  store.setMeta(pendingKey, '0');
  store.tx(() => store.markRepoIndexed(repo.id, Date.now()));
  store.checkpoint();
  summary.bytes = store.sizeBytes();
  summary.seconds = Math.round((performance.now() - t0) / 10) / 100;
  return summary;
}
