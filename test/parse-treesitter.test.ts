// Tree-sitter parsing, one fixture set per language under test/fixtures/parse/<lang>/.
// Each language asserts its exact definitions, its imports, and the bindings
// that matter: a call into another file through an import, a call to a
// same-file definition (by index), and a shadowed name that must stay local.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { parseTreeSitter, TREE_SITTER_LANGUAGES } from '../src/parse/treesitter.js';
import { chunkFile } from '../src/parse/chunk.js';
import type { Binding, ParsedFile, Reference } from '../src/types.js';

const FIXTURES = new URL('../../test/fixtures/parse/', import.meta.url);

function fixture(path: string): string {
  return readFileSync(new URL(path, FIXTURES), 'utf8');
}

async function parseFixture(language: string, path: string): Promise<ParsedFile> {
  const r = await parseTreeSitter(language, fixture(path));
  assert.equal(r.error, undefined, `${path}: ${r.error}`);
  assert.equal(r.language, language);
  return r;
}

type DefRow = [name: string, kind: string, line: number, endLine: number, container: string];

function defs(r: ParsedFile): DefRow[] {
  return r.definitions.map((d) => [d.name, d.kind, d.line, d.endLine, d.container]);
}

function imports(r: ParsedFile): [string, string, number][] {
  return r.imports.map((i) => [i.source, i.names.map((n) => (n.imported === n.local ? n.imported : `${n.imported} as ${n.local}`)).join(', '), i.line]);
}

/** The one reference named `name` on `line` (and `call` / column when given). */
function ref(r: ParsedFile, name: string, line: number, call?: boolean, col?: number): Reference {
  const found = r.references.filter((x) => x.name === name && x.line === line && (call === undefined || x.call === call) && (col === undefined || x.col === col));
  assert.equal(found.length, 1, `expected one reference ${name}@${line}${col === undefined ? '' : `:${col}`}${call === undefined ? '' : call ? ' (call)' : ' (not a call)'}, got ${JSON.stringify(found)}`);
  return found[0]!;
}

function noRef(r: ParsedFile, name: string, line: number): void {
  const found = r.references.filter((x) => x.name === name && x.line === line);
  assert.deepEqual(found, [], `no reference ${name}@${line} expected`);
}

function assertImport(b: Binding, source: string, name: string): void {
  assert.deepEqual(b, { kind: 'import', source, name });
}

/** A `def` binding pointing at the definition called `name` that starts on `line`. */
function assertDef(r: ParsedFile, b: Binding, name: string, line: number): void {
  assert.equal(b.kind, 'def', `expected a def binding, got ${JSON.stringify(b)}`);
  if (b.kind !== 'def') return;
  const d = r.definitions[b.def];
  assert.ok(d, `def index ${b.def} out of range`);
  assert.deepEqual([d.name, d.line], [name, line]);
}

function exported(r: ParsedFile): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const d of r.definitions) out[`${d.container ? `${d.container}.` : ''}${d.name}`] = d.exported;
  return out;
}

test('supported languages', () => {
  assert.deepEqual([...TREE_SITTER_LANGUAGES].sort(), ['c', 'cpp', 'csharp', 'go', 'java', 'kotlin', 'php', 'python', 'ruby', 'rust', 'solidity', 'swift']);
});

