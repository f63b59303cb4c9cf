// Tests for the Babel parser (src/parse/babel.ts) and the JS/TS specifier
// resolver (src/parse/resolve-js.ts). They read the fixture repo under
// test/fixtures/parse/js (files carry a .txt suffix so tsc skips them) and pin
// exact definitions, bindings, imports, chunks and resolutions: a loose
// assertion would pass on a parser that binds the wrong thing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { BABEL_LANGUAGES, parseBabel } from '../src/parse/babel.js';
import { createJsResolver, parseTsconfigPaths } from '../src/parse/resolve-js.js';
import { detectLanguage } from '../src/parse/language.js';
import type { Binding, ParsedFile } from '../src/types.js';

// compiled to dist/test/, the fixtures stay in test/
const ROOT = new URL('../../test/fixtures/parse/js/', import.meta.url);

function read(rel: string): string {
  return readFileSync(new URL(rel + '.txt', ROOT), 'utf8');
}

function load(rel: string): ParsedFile {
  return parseBabel(detectLanguage(rel), rel, read(rel));
}

function bind(b: Binding): string {
  switch (b.kind) {
    case 'def': return `def ${b.def}`;
    case 'import': return `import ${b.source} ${b.name}`;
    default: return b.kind;
  }
}

/** One line per reference: `line:col name [call] -> binding`. */
function refs(p: ParsedFile): string[] {
  return p.references.map((r) => `${r.line}:${r.col} ${r.name}${r.call ? ' call' : ''} -> ${bind(r.binding)}`);
}

function defs(p: ParsedFile): string[] {
  return p.definitions.map((d) => `${d.kind} ${d.container ? d.container + '.' : ''}${d.name} ${d.line}-${d.endLine}${d.exported ? ' exported' : ''}`);
}

function chunks(p: ParsedFile): string[] {
  return p.chunks.map((c) => `${c.line}-${c.endLine} ${c.kind}${c.symbol ? ' ' + c.symbol : ''}`);
}

test('BABEL_LANGUAGES names the languages detectLanguage gives TS and JS files', () => {
  assert.deepEqual([...BABEL_LANGUAGES], ['typescript', 'tsx', 'javascript', 'jsx']);
  assert.deepEqual(['a.ts', 'a.tsx', 'a.js', 'a.jsx'].map(detectLanguage), ['typescript', 'tsx', 'javascript', 'jsx']);
});

test('util.ts: every kind of definition, with lines, containers and export', () => {
  const p = load('src/util.ts');
  assert.equal(p.error, undefined);
  assert.equal(p.language, 'typescript');
  assert.deepEqual(defs(p), [
    'interface Config 4-7 exported',
    'type Mode 9-9 exported',
    'enum Level 11-14 exported',
    'const DEFAULT_RETRIES 16-16 exported',
    'func normalize 18-18 exported', // a const arrow function is a function
    'func parseConfig 20-23 exported',
    'class Loader 25-35 exported',
    'method Loader.load 28-30 exported',
    'method Loader.read 32-34', // private: not visible outside
    'var counter 37-37',
    'func bump 38-40 exported', // exported by the `export { bump }` clause
  ]);
  assert.deepEqual(p.definitions.map((d) => d.signature).slice(4, 8), [
    'export const normalize = (name: string): string => name.trim();',
    'export function parseConfig(text: string): Config {',
    'export class Loader {',
    'load(path: string): Config {',
  ]);
});

test('util.ts: references bind to top-level definitions, imports, locals or nothing', () => {
  assert.deepEqual(refs(load('src/util.ts')), [
    '18:51 name -> local',
    '18:56 trim call -> free',
    '20:43 Config -> def 0', // a type reference
    '21:14 JSON -> free',
    '21:19 parse call -> free',
    '21:25 text -> local',
    '22:17 normalize call -> def 4',
    '22:27 raw -> local',
    '22:47 raw -> local',
    '22:62 DEFAULT_RETRIES -> def 3',
    '26:22 Map call -> free',
    '26:34 Config -> def 0',
    '28:22 Config -> def 0',
    '29:16 read call -> free', // this.read(): the linker binds methods by name
    '29:21 path -> local',
    '32:30 Config -> def 0',
    '33:11 parseConfig call -> def 5', // from inside a method to a top-level function
    '33:23 readFileSync call -> import node:fs readFileSync',
    '33:36 path -> local',
    '39:11 counter -> def 9',
  ]);
});

