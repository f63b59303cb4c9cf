// The MCP server over real stdio: handshake, tool listing, tool calls, and
// the error contract (protocol errors vs isError results).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import test from 'node:test';
import { BIN, cli, makeRepo, tempDir } from './support/repo.js';

test('hanzo code mcp: initialize, tools/list, tools/call over stdio', async () => {
  const data = tempDir();
  await cli(['code', 'index', makeRepo({ 'src/user.ts': 'export function getUserName(id: number) {\n  return String(id);\n}\n' }), '--repo', 'acme/app'], { dataDir: data });
  const child = spawn(process.execPath, [BIN, 'code', 'mcp'], { env: { ...process.env, HANZO_DATA_DIR: data }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = new Map<number | null, (v: any) => void>();
  lines.on('line', (l) => { const m = JSON.parse(l); waiting.get(m.id)?.(m); waiting.delete(m.id); });
  let next = 1;
  const call = (method: string, params?: object) => new Promise<any>((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  try {
    const init = await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    assert.equal(init.result.protocolVersion, '2025-06-18');
    assert.deepEqual(init.result.capabilities, { tools: { listChanged: false } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const list = await call('tools/list');
    assert.deepEqual(list.result.tools.map((t: { name: string }) => t.name), ['code_search', 'code_context', 'code_ask', 'code_tree', 'code_file', 'code_index']);
    assert.equal(list.result.tools[0].inputSchema.required[0], 'q');
    const found = await call('tools/call', { name: 'code_search', arguments: { q: 'getUserName', type: 'symbol' } });
    assert.equal(found.result.isError, false);
    const res = JSON.parse(found.result.content[0].text);
    assert.equal(res.results[0].file, 'src/user.ts');
    assert.deepEqual(found.result.structuredContent, res);
    const ctx = await call('tools/call', { name: 'code_context', arguments: { query: 'getUserName', budgetTokens: 100 } });
    assert.ok(JSON.parse(ctx.result.content[0].text).usedTokens <= 100);
    const f = await call('tools/call', { name: 'code_file', arguments: { path: 'src/user.ts', line: 2, endLine: 2 } });
    assert.equal(JSON.parse(f.result.content[0].text).content, '  return String(id);\n');
    // a bad argument is a tool error the agent can read; an unknown tool or method is a protocol error
    const bad = await call('tools/call', { name: 'code_search', arguments: { q: '(x', type: 'regex' } });
    assert.equal(bad.result.isError, true);
    assert.match(bad.result.content[0].text, /regex "\(x"/);
    const unknown = await call('tools/call', { name: 'nope', arguments: {} });
    assert.equal(unknown.error.code, -32602);
    assert.equal((await call('resources/list')).error.code, -32601);
    assert.deepEqual((await call('ping')).result, {});
  } finally {
    child.stdin.end();
  }
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 0, 'ends when stdin closes');
});