test('go', async () => {
  const r = await parseFixture('go', 'go/server.go');
  assert.deepEqual(defs(r), [
    ['MaxConns', 'const', 12, 12, ''],
    ['defaultName', 'var', 14, 14, ''],
    ['Server', 'struct', 17, 20, ''],
    ['Handler', 'interface', 22, 24, ''],
    ['New', 'func', 27, 29, ''],
    ['Serve', 'method', 31, 38, 'Server'],
    ['format', 'func', 40, 42, ''],
    ['parse', 'func', 44, 46, ''],
    ['apply', 'func', 49, 51, ''],
  ]);
  assert.deepEqual(imports(r), [
    ['fmt', '* as fmt', 5],
    ['net/http', '* as http', 6],
    ['example.com/app/store', '* as st', 8],
  ]);
  assert.deepEqual(exported(r), {
    MaxConns: true, defaultName: false, Server: true, Handler: true, New: true,
    'Server.Serve': true, format: false, parse: false, apply: false,
  });
  assert.equal(r.definitions[5]!.signature, 'func (s *Server) Serve(w http.ResponseWriter, r *http.Request) {');

  assertImport(ref(r, 'Error', 34, true, 7).binding, 'net/http', 'Error');
  assert.deepEqual(ref(r, 'Error', 34, true, 20).binding, { kind: 'free' }); // err.Error()
  assertImport(ref(r, 'Count', 50, true).binding, 'example.com/app/store', 'Count');
  assertImport(ref(r, 'Fprintln', 37, true).binding, 'fmt', 'Fprintln');
  assertImport(ref(r, 'StatusNotFound', 34, false).binding, 'net/http', 'StatusNotFound');
  assertImport(ref(r, 'Store', 27, false).binding, 'example.com/app/store', 'Store'); // *st.Store
  assertDef(r, ref(r, 'format', 37, true).binding, 'format', 40);
  assertDef(r, ref(r, 'defaultName', 28).binding, 'defaultName', 14);
  assertDef(r, ref(r, 'Server', 27).binding, 'Server', 17);
  assert.deepEqual(ref(r, 'parse', 50, true).binding, { kind: 'local' }); // the parameter, not func parse
  assert.deepEqual(ref(r, 'Get', 32, true).binding, { kind: 'free' }); // a method on s.Store
  assert.deepEqual(ref(r, 'item', 37).binding, { kind: 'local' });
  noRef(r, 'http', 34); // a package alias is no reference of its own
  noRef(r, 'len', 45); // predeclared
  noRef(r, 'Store', 28); // a field name in a composite literal
  assert.deepEqual(r.chunks, chunkFile(fixture('go/server.go').split('\n'), r.definitions));
});

test('python', async () => {
  const r = await parseFixture('python', 'python/service.py');
  assert.deepEqual(defs(r), [
    ['MAX_ITEMS', 'const', 7, 7, ''],
    ['_cache', 'var', 8, 8, ''],
    ['parse', 'func', 11, 12, ''],
    ['OrderService', 'class', 15, 32, ''],
    ['__init__', 'method', 20, 21, 'OrderService'],
    ['count', 'method', 23, 25, 'OrderService'], // the decorator belongs to it
    ['add', 'method', 27, 32, 'OrderService'],
    ['validate', 'func', 35, 36, ''],
    ['apply', 'func', 39, 43, ''],
  ]);
  assert.deepEqual(imports(r), [
    ['os.path', '* as os.path', 2],
    ['json', '* as js', 3],
    ['typing', 'Optional', 4],
    ['.store', 'Store, load_all as load', 5],
  ]);
  assert.equal(r.definitions[5]!.signature, 'def count(self) -> int:');
  assert.deepEqual(exported(r), {
    MAX_ITEMS: true, _cache: false, parse: true, OrderService: true, 'OrderService.__init__': false,
    'OrderService.count': true, 'OrderService.add': true, validate: true, apply: true,
  });

  assertImport(ref(r, 'Store', 21, true).binding, '.store', 'Store');
  assertImport(ref(r, 'load', 43, true).binding, '.store', 'load_all');
  assertImport(ref(r, 'join', 21, true).binding, 'os.path', 'join');
  assertImport(ref(r, 'loads', 12, true).binding, 'json', 'loads');
  assertImport(ref(r, 'Optional', 35).binding, 'typing', 'Optional');
  assertDef(r, ref(r, 'parse', 28, true).binding, 'parse', 11);
  assertDef(r, ref(r, 'validate', 29, true).binding, 'validate', 35);
  assertDef(r, ref(r, 'MAX_ITEMS', 36).binding, 'MAX_ITEMS', 7);
  assert.deepEqual(ref(r, 'parse', 41, true).binding, { kind: 'local' }); // def apply(parse, ...)
  assert.deepEqual(ref(r, 'put', 31, true).binding, { kind: 'free' });
  assert.deepEqual(ref(r, 'Base', 15).binding, { kind: 'free' });
  assert.deepEqual(ref(r, 'results', 42).binding, { kind: 'local' });
  noRef(r, 'strict', 27); // a parameter's own name
  noRef(r, 'len', 25);

  const store = await parseFixture('python', 'python/store.py');
  assert.deepEqual(defs(store), [
    ['Store', 'class', 4, 13, ''],
    ['__init__', 'method', 5, 7, 'Store'],
    ['put', 'method', 9, 10, 'Store'],
    ['items', 'method', 12, 13, 'Store'],
    ['load_all', 'func', 16, 17, ''],
  ]);
  assertDef(store, ref(store, 'Store', 17, true).binding, 'Store', 4);
});

