// Wires the real parsers into parse.ts. Kept apart so parse.ts stays free of
// heavy imports: grammars load on first use, and a process that never parses
// never loads one.

import { registerParser } from './parse.js';

let loaded: Promise<void> | undefined;

export function loadParsers(): Promise<void> {
  loaded ??= (async () => {
    const { BABEL_LANGUAGES, parseBabel } = await import('./babel.js');
    registerParser(BABEL_LANGUAGES, (language, path, text) => parseBabel(language, path, text));
    const { TREE_SITTER_LANGUAGES, parseTreeSitter } = await import('./treesitter.js');
    registerParser(TREE_SITTER_LANGUAGES, (language, _path, text) => parseTreeSitter(language, text));
  })();
  return loaded;
}