test('main.ts: renamed, namespace and default imports; a parameter shadows a top-level function', () => {
  const p = load('src/main.ts');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), ['func parse 6-8', 'func run 10-16 exported', 'func runDefault 18-20 exported']);
  assert.deepEqual(refs(p), [
    '7:9 input -> local',
    '7:15 toUpperCase call -> free',
    '11:14 pc call -> import ./util.js parseConfig', // named as written, bound to the imported name
    '11:17 text -> local',
    '12:21 Loader call -> import ./util.js Loader', // new Loader()
    '13:2 loader -> local',
    '13:9 load call -> free',
    '13:14 cfg -> local',
    '14:10 pad call -> import @lib/strings pad', // strings.pad() through `import * as strings`
    '14:14 parse call -> local', // the parameter, not function parse
    '14:20 text -> local',
    '15:9 helpers -> import ./lib default',
    '19:9 parse call -> def 0', // no shadowing here
    '19:15 text -> local',
    '23:2 run call -> def 1',
    '23:6 parse -> def 0',
    '25:2 console -> free',
    '25:10 log call -> free',
    '25:14 parse -> local', // the catch parameter
  ]);
});

test('main.ts: imports, re-exports and dynamic import', () => {
  assert.deepEqual(load('src/main.ts').imports, [
    { source: './util.js', names: [{ imported: 'parseConfig', local: 'pc' }, { imported: 'Loader', local: 'Loader' }], line: 1 },
    { source: '@lib/strings', names: [{ imported: '*', local: 'strings' }], line: 2 },
    { source: './lib', names: [{ imported: 'default', local: 'helpers' }], line: 3 },
    { source: './util.js', names: [{ imported: 'Level', local: 'Level' }], line: 4 },
    { source: './lazy', names: [], line: 29 },
  ]);
});

test('TSX: JSX components are calls bound to their imports; intrinsic tags are not references', () => {
  const app = load('src/App.tsx');
  assert.equal(app.error, undefined);
  assert.deepEqual(defs(app), ['func App 4-9 exported', 'func identity 11-11', 'func Title 13-15']);
  assert.deepEqual(refs(app), [
    '6:5 Button call -> import ./Button default',
    '7:8 Card call -> import ./ui Card', // <UI.Card/> through `import * as UI`
    '7:21 Title call -> def 2', // used before its (hoisted) declaration
    '11:25 T -> local', // `<T,>` generic arrow in .tsx
    '11:31 x -> local',
    '14:14 identity call -> def 1',
  ]);
  const button = load('src/Button.tsx');
  assert.deepEqual(defs(button), ['interface ButtonProps 3-6 exported', 'func Button 8-10 exported']);
  assert.deepEqual(refs(button), ['8:51 ButtonProps -> def 0', '9:26 onClick -> local', '9:36 label -> local']);
});

test('CommonJS: require bindings, module.exports and exports.x mark definitions exported', () => {
  const p = load('src/legacy.js');
  assert.equal(p.error, undefined);
  assert.equal(p.language, 'javascript');
  assert.deepEqual(defs(p), [
    'func resolveAll 6-8 exported',
    'func helper 10-12 exported',
    'func version 14-16 exported', // module.exports.version = function () {}
    'func extra 21-23 exported', // a method of the module.exports object
  ]);
  assert.deepEqual(p.imports, [
    { source: './util', names: [{ imported: 'parseConfig', local: 'parseConfig' }], line: 2 },
    { source: 'path', names: [{ imported: '*', local: 'path' }], line: 3 },
    { source: './lib', names: [{ imported: '*', local: 'lib' }], line: 4 },
  ]);
  const got = refs(p);
  for (const want of [
    '7:30 resolve call -> import path resolve', // path.resolve() on `const path = require('path')`
    '11:13 count -> import ./lib count',
    '11:21 parseConfig call -> import ./util parseConfig', // const { parseConfig } = require(...)
    '7:9 list -> local',
    '7:14 map call -> free',
    '22:11 helper call -> def 1',
  ]) assert.ok(got.includes(want), `missing ${want} in\n${got.join('\n')}`);
});

