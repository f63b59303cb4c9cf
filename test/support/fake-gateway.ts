// A real HTTP server on 127.0.0.1 (port 0) that speaks enough of the OpenAI
// protocol for the CLI's tests: POST /v1/embeddings and /v1/chat/completions,
// bearer-key checks, unknown-model 404s, and scripted faults. It exists so
// tests exercise the real fetch/undici path (sockets, aborts, headers) instead
// of a stubbed function. It must stay deterministic: embeddings are derived
// from the text alone, and it never calls out to the network.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { normalize } from '../../src/retrieve/vectors.js';

/**
 * Scripted misbehaviour for the next `times` requests (default 1), applied
 * before auth and routing because it stands for transport-level trouble:
 * - status: answer `status` with `body` (default an OpenAI-style error) and an optional Retry-After
 * - hang: accept the request and never answer (the client's timeout must fire)
 * - malformed: answer 200 with truncated JSON
 * - wrong-dim: answer normally except that the LAST input of the request gets a dim/2 vector
 * - fail-after: answer the next `okCalls` requests normally, then `status` for every request after
 */
export type Fault =
  | { kind: 'status'; status: number; times?: number; retryAfter?: string; body?: string }
  | { kind: 'hang'; times?: number }
  | { kind: 'malformed'; times?: number }
  | { kind: 'wrong-dim'; times?: number }
  | { kind: 'fail-after'; okCalls: number; status: number };

export interface FakeCall {
  path: string;
  /** parsed JSON, or the raw text when it did not parse */
  body: any;
  /** lower-cased header names */
  headers: Record<string, string>;
}

export interface FakeGateway {
  /** e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  /** every request, faulted or not, in arrival order */
  calls: FakeCall[];
  fault: Fault | null;
  dim: number;
  close(): Promise<void>;
}

export type ChatFn = (messages: { role: string; content: string }[]) => string;

export interface FakeGatewayOptions {
  dim?: number;
  /** when set, requests must carry `Authorization: Bearer <apiKey>` */
  apiKey?: string;
  /** when set, any other model name gets a 404 model_not_found */
  models?: string[];
  chat?: ChatFn;
}

// ---- deterministic embedding ----------------------------------------------