test('python: import a.b is used as a.b.c()', async () => {
  const r = await parseTreeSitter('python', 'import a.b\nimport a.b as ab\n\ndef f():\n    a.b.c()\n    ab.d\n');
  assertImport(ref(r, 'c', 5, true).binding, 'a.b', 'c');
  assertImport(ref(r, 'd', 6, false).binding, 'a.b', 'd');
  noRef(r, 'a', 5);
});

test('python: self.method() binds to the same class', async () => {
  const r = await parseTreeSitter('python', 'class A:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return 1\n');
  assertDef(r, ref(r, 'step', 3, true).binding, 'step', 5);
});

test('rust', async () => {
  const r = await parseFixture('rust', 'rust/lib.rs');
  assert.deepEqual(defs(r), [
    ['MAX_TOKENS', 'const', 7, 7, ''],
    ['COUNTER', 'var', 8, 8, ''],
    ['Token', 'struct', 12, 15, ''],
    ['Kind', 'enum', 17, 20, ''],
    ['Source', 'interface', 22, 24, ''],
    ['fetch', 'method', 23, 23, 'Source'],
    ['Map', 'type', 26, 26, ''],
    ['new', 'method', 29, 31, 'Token'],
    ['bump', 'method', 33, 35, 'Token'],
    ['fmt', 'method', 39, 41, 'Token'],
    ['parse', 'func', 44, 46, ''],
    ['warm', 'func', 48, 57, ''],
    ['log', 'func', 60, 62, 'helpers'],
  ]);
  assert.deepEqual(imports(r), [
    ['std::collections', 'HashMap', 2],
    ['std', 'fmt', 3],
    ['std::fmt', 'Display', 3],
    ['crate::store', 'load_tokens, Store as Backend', 4],
    ['crate::util', '*', 5],
  ]);
  assert.deepEqual(
    r.definitions.filter((d) => d.exported).map((d) => d.name),
    ['MAX_TOKENS', 'Token', 'Kind', 'Source', 'Map', 'new', 'warm', 'log'],
  );

  assertImport(ref(r, 'load_tokens', 50, true).binding, 'crate::store', 'load_tokens');
  assertImport(ref(r, 'Backend', 48).binding, 'crate::store', 'Store');
  assertImport(ref(r, 'HashMap', 26).binding, 'std::collections', 'HashMap');
  assertImport(ref(r, 'Formatter', 39).binding, 'std::fmt', 'Formatter'); // fmt::Formatter through `use std::fmt::{self}`
  assertDef(r, ref(r, 'new', 45, true).binding, 'new', 29); // Token::new
  assertDef(r, ref(r, 'log', 55, true).binding, 'log', 60); // helpers::log, an in-file module
  assertDef(r, ref(r, 'Map', 48).binding, 'Map', 26);
  assert.deepEqual(ref(r, 'parse', 51, true).binding, { kind: 'local' }); // the `parse` parameter
  assert.deepEqual(ref(r, 'insert', 52, true).binding, { kind: 'free' });
  noRef(r, 'Word', 18); // an enum variant's declaration

  const store = await parseFixture('rust', 'rust/store.rs');
  assert.deepEqual(defs(store), [
    ['Store', 'struct', 4, 6, ''],
    ['open', 'method', 9, 11, 'Store'],
    ['load_tokens', 'func', 14, 18, ''],
  ]);
  assertImport(ref(store, 'read_to_string', 15, true).binding, 'std::fs', 'read_to_string');
  assert.deepEqual(ref(store, 'text', 16).binding, { kind: 'local' }); // a closure parameter
});

