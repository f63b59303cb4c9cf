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
    'func geo.distance 6-7 exported', // two overload signatures, one definition
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
    '8:2 inner call -> local',
    '10:36 top -> local',
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
    'src/legacy.js', 'src/lib/index.ts', 'src/lib/strings.ts', 'src/main.ts', 'src/util.ts', 'tsconfig.json',
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
