// Turning stored chunks into hits: one place for the excerpt rule (the first
// SNIPPET_LINES lines of the chunk on /search) and for caching a file's lines
// while several of its chunks are rendered.

import type { ChunkHit, Store } from '../store/store.js';
import type { Tier } from '../types.js';
import { hitId, type Hit } from './types.js';

export const SNIPPET_LINES = 12;

export class ChunkRenderer {
  private texts = new Map<number, string[]>();
  constructor(private store: Store) {}

  lines(fileId: number): string[] {
    let l = this.texts.get(fileId);
    if (!l) {
      if (this.texts.size > 256) this.texts.clear();
      this.texts.set(fileId, (l = (this.store.content(fileId) ?? '').split('\n')));
    }
    return l;
  }

  hit(c: ChunkHit, tier: Tier, score: number): Hit {
    return {
      id: hitId(c.fileId, c.line, c.endLine), fileId: c.fileId, repo: c.repo, file: c.path, line: c.line, endLine: c.endLine,
      kind: c.kind, symbol: c.symbol, role: 'match', tier, score: Math.round(score * 1e6) / 1e6,
      snippet: this.lines(c.fileId).slice(c.line - 1, Math.min(c.endLine, c.line + SNIPPET_LINES - 1)).join('\n'),
    };
  }
}
