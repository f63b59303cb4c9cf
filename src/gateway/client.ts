// The one module that talks to an OpenAI-compatible gateway (the hosted Hanzo
// gateway, vLLM, llama.cpp's server, Ollama's /v1): POST /embeddings for the
// semantic tier and POST /chat/completions for `ask`. It owns batching,
// per-attempt timeouts, retry with backoff, response validation, and turning
// every failure into a GatewayError a person can act on. It must not touch
// the store, normalise vectors (callers do), log, or do anything at import
// time: no network until embed() or chat() is called. The API key never
// appears in an error message.

import { GatewayError } from '../errors.js';

export interface GatewayConfig {
  baseUrl: string;
  apiKey?: string;
  embedModel: string;
  chatModel: string;
  /** per attempt, covering the response body as well as the headers */
  timeoutMs: number;
  /** retries after the first attempt, so maxRetries + 1 attempts in all */
  maxRetries: number;
  /** most inputs per /embeddings request */
  batchSize: number;
  /** most UTF-8 bytes of input text per /embeddings request (one larger input still goes alone) */
  batchBytes: number;
}

export interface EmbedResult {
  vectors: Float32Array[];
  tokens: number;
}

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export interface GatewayDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const DEFAULT_BASE_URL = 'https://api.hanzo.ai/v1';
const DEFAULT_TIMEOUT_MS = 30_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;
const RETRY_AFTER_CAP_MS = 60_000;

/** Statuses worth another attempt: rate limiting and the gateway or its upstream being briefly unwell. */
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * Resolves settings from flags, then the environment, then defaults. It does
 * not validate the URL: lexical-only commands build a config too, and a bad
 * HANZO_BASE_URL should only fail a command that actually calls the gateway.
 */
export function gatewayConfig(
  env: NodeJS.ProcessEnv,
  flags: { embedModel?: string; chatModel?: string; baseUrl?: string } = {},
): GatewayConfig {
  const baseUrl = (flags.baseUrl || env.HANZO_BASE_URL || DEFAULT_BASE_URL).trim().replace(/\/+$/, '');
  const timeout = Number(env.HANZO_TIMEOUT_MS);
  return {
    baseUrl,
    apiKey: env.HANZO_API_KEY || undefined,
    embedModel: flags.embedModel || env.HANZO_EMBED_MODEL || 'text-embedding-3-small',
    chatModel: flags.chatModel || env.HANZO_CHAT_MODEL || 'gpt-4o-mini',
    // An unparsable value falls back rather than failing commands that never call the gateway.
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? Math.floor(timeout) : DEFAULT_TIMEOUT_MS,
    maxRetries: 4,
    batchSize: 64,
    batchBytes: 256 * 1024,
  };
}

