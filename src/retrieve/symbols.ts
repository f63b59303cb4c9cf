// The symbol tier: definitions by name, ranked exact name > case-insensitive
// exact > prefix > sub-word match (camel humps `gUN`, snake parts `get user`
// both find getUserName) > substring. Within a class, exported definitions
// and type/function kinds come first, then shorter paths. Scores are a
// descending position count, as the API defines for this tier. It reads
// definitions only; references are `refs`, for --refs and for context.

import { splitIdentifier } from '../parse/tokens.js';
import type { Store, SymbolHit } from '../store/store.js';
import type { Kind } from '../types.js';
import { hitId, type Hit, type RetrieverResult } from './types.js';

const SNIPPET_LINES = 12;

const KIND_ORDER: Record<string, number> = {
  class: 0, struct: 0, interface: 0, type: 1, enum: 1, func: 1, method: 2, const: 3, var: 4,
};

/** Query pieces for sub-word matching: 'get user' / 'get_user' / 'gUN' / 'getUser' -> lower-case pieces. */
export function queryPieces(q: string): string[] {
  const words = q.trim().split(/[\s_.:\-/]+/).filter(Boolean);
  const out: string[] = [];
  for (const w of words) {
    // humps: every upper-case letter after the first character starts a piece
    const humps = w.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])(?=[A-Z])/g, '$1 ').split(' ');
    for (const h of humps) if (h) out.push(h.toLowerCase());
  }
  return out;
}

/** Pieces match consecutive parts of a name, each piece a prefix of its part. */
export function subwordMatch(pieces: string[], name: string): boolean {
  if (pieces.length === 0) return false;
  const parts = splitIdentifier(name);
  for (let start = 0; start + pieces.length <= parts.length; start++) {
    let ok = true;
    for (let k = 0; k < pieces.length; k++) {
      if (!parts[start + k]!.startsWith(pieces[k]!)) { ok = false; break; }
    }
    if (ok) return true;
  }
  return false;
}

function snippetOf(store: Store, s: { fileId: number; line: number; endLine: number }, maxLines: number | null): string {
  const text = store.content(s.fileId) ?? '';
  const lines = text.split('\n');
  const end = maxLines === null ? s.endLine : Math.min(s.endLine, s.line + maxLines - 1);
  return lines.slice(s.line - 1, end).join('\n');
}

function order(a: SymbolHit, b: SymbolHit): number {
  return (
    Number(b.exported) - Number(a.exported) ||
    (KIND_ORDER[a.kind] ?? 5) - (KIND_ORDER[b.kind] ?? 5) ||
    a.path.length - b.path.length ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
    a.line - b.line
  );
}