test('declaration files: namespaces are containers, overloads merge, qualified types bind', () => {
  const p = load('src/geo.d.ts');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), [
    'interface geo.Point 2-5 exported', // a .d.ts script declares globals: all exported
    'func geo.distance 6-7 exported', // two overload signatures, one definition spanning both
    'func geo.distance 7-7 exported', // and the second one at its own line
    'const geo.units.metric.meter 9-9 exported',
    'func origin 13-13 exported',
    'var Shape 14-14 exported', // value and type of the same name both kept
    'interface Shape 15-17 exported',
  ]);
  assert.deepEqual(refs(p), [
    '6:23 Point -> def 0',
    '6:33 Point -> def 0',
    '7:23 Point -> def 0',
    '13:31 Point -> def 0', // geo.Point from outside the namespace
    '14:19 ShapeConstructor -> free',
  ]);
});

test('nested.js: nested, prototype, static, constructor and object-literal functions are definitions', () => {
  const p = load('src/nested.js');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), [
    // pass 1: the top level
    'func Stream 3-23 exported', // module.exports = Stream
    'const api 42-53',
    'func _parse 55-57',
    // found while walking, so after the top level; containers name the enclosing definition
    'func Stream.flush 8-10', // a nested function declaration
    'func Stream.helper 11-13', // a function-valued var
    'func Stream.late 15-15', // a var in a block hoists to the function
    'class Stream.Reader 17-21', // a nested class
    'method Reader.read 18-20', // and its methods, contained by the class as at the top level
    'method Stream.onEnd 5-7', // this.m = function in a constructor
    'method Stream.write 25-27 exported', // X.prototype.m = function: exported with X
    'method Stream.end 28-28 exported', // an arrow too
    'method Stream.addListener 29-29 exported', // an alias of another method
    // `Stream.prototype.isStream = true` is data, not listed
    'method Stream.from 31-33 exported', // X.m = function: a static method
    'method Stream.pipe 36-38 exported', // X.prototype = { ... }
    'method Stream.unpipe 39-39 exported',
    'method api.get 43-45', // object-literal methods
    'method api.post 46-48', // and function-valued properties
    'method api.nested.deep 50-50', // at any depth; `size: 1` is data
    'func parse 55-57', // the name of a named function expression, beside the variable's
    'func onExit 59-59', // a named callback: what a stack trace shows
    'func later 62-64 exported', // exports.x below the top level
  ]);
  const got = refs(p);
  for (const want of [
    '6:11 flush call -> def 3', // used before its (hoisted) declaration
    '9:11 helper call -> def 4',
    '15:21 helper call -> def 4', // from a nested arrow
    '19:13 late call -> def 5', // from a method of the nested class
    '22:13 Reader call -> def 6',
    '56:13 parse call -> def 18', // a named function expression calling itself
    '63:11 flush call -> free', // Stream's inner function is not visible out here
    '26:14 onEnd call -> free', // this.onEnd(): the linker binds methods by name
  ]) assert.ok(got.includes(want), `missing ${want} in\n${got.join('\n')}`);
  // nested definitions sit inside their function's chunk; prototype methods get their own
  assert.deepEqual(chunks(p), [
    '1-1 block',
    '3-23 func Stream',
    '25-27 method write',
    '28-28 method end',
    '29-29 method addListener',
    '30-30 block',
    '31-33 method from',
    '35-35 block',
    '36-38 method pipe',
    '39-39 method unpipe',
    '40-40 block',
    '42-53 const api',
    '55-57 func _parse',
    '59-59 func onExit',
    '61-61 block',
    '62-64 func later',
    '65-67 block',
  ]);
});

test('overloads.ts: one merged definition binds and chunks; every signature is listed at its own line', () => {
  const p = load('src/overloads.ts');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), [
    'func pick 1-5 exported', // first signature to the end of the implementation
    'func pick 2-2 exported',
    'func pick 3-5 exported', // the implementation
    'class Box 7-13 exported',
    'method Box.get 8-12 exported',
    'method Box.get 9-9 exported',
    'method Box.get 10-12 exported',
    'func tag 15-16', // declare-only overloads merge the same way
    'func tag 16-16',
  ]);
  assert.deepEqual(refs(p), ['4:9 a -> local', '11:11 pick call -> def 0', '11:16 k -> local']);
  // the signatures nest inside the merged definition, so chunks are as before
  assert.deepEqual(chunks(p), ['1-5 func pick', '7-7 class Box', '8-12 method get', '13-13 class Box', '15-16 func tag']);
});

