// The linker: binds references the parser could not bind inside one file.
// Order of preference (issue 3): the parser's own same-file binding (already
// set at write time), then through the file's imports, then repo-wide by
// name. A name with several candidate definitions is stored as ambiguous
// with its candidate count and no target: never guessed silently.

import type { Store } from '../store/store.js';

export function linkRepo(store: Store, repoId: number): void {
  store.tx(() => store.linkRefsByName(repoId));
}
