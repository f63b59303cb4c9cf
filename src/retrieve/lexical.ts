// The lexical tier: exact substring and regex search in the Zoekt/codesearch
// model. The trigram index narrows the candidate files; every candidate is
// then verified exactly, line by line (grep semantics: no match spans a
// newline), so results are exactly what `rg -n` would print for the indexed
// files. It must not guess: a query with no usable trigram scans every file.

import type { Store } from '../store/store.js';
import type { Kind } from '../types.js';
import { literalMatcher, literalQuery, simplify, toFtsMatch, type LineMatcher, type TrigramQuery } from './literal.js';
import { compileRegex, hasUpperCaseLiteral } from './regex.js';
import { hitId, TEST_PATH, type CaseMode, type Hit, type RetrieverResult } from './types.js';

export interface LexicalOptions {
  mode: 'text' | 'regex';
  caseMode: CaseMode;
  repoId?: number;
  /** max line hits; null = all */
  limit: number | null;
}


export function isCaseInsensitive(query: string, mode: 'text' | 'regex', caseMode: CaseMode): boolean {
  if (caseMode === 'sensitive') return false;
  if (caseMode === 'insensitive') return true;
  return mode === 'regex' ? !hasUpperCaseLiteral(query) : query === query.toLowerCase();
}

function candidates(store: Store, q: TrigramQuery, repoId?: number): number[] {
  if (q.op === 'none') return [];
  if (q.op === 'all') return store.allContentFileIds(repoId);
  return store.trigramCandidates(toFtsMatch(q), repoId);
}

interface FileMatch { fileId: number; lines: { line: number; text: string; ranges: [number, number][] }[]; score: number }

function matchFile(text: string, matcher: LineMatcher, literal: string | null): FileMatch['lines'] {
  const out: FileMatch['lines'] = [];
  if (literal !== null) {
    // case-sensitive literal: find occurrences in the whole text, then the lines around them
    let pos = text.indexOf(literal);
    if (pos < 0) return out;
    let lineNo = 1;
    let scanned = 0;
    while (pos >= 0) {
      for (let k = text.indexOf('\n', scanned); k >= 0 && k < pos; k = text.indexOf('\n', k + 1)) {
        lineNo++;
        scanned = k + 1;
      }
      const start = scanned;
      let end = text.indexOf('\n', pos);
      if (end < 0) end = text.length;
      const line = text.slice(start, end);
      out.push({ line: lineNo, text: line, ranges: matcher.match(line) });
      pos = text.indexOf(literal, end + 1);
    }
    return out.filter((l) => l.ranges.length > 0);
  }
  const lines = text.split('\n');
  // a trailing newline does not start another line, as in grep
  const n = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  for (let i = 0; i < n; i++) {
    const ranges = matcher.match(lines[i]!);
    if (ranges.length > 0) out.push({ line: i + 1, text: lines[i]!, ranges });
  }
  return out;
}

const VENDOR_PATH = /(^|\/)(vendor|third_party|dist|build)\//;

/** Rank files: more (and definition) matches first, long files damped, test/vendor paths demoted. */
function fileScore(path: string, lines: number, matched: number, query: string): number {
  let s = (1 + Math.log2(matched)) / (1 + Math.log10(1 + lines / 100));
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (query.length >= 3 && base.includes(query.toLowerCase())) s *= 1.5;
  if (TEST_PATH.test(path)) s *= 0.7;
  if (VENDOR_PATH.test(path)) s *= 0.6;
  return Math.round(s * 1e4) / 1e4;
}

export function lexicalSearch(store: Store, query: string, opts: LexicalOptions): RetrieverResult {
  const ci = isCaseInsensitive(query, opts.mode, opts.caseMode);
  let matcher: LineMatcher;
  let prefilter: TrigramQuery;
  let literal: string | null = null;
  if (opts.mode === 'regex') {
    const re = compileRegex(query, { caseInsensitive: ci });
    matcher = re.matcher;
    prefilter = re.prefilter;
  } else {
    if (query.includes('\n')) {
      // grep semantics: a literal with a newline can never match one line
      return { tier: 'text', hits: [], status: 'ok', capped: false };
    }
    matcher = literalMatcher(query, ci);
    prefilter = simplify(literalQuery(query, ci));
    if (!ci) literal = query;
  }

  const fileMatches: (FileMatch & { path: string; repo: string; nlines: number })[] = [];
  for (const id of candidates(store, prefilter, opts.repoId)) {
    const text = store.content(id);
    if (text === undefined) continue;
    const lines = matchFile(text, matcher, literal);
    if (lines.length === 0) continue;
    const f = store.fileById(id)!;
    fileMatches.push({ fileId: id, lines, score: fileScore(f.path, f.lines, lines.length, query), path: f.path, repo: f.repo, nlines: f.lines });
  }
  fileMatches.sort((a, b) => b.score - a.score || (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const tier = opts.mode === 'regex' ? 'regex' : 'text';
  const hits: Hit[] = [];
  const limit = opts.limit ?? Infinity;
  for (const fm of fileMatches) {
    if (hits.length >= limit) break;
    const chunks = store.chunksOf(fm.fileId);
    for (const l of fm.lines) {
      if (hits.length >= limit) break;
      // the enclosing chunk says what this line belongs to
      let kind: Kind = 'block';
      let symbol = '';
      for (const c of chunks) {
        if (c.line <= l.line && l.line <= c.endLine) { kind = c.kind; symbol = c.symbol; break; }
      }
      hits.push({
        id: hitId(fm.fileId, l.line, l.line), fileId: fm.fileId,
        repo: fm.repo, file: fm.path, line: l.line, endLine: l.line, kind, symbol,
        role: 'match', tier, score: fm.score,
        // whole line: the walker already refused lines over 2000 bytes
        snippet: l.text,
        ranges: l.ranges,
      });
    }
  }
  return { tier, hits, status: 'ok', capped: false };
}
