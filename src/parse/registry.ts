// Wires the real parsers into parse.ts. Kept apart so parse.ts stays free of
// heavy imports and a process that never parses never loads a grammar.

let loaded: Promise<void> | undefined;

export function loadParsers(): Promise<void> {
  loaded ??= (async () => {
    // parsers are registered here as they land; a failed optional grammar
    // leaves its language to block chunks rather than failing the index run
  })();
  return loaded;
}