/** 32-bit FNV-1a over the UTF-16 code units (all code sub-words here are ASCII after lower-casing anyway). */
function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Code sub-words: split at non-alphanumerics, snake_case, camelCase and acronym boundaries (HTTPServer → http, server). */
export function subwords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[^A-Za-z0-9]+/)) {
    if (!word) continue;
    const parts = word.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
    for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * Bag of sub-words hashed into dims, normalised: each sub-word adds ±1 at two
 * hashed positions (two, so one collision does not erase a word). Texts that
 * share sub-words get a positive cosine, so "user name" ranks getUserName
 * above unrelated code — enough for ranking tests, with no model.
 */
export function fakeEmbedding(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (const w of subwords(text)) {
    const h1 = fnv1a(w);
    const h2 = fnv1a(w, h1 ^ 0x9e3779b9);
    v[h1 % dim] += h1 & 0x80000000 ? -1 : 1;
    v[h2 % dim] += h2 & 0x80000000 ? -1 : 1;
  }
  return normalize(v);
}

/** Rough tokens, as the ~4 characters per token rule of thumb. */
function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

// ---- server ----------------------------------------------------------------

const FILE_RE = /(?:[\w.-]+\/)*[\w.-]+\.[A-Za-z][\w]*(?::\d+(?:-\d+)?)?/;

/** Default `ask` answer: cites the first path-like token in the prompt, so tests can check a citation survives. */
function defaultChat(messages: { role: string; content: string }[]): string {
  for (const m of messages) {
    if (m.role === 'system') continue;
    const hit = FILE_RE.exec(m.content);
    if (hit) return `The answer is in ${hit[0]}.`;
  }
  return 'I could not find that in the provided code.';
}

function openAiError(message: string, type: string, code: string | null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

export async function startFakeGateway(opts: FakeGatewayOptions = {}): Promise<FakeGateway> {
  const dim = opts.dim ?? 64;
  const chat = opts.chat ?? defaultChat;

  const gw: FakeGateway = {
    url: '',
    calls: [],
    fault: null,
    dim,
    close: async () => {},
  };

  /** Takes one use of the current fault, clearing it when used up; null when none applies. */
  const takeFault = (): Fault | null => {
    const f = gw.fault;
    if (!f) return null;
    if (f.kind === 'fail-after') {
      // Count down in the fault itself, so a test can see how many good answers are left.
      if (f.okCalls > 0) {
        gw.fault = { ...f, okCalls: f.okCalls - 1 };
        return null;
      }
      return f;
    }
    const left = (f.times ?? 1) - 1;
    if (left <= 0) gw.fault = null;
    else gw.fault = { ...f, times: left } as Fault;
    return f;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text; the route below answers 400
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      const path = (req.url ?? '/').split('?')[0]!;
      gw.calls.push({ path, body, headers });

      const send = (status: number, text: string, extra: Record<string, string> = {}): void => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...extra });
        res.end(text);
      };

      const fault = takeFault();
      if (fault?.kind === 'hang') return; // never answer; close() destroys the socket
      if (fault?.kind === 'malformed') return send(200, '{"object":"list","data":[{"index":0,"embedding":[0.1,');
      if (fault?.kind === 'status' || fault?.kind === 'fail-after') {
        const extra: Record<string, string> = {};
        if (fault.kind === 'status' && fault.retryAfter !== undefined) extra['Retry-After'] = fault.retryAfter;
        const text = (fault.kind === 'status' ? fault.body : undefined) ?? openAiError(`fake fault ${fault.status}`, 'server_error', null);
        return send(fault.status, text, extra);
      }

      if (opts.apiKey !== undefined && headers.authorization !== `Bearer ${opts.apiKey}`) {
        return send(401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      }
      if (req.method !== 'POST') return send(405, openAiError(`${req.method} not allowed`, 'invalid_request_error', null));
      if (typeof body !== 'object' || body === null) return send(400, openAiError('body is not JSON', 'invalid_request_error', null));
      const model = body.model;
      if (opts.models && !opts.models.includes(model)) {
        return send(404, openAiError(`The model '${String(model)}' does not exist`, 'invalid_request_error', 'model_not_found'));
      }

      if (path === '/v1/embeddings') {
        const input: unknown = body.input;
        const list = typeof input === 'string' ? [input] : input;
        if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
          return send(400, openAiError("'input' must be a non-empty string or array of non-empty strings", 'invalid_request_error', null));
        }
        const texts = list as string[];
        const data = texts.map((t, index) => {
          const wrong = fault?.kind === 'wrong-dim' && index === texts.length - 1;
          return { object: 'embedding', index, embedding: Array.from(fakeEmbedding(t, wrong ? Math.max(1, dim >> 1) : dim)) };
        });
        // Shuffled (reversed) on purpose: clients must order by `index`, not by position.
        data.reverse();
        const tokens = texts.reduce((n, t) => n + roughTokens(t), 0);
        return send(200, JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
      }

      if (path === '/v1/chat/completions') {
        const messages = body.messages;
        if (!Array.isArray(messages) || messages.length === 0) {
          return send(400, openAiError("'messages' must be a non-empty array", 'invalid_request_error', null));
        }
        const content = chat(messages);
        const prompt = messages.reduce((n: number, m: { content?: unknown }) => n + roughTokens(String(m.content ?? '')), 0);
        const completion = roughTokens(content);
        return send(200, JSON.stringify({
          id: `chatcmpl-fake-${gw.calls.length}`,
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        }));
      }

      return send(404, openAiError(`Unknown route ${path}`, 'invalid_request_error', null));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  gw.url = `http://127.0.0.1:${port}/v1`;
  gw.close = () =>
    new Promise<void>((resolve) => {
      // Hanging requests and keep-alive sockets would hold close() open forever.
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return gw;
}
