// The gateway client against a real HTTP server (test/support/fake-gateway):
// batching, ordering, retries and every error a user can act on. Sleep and
// jitter are injected, so backoff is asserted by the delays the client asked
// for, never by how long the test took; only the timeout cases spend real
// time, bounded by timeoutMs: 200.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GatewayError } from '../src/errors.js';
import { Gateway, gatewayConfig, parseRetryAfter, planBatches, type GatewayConfig } from '../src/gateway/client.js';
import { fakeEmbedding, startFakeGateway, subwords, type FakeGateway, type FakeGatewayOptions } from './support/fake-gateway.js';

interface Harness {
  gw: FakeGateway;
  client: Gateway;
  sleeps: number[];
}

async function harness(
  t: { after: (fn: () => Promise<void>) => void },
  cfg: Partial<GatewayConfig> = {},
  fake: FakeGatewayOptions = {},
  random = 0.5,
): Promise<Harness> {
  const gw = await startFakeGateway({ dim: 16, ...fake });
  t.after(() => gw.close());
  const sleeps: number[] = [];
  const client = new Gateway(
    { ...gatewayConfig({}, { baseUrl: gw.url }), timeoutMs: 2000, ...cfg },
    { sleep: async (ms) => void sleeps.push(ms), random: () => random },
  );
  return { gw, client, sleeps };
}

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof GatewayError, `expected a GatewayError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to reject');
}

const words = (n: number, prefix = 'input'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

// ---- config -----------------------------------------------------------------

test('gatewayConfig: defaults, environment, flags, trailing slash', () => {
  const d = gatewayConfig({});
  assert.deepEqual(d, {
    baseUrl: 'https://api.hanzo.ai/v1',
    apiKey: undefined,
    embedModel: 'text-embedding-3-small',
    chatModel: 'gpt-4o-mini',
    timeoutMs: 30000,
    maxRetries: 4,
    batchSize: 64,
    batchBytes: 256 * 1024,
  });
  const env = {
    HANZO_BASE_URL: 'http://localhost:11434/v1/',
    HANZO_API_KEY: 'k',
    HANZO_EMBED_MODEL: 'nomic-embed-text',
    HANZO_CHAT_MODEL: 'llama3',
    HANZO_TIMEOUT_MS: '1234',
  };
  const e = gatewayConfig(env);
  assert.equal(e.baseUrl, 'http://localhost:11434/v1');
  assert.equal(e.apiKey, 'k');
  assert.equal(e.embedModel, 'nomic-embed-text');
  assert.equal(e.chatModel, 'llama3');
  assert.equal(e.timeoutMs, 1234);
  const f = gatewayConfig(env, { baseUrl: 'http://h:1/v1//', embedModel: 'e', chatModel: 'c' });
  assert.deepEqual([f.baseUrl, f.embedModel, f.chatModel], ['http://h:1/v1', 'e', 'c']);
  assert.equal(gatewayConfig({ HANZO_TIMEOUT_MS: 'soon' }).timeoutMs, 30000);
});

test('planBatches bounds by count and by bytes; an oversized input goes alone', () => {
  assert.deepEqual(planBatches(words(7), 3, 1e9), [[0, 3], [3, 6], [6, 7]]);
  assert.deepEqual(planBatches(['aaaa', 'bbbb', 'cccc', 'dddddddddddd', 'e'], 100, 8), [[0, 2], [2, 3], [3, 4], [4, 5]]);
  // bytes, not UTF-16 units: 'é' is 2 bytes
  assert.deepEqual(planBatches(['éé', 'éé'], 100, 4), [[0, 1], [1, 2]]);
  assert.deepEqual(planBatches([], 3, 10), []);
});

test('parseRetryAfter reads seconds and HTTP dates', () => {
  assert.equal(parseRetryAfter('2'), 2000);
  assert.equal(parseRetryAfter('0.5'), 500);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10000);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:29:00 GMT')), 0);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('later'), undefined);
});

// ---- embeddings -------------------------------------------------------------

test('embed batches by count, keeps order, reports tokens, sends the key', async (t) => {
  const { gw, client } = await harness(t, { batchSize: 3, apiKey: 'sekret' }, { apiKey: 'sekret' });
  const inputs = words(7, 'getUserName');
  const res = await client.embed(inputs);
  assert.equal(gw.calls.length, 3);
  assert.deepEqual(gw.calls.map((c) => c.body.input.length), [3, 3, 1]);
  assert.deepEqual(gw.calls.flatMap((c) => c.body.input), inputs);
  for (const c of gw.calls) {
    assert.equal(c.path, '/v1/embeddings');
    assert.equal(c.body.model, 'text-embedding-3-small');
    assert.equal(c.headers.authorization, 'Bearer sekret');
    assert.match(c.headers['content-type'] ?? '', /^application\/json/);
  }
  // The fake returns data reversed, so this only holds if the client orders by `index`.
  assert.equal(res.vectors.length, 7);
  res.vectors.forEach((v, i) => assert.deepEqual(v, fakeEmbedding(inputs[i]!, 16)));
  const expectTokens = inputs.reduce((n, s) => n + Math.ceil(s.length / 4), 0);
  assert.equal(res.tokens, expectTokens);
  assert.equal(client.dimension, 16);
});

test('embed batches by bytes', async (t) => {
  const { gw, client } = await harness(t, { batchSize: 100, batchBytes: 10 });
  await client.embed(['aaaa', 'bbbb', 'cccc', 'dddd', 'eeeeeeeeeeeeeeee', 'f']);
  assert.deepEqual(gw.calls.map((c) => c.body.input), [['aaaa', 'bbbb'], ['cccc', 'dddd'], ['eeeeeeeeeeeeeeee'], ['f']]);
});

test('no key, no Authorization header; no inputs, no request', async (t) => {
  const { gw, client } = await harness(t);
  assert.deepEqual(await client.embed([]), { vectors: [], tokens: 0 });
  assert.equal(gw.calls.length, 0);
  await client.embed(['x']);
  assert.equal(gw.calls[0]!.headers.authorization, undefined);
});

test('onBatch runs once per batch with its start, vectors and tokens', async (t) => {
  const { client } = await harness(t, { batchSize: 2 });
  const seen: [number, number, number][] = [];
  const res = await client.embed(words(5), (start, vectors, tokens) => void seen.push([start, vectors.length, tokens]));
  assert.deepEqual(seen.map(([start, n]) => [start, n]), [[0, 2], [2, 2], [4, 1]]);
  assert.equal(seen.reduce((n, [, , tokens]) => n + tokens, 0), res.tokens);
});

test('onBatch is awaited before the next request is sent', async (t) => {
  const { gw, client } = await harness(t, { batchSize: 1 });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const handedOver = new Promise<void>((r) => (reached = r));
  const run = client.embed(['a', 'b', 'c'], (start) => {
    if (start !== 0) return;
    reached();
    return gate;
  });
  await handedOver;
  // A full round trip through the same server while the first onBatch is pending: a client that did not
  // await would have sent batch 2 by now, so it would be counted before (or with) this probe.
  const probe = new Gateway(gatewayConfig({}, { baseUrl: gw.url }));
  await probe.embed(['probe']);
  assert.deepEqual(gw.calls.map((c) => c.body.input[0]), ['a', 'probe']);
  release();
  await run;
  assert.deepEqual(gw.calls.map((c) => c.body.input[0]), ['a', 'probe', 'b', 'c']);
});

test('an interrupted run has already handed every finished batch to onBatch', async (t) => {
  const { gw, client } = await harness(t, { batchSize: 2 });
  gw.fault = { kind: 'fail-after', okCalls: 2, status: 400 };
  const starts: number[] = [];
  const err = await rejection(client.embed(words(6), (start) => void starts.push(start)));
  assert.deepEqual(starts, [0, 2]);
  assert.equal(err.status, 400);
  assert.equal(gw.calls.length, 3);
});

test('an onBatch failure stops the run', async (t) => {
  const { gw, client } = await harness(t, { batchSize: 1 });
  await assert.rejects(
    client.embed(words(3), (start) => {
      if (start === 1) throw new Error('disk full');
    }),
    /disk full/,
  );
  assert.equal(gw.calls.length, 2);
});

// ---- retries ----------------------------------------------------------------

test('a hung request times out, is retried, then succeeds', async (t) => {
  const { gw, client, sleeps } = await harness(t, { timeoutMs: 200 });
  gw.fault = { kind: 'hang' };
  const res = await client.embed(['a']);
  assert.equal(res.vectors.length, 1);
  assert.equal(gw.calls.length, 2);
  assert.equal(sleeps.length, 1);
});

test('timeouts exhaust the retries with a message saying so', async (t) => {
  const { gw, client } = await harness(t, { timeoutMs: 200, maxRetries: 2 });
  gw.fault = { kind: 'hang', times: 3 };
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /after 3 attempts/);
  assert.match(err.message, /no answer within 200 ms/);
  assert.match(err.hint ?? '', /HANZO_TIMEOUT_MS/);
  assert.equal(gw.calls.length, 3);
});

test('500 then success', async (t) => {
  const { gw, client, sleeps } = await harness(t);
  gw.fault = { kind: 'status', status: 500 };
  const res = await client.embed(['a', 'b']);
  assert.deepEqual(res.vectors[1], fakeEmbedding('b', 16));
  assert.equal(gw.calls.length, 2);
  assert.deepEqual(sleeps, [250]); // full jitter: random 0.5 of the 500 ms base
});

test('backoff doubles to the 20 s cap, then reports attempts and the last status', async (t) => {
  const { gw, client, sleeps } = await harness(t, { maxRetries: 8 }, {}, 0.5);
  gw.fault = { kind: 'status', status: 503, times: 9, body: JSON.stringify({ error: { message: 'model is loading' } }) };
  const err = await rejection(client.embed(['a']));
  assert.deepEqual(sleeps, [250, 500, 1000, 2000, 4000, 8000, 10000, 10000]);
  assert.match(err.message, /after 9 attempts/);
  assert.match(err.message, /last: 503/);
  assert.match(err.message, /model is loading/);
  assert.equal(err.status, 503);
  assert.equal(gw.calls.length, 9);
});

test('429 with Retry-After: 2 sleeps 2000 ms', async (t) => {
  const { gw, client, sleeps } = await harness(t);
  gw.fault = { kind: 'status', status: 429, retryAfter: '2' };
  await client.embed(['a']);
  assert.deepEqual(sleeps, [2000]);
  assert.equal(gw.calls.length, 2);
});

test('Retry-After as an HTTP date, on 503, capped at 60 s; ignored on 500', async (t) => {
  const { gw, client, sleeps } = await harness(t);
  gw.fault = { kind: 'status', status: 503, retryAfter: new Date(Date.now() + 30_000).toUTCString() };
  await client.embed(['a']);
  gw.fault = { kind: 'status', status: 429, retryAfter: '3600' };
  await client.embed(['a']);
  gw.fault = { kind: 'status', status: 500, retryAfter: '7' };
  await client.embed(['a']);
  assert.equal(sleeps.length, 3);
  // The date has whole-second precision and the clock moved a little: somewhere in the last few seconds before 30 s.
  assert.ok(sleeps[0]! > 25_000 && sleeps[0]! <= 30_000, `date delay ${sleeps[0]}`);
  assert.equal(sleeps[1], 60_000);
  assert.equal(sleeps[2], 250);
});

for (const status of [400, 401, 403, 404, 422]) {
  test(`no retry on ${status}`, async (t) => {
    const { gw, client, sleeps } = await harness(t);
    gw.fault = { kind: 'status', status, times: 5 };
    const err = await rejection(client.embed(['a']));
    assert.equal(err.status, status);
    assert.equal(gw.calls.length, 1);
    assert.deepEqual(sleeps, []);
  });
}

// ---- errors a person can act on ---------------------------------------------

test('malformed JSON', async (t) => {
  const { gw, client } = await harness(t);
  gw.fault = { kind: 'malformed' };
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /^gateway answered with invalid JSON \(status 200, POST \/embeddings\)/);
  assert.match(err.hint ?? '', /OpenAI-compatible/);
  assert.equal(gw.calls.length, 1);
});

test('wrong dimension within a batch and across calls', async (t) => {
  const { gw, client } = await harness(t);
  gw.fault = { kind: 'wrong-dim' };
  const err = await rejection(client.embed(['a', 'b', 'c']));
  assert.equal(err.message, 'gateway returned a 8-dim vector for input 2, expected 16');
  // A fresh client learns 16 from its first call, then catches a single wrong vector in a later batch.
  const { gw: gw2, client: c2 } = await harness(t, { batchSize: 2 });
  await c2.embed(['a']);
  const second = c2.embed(['b', 'c', 'd'], (start) => {
    if (start === 0) gw2.fault = { kind: 'wrong-dim' };
  });
  const err2 = await rejection(second);
  assert.equal(err2.message, 'gateway returned a 8-dim vector for input 2, expected 16');
});

test('401: refused key, with the server message and a hint, never the key itself', async (t) => {
  const { client } = await harness(t, { apiKey: 'wrong-key-123' }, { apiKey: 'sekret' });
  const err = await rejection(client.embed(['a']));
  assert.equal(err.message, 'gateway refused the API key (401): Incorrect API key provided.');
  assert.equal(err.hint, 'check HANZO_API_KEY');
  assert.doesNotMatch(`${err.message} ${err.hint}`, /wrong-key-123|sekret/);
  const { client: noKey } = await harness(t, {}, { apiKey: 'sekret' });
  const err2 = await rejection(noKey.embed(['a']));
  assert.match(err2.hint ?? '', /HANZO_API_KEY \(it is not set\)/);
});

test('404: unknown model names the model and the flags to check', async (t) => {
  const { client } = await harness(t, { embedModel: 'no-such-embedder', chatModel: 'no-such-chat' }, { models: ['text-embedding-3-small'] });
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /^gateway has no model 'no-such-embedder' or no \/embeddings route \(404\)/);
  assert.match(err.message, /does not exist/);
  assert.equal(err.hint, 'check --embed-model / HANZO_EMBED_MODEL and HANZO_BASE_URL');
  const chatErr = await rejection(client.chat([{ role: 'user', content: 'hi' }]));
  assert.match(chatErr.message, /no model 'no-such-chat' or no \/chat\/completions route \(404\)/);
  assert.equal(chatErr.hint, 'check --chat-model / HANZO_CHAT_MODEL and HANZO_BASE_URL');
});

test('404 for a base URL without /v1', async (t) => {
  const gw = await startFakeGateway();
  t.after(() => gw.close());
  const client = new Gateway({ ...gatewayConfig({}, { baseUrl: gw.url.replace(/\/v1$/, '') }), maxRetries: 0 });
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /\(404\): Unknown route \/embeddings/);
  assert.match(err.hint ?? '', /HANZO_BASE_URL/);
});

test('400 carries the server message', async (t) => {
  const { gw, client } = await harness(t);
  gw.fault = { kind: 'status', status: 400, body: JSON.stringify({ error: { message: 'input is too long for the context' } }) };
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /rejected the request \(400, POST \/embeddings\): input is too long for the context$/);
});

test('connection refused: cannot reach, after retrying', async (t) => {
  const { gw, client, sleeps } = await harness(t, { maxRetries: 2 });
  const url = gw.url;
  await gw.close();
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, new RegExp(`^cannot reach the gateway at ${url.replace(/[.]/g, '\\.')} \\(ECONNREFUSED`));
  assert.match(err.message, /3 attempts/);
  assert.equal(err.hint, 'check HANZO_BASE_URL (is the server running?)');
  assert.equal(sleeps.length, 2);
});

test('a port fetch refuses is reported once, not retried', async () => {
  const sleeps: number[] = [];
  const client = new Gateway(gatewayConfig({}, { baseUrl: 'http://127.0.0.1:6000/v1' }), { sleep: async (ms) => void sleeps.push(ms) });
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /fetch refuses that port/);
  assert.deepEqual(sleeps, []);
});

test('a base URL that is not http(s) fails on use, not on construction', async () => {
  const client = new Gateway(gatewayConfig({ HANZO_BASE_URL: 'localhost:8000' }));
  const err = await rejection(client.embed(['a']));
  assert.match(err.message, /HANZO_BASE_URL 'localhost:8000' is not an http\(s\) URL/);
});

test('nothing is fetched until embed or chat is called', async () => {
  let fetches = 0;
  const stub: typeof fetch = async () => {
    fetches++;
    return new Response(JSON.stringify({ data: [{ index: 0, embedding: [1, null] }] }), { status: 200 });
  };
  const client = new Gateway(gatewayConfig({}), { fetch: stub });
  assert.equal(fetches, 0);
  const err = await rejection(client.embed(['a']));
  assert.equal(fetches, 1);
  assert.match(err.message, /non-finite value in the vector for input 0/);
});

test('a response missing a vector is rejected', async () => {
  const stub: typeof fetch = async () =>
    new Response(JSON.stringify({ data: [{ index: 0, embedding: [1, 2] }, { index: 0, embedding: [3, 4] }] }), { status: 200 });
  const err = await rejection(new Gateway(gatewayConfig({}), { fetch: stub }).embed(['a', 'b']));
  assert.match(err.message, /two vectors for input 0/);
});

// ---- chat -------------------------------------------------------------------

test('chat round trip: request shape, default citation, tokens, model', async (t) => {
  const { gw, client } = await harness(t, { chatModel: 'gpt-test', apiKey: 'k' }, { apiKey: 'k' });
  const res = await client.chat(
    [
      { role: 'system', content: 'Answer from the code. Cite file:line.' },
      { role: 'user', content: 'Where is the user name read?\n\nsrc/user/profile.ts:10-20\nfunction getUserName() {}' },
    ],
    { maxTokens: 300, temperature: 0 },
  );
  assert.equal(res.content, 'The answer is in src/user/profile.ts:10-20.');
  assert.equal(res.model, 'gpt-test');
  assert.ok(res.tokens > 0);
  const call = gw.calls[0]!;
  assert.equal(call.path, '/v1/chat/completions');
  assert.equal(call.body.model, 'gpt-test');
  assert.equal(call.body.max_tokens, 300);
  assert.equal(call.body.temperature, 0);
  assert.equal(call.body.messages.length, 2);
  assert.equal(call.headers.authorization, 'Bearer k');
});

test('chat uses a test-supplied answer function and retries like embed', async (t) => {
  const { gw, client, sleeps } = await harness(t, {}, { chat: (m) => `echo ${m.length}: ${m[m.length - 1]!.content}` });
  gw.fault = { kind: 'status', status: 502 };
  const res = await client.chat([{ role: 'user', content: 'hello' }]);
  assert.equal(res.content, 'echo 1: hello');
  assert.equal(gw.calls.length, 2);
  assert.equal(sleeps.length, 1);
  assert.equal(typeof gw.calls[1]!.body.max_tokens, 'number');
});

// ---- the fake's embedding is good enough to rank with -----------------------

test('fakeEmbedding: sub-words make "user name" closest to getUserName', () => {
  assert.deepEqual(subwords('getUserName parse_HTTPServer2x'), ['get', 'user', 'name', 'parse', 'http', 'server', '2', 'x']);
  const dim = 256;
  const q = fakeEmbedding('user name', dim);
  const docs = ['function getUserName(user) { return user.name }', 'function parseConfig(path) { return readFile(path) }', 'const MAX_RETRIES = 4'];
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  const scores = docs.map((d) => dot(q, fakeEmbedding(d, dim)));
  assert.ok(scores[0]! > scores[1]! && scores[0]! > scores[2]!, `scores ${scores}`);
  assert.deepEqual(fakeEmbedding('same text', dim), fakeEmbedding('same text', dim));
  assert.ok(Math.abs(dot(q, q) - 1) < 1e-5);
});