test('java', async () => {
  const r = await parseFixture('java', 'java/OrderService.java');
  assert.deepEqual(defs(r), [
    ['OrderService', 'class', 10, 47, ''],
    ['OrderService', 'method', 14, 16, 'OrderService'],
    ['add', 'method', 18, 27, 'OrderService'],
    ['validate', 'method', 29, 31, 'OrderService'],
    ['parse', 'method', 33, 35, 'OrderService'],
    ['apply', 'method', 37, 40, 'OrderService'],
    ['Parser', 'interface', 42, 44, 'OrderService'],
    ['parse', 'method', 43, 43, 'Parser'],
    ['Mode', 'enum', 46, 46, 'OrderService'],
  ]);
  assert.deepEqual(imports(r), [
    ['java.util', 'List', 3],
    ['java.util', 'ArrayList', 4],
    ['com.example.store', 'Store', 5],
    ['com.example.util.Strings', 'normalize', 6],
    ['java.util.concurrent', '*', 7],
  ]);
  assert.equal(r.definitions[2]!.signature, 'public List<String> add(String raw) {'); // not the @Override line
  assert.equal(r.definitions[3]!.exported, false);
  assert.equal(r.definitions[4]!.exported, true);

  assertImport(ref(r, 'normalize', 23, true).binding, 'com.example.util.Strings', 'normalize');
  assertImport(ref(r, 'count', 39, true).binding, 'com.example.store.Store', 'count');
  assertImport(ref(r, 'ArrayList', 21, true).binding, 'java.util', 'ArrayList');
  assertImport(ref(r, 'Store', 12).binding, 'com.example.store', 'Store');
  assertDef(r, ref(r, 'parse', 20, true).binding, 'parse', 33);
  assertDef(r, ref(r, 'validate', 22, true).binding, 'validate', 29);
  assertDef(r, ref(r, 'Parser', 37).binding, 'Parser', 42);
  // Java keeps methods and variables apart: with a `parse` parameter in scope,
  // parse(in) still calls the method, and parse.parse(in) is a call on the parameter
  const calls = r.references.filter((x) => x.name === 'parse' && x.line === 39 && x.call);
  assert.equal(calls.length, 2);
  assert.deepEqual(calls[0]!.binding, { kind: 'free' });
  assertDef(r, calls[1]!.binding, 'parse', 33);
  assert.deepEqual(ref(r, 'parse', 39, false).binding, { kind: 'local' });
  assert.deepEqual(ref(r, 'MAX_ITEMS', 30).binding, { kind: 'local' }); // a field: not indexed, never linked elsewhere

  const store = await parseFixture('java', 'java/Store.java');
  assert.deepEqual(defs(store), [
    ['Store', 'class', 6, 17, ''],
    ['put', 'method', 10, 12, 'Store'],
    ['count', 'method', 14, 16, 'Store'],
  ]);
});

test('solidity', async () => {
  const r = await parseFixture('solidity', 'solidity/Vault.sol');
  assert.deepEqual(defs(r), [
    ['MAX_DEPOSIT', 'const', 8, 8, ''],
    ['Unauthorized', 'type', 10, 10, ''],
    ['toShares', 'func', 12, 15, ''],
    ['Position', 'struct', 17, 20, ''],
    ['State', 'enum', 22, 22, ''],
    ['IVault', 'interface', 24, 26, ''],
    ['deposit', 'method', 25, 25, 'IVault'],
    ['Vault', 'class', 28, 60, ''],
    ['Deposited', 'type', 33, 33, 'Vault'],
    ['whenOpen', 'method', 35, 38, 'Vault'],
    ['deposit', 'method', 44, 50, 'Vault'],
    ['totalShares', 'method', 52, 54, 'Vault'],
    ['preview', 'method', 56, 59, 'Vault'],
  ]);
  assert.deepEqual(imports(r), [
    ['./IERC20.sol', '*', 4],
    ['./lib/Math.sol', 'SafeMath, Math as M', 5],
    ['./Errors.sol', '* as Errors', 6],
  ]);
  assert.ok(r.definitions.every((d) => d.exported));

  assertImport(ref(r, 'mul', 14, true).binding, './lib/Math.sol', 'mul');
  assertImport(ref(r, 'max', 53, true).binding, './lib/Math.sol', 'max');
  assertImport(ref(r, 'TooLarge', 45, true).binding, './Errors.sol', 'TooLarge');
  assertImport(ref(r, 'SafeMath', 14, false).binding, './lib/Math.sol', 'SafeMath');
  assertDef(r, ref(r, 'toShares', 46, true).binding, 'toShares', 12);
  assertDef(r, ref(r, 'totalShares', 46, true).binding, 'totalShares', 52);
  assertDef(r, ref(r, 'Deposited', 49, true).binding, 'Deposited', 33);
  assertDef(r, ref(r, 'whenOpen', 44, true).binding, 'whenOpen', 35);
  assertDef(r, ref(r, 'MAX_DEPOSIT', 45).binding, 'MAX_DEPOSIT', 8);
  assert.deepEqual(ref(r, 'toShares', 58, true).binding, { kind: 'local' }); // the function-typed parameter
  assert.deepEqual(ref(r, 'positions', 47).binding, { kind: 'local' }); // a state variable
  assert.deepEqual(ref(r, 'transferFrom', 48, true).binding, { kind: 'free' });
});

