// Token-budgeted context packing, pure: candidate spans in (seeds in rank
// order, each with the definitions it calls and its key callers), a bundle
// out. Rules, from the API: greedy fill in order; the top seed is always
// included, truncated if it alone overflows, so a matched query never comes
// back empty; no span twice (same file, overlapping lines); the budget is
// never exceeded otherwise. Tokens are estimated at ~4 characters each, the
// same estimate `usedTokens` reports.

import type { Span } from '../types.js';

export interface Candidate {
  seed: Span;
  callees: Span[];
  callers: Span[];
}

export interface Packed {
  spans: Span[];
  usedTokens: number;
  omitted: { repo: string; file: string; line: number; endLine: number; tokens: number }[];
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function overlaps(a: Span, b: Span): boolean {
  return a.repo === b.repo && a.file === b.file && a.line <= b.endLine && b.line <= a.endLine;
}

/** Cut a span's snippet to fit `tokens`, whole lines first, keeping at least a prefix of the first line. */
export function truncateSpan(s: Span, tokens: number): Span {
  const maxChars = Math.max(0, tokens * 4);
  if (s.snippet.length <= maxChars) return s;
  const lines = s.snippet.split('\n');
  let out = '';
  let n = 0;
  for (const l of lines) {
    const next = n === 0 ? l : out + '\n' + l;
    if (next.length > maxChars) break;
    out = next;
    n++;
  }
  if (n === 0) {
    out = lines[0]!.slice(0, maxChars);
    n = 1;
  }
  return { ...s, snippet: out, endLine: s.line + n - 1 };
}

export function pack(candidates: Candidate[], budget: number): Packed {
  const spans: Span[] = [];
  const omitted: Packed['omitted'] = [];
  let used = 0;
  const omittedKeys = new Set<string>();
  const tryAdd = (s: Span, force: boolean) => {
    if (spans.some((x) => overlaps(x, s))) return;
    const cost = estimateTokens(s.snippet);
    if (used + cost <= budget) {
      spans.push(s);
      used += cost;
    } else if (force && spans.length === 0) {
      const t = truncateSpan(s, budget - used);
      spans.push(t);
      used += estimateTokens(t.snippet);
    } else {
      const key = `${s.repo}\0${s.file}\0${s.line}`;
      if (!omittedKeys.has(key)) {
        omittedKeys.add(key);
        omitted.push({ repo: s.repo, file: s.file, line: s.line, endLine: s.endLine, tokens: cost });
      }
    }
  };
  candidates.forEach((c, i) => {
    tryAdd(c.seed, i === 0);
    for (const d of c.callees) tryAdd(d, false);
    for (const d of c.callers) tryAdd(d, false);
  });
  // something that was omitted early may still be included later by overlap: drop those from omitted
  const kept = omitted.filter((o) => !spans.some((s) => s.repo === o.repo && s.file === o.file && s.line <= o.endLine && o.line <= s.endLine));
  return { spans, usedTokens: used, omitted: kept };
}