test('a <T>x cast in a .ts file parses (no JSX plugin on .ts)', () => {
  const p = load('src/cast.ts');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), ['const input 1-1', 'const n 2-2 exported', 'func id 3-5 exported']);
  assert.deepEqual(refs(p), [
    '2:25 input -> def 0',
    '3:25 T -> local', // type parameters are local bindings too
    '3:29 T -> local',
    '4:10 T -> local',
    '4:12 x -> local',
  ]);
});

test('a recoverable syntax error keeps the rest of the file', () => {
  const p = load('src/broken.ts');
  assert.equal(p.error, undefined);
  assert.deepEqual(defs(p), ['func before 1-3 exported', 'class After 7-9 exported', 'method After.run 8-8 exported']);
});

test('a fatal syntax error gives an error, no definitions and block chunks', () => {
  const p = load('src/fatal.ts');
  assert.equal(typeof p.error, 'string');
  assert.match(p.error as string, /Unexpected token/);
  assert.deepEqual(p.definitions, []);
  assert.deepEqual(p.references, []);
  assert.deepEqual(p.imports, []);
  assert.deepEqual(chunks(p), ['1-5 block']);
});

test('never throws, whatever the input', () => {
  for (const text of ['\u0000\u0001\uffff', '<<<<<<< HEAD\nconst a = 1;\n=======\n', '}}}}', '']) {
    for (const lang of BABEL_LANGUAGES) {
      const p = parseBabel(lang, 'x', text);
      assert.equal(p.language, lang);
      if (text === '') assert.equal(p.error, undefined);
    }
  }
});

test('chunks: a class gives a header chunk and one chunk per method', () => {
  assert.deepEqual(chunks(load('src/util.ts')), [
    '1-2 block',
    '4-7 interface Config',
    '9-9 type Mode',
    '11-14 enum Level',
    '16-16 const DEFAULT_RETRIES',
    '18-18 func normalize',
    '20-23 func parseConfig',
    '25-26 class Loader',
    '28-30 method load',
    '32-34 method read',
    '35-35 class Loader',
    '37-37 var counter',
    '38-40 func bump',
    '41-41 block',
  ]);
});

test('line numbers count \\n only, even when the text has U+2028 or a lone \\r', () => {
  // Babel counts U+2028 and \r as line breaks; the index does not
  const p = parseBabel('typescript', 'x.ts', 'const a = "\u2028";\r\nconst b = 1;\rfunction f() {\n  return a;\n}\n');
  assert.deepEqual(defs(p), ['const a 1-1', 'const b 2-2', 'func f 2-4']);
  assert.deepEqual(refs(p), ['3:9 a -> def 0']);
});

test('scopes: block, for, catch, hoisted var and function declarations, named function expressions', () => {
  const src = [
    'function top() {}', //                                  1
    'function f(a) {', //                                    2
    '  { let top = 1; top; }', //                            3: block-scoped shadow
    '  top();', //                                           4: back to the definition
    '  for (const top of a) top;', //                        5
    '  hoisted;', //                                         6: var hoists to the function
    '  if (a) { var hoisted = 1; }', //                      7
    '  inner();', //                                         8: function declarations hoist
    '  function inner() {}', //                             9
    '  const g = function top() { return top; };', //       10: a named function expression sees itself
    '  return arguments;', //                               11
    '}', //                                                 12
    'top;', //                                              13
  ].join('\n');
  const p = parseBabel('javascript', 'x.js', src);
  assert.deepEqual(refs(p), [
    '3:17 top -> local',
    '4:2 top call -> def 0',
    '5:20 a -> local',
    '5:23 top -> local',
    '6:2 hoisted -> local',
    '7:6 a -> local',
    '8:2 inner call -> def 2', // a nested function is a definition, bound where it is visible
    '10:36 top -> def 4', // the named function expression, listed too
    '11:9 arguments -> local',
    '13:0 top -> def 0',
  ]);
});

// ---- resolver -----------------------------------------------------------

function fixtureFiles(): Set<string> {
  const out = new Set<string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(new URL(rel || '.', ROOT), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.txt')) out.add(path.slice(0, -4));
    }
  };
  walk('');
  return out;
}

test('fixture file set is what the resolver tests assume', () => {
  assert.deepEqual([...fixtureFiles()].sort(), [
    'src/App.tsx', 'src/Button.tsx', 'src/broken.ts', 'src/cast.ts', 'src/fatal.ts', 'src/geo.d.ts',
    'src/legacy.js', 'src/lib/index.ts', 'src/lib/strings.ts', 'src/main.ts', 'src/nested.js', 'src/overloads.ts',
    'src/util.ts', 'tsconfig.json',
  ]);
});