test('c', async () => {
  const r = await parseFixture('c', 'c/buffer.c');
  assert.deepEqual(defs(r), [
    ['INITIAL_CAP', 'const', 6, 6, ''],
    ['allocations', 'var', 8, 8, ''],
    ['buffer_debug', 'var', 9, 9, ''],
    ['buffer_t', 'type', 11, 14, ''],
    ['buffer', 'struct', 11, 14, ''],
    ['grow_mode', 'enum', 16, 16, ''],
    ['grow', 'func', 18, 27, ''],
    ['buffer_append', 'func', 29, 34, ''],
    ['parse', 'func', 36, 36, ''],
    ['buffer_apply', 'func', 38, 41, ''],
  ]);
  assert.deepEqual(imports(r), [['stdlib.h', '*', 2], ['string.h', '*', 3], ['buffer.h', '*', 4]]);
  assert.deepEqual(exported(r), {
    INITIAL_CAP: true, allocations: false, buffer_debug: true, buffer_t: true, buffer: true, grow_mode: true,
    grow: false, buffer_append: true, parse: false, buffer_apply: true,
  });

  assertDef(r, ref(r, 'grow', 30, true).binding, 'grow', 18);
  assertDef(r, ref(r, 'INITIAL_CAP', 19).binding, 'INITIAL_CAP', 6);
  assertDef(r, ref(r, 'allocations', 25).binding, 'allocations', 8);
  assertDef(r, ref(r, 'buffer_t', 29).binding, 'buffer_t', 11);
  assert.deepEqual(ref(r, 'parse', 40, true).binding, { kind: 'local' }); // the function-pointer parameter
  assert.deepEqual(ref(r, 'log_event', 33, true).binding, { kind: 'free' }); // declared in buffer.h, defined elsewhere
  assert.deepEqual(ref(r, 'cap', 20, false, 11).binding, { kind: 'local' });

  const h = await parseFixture('c', 'c/buffer.h');
  assert.deepEqual(defs(h), [['buffer_t', 'type', 5, 5, '']]); // prototypes are declarations, not definitions
  noRef(h, 'buffer_append', 7);
});

test('cpp', async () => {
  const r = await parseFixture('cpp', 'cpp/cache.cpp');
  assert.deepEqual(defs(r), [
    ['kMaxEntries', 'var', 8, 8, 'app'],
    ['Cache', 'class', 10, 27, 'app'],
    ['Cache', 'method', 12, 12, 'Cache'],
    ['get', 'method', 14, 20, 'Cache'],
    ['put', 'method', 29, 32, 'Cache'],
    ['parse', 'func', 34, 34, 'app'],
    ['apply', 'func', 36, 41, 'app'],
  ]);
  assert.deepEqual(imports(r), [['string', '*', 2], ['unordered_map', '*', 3], ['store.hpp', '*', 4]]);
  assert.equal(r.definitions[5]!.exported, false); // static
  assert.equal(r.definitions[6]!.signature, 'int apply(F parse, const std::string& in) {');

  assertDef(r, ref(r, 'put', 18, true).binding, 'put', 29); // declared in the class, defined out of line
  assertDef(r, ref(r, 'kMaxEntries', 30).binding, 'kMaxEntries', 8);
  assert.deepEqual(ref(r, 'entries_', 31).binding, { kind: 'local' }); // a field, seen from Cache::put
  assert.deepEqual(ref(r, 'parse', 40, true).binding, { kind: 'local' });
  assert.deepEqual(ref(r, 'F', 37).binding, { kind: 'local' }); // a template parameter
  assert.deepEqual(ref(r, 'twice', 40, true).binding, { kind: 'local' });
  assert.deepEqual(ref(r, 'checksum', 40, true).binding, { kind: 'free' });
  assert.deepEqual(ref(r, 'load', 17, true).binding, { kind: 'free' });
  noRef(r, 'string', 14); // std::string
});

