// The semantic tier: the query embedded through the gateway, cosine (a dot
// product over vectors normalised at write time) against at most SCAN_CAP
// stored vectors of the same model, best first. Fail-honest: a gateway
// failure is a `failed` status with a message, never an exception, and no
// vectors is `unavailable` with the command that makes them.

import type { Gateway } from '../gateway/client.js';
import type { Store } from '../store/store.js';
import { ChunkRenderer } from './spans.js';
import type { Hit, RetrieverResult } from './types.js';
import { fromBlob, normalize, topK } from './vectors.js';

/** The API's bound: a query is compared with at most this many stored vectors. */
export const SCAN_CAP = 50_000;

export function hasVectors(store: Store, model: string, repoId?: number): boolean {
  return store.vectorCount(model, repoId) > 0;
}

export async function semanticSearch(store: Store, gateway: Gateway, model: string, query: string, opts: { repoId?: number; limit: number; scanCap?: number }): Promise<RetrieverResult> {
  const cap = opts.scanCap ?? SCAN_CAP;
  const total = store.vectorCount(model, opts.repoId);
  if (total === 0) {
    return { tier: 'semantic', hits: [], status: 'unavailable', capped: false, message: `no embeddings for model "${model}" yet: run \`hanzo code index --embed\`` };
  }
  let q: Float32Array;
  try {
    q = normalize((await gateway.embed([query])).vectors[0]!);
  } catch (e) {
    const err = e as Error & { hint?: string };
    return { tier: 'semantic', hits: [], status: 'failed', capped: false, message: `semantic tier failed: ${err.message}${err.hint ? ` (${err.hint})` : ''}` };
  }
  const rows = store.vectors(model, cap, opts.repoId);
  const dim = rows[0]!.dim;
  if (q.length !== dim) {
    return { tier: 'semantic', hits: [], status: 'failed', capped: false, message: `the gateway returned a ${q.length}-dim query vector; stored vectors of "${model}" have ${dim}` };
  }
  const matrix = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => matrix.set(fromBlob(r.vec, dim), i * dim));
  const top = topK(q, matrix, rows.length, dim, opts.limit * 2);
  const hits: Hit[] = [];
  const render = new ChunkRenderer(store);
  for (const t of top) {
    // a vector at or below zero cosine shares nothing with the query: no hit, so "nothing matches" stays reachable
    if (hits.length >= opts.limit || t.score <= 0) break;
    // the same text in several places was embedded once; each place is a result
    for (const c of store.chunksByHash(rows[t.index]!.hash, opts.repoId)) {
      if (hits.length >= opts.limit) break;
      hits.push(render.hit(c, 'semantic', t.score));
    }
  }
  return { tier: 'semantic', hits, status: 'ok', capped: total > cap };
}
