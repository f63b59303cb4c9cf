// Percentiles and plain-text formatting for the bench. No dependencies: the
// bench must keep running while the rest of the package is mid-edit.

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * xs.length);
  return xs[Math.min(xs.length, Math.max(1, rank)) - 1]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  min: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const xs = values.filter((v) => Number.isFinite(v));
  return {
    n: xs.length,
    p50: percentile(xs, 50),
    p90: percentile(xs, 90),
    min: xs.length ? Math.min(...xs) : NaN,
    max: xs.length ? Math.max(...xs) : NaN,
  };
}

// ---- number formatting ---------------------------------------------------

/** 9302 -> "9,302" */
export function int(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return 'n/a';
  return Math.round(n).toLocaleString('en-US');
}

/** Fixed decimals, or "n/a". */
export function fixed(n: number | undefined | null, digits = 1): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return 'n/a';
  return n.toFixed(digits);
}

/** Milliseconds with a precision that suits the magnitude. */
export function ms(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return 'n/a';
  if (n < 10) return n.toFixed(2);
  if (n < 100) return n.toFixed(1);
  return n.toFixed(0);
}

/** a/b as "8.1×" (or "n/a" when either side is missing). */
export function ratio(a: number | undefined | null, b: number | undefined | null): string {
  if (a === undefined || a === null || b === undefined || b === null) return 'n/a';
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return 'n/a';
  const r = a / b;
  return `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`;
}

/** Share as a percentage string: 0.9712 -> "97.12%". */
export function pct(x: number | undefined | null, digits = 2): string {
  if (x === undefined || x === null || !Number.isFinite(x)) return 'n/a';
  return `${(x * 100).toFixed(digits)}%`;
}

export const MB = 1e6;

// ---- tables --------------------------------------------------------------

export type Align = 'l' | 'r';

/**
 * Render rows as an aligned text table. Cells are strings; a column is
 * right-aligned when `align` says so, otherwise left. The header row is
 * followed by a rule. Width counts code points so "×" and "✓" line up.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly Align[]): string {
  const width = (s: string) => [...s].length;
  const cols = header.length;
  const w = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const pad = (s: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, w[i]! - width(s)));
    return (align?.[i] ?? 'l') === 'r' ? gap + s : s + gap;
  };
  const line = (r: readonly string[]) =>
    Array.from({ length: cols }, (_, i) => pad(r[i] ?? '', i)).join('  ').replace(/\s+$/, '');
  const out = [line(header), w.map((n) => '-'.repeat(n)).join('  ')];
  for (const r of rows) out.push(line(r));
  return out.join('\n');
}

/** Key/value pairs on one line: "files 9,302  MB 138.2  s 41.3". */
export function kv(pairs: readonly [string, string][]): string {
  return pairs.map(([k, v]) => `${k} ${v}`).join('  ');
}

/** Shorten a string for a table cell. */
export function clip(s: string, max = 40): string {
  const cps = [...s];
  return cps.length <= max ? s : cps.slice(0, max - 1).join('') + '…';
}