test('csharp', async () => {
  const r = await parseFixture('csharp', 'csharp/OrderService.cs');
  assert.deepEqual(defs(r), [
    ['IOrderService', 'interface', 8, 11, 'Acme.Orders'],
    ['Add', 'method', 10, 10, 'IOrderService'],
    ['Order', 'class', 13, 13, 'Acme.Orders'],
    ['Mode', 'enum', 15, 15, 'Acme.Orders'],
    ['OrderService', 'class', 17, 46, 'Acme.Orders'],
    ['OrderService', 'method', 22, 25, 'OrderService'],
    ['Add', 'method', 27, 33, 'OrderService'],
    ['Validate', 'method', 35, 35, 'OrderService'],
    ['Parse', 'method', 37, 37, 'OrderService'],
    ['Apply', 'method', 39, 45, 'OrderService'],
  ]);
  assert.deepEqual(imports(r), [
    ['System', '*', 1],
    ['System.Collections.Generic', '*', 2],
    ['Acme.Storage', '*', 3],
    ['System.Text.Json', 'JsonSerializer as Json', 4],
  ]);
  assert.equal(r.definitions[7]!.exported, false);
  assert.equal(r.definitions[8]!.exported, true);

  assertImport(ref(r, 'Serialize', 31, true).binding, 'System.Text.Json.JsonSerializer', 'Serialize');
  assertImport(ref(r, 'Json', 31, false).binding, 'System.Text.Json', 'JsonSerializer');
  assertDef(r, ref(r, 'Parse', 29, true).binding, 'Parse', 37);
  assertDef(r, ref(r, 'Validate', 30, true).binding, 'Validate', 35);
  assertDef(r, ref(r, 'Order', 37, true).binding, 'Order', 13); // new Order(...)
  assertDef(r, ref(r, 'IOrderService', 17).binding, 'IOrderService', 8);
  assert.deepEqual(ref(r, 'Parse', 43, true).binding, { kind: 'local' }); // the Func<> parameter
  assert.deepEqual(ref(r, 'Count', 44, true).binding, { kind: 'free' }); // Store.Count(): Store comes from `using Acme.Storage`
  assert.deepEqual(ref(r, 'store', 31).binding, { kind: 'local' }); // a field
});

test('ruby', async () => {
  const r = await parseFixture('ruby', 'ruby/order_service.rb');
  assert.deepEqual(defs(r), [
    ['MAX_ITEMS', 'const', 6, 6, ''],
    ['parse', 'func', 8, 10, ''],
    ['OrderService', 'class', 13, 36, 'Shop'],
    ['initialize', 'method', 16, 18, 'OrderService'],
    ['add', 'method', 20, 25, 'OrderService'],
    ['build', 'method', 27, 29, 'OrderService'],
    ['valid?', 'method', 33, 35, 'OrderService'],
    ['apply', 'func', 38, 41, 'Shop'],
  ]);
  assert.deepEqual(imports(r), [['json', '*', 3], ['./store', '*', 4]]);

  assertDef(r, ref(r, 'parse', 21, true).binding, 'parse', 8);
  assertDef(r, ref(r, 'valid?', 22, true).binding, 'valid?', 33);
  assertDef(r, ref(r, 'MAX_ITEMS', 34).binding, 'MAX_ITEMS', 6);
  assert.deepEqual(ref(r, 'parse', 40, false).binding, { kind: 'local' }); // the &parse block parameter
  assert.deepEqual(ref(r, 'Store', 17, true).binding, { kind: 'free' }); // Store.new, from ./store
  assert.deepEqual(ref(r, 'load_all', 40, true).binding, { kind: 'free' });
  noRef(r, 'new', 17);

  const store = await parseFixture('ruby', 'ruby/store.rb');
  assert.deepEqual(defs(store), [
    ['Store', 'class', 4, 13, 'Shop'],
    ['initialize', 'method', 5, 8, 'Store'],
    ['put', 'method', 10, 12, 'Store'],
    ['load_all', 'func', 15, 17, 'Shop'],
  ]);
});

