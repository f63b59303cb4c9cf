// The embedding stage of `index --embed`: every chunk whose content hash has
// no vector for the model is sent to the gateway, in batches; each finished
// batch is committed before the next request, so an interrupted run keeps
// its work and the next run resumes where it stopped. Vectors are normalised
// at write time so the semantic scan is a plain dot product.

import type { Gateway } from '../gateway/client.js';
import { normalize, toBlob } from '../retrieve/vectors.js';
import type { Store } from '../store/store.js';

/** Inputs are cut to this many characters: embedding models take ~8k tokens at most. */
const MAX_INPUT_CHARS = 16_000;

export interface EmbedSummary { model: string; embedded: number; reused: number; pruned: number; tokens: number; seconds: number }

export async function embedChunks(
  store: Store,
  gateway: Gateway,
  model: string,
  onProgress?: (p: { done: number; total: number; tokens: number; seconds: number }) => void,
): Promise<EmbedSummary> {
  const t0 = performance.now();
  const pruned = store.pruneEmbeddings();
  const todo = store.chunksWithoutVectors(model);
  const reused = store.vectorCount(model);
  const texts = new Map<number, string[]>();
  const inputs = todo.map((c) => {
    let lines = texts.get(c.fileId);
    if (!lines) {
      if (texts.size > 64) texts.clear();
      texts.set(c.fileId, (lines = (store.content(c.fileId) ?? '').split('\n')));
    }
    const t = lines.slice(c.line - 1, c.endLine).join('\n');
    return (t.trim() === '' ? '(empty)' : t).slice(0, MAX_INPUT_CHARS);
  });
  let done = 0;
  let tokens = 0;
  if (inputs.length > 0) {
    await gateway.embed(inputs, (start, vectors, used) => {
      store.putEmbeddings(model, vectors[0]!.length, vectors.map((v, i) => ({ hash: todo[start + i]!.hash, vec: toBlob(normalize(v)) })));
      done += vectors.length;
      tokens += used;
      onProgress?.({ done, total: inputs.length, tokens, seconds: (performance.now() - t0) / 1000 });
    });
  }
  return { model, embedded: done, reused, pruned, tokens, seconds: Math.round((performance.now() - t0) / 10) / 100 };
}
