// The hybrid tier: the planner's requests sent to every tier, each tier's
// hits mapped onto chunks (so a line match, a definition and a semantic hit
// in the same function meet as one span), fused by reciprocal rank. The
// lists it fuses, in order: exact text, quoted literals, symbols, keyword
// BM25 per chunk, keyword BM25 per file, paths named in the query, semantic.

import { rrf, type RankedList } from '../fuse/rrf.js';
import { planQuery, type Plan } from '../plan/plan.js';
import type { ChunkHit, Store } from '../store/store.js';
import { lexicalSearch } from './lexical.js';
import { findDefinitions } from './symbols.js';
import { ChunkRenderer } from './spans.js';
import { TEST_PATH, type CaseMode, type Hit, type RetrieverResult } from './types.js';

export interface HybridOptions {
  repoId?: number;
  limit: number;
  caseMode: CaseMode;
  /** the semantic tier, when vectors and a gateway exist: ranked chunk ids */
  semantic?: (query: string, k: number) => Promise<RetrieverResult>;
}

const PER_LIST = 100;
/** a pasted frame outweighs every other signal in the query */
const FRAME_WEIGHT = 3;

function chunkKey(id: number): string {
  return `c${id}`;
}

/** FTS5 MATCH for keyword terms: any term, each quoted so no term is read as syntax. */
export function keywordMatch(terms: string[]): string | null {
  const t = terms.filter((x) => /^[\p{L}\p{N}_]+$/u.test(x)).map((x) => `"${x}"`);
  return t.length ? t.join(' OR ') : null;
}

export async function hybridSearch(store: Store, query: string, opts: HybridOptions): Promise<RetrieverResult & { plan: Plan }> {
  const plan = planQuery(query);
  const lists: RankedList[] = [];
  const warnings: string[] = [];
  let capped = false;
  let degraded = false;

  const lineToChunk = (fileId: number, line: number): string | null => {
    const c = store.chunkAt(fileId, line);
    return c ? chunkKey(c.id) : null;
  };
  const lexicalList = (name: string, q: string, mode: 'text' | 'regex') => {
    try {
      const r = lexicalSearch(store, q, { mode, caseMode: opts.caseMode, repoId: opts.repoId, limit: PER_LIST * 3 });
      lists.push({ name, ids: r.hits.map((h) => lineToChunk(h.fileId, h.line)).filter((x): x is string => !!x) });
    } catch {
      /* a literal that cannot be searched (e.g. only a newline) adds nothing */
    }
  };

  if (plan.exact) lexicalList('text', plan.exact, 'text');
  for (const [i, lit] of plan.literals.entries()) if (lit !== plan.exact) lexicalList(`literal${i}`, lit, 'text');

  if (plan.symbols.length) {
    const ids: string[] = [];
    for (const s of plan.symbols) {
      for (const d of findDefinitions(store, s, opts.repoId, 20, true)) {
        const k = lineToChunk(d.fileId, d.line);
        if (k) ids.push(k);
      }
    }
    // definitions over mentions: for a code-like query the definition is usually what is meant
    lists.push({ name: 'symbol', ids, weight: plan.identifier ? 3 : plan.frames.length || plan.literals.length ? 2 : 1 });
  }

  const match = keywordMatch(plan.keywords);
  if (match) {
    const rows = store.wordSearch(match, PER_LIST * 3, [2, 4, 1], opts.repoId);
    // for a code-like query the keyword lists only break ties between exact hits
    const kw = plan.identifier ? 0.5 : 1;
    lists.push({ name: 'keyword', ids: rows.slice(0, PER_LIST).map((r) => chunkKey(r.chunkId)), weight: kw });
    // file level: a file whose chunks keep matching is likelier the one meant
    const byFile = new Map<number, { best: number; scores: number[] }>();
    const scoreOf = new Map(rows.map((r) => [r.chunkId, r.score]));
    for (const c of store.chunksByIds(rows.map((r) => r.chunkId))) {
      const score = scoreOf.get(c.id)!;
      const e = byFile.get(c.fileId);
      if (!e) byFile.set(c.fileId, { best: c.id, scores: [score] });
      else e.scores.push(score);
    }
    const files = [...byFile.values()]
      .map((e) => ({ best: e.best, score: e.scores.slice(0, 3).reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.score - a.score);
    lists.push({ name: 'file', ids: files.map((f) => chunkKey(f.best)), weight: kw });
  }

  if (plan.frames.length) {
    // a frame names a file, a line and a function: the chunk there, then the function's definition in that file
    const ids: string[] = [];
    for (const fr of plan.frames) {
      const files = store.filesByPathSuffix(fr.path, opts.repoId, 3);
      // a bare file name that several files share (the user's own errors.go) points nowhere in particular
      if (!fr.path.includes('/') && files.length > 1) continue;
      for (const f of files) {
        const at = fr.line ? store.chunkAt(f.id, fr.line) : undefined;
        if (at) ids.push(chunkKey(at.id));
        for (const s of fr.func ? store.symbolsOf(f.id).filter((x) => x.name === fr.func) : []) {
          const c = store.chunkAt(f.id, s.line);
          if (c) ids.push(chunkKey(c.id));
        }
      }
    }
    lists.push({ name: 'frame', ids, weight: FRAME_WEIGHT });
  }

  if (plan.paths.length) {
    const ids: string[] = [];
    for (const p of plan.paths) {
      for (const f of store.filesByPathSuffix(p, opts.repoId, 5)) {
        const c = store.chunksOf(f.id)[0];
        if (c) ids.push(chunkKey(c.id));
      }
    }
    lists.push({ name: 'path', ids });
  }

  if (opts.semantic) {
    const r = await opts.semantic(query, PER_LIST);
    capped = r.capped;
    if (r.status !== 'ok') {
      if (r.message) warnings.push(r.message);
      if (r.status === 'failed') degraded = true;
    } else {
      lists.push({ name: 'semantic', ids: r.hits.map((h) => lineToChunk(h.fileId, h.line)).filter((x): x is string => !!x) });
    }
  }

  const fused = rrf(lists);
  // prose asks about behaviour: a test that exercises it is rarely the code to change
  if (plan.prose) {
    const chunks = new Map(store.chunksByIds(fused.slice(0, opts.limit * 4).map((f) => Number(f.id.slice(1)))).map((c) => [chunkKey(c.id), c]));
    for (const f of fused) {
      const c = chunks.get(f.id);
      if (c && TEST_PATH.test(c.path)) f.score *= 0.8;
    }
    fused.sort((a, b) => b.score - a.score);
  }
  const top = fused.slice(0, opts.limit);
  const rows = new Map(store.chunksByIds(top.map((f) => Number(f.id.slice(1)))).map((c) => [chunkKey(c.id), c] as [string, ChunkHit]));
  const render = new ChunkRenderer(store);
  const hits: Hit[] = [];
  for (const f of top) {
    const c = rows.get(f.id);
    if (c) hits.push(render.hit(c, 'hybrid', f.score));
  }
  return {
    tier: 'hybrid', hits, status: degraded && hits.length === 0 ? 'failed' : 'ok', capped,
    message: warnings.length ? warnings.join('; ') : undefined, plan,
  };
}