test('php', async () => {
  const r = await parseFixture('php', 'php/OrderService.php');
  assert.deepEqual(defs(r), [
    ['MAX_ITEMS', 'const', 13, 13, 'App\\Orders'],
    ['OrderServiceInterface', 'interface', 15, 18, 'App\\Orders'],
    ['add', 'method', 17, 17, 'OrderServiceInterface'],
    ['OrderService', 'class', 20, 48, 'App\\Orders'],
    ['__construct', 'method', 24, 27, 'OrderService'],
    ['add', 'method', 29, 37, 'OrderService'],
    ['validate', 'method', 39, 42, 'OrderService'],
    ['make', 'method', 44, 47, 'OrderService'],
    ['parse_order', 'func', 50, 53, 'App\\Orders'],
    ['apply', 'func', 55, 59, 'App\\Orders'],
  ]);
  assert.deepEqual(imports(r), [
    ['App\\Storage', 'Store', 7],
    ['App\\Support', 'Json, Str as S', 8],
    ['App\\Support', 'normalize', 9],
    ['./helpers.php', '*', 11],
  ]);

  assertImport(ref(r, 'normalize', 35, true).binding, 'App\\Support', 'normalize');
  assertImport(ref(r, 'encode', 35, true).binding, 'App\\Support\\Json', 'encode');
  assertImport(ref(r, 'isNotEmpty', 41, true).binding, 'App\\Support\\Str', 'isNotEmpty');
  assertImport(ref(r, 'Store', 46, true).binding, 'App\\Storage', 'Store'); // new Store()
  assertDef(r, ref(r, 'parse_order', 31, true).binding, 'parse_order', 50);
  assertDef(r, ref(r, 'validate', 32, true).binding, 'validate', 39); // $this->validate()
  assertDef(r, ref(r, 'MAX_ITEMS', 41).binding, 'MAX_ITEMS', 13);
  assert.deepEqual(ref(r, '$parse_order', 58, true).binding, { kind: 'local' }); // calling the parameter
  assert.deepEqual(ref(r, 'put', 35, true).binding, { kind: 'free' });
  noRef(r, 'Orders', 5); // the namespace's own name
});

test('kotlin', async () => {
  const r = await parseFixture('kotlin', 'kotlin/OrderService.kt');
  assert.deepEqual(defs(r), [
    ['MAX_ITEMS', 'const', 7, 7, ''],
    ['defaultMode', 'var', 9, 9, ''],
    ['Mode', 'enum', 11, 11, ''],
    ['Service', 'interface', 13, 15, ''],
    ['add', 'method', 14, 14, 'Service'],
    ['Order', 'class', 17, 17, ''],
    ['OrderService', 'class', 19, 32, ''],
    ['add', 'method', 20, 25, 'OrderService'],
    ['validate', 'method', 27, 27, 'OrderService'],
    ['create', 'method', 30, 30, 'OrderService'],
    ['parse', 'func', 34, 34, ''],
    ['apply', 'func', 36, 39, ''],
    ['Registry', 'class', 41, 43, ''],
    ['lookup', 'method', 42, 42, 'Registry'],
  ]);
  assert.deepEqual(imports(r), [
    ['com.example.store', 'Store', 3],
    ['com.example.util', 'normalize as norm', 4],
    ['kotlinx.coroutines', '*', 5],
  ]);
  assert.equal(r.definitions[1]!.exported, false);
  assert.equal(r.definitions[8]!.exported, false);
  assert.equal(r.definitions[7]!.exported, true);

  assertImport(ref(r, 'norm', 23, true).binding, 'com.example.util', 'normalize');
  assertImport(ref(r, 'open', 30, true).binding, 'com.example.store.Store', 'open');
  assertImport(ref(r, 'Store', 19).binding, 'com.example.store', 'Store');
  assertDef(r, ref(r, 'parse', 21, true).binding, 'parse', 34);
  assertDef(r, ref(r, 'validate', 22, true).binding, 'validate', 27);
  assertDef(r, ref(r, 'Order', 34, true).binding, 'Order', 17);
  assert.deepEqual(ref(r, 'parse', 38, true).binding, { kind: 'local' });
  assert.deepEqual(ref(r, 'store', 23).binding, { kind: 'local' }); // a constructor property
});

test('swift', async () => {
  const r = await parseFixture('swift', 'swift/OrderService.swift');
  assert.deepEqual(defs(r), [
    ['maxItems', 'const', 4, 4, ''],
    ['cache', 'var', 5, 5, ''],
    ['OrderServicing', 'interface', 7, 9, ''],
    ['add', 'method', 8, 8, 'OrderServicing'],
    ['Order', 'struct', 11, 14, ''],
    ['Mode', 'enum', 16, 18, ''],
    ['OrderService', 'class', 20, 37, ''],
    ['add', 'method', 27, 32, 'OrderService'],
    ['validate', 'method', 34, 36, 'OrderService'],
    ['make', 'method', 40, 42, 'OrderService'], // in an extension
    ['parse', 'func', 45, 47, ''],
    ['apply', 'func', 49, 53, ''],
  ]);
  assert.deepEqual(imports(r), [['Foundation', '* as Foundation', 1], ['Storage', '* as Storage', 2]]);
  assert.equal(r.definitions[1]!.exported, false);
  assert.equal(r.definitions[8]!.exported, false);

  assertImport(ref(r, 'count', 52, true).binding, 'Storage', 'count');
  assertDef(r, ref(r, 'parse', 28, true).binding, 'parse', 45);
  assertDef(r, ref(r, 'validate', 29, true).binding, 'validate', 34);
  assertDef(r, ref(r, 'maxItems', 35).binding, 'maxItems', 4);
  assert.deepEqual(ref(r, 'parse', 51, true).binding, { kind: 'local' });
  assert.deepEqual(ref(r, 'store', 30).binding, { kind: 'local' }); // a stored property
});

