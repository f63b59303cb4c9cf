// Everything per file that can run off the main thread: parse, then the
// chunks' content hashes and code-token text for the keyword index. The main
// thread is left with SQLite writes alone, which only it can do.

import crypto from 'node:crypto';
import type { ParsedFile } from '../types.js';
import { chunkFile } from './chunk.js';
import { parseFile } from './parse.js';
import { codeTokenText } from './tokens.js';

export interface PreparedChunk { hash: string; symbolWords: string; bodyWords: string }

export interface PreparedFile extends ParsedFile {
  lines: number;
  pathWords: string;
  /** one per chunk, same order */
  prepared: PreparedChunk[];
}

/** 80 bits of SHA-1: a chunk's identity for embeddings; collisions are out of reach at any corpus size. */
export function chunkHash(body: string): string {
  return crypto.createHash('sha1').update(body).digest('hex').slice(0, 20);
}

/** symbols = false: lexical only, block chunks, no parser (the fast mode for huge corpora). */
export async function prepareFile(language: string, path: string, text: string, symbols = true): Promise<PreparedFile> {
  const parsed = symbols
    ? await parseFile(language, path, text)
    : { language, definitions: [], references: [], imports: [], chunks: chunkFile(text.split('\n'), []) };
  const lines = text.split('\n');
  const prepared = parsed.chunks.map((c) => {
    const body = lines.slice(c.line - 1, c.endLine).join('\n');
    return { hash: chunkHash(body), symbolWords: c.symbol ? codeTokenText(c.symbol) : '', bodyWords: codeTokenText(body) };
  });
  return {
    ...parsed,
    // a reference bound to a local never becomes an edge: not worth a row
    references: parsed.references.filter((r) => r.binding.kind !== 'local'),
    lines: lines.length,
    pathWords: codeTokenText(path),
    prepared,
  };
}
