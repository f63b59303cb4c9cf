// The one interface every retrieval tier implements. Fusion sees only these
// hits' ids and ranks; it never reads SQL or vectors.

import type { Span, Tier } from '../types.js';

export interface Hit extends Span {
  /** stable within one store: fileId:line-endLine */
  id: string;
  fileId: number;
  /** match ranges within the first line of the span, for highlighting (UTF-16 offsets) */
  ranges?: [number, number][];
}

export type RetrieverStatus = 'ok' | 'unavailable' | 'failed';

export interface RetrieverResult {
  tier: Tier;
  hits: Hit[];
  status: RetrieverStatus;
  /** the semantic tier stopped at its scan cap with vectors left unread */
  capped: boolean;
  /** a line for stderr when status is not ok */
  message?: string;
}

export type CaseMode = 'smart' | 'sensitive' | 'insensitive';

/** Test code by path convention (Go, Python, JS/TS, test folders): ranked below the code it tests. */
export const TEST_PATH = /(^|\/)(tests?|testdata|__tests__|spec)\/|(_test\.go|\.test\.[jt]sx?|\.spec\.[jt]sx?|_test\.py)$|(^|\/)test_[^/]*\.py$/;

export function hitId(fileId: number, line: number, endLine: number): string {
  return `${fileId}:${line}-${endLine}`;
}
