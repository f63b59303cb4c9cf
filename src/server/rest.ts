// A local REST server over the library API, with the hosted service's paths
// and field names (/v1/code/search, /context, /ask, /tree, /file, /index), so
// an agent written against the hosted API works against a laptop. It serves
// exactly one org's store, fixed when it starts: the org boundary stays
// physical, and no request field can pick another org's file. Failures use
// problem-details JSON; retrieval outages are fail-honest 200s, as upstream.

import http from 'node:http';
import { ask, context, file, indexCheckout, search, toSearchResults, tree, type StoreOptions } from '../api.js';
import { SEARCH_TYPES, type SearchType } from '../config.js';
import { HanzoError, UsageError } from '../errors.js';

export interface ServeOptions extends StoreOptions {
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** most bytes of a request body */
  maxBody?: number;
}

export interface Server { url: string; close(): Promise<void> }

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

function problem(res: http.ServerResponse, status: number, detail: string): void {
  const title = http.STATUS_CODES[status] ?? 'Error';
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'about:blank', title, status, detail }));
}

async function body(req: http.IncomingMessage, max: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > max) throw new HttpError(413, `request body over ${max} bytes`);
    chunks.push(c as Buffer);
  }
  if (n === 0) return {};
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new HttpError(400, `request body is not a JSON object: ${(e as Error).message}`);
  }
}

function str(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new UsageError(`${name} must be a string`);
  return v;
}

function int(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new UsageError(`${name} must be a whole number, got ${JSON.stringify(v)}`);
  return n;
}

export async function serve(opts: ServeOptions): Promise<Server> {
  const base = { dataDir: opts.dataDir, org: opts.org, env: opts.env };
  const max = opts.maxBody ?? 1 << 20;

  const route = async (method: string, path: string, q: URLSearchParams, req: http.IncomingMessage): Promise<unknown> => {
    const input = method === 'POST' ? await body(req, max) : Object.fromEntries(q);
    switch (`${method} ${path}`) {
      case 'GET /v1/code/search': {
        const query = str(input.q, 'q') ?? '';
        const type = (str(input.type, 'type') ?? 'hybrid') as SearchType;
        if (!SEARCH_TYPES.includes(type)) throw new UsageError(`invalid type "${type}": use one of ${SEARCH_TYPES.join(', ')}`);
        const r = await search(query, { ...base, type, repo: str(input.repo, 'repo'), limit: int(input.limit, 'limit') });
        return toSearchResults(r);
      }
      case 'POST /v1/code/context':
        return context(str(input.query, 'query') ?? '', { ...base, repo: str(input.repo, 'repo'), budgetTokens: int(input.budgetTokens, 'budgetTokens') });
      case 'GET /v1/code/ask':
      case 'POST /v1/code/ask': {
        const { warnings: _w, ...r } = await ask(str(input.q ?? input.query, 'query') ?? '', { ...base, repo: str(input.repo, 'repo'), budgetTokens: int(input.budgetTokens, 'budgetTokens') });
        return r;
      }
      case 'GET /v1/code/tree':
        return tree({ ...base, repo: str(input.repo, 'repo'), symbols: input.symbols === 'true' || input.symbols === '1' });
      case 'GET /v1/code/file':
        return file(str(input.path, 'path') ?? '', { ...base, repo: str(input.repo, 'repo') });
      case 'POST /v1/code/index': {
        const root = str(input.path, 'path');
        if (!root) throw new UsageError('path is required: the local checkout to index');
        return indexCheckout(root, { ...base, repo: str(input.repo, 'repo'), embed: input.embed === true });
      }
      default:
        throw new HttpError(404, `no route ${method} ${path}`);
    }
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    route(req.method ?? 'GET', url.pathname.replace(/\/+$/, ''), url.searchParams, req)
      .then((out) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out));
      })
      .catch((e: unknown) => {
        if (e instanceof HttpError) return problem(res, e.status, e.message);
        if (e instanceof HanzoError) {
          // bad input is the API's 400; a missing store is a 404 of the org's index; "not indexed" likewise
          const status = e.exitCode === 2 ? 400 : e.exitCode === 3 || e.exitCode === 1 ? 404 : 500;
          return problem(res, status, e.hint ? `${e.message} (${e.hint})` : e.message);
        }
        problem(res, 500, (e as Error).message ?? String(e));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 7777, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as { address: string; port: number };
  const host = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