test('parseTsconfigPaths reads baseUrl and paths through comments and trailing commas', () => {
  assert.deepEqual(parseTsconfigPaths('', read('tsconfig.json')), {
    dir: '',
    baseUrl: '.',
    paths: { '@lib/*': ['src/lib/*'], '@config': ['src/util.ts'] },
  });
  // comment markers and ",}" inside strings are data
  assert.deepEqual(
    parseTsconfigPaths('pkg/', '\ufeff{"compilerOptions": {"paths": {"a//b/*": ["x/*,}"], /* c */ }}}'),
    { dir: 'pkg', paths: { 'a//b/*': ['x/*,}'] } },
  );
  assert.deepEqual(parseTsconfigPaths('a', '{"extends": "../base.json"}'), { dir: 'a' });
  assert.equal(parseTsconfigPaths('', '{ not json'), null);
  assert.equal(parseTsconfigPaths('', '[1, 2]'), null);
});

test('resolver: relative, extensions, .js→.ts, index, tsconfig paths and baseUrl, bare and outside', () => {
  const cfg = parseTsconfigPaths('', read('tsconfig.json'));
  assert.ok(cfg);
  const files = fixtureFiles();
  const r = createJsResolver(files, [cfg]);
  const cases: [string, string, string | null][] = [
    ['src/main.ts', './util.js', 'src/util.ts'], // TS ESM: written .js, file is .ts
    ['src/main.ts', './util.ts', 'src/util.ts'], // exact
    ['src/App.tsx', './Button', 'src/Button.tsx'], // extension probing
    ['src/legacy.js', './util', 'src/util.ts'],
    ['src/main.ts', './lib', 'src/lib/index.ts'], // directory index
    ['src/lib/strings.ts', '../util.js', 'src/util.ts'],
    ['src/lib/strings.ts', '..', null], // src/index.* does not exist
    ['src/main.ts', './geo', 'src/geo.d.ts'],
    ['src/main.ts', '@lib/strings', 'src/lib/strings.ts'], // paths wildcard
    ['src/main.ts', '@lib/missing', null], // a matched pattern does not fall back
    ['src/main.ts', '@config', 'src/util.ts'], // exact paths pattern
    ['src/main.ts', 'src/cast', 'src/cast.ts'], // baseUrl
    ['src/main.ts', 'react', null], // bare package
    ['src/main.ts', './ui', null], // not a file of the set
    ['src/main.ts', '../../outside', null], // above the repo root
    ['src/main.ts', '../../src/util', null], // above the root, even though clamping would find src/util.ts
    ['src/main.ts', '/etc/passwd', null],
    ['src/App.tsx', './Button?raw', 'src/Button.tsx'],
  ];
  for (const [from, spec, want] of cases) assert.equal(r.resolve(from, spec), want, `${from} ${spec}`);
});

test('resolver: the nearest tsconfig that sets paths or baseUrl applies', () => {
  const files = new Set(['src/lib/x.ts', 'packages/a/lib/x.ts', 'packages/a/src/i.ts', 'packages/b/src/i.ts', 'packages/b/tsconfig.json']);
  const r = createJsResolver(files, [
    { dir: '', paths: { '@lib/*': ['src/lib/*'] } },
    { dir: 'packages/a', baseUrl: '.', paths: { '@lib/*': ['lib/*'] } },
    { dir: 'packages/b' }, // sets nothing: as if it extended the root
  ]);
  assert.equal(r.resolve('packages/a/src/i.ts', '@lib/x'), 'packages/a/lib/x.ts');
  assert.equal(r.resolve('packages/b/src/i.ts', '@lib/x'), 'src/lib/x.ts');
  assert.equal(r.resolve('src/main.ts', '@lib/x'), 'src/lib/x.ts');
  // no baseUrl at the root: a bare name is not looked up there
  assert.equal(r.resolve('src/main.ts', 'src/lib/x'), null);
  // without any tsconfig, only relative specifiers resolve
  const bare = createJsResolver(files, []);
  assert.equal(bare.resolve('src/main.ts', '@lib/x'), null);
  assert.equal(bare.resolve('src/main.ts', './lib/x'), 'src/lib/x.ts');
});