/** Ranked definitions for a name query, best first. */
export function findDefinitions(store: Store, query: string, repoId?: number, limit = 100, bestClassOnly = false): SymbolHit[] {
  const q = query.trim();
  const seen = new Set<number>();
  const out: SymbolHit[] = [];
  const take = (rows: SymbolHit[], sorted = false) => {
    for (const r of sorted ? rows : rows.sort(order)) {
      if (out.length >= limit) return;
      if (!seen.has(r.id)) { seen.add(r.id); out.push(r); }
    }
  };
  // a dotted or qualified query (Class.method, pkg.Func, pkg.Type.Method)
  // matches the name, ranked by how many qualifiers name its container or a
  // segment of its path
  const parts = q.split(/\.|::|#/).filter(Boolean);
  if (parts.length >= 2 && parts.every((p) => /^[\w$]+$/.test(p))) {
    const name = parts[parts.length - 1]!;
    const quals = parts.slice(0, -1).map((p) => p.toLowerCase());
    const score = (r: SymbolHit) => {
      const segs = new Set(r.path.toLowerCase().replace(/\.[^./]+$/, '').split('/'));
      const cont = r.container.toLowerCase().split('.');
      return quals.reduce((n, ql) => n + (cont.includes(ql) ? 2 : segs.has(ql) ? 1 : 0), 0);
    };
    const rows = store.findSymbols('exact', name, repoId, 5000).map((r) => ({ r, s: score(r) }));
    const best = rows.filter((x) => x.s > 0).sort((a, b) => b.s - a.s || order(a.r, b.r));
    for (const x of best) { if (out.length >= limit) break; if (!seen.has(x.r.id)) { seen.add(x.r.id); out.push(x.r); } }
    if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
    take(rows.map((x) => x.r));
    if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
  }
  if (/^[\w$]+$/.test(q)) {
    take(store.findSymbols('exact', q, repoId, 5000));
    if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
    take(store.findSymbols('lower', q, repoId, 5000));
    if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
    take(store.findSymbols('prefix', q, repoId, 5000));
    if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
  }
  const pieces = queryPieces(q);
  const names = store.symbolNames(repoId);
  const sub = names.filter((n) => subwordMatch(pieces, n));
  // closest to what was asked first: fewest parts beyond the pieces (rAll -> ReplaceAll
  // before TestReplaceAllFunc), then the pieces at the start of the name, then shorter
  const extra = (n: string) => splitIdentifier(n).length - pieces.length;
  const startsAt0 = (n: string) => (subwordMatch(pieces, splitIdentifier(n).slice(0, pieces.length).join('_')) ? 0 : 1);
  sub.sort((a, b) => extra(a) - extra(b) || startsAt0(a) - startsAt0(b) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(sub.map((n, i) => [n, i]));
  take(store.findSymbols('names', sub.slice(0, 500), repoId, 5000).sort((a, b) => rank.get(a.name)! - rank.get(b.name)! || order(a, b)), true);
  if (out.length >= limit || (bestClassOnly && out.length > 0)) return out;
  const lq = q.toLowerCase().replace(/\s+/g, '');
  if (lq.length >= 2) {
    const subs = names.filter((n) => n.toLowerCase().includes(lq)).sort((a, b) => a.length - b.length).slice(0, 500);
    take(store.findSymbols('names', subs, repoId, 5000));
  }
  return out;
}

export function toDefinitionHit(store: Store, s: SymbolHit, score: number, wholeChunk = false): Hit {
  return {
    id: hitId(s.fileId, s.line, s.endLine), fileId: s.fileId,
    repo: s.repo, file: s.path, line: s.line, endLine: s.endLine, kind: s.kind as Kind, symbol: s.name,
    role: 'definition', tier: 'symbol', score,
    snippet: snippetOf(store, s, wholeChunk ? null : SNIPPET_LINES),
  };
}

export function symbolSearch(store: Store, query: string, opts: { repoId?: number; limit: number }): RetrieverResult {
  const defs = findDefinitions(store, query, opts.repoId, opts.limit);
  const hits = defs.map((d, i) => toDefinitionHit(store, d, defs.length - i));
  return { tier: 'symbol', hits, status: 'ok', capped: false };
}

/** References to the best-matching definition, grouped by file (role caller). */
export function referenceSearch(store: Store, query: string, opts: { repoId?: number; limit: number | null }): { definition: Hit | null; refs: Hit[] } {
  const best = findDefinitions(store, query, opts.repoId, 1)[0];
  if (!best) return { definition: null, refs: [] };
  const refs = store.refsTo(best.id, opts.limit ?? 100_000);
  const texts = new Map<number, string[]>();
  const hits: Hit[] = [];
  const n = refs.length;
  refs.forEach((r, i) => {
    let lines = texts.get(r.fileId);
    if (!lines) texts.set(r.fileId, (lines = (store.content(r.fileId) ?? '').split('\n')));
    const chunk = r.chunk !== null ? store.chunk(r.chunk) : undefined;
    const text = lines[r.line - 1] ?? '';
    hits.push({
      id: hitId(r.fileId, r.line, r.line), fileId: r.fileId, repo: r.repo, file: r.path, line: r.line, endLine: r.line,
      kind: chunk?.kind ?? 'block', symbol: chunk?.symbol ?? '', role: 'caller', tier: 'symbol', score: n - i,
      snippet: text, ranges: [[r.col, Math.min(text.length, r.col + best.name.length)]],
    });
  });
  return { definition: toDefinitionHit(store, best, n + 1), refs: hits };
}