/** Splits inputs into [start, end) ranges bounded by count and by UTF-8 bytes; exported for the tests' arithmetic. */
export function planBatches(inputs: string[], batchSize: number, batchBytes: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0, bytes = 0;
  for (let i = 0; i < inputs.length; i++) {
    const b = Buffer.byteLength(inputs[i]!, 'utf8');
    if (i > start && (i - start >= batchSize || bytes + b > batchBytes)) {
      out.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += b;
  }
  if (inputs.length > start) out.push([start, inputs.length]);
  return out;
}

/** Seconds or an HTTP date, in ms from now; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The server's own words, from the error shapes OpenAI, vLLM, Ollama and FastAPI use. */
function serverMessage(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as unknown;
    if (j && typeof j === 'object') {
      const o = j as Record<string, unknown>;
      const e = o.error;
      if (typeof e === 'string') return e;
      if (e && typeof e === 'object' && typeof (e as Record<string, unknown>).message === 'string') {
        return (e as Record<string, unknown>).message as string;
      }
      if (typeof o.message === 'string') return o.message;
      if (typeof o.detail === 'string') return o.detail;
      if (o.detail !== undefined) return JSON.stringify(o.detail).slice(0, 300);
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  const t = text.trim();
  // An HTML error page says nothing useful in a terminal.
  if (t === '' || t.startsWith('<')) return undefined;
  return t.length > 300 ? t.slice(0, 300) + '…' : t;
}

function withServer(msg: string, server: string | undefined): string {
  return server ? `${msg}: ${server}` : msg;
}

/** Error codes meaning nothing is listening there (or the name does not resolve). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Digs the system error code out of undici's `TypeError: fetch failed` wrapper. */
function networkCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    const errors = (e as { errors?: unknown }).errors; // AggregateError from happy-eyeballs (IPv4 + IPv6 both refused)
    if (Array.isArray(errors) && errors.length > 0) {
      e = errors[0];
      continue;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

type Route = '/embeddings' | '/chat/completions';

/** A failed attempt, with whether another attempt could help. */
interface Failure {
  retry: boolean;
  error: GatewayError;
  /** server-requested delay, already capped */
  retryAfterMs?: number;
  /** short description for the "after N attempts" message */
  last: string;
  /** the final message once attempts run out, when "still failing" would hide the point */
  giveUp?: (attempts: number) => string;
}

export class Gateway {
  readonly cfg: GatewayConfig;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** dimension of the first vector this instance ever received; the model is fixed, so every later one must match */
  private dim: number | undefined;

  constructor(cfg: GatewayConfig, deps: GatewayDeps = {}) {
    this.cfg = cfg;
    // Resolved at call time, not import time, so a test can stub globalThis.fetch after constructing.
    this.fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = deps.random ?? Math.random;
  }

  /** The embedding dimension, once one embed() call has returned a vector. */
  get dimension(): number | undefined {
    return this.dim;
  }

  /**
   * Embeds inputs in order, splitting into batches bounded by batchSize and
   * batchBytes; calls onBatch after each finished batch and awaits it before
   * sending the next (so a caller can persist it — an interrupted run keeps
   * every finished batch). Vectors come back as the server sent them, not
   * normalised.
   */
  async embed(
    inputs: string[],
    onBatch?: (start: number, vectors: Float32Array[], tokens: number) => void | Promise<void>,
  ): Promise<EmbedResult> {
    const vectors: Float32Array[] = [];
    let tokens = 0;
    for (const [start, end] of planBatches(inputs, this.cfg.batchSize, this.cfg.batchBytes)) {
      const batch = inputs.slice(start, end);
      const json = await this.post('/embeddings', { model: this.cfg.embedModel, input: batch });
      const got = this.parseEmbeddings(json, batch.length, start);
      for (const v of got.vectors) vectors.push(v);
      tokens += got.tokens;
      if (onBatch) await onBatch(start, got.vectors, got.tokens);
    }
    return { vectors, tokens };
  }

  async chat(
    messages: ChatMessage[],
    opts: { maxTokens?: number; temperature?: number } = {},
  ): Promise<{ content: string; tokens: number; model: string }> {
    const json = await this.post('/chat/completions', {
      model: this.cfg.chatModel,
      messages,
      max_tokens: opts.maxTokens ?? 1024,
      // Low by default: `ask` answers from cited code, where invention is a bug.
      temperature: opts.temperature ?? 0.2,
    });
    const o = json as { choices?: { message?: { content?: unknown } }[]; usage?: { total_tokens?: unknown }; model?: unknown };
    const content = Array.isArray(o?.choices) ? o.choices[0]?.message?.content : undefined;
    if (typeof content !== 'string') {
      throw new GatewayError(
        'gateway returned a chat completion without choices[0].message.content',
        `is ${this.cfg.chatModel} a chat model, and is HANZO_BASE_URL an OpenAI-compatible /v1 endpoint?`,
      );
    }
    return {
      content,
      tokens: typeof o.usage?.total_tokens === 'number' ? o.usage.total_tokens : 0,
      model: typeof o.model === 'string' ? o.model : this.cfg.chatModel,
    };
  }

  // ---- validation --------------------------------------------------------

  private parseEmbeddings(json: unknown, count: number, start: number): EmbedResult {
    const bad = (what: string): GatewayError =>
      new GatewayError(
        `gateway returned a malformed /embeddings response: ${what}`,
        'is HANZO_BASE_URL an OpenAI-compatible /v1 endpoint?',
      );
    const o = json as { data?: unknown; usage?: { total_tokens?: unknown; prompt_tokens?: unknown } };
    if (!o || typeof o !== 'object' || !Array.isArray(o.data)) throw bad('no data array');
    if (o.data.length !== count) throw bad(`${o.data.length} vectors for ${count} inputs`);
    // Slot by index first, then check in index order, so which vector counts as "expected" does not depend on the server's order.
    const slots: unknown[][] = new Array(count);
    o.data.forEach((item: unknown, pos: number) => {
      if (!item || typeof item !== 'object') throw bad(`data[${pos}] is not an object`);
      const it = item as { index?: unknown; embedding?: unknown };
      // Some servers omit index; then position is the only order there is.
      const idx = it.index === undefined ? pos : it.index;
      if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || idx >= count) throw bad(`index ${String(idx)} out of range`);
      if (slots[idx]) throw bad(`two vectors for input ${start + idx}`);
      const e = it.embedding;
      if (!Array.isArray(e) || e.length === 0) throw bad(`no embedding array for input ${start + idx}`);
      slots[idx] = e;
    });
    const out: Float32Array[] = [];
    for (let i = 0; i < count; i++) {
      const e = slots[i];
      if (!e) throw bad(`no vector for input ${start + i}`);
      const expected = this.dim ?? e.length;
      if (e.length !== expected) {
        throw new GatewayError(
          `gateway returned a ${e.length}-dim vector for input ${start + i}, expected ${expected}`,
          `the model behind '${this.cfg.embedModel}' changed or the server mixes models; re-index with one embedding model`,
        );
      }
      const v = new Float32Array(e.length);
      for (let j = 0; j < e.length; j++) {
        const x = e[j];
        if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`non-finite value in the vector for input ${start + i}`);
        v[j] = x;
      }
      this.dim = expected;
      out.push(v);
    }
    const u = o.usage;
    const tokens = typeof u?.total_tokens === 'number' ? u.total_tokens : typeof u?.prompt_tokens === 'number' ? u.prompt_tokens : 0;
    return { vectors: out, tokens };
  }

  // ---- transport ---------------------------------------------------------

  private url(route: Route): string {
    let u: URL | undefined;
    try {
      u = new URL(this.cfg.baseUrl + route);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
      throw new GatewayError(
        `HANZO_BASE_URL '${this.cfg.baseUrl}' is not an http(s) URL`,
        'set it to the API root, e.g. https://api.hanzo.ai/v1 or http://127.0.0.1:8000/v1',
      );
    }
    return u.toString();
  }

  /** POSTs JSON with retries; resolves to the parsed body of a 2xx answer. */
  private async post(route: Route, body: unknown): Promise<unknown> {
    const url = this.url(route);
    const payload = JSON.stringify(body);
    const attempts = this.cfg.maxRetries + 1;
    let failure: Failure | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        // Full jitter: a uniform delay up to the exponential ceiling spreads out clients that failed together.
        const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
        await this.sleep(failure?.retryAfterMs ?? Math.floor(this.random() * ceiling));
      }
      const result = await this.attempt(route, url, payload);
      if (!('retry' in result)) return result.json;
      failure = result;
      if (!failure.retry) throw failure.error;
    }
    const f = failure!;
    throw new GatewayError(
      f.giveUp ? f.giveUp(attempts) : `gateway still failing after ${attempts} attempts (last: ${f.last})`,
      f.error.hint,
      f.error.status,
    );
  }

  private async attempt(route: Route, url: string, payload: string): Promise<{ json: unknown } | Failure> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (this.cfg.apiKey) headers.Authorization = `Bearer ${this.cfg.apiKey}`;
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), this.cfg.timeoutMs);
    let status = 0;
    try {
      const res = await this.fetchImpl(url, { method: 'POST', headers, body: payload, signal: ctl.signal });
      status = res.status;
      // Read the body under the same timer: a server can send headers and then stall.
      const text = await res.text();
      if (res.ok) {
        try {
          return { json: JSON.parse(text) };
        } catch {
          const snippet = text.trim().slice(0, 80);
          throw new GatewayError(
            `gateway answered with invalid JSON (status ${status}, POST ${route})${snippet ? `: ${snippet}` : ': empty body'}`,
            'is HANZO_BASE_URL an OpenAI-compatible /v1 endpoint (not a web page or a proxy login)?',
            status,
          );
        }
      }
      return this.statusFailure(route, res, text);
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      if (ctl.signal.aborted) {
        return {
          retry: true,
          last: `no answer within ${this.cfg.timeoutMs} ms`,
          error: new GatewayError(
            `gateway did not answer within ${this.cfg.timeoutMs} ms (POST ${route})`,
            'raise HANZO_TIMEOUT_MS, or check the server is not overloaded',
          ),
        };
      }
      return this.networkFailure(err, status);
    } finally {
      clearTimeout(timer);
    }
  }

  private statusFailure(route: Route, res: Response, text: string): Failure {
    const status = res.status;
    const server = serverMessage(text);
    const isEmbed = route === '/embeddings';
    const model = isEmbed ? this.cfg.embedModel : this.cfg.chatModel;
    const modelFlag = isEmbed ? '--embed-model / HANZO_EMBED_MODEL' : '--chat-model / HANZO_CHAT_MODEL';
    const last = withServer(`${status}${res.statusText ? ' ' + res.statusText : ''}`, server);
    if (RETRY_STATUS.has(status)) {
      const ra = status === 429 || status === 503 ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
      const hint = status === 429
        ? 'the gateway is rate limiting; wait and retry, or lower the request rate'
        : 'the gateway or the model server behind it is failing; try again later';
      return {
        retry: true,
        last,
        retryAfterMs: ra === undefined ? undefined : Math.min(ra, RETRY_AFTER_CAP_MS),
        error: new GatewayError(withServer(`gateway answered ${status} (POST ${route})`, server), hint, status),
      };
    }
    let error: GatewayError;
    if (status === 401 || status === 403) {
      error = new GatewayError(
        withServer(`gateway refused the API key (${status})`, server),
        this.cfg.apiKey ? 'check HANZO_API_KEY' : 'check HANZO_API_KEY (it is not set)',
        status,
      );
    } else if (status === 404) {
      error = new GatewayError(
        withServer(`gateway has no model '${model}' or no ${route} route (404)`, server),
        `check ${modelFlag} and HANZO_BASE_URL`,
        status,
      );
    } else if (status === 413) {
      error = new GatewayError(
        withServer(`gateway refused the request as too large (413, POST ${route})`, server),
        'the server limits request size; this batch was ' + (isEmbed ? 'too many bytes of input' : 'too long a prompt'),
        status,
      );
    } else if (status === 400 || status === 422) {
      error = new GatewayError(
        withServer(`gateway rejected the request (${status}, POST ${route})`, server),
        isEmbed
          ? `an input may be longer than '${model}' accepts, or the server expects another model name`
          : `the prompt may be longer than '${model}' accepts`,
        status,
      );
    } else {
      error = new GatewayError(
        withServer(`gateway answered ${status} (POST ${route})`, server),
        'check HANZO_BASE_URL points at an OpenAI-compatible /v1 endpoint',
        status,
      );
    }
    return { retry: false, last, error };
  }

  private networkFailure(err: unknown, status: number): Failure {
    const code = networkCode(err);
    const base = this.cfg.baseUrl;
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : '';
    if (cause === 'bad port') {
      // The fetch standard blocks some ports (1, 9, 6000, 6667, 10080, ...) before any connection is tried.
      return {
        retry: false,
        last: cause,
        error: new GatewayError(
          `cannot use the gateway at ${base}: Node's fetch refuses that port`,
          'serve the gateway on another port (e.g. 8000) and update HANZO_BASE_URL',
        ),
      };
    }
    if (code && UNREACHABLE.has(code)) {
      return {
        // A name that does not resolve will not start resolving in a second; a refused port may be a restarting server.
        retry: code !== 'ENOTFOUND',
        last: code,
        giveUp: (attempts) => `cannot reach the gateway at ${base} (${code} on all ${attempts} attempts)`,
        error: new GatewayError(`cannot reach the gateway at ${base} (${code})`, 'check HANZO_BASE_URL (is the server running?)'),
      };
    }
    const why = code ?? (cause || (err instanceof Error ? err.message : String(err)));
    return {
      retry: true,
      last: why,
      error: new GatewayError(
        `connection to the gateway at ${base} failed${status ? ` mid-answer (status ${status})` : ''}: ${why}`,
        'the connection dropped; check the network, or HANZO_BASE_URL if it keeps happening',
      ),
    };
  }
}
