// An MCP server over stdio for coding agents: JSON-RPC 2.0, one message per
// line, tools that call the library API (code_search, code_context, code_ask,
// code_tree, code_file, code_index). Hand-rolled rather than the MCP SDK: a
// tools-only stdio server needs five methods, and the SDK would bring an HTTP
// framework stack (express, hono, ajv) into a CLI that never serves HTTP
// through it. Like `serve`, it answers for the one org it was started with.
// stdout is the protocol stream: nothing else may be written there.

import readline from 'node:readline';
import { ask, context, file, indexCheckout, search, toSearchResults, tree, type StoreOptions } from '../api.js';
import { SEARCH_TYPES, type SearchType } from '../config.js';
import { UsageError } from '../errors.js';

export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  run: (args: Record<string, unknown>) => Promise<unknown>;
}

function s(args: Record<string, unknown>, k: string, required = false): string | undefined {
  const v = args[k];
  if (v === undefined || v === null || v === '') {
    if (required) throw new UsageError(`"${k}" is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new UsageError(`"${k}" must be a string`);
  return v;
}

function n(args: Record<string, unknown>, k: string): number | undefined {
  const v = args[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new UsageError(`"${k}" must be an integer`);
  return v;
}

export function tools(base: StoreOptions & { env?: NodeJS.ProcessEnv }): Tool[] {
  const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  return [
    {
      name: 'code_search',
      description: 'Search the indexed code. type: hybrid (default; lexical, symbol and semantic tiers fused by rank), text (exact substring), regex, symbol (definitions), semantic. Returns searchResults: spans with repo, file, line, endLine, kind, symbol, role, tier, score, snippet.',
      inputSchema: {
        type: 'object',
        properties: {
          q: { type: 'string', description: 'the query: an identifier, a string, a regex, or a question in prose' },
          type: { type: 'string', enum: [...SEARCH_TYPES] },
          repo: { type: 'string', description: 'only this repo (owner/name)' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
        },
        required: ['q'],
      },
      annotations: read,
      run: async (a) => {
        const type = (s(a, 'type') ?? 'hybrid') as SearchType;
        if (!SEARCH_TYPES.includes(type)) throw new UsageError(`invalid type "${type}": use one of ${SEARCH_TYPES.join(', ')}`);
        const r = await search(s(a, 'q', true)!, { ...base, type, repo: s(a, 'repo'), limit: n(a, 'limit') });
        return toSearchResults(r);
      },
    },
    {
      name: 'code_context',
      description: 'The most relevant code for a task, packed into a token budget: seed spans plus the definitions they call (role definition) and their key callers (role caller). Returns a ContextBundle; paste its spans into the prompt.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string' }, repo: { type: 'string' }, budgetTokens: { type: 'integer', minimum: 1, maximum: 200000 } },
        required: ['query'],
      },
      annotations: read,
      run: (a) => context(s(a, 'query', true)!, { ...base, repo: s(a, 'repo'), budgetTokens: n(a, 'budgetTokens') }),
    },
    {
      name: 'code_ask',
      description: 'A cited answer about the code, written by a chat model over exactly the packed context spans, which come back with it.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string' }, repo: { type: 'string' }, budgetTokens: { type: 'integer', minimum: 1, maximum: 200000 } },
        required: ['query'],
      },
      annotations: { ...read, openWorldHint: true },
      run: async (a) => {
        const { warnings: _w, ...r } = await ask(s(a, 'query', true)!, { ...base, repo: s(a, 'repo'), budgetTokens: n(a, 'budgetTokens') });
        return r;
      },
    },
    {
      name: 'code_tree',
      description: "The indexed files of a repo with language and per-file symbol count; with symbols: true, each file's definitions (an outline).",
      inputSchema: { type: 'object', properties: { repo: { type: 'string' }, symbols: { type: 'boolean' } } },
      annotations: read,
      run: async (a) => tree({ ...base, repo: s(a, 'repo'), symbols: a.symbols === true }),
    },
    {
      name: 'code_file',
      description: 'The indexed content of one file (path relative to the repo root), optionally a line range, with its definitions.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, repo: { type: 'string' }, line: { type: 'integer', minimum: 1 }, endLine: { type: 'integer', minimum: 1 } },
        required: ['path'],
      },
      annotations: read,
      run: async (a) => {
        const line = n(a, 'line');
        const end = n(a, 'endLine');
        return file(s(a, 'path', true)!, { ...base, repo: s(a, 'repo'), lines: line ? [line, end ?? Infinity] : undefined });
      },
    },
    {
      name: 'code_index',
      description: 'Index (or re-index, incrementally) a local checkout into this org\'s store. Returns the counts: scanned, added, updated, unchanged, pruned, skipped.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, repo: { type: 'string' } }, required: ['path'] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a) => indexCheckout(s(a, 'path', true)!, { ...base, repo: s(a, 'repo') }),
    },
  ];
}

type Msg = { jsonrpc?: string; id?: string | number | null; method?: string; params?: Record<string, unknown> };

/** Handle one decoded message; null for notifications (never answered). */
export async function handle(msg: Msg, toolset: Tool[]): Promise<object | null> {
  const id = msg.id ?? null;
  const isNotification = msg.id === undefined;
  const reply = (result: unknown) => ({ jsonrpc: '2.0', id, result });
  const fail = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
  if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') return isNotification ? null : fail(-32600, 'invalid request');
  switch (msg.method) {
    case 'initialize': {
      const asked = String(msg.params?.protocolVersion ?? '');
      return reply({
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'hanzo-code', version: '0.1.0' },
      });
    }
    case 'ping':
      return reply({});
    case 'tools/list':
      return reply({ tools: toolset.map(({ run: _r, ...t }) => t) });
    case 'tools/call': {
      const name = msg.params?.name;
      const tool = toolset.find((t) => t.name === name);
      if (!tool) return fail(-32602, `unknown tool ${JSON.stringify(name)}: use one of ${toolset.map((t) => t.name).join(', ')}`);
      const args = (msg.params?.arguments ?? {}) as Record<string, unknown>;
      try {
        const out = await tool.run(args);
        return reply({ content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: Array.isArray(out) ? { items: out } : out, isError: false });
      } catch (e) {
        // a tool failure is a result the agent can read, not a protocol error
        const err = e as Error & { hint?: string };
        return reply({ content: [{ type: 'text', text: `${err.message}${err.hint ? ` (${err.hint})` : ''}` }], isError: true });
      }
    }
    default:
      if (isNotification) return null;
      return fail(-32601, `method not found: ${msg.method}`);
  }
}

/** The stdio loop: newline-delimited JSON-RPC in, one line per response out. Resolves when input ends. */
export async function runMcp(input: NodeJS.ReadableStream, write: (line: string) => void, base: StoreOptions & { env?: NodeJS.ProcessEnv }): Promise<void> {
  const toolset = tools(base);
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  const pending: Promise<void>[] = [];
  for await (const line of rl) {
    if (line.trim() === '') continue;
    let msg: Msg;
    try {
      msg = JSON.parse(line) as Msg;
    } catch {
      write(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error: each line must be one JSON-RPC message' } }) + '\n');
      continue;
    }
    pending.push(handle(msg, toolset).then((r) => { if (r) write(JSON.stringify(r) + '\n'); }));
  }
  await Promise.all(pending);
}
