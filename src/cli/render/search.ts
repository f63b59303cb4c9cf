// Printers for search results: pure functions from results to a string.
// Plain (piped) output is exactly `rg -n --no-heading`: file:line:text, with a
// repo: prefix only when several repos answer. TTY output is grouped by file
// like ripgrep's, with headings, line numbers and highlighted matches.

import { Chalk } from 'chalk';
import { toSearchResults, type Hit, type SearchOutput } from '../../api.js';

/** code.searchResults, with exactly the spec's fields. */
export function searchJson(r: SearchOutput): string {
  return JSON.stringify(toSearchResults(r)) + '\n';
}

function manyRepos(hits: Hit[]): boolean {
  const first = hits[0]?.repo;
  return hits.some((h) => h.repo !== first);
}

function lineOf(h: Hit): string {
  // multi-line spans (symbol, semantic tiers) print their first line
  const nl = h.snippet.indexOf('\n');
  return nl < 0 ? h.snippet : h.snippet.slice(0, nl);
}

export function searchPlain(r: SearchOutput): string {
  const prefix = manyRepos(r.results);
  let out = '';
  for (const h of r.results) {
    out += `${prefix ? h.repo + ':' : ''}${h.file}:${h.line}:${lineOf(h)}\n`;
  }
  return out;
}

export function searchTTY(r: SearchOutput, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const prefix = manyRepos(r.results);
  let out = '';
  let current = '';
  for (const h of r.results) {
    const key = `${h.repo}\0${h.file}`;
    if (key !== current) {
      if (current !== '') out += '\n';
      out += c.magenta(prefix ? `${h.repo}:${h.file}` : h.file);
      if (h.tier !== 'text' && h.tier !== 'regex') out += c.dim(`  ${h.kind}${h.symbol ? ' ' + h.symbol : ''}`);
      out += '\n';
      current = key;
    }
    const text = lineOf(h);
    let shown = '';
    let at = 0;
    for (const [s, e] of h.ranges ?? []) {
      if (s < at || e > text.length) continue;
      shown += text.slice(at, s) + c.bold.red(text.slice(s, e));
      at = e;
    }
    shown += text.slice(at);
    const lines = h.endLine > h.line ? `${h.line}-${h.endLine}` : String(h.line);
    out += `${c.green(lines)}:${shown}\n`;
  }
  return out;
}
