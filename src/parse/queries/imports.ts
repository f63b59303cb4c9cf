// Shared by the language specs whose one import statement can name several
// modules (PHP group `use`, Rust `use a::{b::c, d}`): one ImportDecl per source.

import type { ImportDecl } from '../../types.js';

export function groupBySource(bindings: { source: string; imported: string; local: string }[], line: number): ImportDecl[] {
  const bySource = new Map<string, ImportDecl>();
  for (const b of bindings) {
    let d = bySource.get(b.source);
    if (!d) bySource.set(b.source, (d = { source: b.source, names: [], line }));
    d.names.push({ imported: b.imported, local: b.local });
  }
  return [...bySource.values()];
}