test('a syntax error keeps the definitions around it', async () => {
  const go = await parseTreeSitter('go', 'package p\n\nfunc A() int { return 1 }\n\nfunc B( { ))) \n\nfunc C() { A() }\n');
  assert.equal(go.error, undefined);
  const names = go.definitions.map((d) => [d.name, d.line]);
  assert.deepEqual(names.filter(([n]) => n !== 'B'), [['A', 3], ['C', 7]]);
  assertDef(go, ref(go, 'A', 7, true).binding, 'A', 3);

  const py = await parseTreeSitter('python', 'def a():\n    return 1\n\ndef b(:\n    pass\n\nclass K:\n    def c(self):\n        return a()\n');
  assert.equal(py.error, undefined);
  const pyDefs = defs(py).filter(([n]) => n !== 'b');
  assert.deepEqual(pyDefs, [['a', 'func', 1, 2, ''], ['K', 'class', 7, 9, ''], ['c', 'method', 8, 9, 'K']]);
  assertDef(py, ref(py, 'a', 9, true).binding, 'a', 1);

  const java = await parseTreeSitter('java', 'class A {\n  void f() { int x = ; }\n  void g() { f(); }\n}\n');
  assert.deepEqual(defs(java), [['A', 'class', 1, 4, ''], ['f', 'method', 2, 2, 'A'], ['g', 'method', 3, 3, 'A']]);
  assertDef(java, ref(java, 'f', 3, true).binding, 'f', 2);
});

test('an empty or blank file has no definitions and no chunks', async () => {
  for (const lang of TREE_SITTER_LANGUAGES) {
    for (const text of ['', '\n\n  \n']) {
      const r = await parseTreeSitter(lang, text);
      assert.deepEqual(r, { language: lang, definitions: [], references: [], imports: [], chunks: [] }, `${lang} ${JSON.stringify(text)}`);
    }
  }
});

test('an unsupported language or binary junk never throws', async () => {
  const r = await parseTreeSitter('cobol', 'IDENTIFICATION DIVISION.\n');
  assert.match(r.error ?? '', /cobol/);
  assert.deepEqual(r.definitions, []);
  assert.deepEqual(r.chunks, [{ line: 1, endLine: 1, kind: 'block', symbol: '' }]);

  const junk = Array.from({ length: 4000 }, (_, i) => String.fromCharCode((i * 7919) % 0xd7ff)).join('');
  for (const lang of TREE_SITTER_LANGUAGES) {
    const j = await parseTreeSitter(lang, junk);
    assert.equal(j.language, lang);
    assert.ok(Array.isArray(j.chunks) && j.chunks.length > 0, lang);
  }
});

test('columns are UTF-16 offsets, as the JS string sees them', async () => {
  const r = await parseTreeSitter('go', 'package p\n\nvar s = "héllo😀"; func f() { g() }\n\nfunc g() {}\n');
  const g = ref(r, 'g', 3, true);
  assert.equal(g.col, 30);
  assertDef(r, g.binding, 'g', 5);
});

test('works inside a worker thread', async () => {
  const mod = new URL('../src/parse/treesitter.js', import.meta.url).href;
  const code = `
    import { parentPort } from 'node:worker_threads';
    const { parseTreeSitter } = await import(${JSON.stringify(mod)});
    const a = await parseTreeSitter('go', 'package p\\nfunc F() { G() }\\nfunc G() {}\\n');
    const b = await parseTreeSitter('rust', 'fn f() { g() }\\nfn g() {}\\n');
    parentPort.postMessage([a.definitions.map((d) => d.name), b.references.map((x) => x.binding.kind)]);
  `;
  const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
  const msg = await new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  await w.terminate();
  assert.deepEqual(msg, [['F', 'G'], ['def']]);
});
