// AST-boundary chunking, shared by every parser: it sees only definitions and
// line text, never a syntax tree, so each language gets the same rules.
//
// Rules: each outer definition is one chunk; a class-like definition that
// contains methods gives its header and each method its own chunk; code
// between definitions becomes `block` chunks; anything longer than maxLines is
// split, preferring a blank line near the cut. Blank-only stretches are dropped.

import type { ChunkSpec, Definition, Kind } from '../types.js';

export const MAX_CHUNK_LINES = 150;

const CONTAINERS = new Set<Kind>(['class', 'struct', 'interface', 'type', 'enum']);

function isBlank(lines: string[], from: number, to: number): boolean {
  for (let i = from; i <= to; i++) if ((lines[i - 1] ?? '').trim() !== '') return false;
  return true;
}

/** Trim blank lines off both ends of [from, to]; null when nothing is left. */
function trim(lines: string[], from: number, to: number): [number, number] | null {
  while (from <= to && (lines[from - 1] ?? '').trim() === '') from++;
  while (to >= from && (lines[to - 1] ?? '').trim() === '') to--;
  return from <= to ? [from, to] : null;
}

function pushSplit(out: ChunkSpec[], lines: string[], from: number, to: number, kind: Kind, symbol: string, maxLines: number): void {
  const t = trim(lines, from, to);
  if (!t) return;
  [from, to] = t;
  while (to - from + 1 > maxLines) {
    // cut at the last blank line in the window's final third, else hard cut
    let cut = from + maxLines - 1;
    for (let i = cut; i > from + Math.floor((maxLines * 2) / 3); i--) {
      if ((lines[i - 1] ?? '').trim() === '') { cut = i; break; }
    }
    const piece = trim(lines, from, cut);
    if (piece) out.push({ line: piece[0], endLine: piece[1], kind, symbol });
    from = cut + 1;
    const rest = trim(lines, from, to);
    if (!rest) return;
    [from, to] = rest;
  }
  out.push({ line: from, endLine: to, kind, symbol });
}

export function chunkFile(lines: string[], defs: Definition[], maxLines = MAX_CHUNK_LINES): ChunkSpec[] {
  const n = lines.length;
  const out: ChunkSpec[] = [];
  const sorted = defs
    .filter((d) => d.line >= 1 && d.line <= n)
    .map((d) => ({ ...d, endLine: Math.min(Math.max(d.endLine, d.line), n) }))
    .sort((a, b) => a.line - b.line || b.endLine - a.endLine);

  // outer definitions: not inside an earlier one
  const outer: (Definition & { inner: Definition[] })[] = [];
  for (const d of sorted) {
    const host = outer[outer.length - 1];
    if (host && d.line >= host.line && d.endLine <= host.endLine && !(d.line === host.line && d.endLine === host.endLine && d.name === host.name)) {
      host.inner.push(d);
    } else if (!host || d.line > host.endLine) {
      outer.push({ ...d, inner: [] });
    }
    // a definition overlapping the previous one without nesting is dropped from chunking
  }

  let cursor = 1;
  for (const d of outer) {
    if (d.line > cursor && !isBlank(lines, cursor, d.line - 1)) {
      pushSplit(out, lines, cursor, d.line - 1, 'block', '', maxLines);
    }
    const methods = CONTAINERS.has(d.kind)
      ? d.inner.filter((m) => m.kind === 'method' || m.kind === 'func')
      : [];
    // only direct members: skip methods nested in other members
    const direct: Definition[] = [];
    for (const m of methods) {
      const last = direct[direct.length - 1];
      if (!last || m.line > last.endLine) direct.push(m);
    }
    if (direct.length === 0) {
      pushSplit(out, lines, d.line, d.endLine, d.kind, d.name, maxLines);
    } else {
      let c = d.line;
      for (const m of direct) {
        if (m.line > c) pushSplit(out, lines, c, m.line - 1, d.kind, d.name, maxLines);
        pushSplit(out, lines, m.line, m.endLine, m.kind, m.name, maxLines);
        c = m.endLine + 1;
      }
      if (c <= d.endLine) pushSplit(out, lines, c, d.endLine, d.kind, d.name, maxLines);
    }
    cursor = d.endLine + 1;
  }
  if (cursor <= n) pushSplit(out, lines, cursor, n, 'block', '', maxLines);
  return out;
}
