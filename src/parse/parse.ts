// The parse stage's one entry point: language name + text in, ParsedFile out.
// It picks the parser for a language and guarantees the contract every caller
// relies on: it never throws, and `chunks` always covers the file's code, so a
// file whose parser failed is still searchable by its blocks.

import type { ParsedFile } from '../types.js';
import { chunkFile } from './chunk.js';

type Parser = (language: string, path: string, text: string) => ParsedFile | Promise<ParsedFile>;

const parsers = new Map<string, Parser>();

export function registerParser(languages: readonly string[], parser: Parser): void {
  for (const l of languages) parsers.set(l, parser);
}

function blocksOnly(language: string, text: string, error?: string): ParsedFile {
  const out: ParsedFile = { language, definitions: [], references: [], imports: [], chunks: chunkFile(text.split('\n'), []) };
  if (error) out.error = error;
  return out;
}

export async function parseFile(language: string, path: string, text: string): Promise<ParsedFile> {
  const p = parsers.get(language);
  if (!p) return blocksOnly(language, text);
  try {
    return await p(language, path, text);
  } catch (e) {
    return blocksOnly(language, text, (e as Error).message ?? String(e));
  }
}
