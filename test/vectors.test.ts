// The vector math against brute force on seeded random data: topK must equal
// sorting every score, so the heap and the eight-row blocking are checked
// where they are easiest to get wrong (ties, k > n, n not a multiple of 8).
// No timings are asserted; benchScan is called small only for its results.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { benchScan, fromBlob, normalize, seeded, toBlob, topK, type ScanHit } from '../src/retrieve/vectors.js';


function randomUnit(rnd: () => number, n: number, dim: number): Float32Array {
  const m = new Float32Array(n * dim);
  const row = new Float32Array(dim);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < dim; j++) row[j] = rnd() * 2 - 1;
    m.set(normalize(row), i * dim);
  }
  return m;
}

/** Scores every row the plain way (one accumulator, index order — the same float64 sums topK makes) and sorts. */
function bruteForce(q: Float32Array, m: Float32Array, n: number, dim: number, k: number): ScanHit[] {
  const all: ScanHit[] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < dim; j++) s += q[j]! * m[i * dim + j]!;
    all.push({ index: i, score: s });
  }
  return all.sort((a, b) => b.score - a.score || a.index - b.index).slice(0, Math.max(0, k));
}

function assertSameHits(got: ScanHit[], want: ScanHit[]): void {
  assert.deepEqual(got.map((h) => h.index), want.map((h) => h.index));
  got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-9, `score ${i}: ${h.score} vs ${want[i]!.score}`));
}

test('topK equals a brute-force sort on random data', () => {
  const rnd = seeded(42);
  // Odd sizes on purpose: rows not a multiple of 8, dims not a multiple of 4.
  for (const [n, dim, k] of [[1000, 64, 10], [1003, 37, 25], [13, 5, 13], [7, 3, 20], [500, 1536, 1]] as const) {
    const m = randomUnit(rnd, n, dim);
    const q = randomUnit(rnd, 1, dim);
    assertSameHits(topK(q, m, n, dim, k), bruteForce(q, m, n, dim, k));
  }
});

test('topK breaks ties by lower index and handles k edge cases', () => {
  const dim = 4;
  const n = 20;
  const m = new Float32Array(n * dim);
  // every row identical except row 17, which is best
  for (let i = 0; i < n; i++) m.set([0.5, 0.5, 0.5, 0.5], i * dim);
  m.set([1, 0, 0, 0], 17 * dim);
  const q = new Float32Array([1, 0, 0, 0]);
  assert.deepEqual(topK(q, m, n, dim, 4).map((h) => h.index), [17, 0, 1, 2]);
  assert.deepEqual(topK(q, m, n, dim, 0), []);
  assert.equal(topK(q, m, n, dim, 100).length, n);
  assert.deepEqual(topK(q, m, 0, dim, 5), []);
  // scanning only the first n rows of a larger matrix
  assert.deepEqual(topK(q, m, 10, dim, 2).map((h) => h.index), [0, 1]);
  assert.throws(() => topK(new Float32Array(3), m, n, dim, 1), /query has 3 dims, expected 4/);
  assert.throws(() => topK(q, m, n + 1, dim, 1), /need 21x4/);
});

test('normalize: unit length, new array, zero stays zero', () => {
  const v = new Float32Array([3, 4]);
  const u = normalize(v);
  assert.notEqual(u, v);
  assert.deepEqual(Array.from(v), [3, 4]);
  assert.ok(Math.abs(u[0]! - 0.6) < 1e-7 && Math.abs(u[1]! - 0.8) < 1e-7);
  assert.deepEqual(Array.from(normalize(new Float32Array(3))), [0, 0, 0]);
  const r = normalize(randomUnit(seeded(7), 1, 1536).map((x) => x * 1000));
  assert.ok(Math.abs(r.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
});

test('blob round trip: little-endian bytes, copies from unaligned buffers', () => {
  const v = new Float32Array([1.5, -2.25, 0, 3.4028234663852886e38]);
  const b = toBlob(v);
  assert.equal(b.length, 16);
  assert.equal(b.readFloatLE(0), 1.5);
  assert.equal(b.readFloatLE(4), -2.25);
  assert.deepEqual(fromBlob(b, 4), v);
  // a view starting at an odd offset cannot back a Float32Array directly
  const big = Buffer.alloc(17);
  b.copy(big, 1);
  const unaligned = big.subarray(1);
  const back = fromBlob(unaligned, 4);
  assert.deepEqual(back, v);
  big.fill(0); // the result must be a copy, not a view
  assert.deepEqual(back, v);
  // toBlob of a subarray must not drag the rest of the buffer along
  const whole = new Float32Array([9, 8, 7, 6]);
  assert.deepEqual(Array.from(fromBlob(toBlob(whole.subarray(1, 3)), 2)), [8, 7]);
  assert.throws(() => fromBlob(b, 3), /16 bytes, expected 12/);
});

test('benchScan: the (unexported) int8 path returns the same top-10 as float', () => {
  const r = benchScan(3000, 128, 1);
  assert.equal(r.int8SameTop10, true);
  assert.ok(r.floatMs >= 0 && (r.int8Ms ?? 0) >= 0);
});
