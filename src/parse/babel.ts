// The TypeScript / JavaScript parser: one file's text in, one ParsedFile out
// (definitions, scope-bound references, imports, chunks). It owns the choice of
// Babel plugins per file kind and a small scope walker of our own over Babel's
// AST (no @babel/traverse: a purpose-built walk is cheaper and we decide what a
// reference is). Definitions are what universal-ctags would list: top-level
// declarations (pass 1), and, found during the reference walk (pass 2), nested
// functions and classes, prototype / static / `this.m` methods, methods of
// named object literals and named function expressions; a nested one binds
// only in the scope it is visible in. It must not read files, resolve
// specifiers to paths (resolve-js.ts does) or bind names across files (the
// linker does), and it never throws: one bad file must not stop an index.

import { parse, type ParserOptions, type ParserPlugin } from '@babel/parser';
import { chunkFile } from './chunk.js';
import type { Binding, Definition, ImportDecl, Kind, ParsedFile, Reference } from '../types.js';

export const BABEL_LANGUAGES: readonly string[] = ['typescript', 'tsx', 'javascript', 'jsx'];

// Babel's AST is walked by field name; its node types would add a dependency
// (@babel/types) for no runtime gain, so nodes are typed loosely on purpose.
type Node = any;

type DefKind = Exclude<Kind, 'block'>;

// ---- plugins and options ------------------------------------------------

// Syntax that is unambiguous in every dialect we read; enabling it costs nothing
// and spares a fatal error on code that uses it.
const COMMON: ParserPlugin[] = [
  'decorators-legacy',
  ['importAttributes', { deprecatedAssertSyntax: true }],
  'explicitResourceManagement',
  'topLevelAwait',
];

function pluginsFor(language: string, path: string): ParserPlugin[] {
  // `typescript` + `jsx` on a .ts file would misread `<T>x` casts as JSX, so
  // JSX is only on where the extension promises it.
  if (language === 'typescript') {
    const dts = /\.d\.[cm]?ts$/.test(path);
    return [['typescript', { dts }], ...COMMON];
  }
  if (language === 'tsx') return ['typescript', 'jsx', ...COMMON];
  return ['jsx', ...COMMON];
}

function optionsFor(plugins: ParserPlugin[]): ParserOptions {
  return {
    // unambiguous: a file with import/export is a module, anything else a
    // script, so sloppy-mode CommonJS (octal escapes, `with`) still parses.
    sourceType: 'unambiguous',
    allowImportExportEverywhere: true,
    allowAwaitOutsideFunction: true,
    allowReturnOutsideFunction: true,
    allowNewTargetOutsideFunction: true,
    allowSuperOutsideMethod: true,
    allowUndeclaredExports: true,
    errorRecovery: true,
    // we never read comments; attaching them is a measurable share of parse time
    attachComment: false,
    plugins,
  };
}

// ---- scopes -------------------------------------------------------------

const VALUE = 1;
const TYPE = 2;
const BOTH = 3;

/**
 * What a name in a scope stands for. `ns` is the module source when the name
 * is a whole module (import * as, require); `members` is a TS namespace's own
 * scope, so `N.f` can bind to the member's definition.
 */
interface Bound {
  b: Binding;
  ns: string | null;
  members?: Scope;
}

// Binding objects are shared between references (one per declaration, not one
// per use: a large file has hundreds of thousands of references, and the
// allocations showed up as GC time). They are frozen, so a consumer that tries
// to edit one fails loudly instead of corrupting its siblings.
const FREE: Binding = Object.freeze({ kind: 'free' });
const LOCAL: Bound = { b: Object.freeze({ kind: 'local' }), ns: null };

function nsBound(source: string): Bound {
  return { b: Object.freeze({ kind: 'import', source, name: '*' }), ns: source };
}

function importBound(source: string, name: string): Bound {
  return { b: Object.freeze({ kind: 'import', source, name }), ns: null };
}

/** TS keeps values and types in separate namespaces; so do we, so `x: Foo` and `Foo()` can bind differently. */
class Scope {
  v: Map<string, Bound> | null = null;
  t: Map<string, Bound> | null = null;
  constructor(readonly parent: Scope | null) {}

  /** First declaration wins: redeclarations (`var x; var x`, overloads, merged declarations) keep the first binding. */
  declare(name: string, bound: Bound, space: number): void {
    if (space & VALUE) {
      const m = (this.v ??= new Map());
      if (!m.has(name)) m.set(name, bound);
    }
    if (space & TYPE) {
      const m = (this.t ??= new Map());
      if (!m.has(name)) m.set(name, bound);
    }
  }
}

function lookup(scope: Scope, name: string, space: number): Bound | null {
  for (let s: Scope | null = scope; s !== null; s = s.parent) {
    const m = space === TYPE ? s.t : s.v;
    if (m !== null) {
      const b = m.get(name);
      if (b !== undefined) return b;
    }
  }
  return null;
}

function bindingOf(b: Bound | null): Binding {
  return b === null ? FREE : b.b;
}

// ---- small AST helpers --------------------------------------------------

/** Strip wrappers that do not change what a value is: `(f) as T`, `f!`, `<T>f`. */
function unwrap(n: Node): Node {
  while (n) {
    switch (n.type) {
      case 'TSAsExpression': case 'TSSatisfiesExpression': case 'TSNonNullExpression':
      case 'TSTypeAssertion': case 'ParenthesizedExpression': case 'TypeCastExpression':
        n = n.expression;
        continue;
    }
    return n;
  }
  return n;
}

function isFunctionValue(n: Node): boolean {
  return !!n && (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression');
}

/** A module export/import name: an identifier, or a string in `import { "a-b" as x }`. */
function moduleName(n: Node): string {
  return n.type === 'StringLiteral' ? n.value : n.name;
}

/** A non-computed property key as a name; null for keys we cannot name. */
function keyName(key: Node, computed: boolean): string | null {
  if (!key) return null;
  switch (key.type) {
    case 'Identifier': return computed ? null : key.name;
    case 'PrivateName': return '#' + key.id.name;
    case 'StringLiteral': return key.value;
    case 'NumericLiteral': return String(key.value);
    default: return null;
  }
}

function stringArg(n: Node): string | null {
  if (!n) return null;
  if (n.type === 'StringLiteral') return n.value;
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return n.quasis[0]?.value?.cooked ?? null;
  return null;
}

function isRequireCall(n: Node): boolean {
  return !!n && n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require'
    && n.arguments.length >= 1 && stringArg(n.arguments[0]) !== null;
}

// Compiled ESM-to-CJS output wraps requires in interop helpers; the value is
// still the module, so `x_1.f()` must still bind to the module's `f`.
const INTEROP = /^_*(?:interopRequire(?:Default|Wildcard)|import(?:Default|Star))$/;

interface RequireForm {
  source: string;
  /** `require('x').member` */
  member: string | null;
}

/** `require('x')`, `require('x').m`, `await import('x')`, `__importDefault(require('x'))`; else null. */
function requireForm(init: Node): RequireForm | null {
  let n = unwrap(init);
  if (!n) return null;
  if (n.type === 'AwaitExpression') {
    const a = unwrap(n.argument);
    if (a && a.type === 'CallExpression' && a.callee.type === 'Import') {
      const s = stringArg(a.arguments[0]);
      return s === null ? null : { source: s, member: null };
    }
    return null;
  }
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier' && isRequireCall(n.object)) {
    return { source: stringArg(n.object.arguments[0]) as string, member: n.property.name };
  }
  if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && INTEROP.test(n.callee.name)
      && n.arguments.length === 1 && isRequireCall(n.arguments[0])) {
    n = n.arguments[0];
  }
  if (isRequireCall(n)) return { source: stringArg(n.arguments[0]) as string, member: null };
  return null;
}

function patternIds(p: Node, out: Node[]): void {
  if (!p) return;
  switch (p.type) {
    case 'Identifier': out.push(p); return;
    case 'ObjectPattern':
      for (const prop of p.properties) patternIds(prop.type === 'RestElement' ? prop.argument : prop.value, out);
      return;
    case 'ArrayPattern': for (const e of p.elements) patternIds(e, out); return;
    case 'AssignmentPattern': patternIds(p.left, out); return;
    case 'RestElement': patternIds(p.argument, out); return;
    case 'TSParameterProperty': patternIds(p.parameter, out); return;
  }
}

function declarePattern(p: Node, scope: Scope, bound: Bound): void {
  if (!p) return;
  if (p.type === 'Identifier') { scope.declare(p.name, bound, VALUE); return; }
  const ids: Node[] = [];
  patternIds(p, ids);
  for (const id of ids) scope.declare(id.name, bound, VALUE);
}

/** Bind a declarator's names; a require/import form binds them to the module instead of to a local. */
function declareDeclarator(d: Node, scope: Scope, fallback: Bound): void {
  const req = requireForm(d.init);
  if (req === null) { declarePattern(d.id, scope, fallback); return; }
  const id = d.id;
  if (id.type === 'Identifier') {
    scope.declare(id.name, req.member === null ? nsBound(req.source) : importBound(req.source, req.member), BOTH);
  } else if (id.type === 'ObjectPattern' && req.member === null) {
    for (const prop of id.properties) {
      const imported = prop.type === 'ObjectProperty' ? keyName(prop.key, prop.computed) : null;
      const v = prop.type === 'ObjectProperty' ? prop.value : null;
      const local = v && (v.type === 'Identifier' ? v : v.type === 'AssignmentPattern' && v.left.type === 'Identifier' ? v.left : null);
      if (imported !== null && local) scope.declare(local.name, importBound(req.source, imported), BOTH);
      else declarePattern(prop.type === 'RestElement' ? prop.argument : prop.value, scope, LOCAL);
    }
  } else {
    declarePattern(id, scope, LOCAL);
  }
}

function importSpecBound(source: string, spec: Node): Bound {
  if (spec.type === 'ImportNamespaceSpecifier') return nsBound(source);
  if (spec.type === 'ImportDefaultSpecifier') return importBound(source, 'default');
  return importBound(source, moduleName(spec.imported));
}

/** Statement types that put a block-scoped name into the enclosing block. */
function isLexical(st: Node): boolean {
  switch (st.type) {
    case 'VariableDeclaration': return st.kind !== 'var';
    case 'FunctionDeclaration': case 'TSDeclareFunction': case 'ClassDeclaration': case 'TSEnumDeclaration':
    case 'TSModuleDeclaration': case 'TSInterfaceDeclaration': case 'TSTypeAliasDeclaration':
    case 'TSImportEqualsDeclaration': case 'ImportDeclaration':
      return true;
    case 'ExportNamedDeclaration': return !!st.declaration && isLexical(st.declaration);
    default: return false;
  }
}

/**
 * Where the scope helpers report a declaration below the top level that is
 * also a definition (a nested function or class, a function-valued
 * variable): the walker lists it and binds the name to it, in this scope only.
 */
interface NestedSink {
  nestedDecl(st: Node, scope: Scope): void;
  /** true when the declarator was a definition and is declared */
  nestedVar(d: Node, at: Node, scope: Scope): boolean;
}

function declareLexical(stmts: Node[], scope: Scope, sink: NestedSink | null = null): void {
  for (const st of stmts) declareLexicalOne(st, scope, sink);
}

function declareLexicalOne(st0: Node, scope: Scope, sink: NestedSink | null): void {
  const st = st0.type === 'ExportNamedDeclaration' && st0.declaration ? st0.declaration : st0;
  switch (st.type) {
    case 'VariableDeclaration':
      if (st.kind !== 'var') {
        const at = st.declarations.length === 1 ? st : null;
        for (const d of st.declarations) if (sink === null || !sink.nestedVar(d, at ?? d, scope)) declareDeclarator(d, scope, LOCAL);
      }
      break;
    case 'FunctionDeclaration': case 'TSDeclareFunction':
      if (st.id) {
        if (sink !== null) sink.nestedDecl(st, scope);
        else scope.declare(st.id.name, LOCAL, VALUE);
      }
      break;
    case 'ClassDeclaration':
      if (st.id) {
        if (sink !== null) sink.nestedDecl(st, scope);
        else scope.declare(st.id.name, LOCAL, BOTH);
      }
      break;
    case 'TSEnumDeclaration':
      if (st.id) scope.declare(st.id.name, LOCAL, BOTH);
      break;
    case 'TSModuleDeclaration':
      if (st.id.type === 'Identifier') scope.declare(st.id.name, LOCAL, BOTH);
      break;
    case 'TSInterfaceDeclaration': case 'TSTypeAliasDeclaration':
      scope.declare(st.id.name, LOCAL, TYPE);
      break;
    case 'TSImportEqualsDeclaration': {
      const ref = st.moduleReference;
      scope.declare(st.id.name, ref.type === 'TSExternalModuleReference' ? nsBound(ref.expression.value) : LOCAL, BOTH);
      break;
    }
    case 'ImportDeclaration':
      for (const spec of st.specifiers) scope.declare(spec.local.name, importSpecBound(st.source.value, spec), BOTH);
      break;
  }
}

/** `var` is function-scoped: find every one in this body without entering nested functions. */
function hoistVars(stmts: Node[], scope: Scope, sink: NestedSink | null = null): void {
  for (const st of stmts) hoistStmt(st, scope, sink);
}

function hoistStmt(st: Node, scope: Scope, sink: NestedSink | null): void {
  if (!st) return;
  switch (st.type) {
    case 'VariableDeclaration':
      if (st.kind === 'var') {
        const at = st.declarations.length === 1 ? st : null;
        for (const d of st.declarations) if (sink === null || !sink.nestedVar(d, at ?? d, scope)) declareDeclarator(d, scope, LOCAL);
      }
      return;
    case 'ExportNamedDeclaration': hoistStmt(st.declaration, scope, sink); return;
    case 'BlockStatement': hoistVars(st.body, scope, sink); return;
    case 'IfStatement': hoistStmt(st.consequent, scope, sink); hoistStmt(st.alternate, scope, sink); return;
    case 'ForStatement': hoistStmt(st.init, scope, sink); hoistStmt(st.body, scope, sink); return;
    case 'ForInStatement': case 'ForOfStatement': hoistStmt(st.left, scope, sink); hoistStmt(st.body, scope, sink); return;
    case 'WhileStatement': case 'DoWhileStatement': case 'LabeledStatement': case 'WithStatement':
      hoistStmt(st.body, scope, sink); return;
    case 'TryStatement':
      hoistStmt(st.block, scope, sink); hoistStmt(st.handler?.body, scope, sink); hoistStmt(st.finalizer, scope, sink); return;
    case 'SwitchStatement':
      for (const c of st.cases) hoistVars(c.consequent, scope, sink);
      return;
  }
}

/** Names introduced by `infer U` inside a conditional type's `extends` clause. */
function collectInfer(n: Node, scope: Scope): void {
  if (!n || typeof n !== 'object') return;
  if (n.type === 'TSInferType') {
    const tp = n.typeParameter;
    const name = typeof tp?.name === 'string' ? tp.name : tp?.name?.name;
    if (name) scope.declare(name, LOCAL, TYPE);
  }
  for (const k in n) {
    if (k === 'loc' || k === 'type' || k === 'extra') continue;
    const v = n[k];
    if (Array.isArray(v)) for (const c of v) collectInfer(c, scope);
    else if (v && typeof v === 'object' && typeof v.type === 'string') collectInfer(v, scope);
  }
}

// Flow syntax only appears under the flow retry; its declarations and
// annotations hold names that are not value references, so they are skipped.
const FLOW_SKIP = new Set([
  'TypeAnnotation', 'TypeAlias', 'OpaqueType', 'InterfaceDeclaration', 'DeclareClass', 'DeclareFunction',
  'DeclareVariable', 'DeclareModule', 'DeclareModuleExports', 'DeclareTypeAlias', 'DeclareOpaqueType',
  'DeclareInterface', 'DeclareExportDeclaration', 'DeclareExportAllDeclaration', 'TypeParameterDeclaration',
  'TypeParameterInstantiation', 'DeclaredPredicate', 'InferredPredicate', 'EnumDeclaration', 'ClassImplements',
  'InterfaceExtends',
]);

// ---- the walker ---------------------------------------------------------

class Walker implements NestedSink {
  readonly defs: Definition[] = [];
  readonly refs: Reference[] = [];
  readonly imports: ImportDecl[] = [];
  /** the def the next same-named overload signature (or the implementation) merges into; -1 when the last def was not a signature */
  private mergeInto = -1;
  /** function and class nodes that already have a definition: the def their body is the container of */
  private readonly owner = new Map<Node, number>();
  /** top-level CommonJS assignments pass 1 already listed */
  private readonly cjsDone = new Set<Node>();
  /** pass 2: definitions found from here on are nested, never top-level names */
  private nested = false;
  /** pass 2: container of a definition found here (qualified name of the nearest enclosing definition) */
  private cont = '';
  /** pass 2: the name `this` stands for here (a constructor function, a class, an object), '' when unknown */
  private thisName = '';
  private readonly topByName = new Map<string, number[]>();
  private readonly pendingExports: string[] = [];
  private readonly nsScopes = new Map<Node, Scope>();
  private readonly importTypeSeen = new Set<string>();
  /** set only when the text has line breaks '\n'-splitting would not see (lone \r, U+2028/9) */
  private readonly lineStarts: number[] | null;

  constructor(private readonly lines: string[], text: string, private readonly dts: boolean) {
    // Babel counts \r, U+2028 and U+2029 as line breaks; the index counts '\n'
    // only. Rare, so the offset-based mapping is paid only when needed.
    if (/\r(?!\n)|[\u2028\u2029]/.test(text)) {
      const starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    } else {
      this.lineStarts = null;
    }
  }

  private lineAt(offset: number): number {
    const s = this.lineStarts as number[];
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  private line(n: Node): number {
    return this.lineStarts === null ? n.loc.start.line : this.lineAt(n.start);
  }

  private endLine(n: Node): number {
    return this.lineStarts === null ? n.loc.end.line : this.lineAt(Math.max(n.start, n.end - 1));
  }

  private col(n: Node): number {
    if (this.lineStarts === null) return n.loc.start.column;
    return n.start - this.lineStarts[this.lineAt(n.start) - 1];
  }

  private signature(line: number): string {
    let s = (this.lines[line - 1] ?? '').trim();
    if (s.length > 200) {
      // do not leave half a surrogate pair at the cut
      const cut = s.charCodeAt(199) >= 0xd800 && s.charCodeAt(199) <= 0xdbff ? 199 : 200;
      s = s.slice(0, cut);
    }
    return s;
  }

  run(program: Node): void {
    const top = new Scope(null);
    const isModule = program.sourceType === 'module'
      || program.body.some((s: Node) => s.type === 'ImportDeclaration' || s.type.startsWith('Export') || s.type === 'TSExportAssignment');
    // a .d.ts without import/export declares globals: all of it is visible elsewhere
    this.collect(program.body, '', top, this.dts && !isModule, true);
    for (const name of this.pendingExports) {
      for (const i of this.topByName.get(name) ?? []) this.defs[i].exported = true;
    }
    this.nested = true;
    this.mergeInto = -1;
    // pass 1 listed the top-level declarations themselves; a var or function
    // inside a top-level block (`if (...) { var f = function () {} }`) is
    // found here
    for (const st of program.body) {
      hoistStmt(st, top, st.type === 'VariableDeclaration' || st.type === 'ExportNamedDeclaration' ? null : this);
    }
    for (const st of program.body) this.visit(st, top);
  }

  // ---- pass 1: definitions and the bindings of a statement list ---------

  private addDef(name: string, kind: DefKind, outer: Node, decl: Node, container: string, exported: boolean): number {
    const line = this.line(outer);
    const endLine = this.endLine(outer);
    // a decorator line says little; the signature is the line that names the thing
    const named = decl.decorators?.length ? (decl.id ?? decl.key ?? decl) : outer;
    const signature = this.signature(this.line(named));
    const m = this.mergeInto;
    const declares = decl.type === 'TSDeclareFunction' || decl.type === 'TSDeclareMethod';
    if (m !== -1 && (kind === 'func' || kind === 'method')) {
      const prev = this.defs[m];
      if (prev.name === name && prev.kind === kind && prev.container === container) {
        // overload signatures and their implementation are one definition for
        // binding and chunking (the chunk keeps every signature's doc with
        // them); each later one is listed at its own line too, nested inside
        // it, so a name search finds every signature
        prev.endLine = Math.max(prev.endLine, endLine);
        prev.exported ||= exported;
        this.defs.push({ name, kind, line, endLine, container, signature, exported: prev.exported });
        this.mergeInto = declares ? m : -1;
        return m;
      }
    }
    const idx = this.defs.length;
    this.defs.push({ name, kind, line, endLine, container, signature, exported });
    this.mergeInto = declares ? idx : -1;
    if (container === '' && !this.nested) {
      const list = this.topByName.get(name);
      if (list) list.push(idx);
      else this.topByName.set(name, [idx]);
    }
    return idx;
  }

  private defBound(idx: number): Bound {
    return { b: Object.freeze({ kind: 'def', def: idx }), ns: null };
  }

  private readonly memberImports = new Map<string, Binding>();

  /** `ns.name` where ns is a whole module: one shared binding per (module, name). */
  private memberImport(source: string, name: string): Binding {
    const key = source + '\0' + name;
    let b = this.memberImports.get(key);
    if (b === undefined) {
      b = Object.freeze({ kind: 'import', source, name });
      this.memberImports.set(key, b);
    }
    return b;
  }

  /** Definitions of a program or namespace body, and the bindings they put in `scope`. */
  private collect(stmts: Node[], container: string, scope: Scope, ambient: boolean, top: boolean): void {
    for (const st of stmts) {
      let node = st;
      let exported = ambient;
      if (st.type === 'ExportNamedDeclaration') {
        if (!st.declaration) {
          if (top && !st.source) {
            for (const sp of st.specifiers) if (sp.type === 'ExportSpecifier' && sp.local.type === 'Identifier') this.pendingExports.push(sp.local.name);
          }
          continue;
        }
        node = st.declaration;
        exported = true;
      } else if (st.type === 'ExportDefaultDeclaration') {
        node = st.declaration;
        if (node.type === 'Identifier') { if (top) this.pendingExports.push(node.name); continue; }
        exported = true;
      } else if (st.type === 'TSExportAssignment') {
        if (top && st.expression.type === 'Identifier') this.pendingExports.push(st.expression.name);
        continue;
      }
      this.collectOne(node, st, container, scope, exported, ambient, top);
    }
  }

  private collectOne(node: Node, outer: Node, container: string, scope: Scope, exported: boolean, ambient: boolean, top: boolean): void {
    switch (node.type) {
      case 'FunctionDeclaration': case 'TSDeclareFunction': {
        if (!node.id) return; // anonymous `export default function`
        const idx = this.addDef(node.id.name, 'func', outer, node, container, exported);
        this.owner.set(node, idx);
        scope.declare(node.id.name, this.defBound(idx), VALUE);
        return;
      }
      case 'ClassDeclaration': {
        if (!node.id) return;
        const idx = this.addDef(node.id.name, 'class', outer, node, container, exported);
        this.owner.set(node, idx);
        scope.declare(node.id.name, this.defBound(idx), BOTH);
        this.collectMembers(node, node.id.name, exported);
        return;
      }
      case 'VariableDeclaration': {
        const kind: DefKind = node.kind === 'let' || node.kind === 'var' ? 'var' : 'const';
        const single = node.declarations.length === 1;
        for (const d of node.declarations) {
          if (requireForm(d.init) !== null) { declareDeclarator(d, scope, LOCAL); continue; }
          const at = single ? outer : d;
          if (d.id.type === 'Identifier') {
            const init = unwrap(d.init);
            // `const f = () => {}` is how modern code defines a function; the
            // same holds for ES5's `var f = function () {}`
            const k: DefKind = isFunctionValue(init) ? 'func' : init?.type === 'ClassExpression' ? 'class' : kind;
            const idx = this.addDef(d.id.name, k, at, d, container, exported);
            scope.declare(d.id.name, this.defBound(idx), VALUE);
            if (k === 'func' || k === 'class') this.owner.set(init, idx);
            if (k === 'class') this.collectMembers(init, d.id.name, exported);
          } else {
            const ids: Node[] = [];
            patternIds(d.id, ids);
            for (const id of ids) scope.declare(id.name, this.defBound(this.addDef(id.name, kind, at, d, container, exported)), VALUE);
          }
        }
        return;
      }
      case 'TSInterfaceDeclaration':
        scope.declare(node.id.name, this.defBound(this.addDef(node.id.name, 'interface', outer, node, container, exported)), TYPE);
        return;
      case 'TSTypeAliasDeclaration':
        scope.declare(node.id.name, this.defBound(this.addDef(node.id.name, 'type', outer, node, container, exported)), TYPE);
        return;
      case 'TSEnumDeclaration':
        scope.declare(node.id.name, this.defBound(this.addDef(node.id.name, 'enum', outer, node, container, exported)), BOTH);
        return;
      case 'TSModuleDeclaration':
        this.collectNamespace(node, container, scope, ambient);
        return;
      case 'TSImportEqualsDeclaration': case 'ImportDeclaration':
        declareLexical([node], scope);
        return;
      case 'ExpressionStatement':
        if (top) this.collectCommonJs(node.expression, outer);
        return;
    }
  }

  private collectMembers(cls: Node, className: string, classExported: boolean): void {
    for (const m of cls.body.body) {
      let isMethod = m.type === 'ClassMethod' || m.type === 'ClassPrivateMethod' || m.type === 'TSDeclareMethod';
      // `handle = () => {}` is a method in everything but syntax
      if (!isMethod && (m.type === 'ClassProperty' || m.type === 'ClassPrivateProperty')) isMethod = isFunctionValue(unwrap(m.value));
      if (!isMethod) continue;
      const name = keyName(m.key, m.computed);
      if (name === null) continue;
      const exported = classExported && m.accessibility !== 'private' && m.key.type !== 'PrivateName';
      const idx = this.addDef(name, 'method', m, m, className, exported);
      this.owner.set(m.type === 'ClassProperty' || m.type === 'ClassPrivateProperty' ? unwrap(m.value) : m, idx);
    }
  }

  /**
   * A namespace is a container, not a definition: Kind has no namespace, and
   * one definition spanning a whole `declare namespace ts { ... }` would make
   * the chunker fold every interface in it into 150-line slices.
   */
  private collectNamespace(node: Node, container: string, scope: Scope, ambient: boolean): void {
    const isGlobal = node.kind === 'global' || node.global === true;
    const segs: string[] = [node.id.type === 'StringLiteral' ? node.id.value : node.id.name];
    let body = node.body;
    // `namespace A.B {}` nests one declaration per segment
    while (body && body.type === 'TSModuleDeclaration') { segs.push(body.id.name); body = body.body; }
    let inner: Scope;
    if (isGlobal || node.id.type !== 'Identifier') {
      inner = new Scope(scope);
    } else {
      // each segment's scope holds the next; a second `namespace N {}` reuses
      // the first one's scope, because TS merges them into one namespace
      inner = scope;
      for (const seg of segs) {
        const seen = inner.v?.get(seg);
        if (seen?.members) { inner = seen.members; continue; }
        const m = new Scope(inner);
        inner.declare(seg, { b: LOCAL.b, ns: null, members: m }, BOTH);
        inner = m;
      }
    }
    if (!body || body.type !== 'TSModuleBlock') return;
    const name = segs.join('.');
    const qualified = isGlobal ? container : container ? container + '.' + name : name;
    this.nsScopes.set(body, inner);
    // inside `declare namespace` / `declare module 'x'` every member is visible outside
    const amb = ambient || node.declare === true || this.dts || node.id.type === 'StringLiteral';
    this.collect(body.body, qualified, inner, amb, false);
  }

  /** `exports.x = ...`, `module.exports = {...}`: CommonJS spelling of export. */
  private collectCommonJs(e: Node, stmt: Node): void {
    if (!e || e.type !== 'AssignmentExpression' || e.operator !== '=') return;
    const left = e.left;
    const right = unwrap(e.right);
    if (isModuleExports(left)) {
      this.cjsDone.add(e);
      this.cjsValue(right, stmt);
    } else if (isExportsMember(left)) {
      this.cjsDone.add(e);
      this.cjsNamed(propName(left) as string, right, stmt, stmt);
    }
  }

  private cjsValue(v: Node, stmt: Node): void {
    if (!v) return;
    if (v.type === 'Identifier') { this.pendingExports.push(v.name); return; }
    if (v.type === 'ObjectExpression') {
      for (const p of v.properties) {
        const name = p.type === 'ObjectProperty' || p.type === 'ObjectMethod' ? keyName(p.key, p.computed) : null;
        if (name === null) continue;
        if (p.type === 'ObjectMethod') this.owner.set(p, this.addDef(name, 'func', p, p, '', true));
        else this.cjsNamed(name, unwrap(p.value), p, p);
      }
      return;
    }
    if ((isFunctionValue(v) || v.type === 'ClassExpression') && v.id) this.cjsNamed(v.id.name, v, stmt, v);
  }

  private cjsNamed(name: string, v: Node, at: Node, decl: Node): void {
    if (!v) return;
    if (v.type === 'Identifier') this.pendingExports.push(v.name);
    else if (isFunctionValue(v)) this.owner.set(v, this.addDef(name, 'func', at, decl, '', true));
    else if (v.type === 'ClassExpression') { this.owner.set(v, this.addDef(name, 'class', at, decl, '', true)); this.collectMembers(v, name, true); }
    // `exports.x = void 0` and other values are compiler preludes or data, not definitions
  }

  // ---- pass 2: definitions below the top level --------------------------
  //
  // Found while references are walked, so nothing is walked twice. What
  // counts follows universal-ctags: nested functions and classes, function-
  // valued variables, `X.prototype.m = ...`, `X.m = function`, `this.m =
  // function` in a constructor, methods of named object literals, named
  // function expressions. Their names are declared only in the scope they are
  // visible in, and never count as top-level names.

  /** A function or class declaration in a function body or block (NestedSink). */
  nestedDecl(st: Node, scope: Scope): void {
    const name = st.id.name;
    if (st.type === 'ClassDeclaration') {
      const idx = this.addDef(name, 'class', st, st, this.cont, false);
      this.owner.set(st, idx);
      scope.declare(name, this.defBound(idx), BOTH);
      this.collectMembers(st, name, false);
      return;
    }
    const idx = this.addDef(name, 'func', st, st, this.cont, false);
    this.owner.set(st, idx);
    scope.declare(name, this.defBound(idx), VALUE);
  }

  /** `var f = function () {}`, `const C = class {}` below the top level (NestedSink). */
  nestedVar(d: Node, at: Node, scope: Scope): boolean {
    if (d.id.type !== 'Identifier' || !d.init) return false;
    const v = unwrap(d.init);
    const fnv = isFunctionValue(v);
    if (!fnv && v.type !== 'ClassExpression') return false;
    const name = d.id.name;
    const idx = this.addDef(name, fnv ? 'func' : 'class', at, d, this.cont, false);
    this.owner.set(v, idx);
    if (!fnv) this.collectMembers(v, name, false);
    scope.declare(name, this.defBound(idx), VALUE);
    return true;
  }

  /** Whether a top-level definition of this name is exported: its prototype and static methods follow it. */
  private topExported(name: string): boolean {
    const list = this.topByName.get(name);
    if (list !== undefined) for (const i of list) if (this.defs[i].exported) return true;
    return false;
  }

  /** A function or class value assigned to `name` on `container`: a method (or class) definition there. */
  private memberDef(name: string, v: Node, at: Node, container: string, direct: boolean, exported: boolean): void {
    if (v.type === 'ClassExpression') {
      const idx = this.addDef(name, 'class', at, v, container, exported);
      if (direct && !this.owner.has(v)) { this.owner.set(v, idx); this.collectMembers(v, name, exported); }
      return;
    }
    const idx = this.addDef(name, 'method', at, v, container, exported);
    if (direct && isFunctionValue(v) && !this.owner.has(v)) this.owner.set(v, idx);
  }

  /** Definitions an assignment makes: `X.prototype.m = ...`, `X.m = function`, `this.m = function`, `f = function`. */
  private assignDefs(n: Node): void {
    if (this.cjsDone.has(n)) return;
    const left = n.left;
    let v = unwrap(n.right);
    if (!v) return;
    // `A.prototype.x = A.prototype.y = function () {}` defines both; the
    // function belongs to the innermost assignment, visited next
    const direct = v.type !== 'AssignmentExpression';
    while (v && v.type === 'AssignmentExpression' && v.operator === '=') v = unwrap(v.right);
    if (!v) return;
    const fnv = isFunctionValue(v) || v.type === 'ClassExpression';
    if (left.type === 'Identifier') {
      // `debug = function () {}`: a function given to an existing variable
      // (`exports = module.exports = function` names the module, not a function)
      if (fnv && v.type !== 'ClassExpression' && left.name !== 'exports' && !this.owner.has(v)) {
        const idx = this.addDef(left.name, 'func', n, v, this.cont, false);
        if (direct) this.owner.set(v, idx);
      }
      return;
    }
    if (left.type !== 'MemberExpression') return;
    if (isModuleExports(left) || isExportsMember(left)) {
      // CommonJS below the top level (a UMD wrapper, an `if`): as at the top
      if (direct) this.collectCommonJs(n, n);
      return;
    }
    const name = propName(left);
    if (name === null) return;
    const obj = left.object;
    if (obj.type === 'MemberExpression' && !obj.computed && obj.property.type === 'Identifier' && obj.property.name === 'prototype') {
      const target = chainName(obj.object);
      if (target === null) return;
      // a prototype property is a method even when it is an alias
      // (`P.addListener = P.on`) or comes from a factory or a require;
      // literals (`P._isBuffer = true`) are data
      if (fnv || v.type === 'Identifier' || v.type === 'MemberExpression' || v.type === 'CallExpression') {
        this.memberDef(name, v, n, target, direct, this.topExported(target));
      }
      return;
    }
    if (name === 'prototype') {
      const target = chainName(obj);
      if (target !== null && v.type === 'ObjectExpression') this.objectDefs(v, target, this.topExported(target));
      return;
    }
    if (obj.type === 'ThisExpression') {
      if (fnv && this.thisName !== '') this.memberDef(name, v, n, this.thisName, direct, false);
      return;
    }
    const target = chainName(obj);
    if (target === null) return;
    if (fnv) this.memberDef(name, v, n, target, direct, this.topExported(target));
    else if (v.type === 'ObjectExpression') this.objectDefs(v, target + '.' + name, false);
  }

  /** Methods of an object literal bound to a name (`const api = { get() {} }`), nested objects included. */
  private objectDefs(obj: Node, container: string, exported: boolean): void {
    for (const p of obj.properties) {
      if (p.type === 'ObjectMethod') {
        const name = keyName(p.key, p.computed);
        if (name !== null) this.owner.set(p, this.addDef(name, 'method', p, p, container, exported));
        continue;
      }
      if (p.type !== 'ObjectProperty') continue;
      const v = unwrap(p.value);
      if (!v) continue;
      const fnv = isFunctionValue(v);
      if (!fnv && v.type !== 'ClassExpression' && v.type !== 'ObjectExpression') continue;
      const name = keyName(p.key, p.computed);
      if (name === null) continue;
      if (v.type === 'ObjectExpression') this.objectDefs(v, container + '.' + name, false);
      else this.memberDef(name, v, p, container, true, exported);
    }
  }

  // ---- pass 2: references ----------------------------------------------

  private pushRef(name: string, at: Node, call: boolean, binding: Binding): void {
    this.refs.push({ name, line: this.line(at), col: this.col(at), call, binding });
  }

  private ref(id: Node, scope: Scope, call: boolean, space: number): void {
    this.pushRef(id.name, id, call, bindingOf(lookup(scope, id.name, space)));
  }

  private pushImport(source: string, names: { imported: string; local: string }[], at: Node): void {
    this.imports.push({ source, names, line: this.line(at) });
  }

  private visitList(list: Node[] | null | undefined, scope: Scope): void {
    if (!list) return;
    for (const n of list) if (n) this.visit(n, scope);
  }

  private visit(n: Node, scope: Scope): void {
    if (!n) return;
    switch (n.type) {
      case 'Identifier': this.ref(n, scope, false, VALUE); return;
      case 'MemberExpression': case 'OptionalMemberExpression': this.member(n, scope, false); return;
      case 'CallExpression': case 'OptionalCallExpression': this.call(n, scope); return;
      case 'ExpressionStatement': this.visit(n.expression, scope); return;
      // the most frequent plain nodes get direct cases: the generic walk's for-in is slower
      case 'BinaryExpression': case 'LogicalExpression': this.visit(n.left, scope); this.visit(n.right, scope); return;
      case 'AssignmentExpression':
        if (n.operator === '=') this.assignDefs(n);
        this.visit(n.left, scope);
        this.visit(n.right, scope);
        return;
      case 'ReturnStatement': case 'ThrowStatement': case 'UnaryExpression': case 'UpdateExpression':
      case 'AwaitExpression': case 'YieldExpression': case 'SpreadElement':
        this.visit(n.argument, scope); return;
      case 'IfStatement': case 'ConditionalExpression':
        this.visit(n.test, scope); this.visit(n.consequent, scope); this.visit(n.alternate, scope); return;
      case 'ObjectExpression': this.visitList(n.properties, scope); return;
      case 'ArrayExpression': this.visitList(n.elements, scope); return;
      case 'SequenceExpression': case 'TemplateLiteral': this.visitList(n.expressions, scope); return;
      case 'TSTypeAnnotation': case 'TSTypeOperator': case 'TSParenthesizedType': case 'TSOptionalType': case 'TSRestType':
        this.visit(n.typeAnnotation, scope); return;
      case 'TSAsExpression': case 'TSSatisfiesExpression':
        this.visit(n.expression, scope); this.visit(n.typeAnnotation, scope); return;
      // `<T>x`: the type comes first in the source, so it comes first in the references
      case 'TSTypeAssertion': this.visit(n.typeAnnotation, scope); this.visit(n.expression, scope); return;
      case 'TSNonNullExpression': case 'ParenthesizedExpression': this.visit(n.expression, scope); return;
      case 'TSUnionType': case 'TSIntersectionType': this.visitList(n.types, scope); return;
      case 'TSArrayType': this.visit(n.elementType, scope); return;
      case 'TSTypeLiteral': this.visitList(n.members, scope); return;
      case 'TSInterfaceBody': this.visitList(n.body, scope); return;
      case 'TSTypeParameterInstantiation': this.visitList(n.params, scope); return;
      case 'TSLiteralType': this.visit(n.literal, scope); return;
      case 'TSIndexedAccessType': this.visit(n.objectType, scope); this.visit(n.indexType, scope); return;
      case 'TSStringKeyword': case 'TSNumberKeyword': case 'TSBooleanKeyword': case 'TSVoidKeyword': case 'TSAnyKeyword':
      case 'TSNullKeyword': case 'TSUndefinedKeyword': case 'TSUnknownKeyword': case 'TSNeverKeyword': case 'TSObjectKeyword':
      case 'TSSymbolKeyword': case 'TSBigIntKeyword': case 'TSIntrinsicKeyword':
        return;
      case 'StringLiteral': case 'NumericLiteral': case 'BooleanLiteral': case 'NullLiteral': case 'RegExpLiteral':
      case 'BigIntLiteral': case 'DecimalLiteral': case 'ThisExpression': case 'Super': case 'TemplateElement':
      case 'Directive': case 'DirectiveLiteral': case 'EmptyStatement': case 'DebuggerStatement': case 'PrivateName':
      case 'MetaProperty': case 'Import': case 'BreakStatement': case 'ContinueStatement':
      case 'JSXText': case 'JSXIdentifier': case 'JSXNamespacedName': case 'JSXMemberExpression': case 'JSXClosingElement':
      case 'JSXOpeningFragment': case 'JSXClosingFragment': case 'JSXEmptyExpression':
      case 'TSNamespaceExportDeclaration': case 'TSThisType':
        return;
      case 'NewExpression':
        this.callee(n.callee, scope);
        this.visitList(n.arguments, scope);
        this.visit(n.typeParameters ?? n.typeArguments, scope);
        return;
      case 'TaggedTemplateExpression':
        // html`...`, styled.div`...`: the tag is called
        this.callee(n.tag, scope);
        this.visit(n.typeParameters ?? n.typeArguments, scope);
        this.visit(n.quasi, scope);
        return;
      case 'Decorator': this.callee(n.expression, scope); return;
      case 'ImportExpression': {
        const s = stringArg(n.source);
        if (s !== null) this.pushImport(s, [], n);
        else this.visit(n.source, scope);
        this.visit(n.options, scope);
        return;
      }
      case 'BlockStatement': case 'StaticBlock': this.block(n.body, scope); return;
      case 'TSModuleBlock': this.block(n.body, scope, false); return;
      case 'VariableDeclaration': for (const d of n.declarations) this.declarator(d, scope); return;
      case 'VariableDeclarator': this.declarator(n, scope); return;
      case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression': case 'TSDeclareFunction':
        this.fn(n, scope);
        return;
      case 'ObjectMethod': case 'ClassMethod': case 'ClassPrivateMethod': case 'TSDeclareMethod':
        this.visitList(n.decorators, scope);
        if (n.computed) this.visit(n.key, scope);
        this.fn(n, scope);
        return;
      case 'ClassDeclaration': case 'ClassExpression': this.cls(n, scope); return;
      case 'ObjectProperty':
        if (n.computed) this.visit(n.key, scope);
        this.visit(n.value, scope);
        return;
      case 'ClassProperty': case 'ClassPrivateProperty': case 'ClassAccessorProperty':
        this.visitList(n.decorators, scope);
        if (n.computed) this.visit(n.key, scope);
        this.visit(n.typeAnnotation, scope);
        this.visit(n.value, scope);
        return;
      case 'ForStatement': {
        const s = n.init && isLexical(n.init) ? new Scope(scope) : scope;
        if (s !== scope) declareLexical([n.init], s);
        this.visit(n.init, s); this.visit(n.test, s); this.visit(n.update, s); this.visit(n.body, s);
        return;
      }
      case 'ForInStatement': case 'ForOfStatement': {
        this.visit(n.right, scope);
        const s = isLexical(n.left) ? new Scope(scope) : scope;
        if (s !== scope) declareLexical([n.left], s);
        if (n.left.type === 'VariableDeclaration') for (const d of n.left.declarations) this.pattern(d.id, s);
        else this.visit(n.left, s);
        this.visit(n.body, s);
        return;
      }
      case 'CatchClause': {
        const s = new Scope(scope);
        if (n.param) { declarePattern(n.param, s, LOCAL); this.pattern(n.param, s); }
        this.block(n.body.body, s);
        return;
      }
      case 'SwitchStatement': {
        this.visit(n.discriminant, scope);
        const all: Node[] = [];
        for (const c of n.cases) for (const st of c.consequent) all.push(st);
        const s = all.some(isLexical) ? new Scope(scope) : scope;
        if (s !== scope) declareLexical(all, s, this);
        for (const c of n.cases) { this.visit(c.test, s); this.visitList(c.consequent, s); }
        return;
      }
      case 'LabeledStatement': this.visit(n.body, scope); return;
      case 'ImportDeclaration': {
        const source = n.source.value;
        const names = n.specifiers.map((sp: Node) => ({
          imported: sp.type === 'ImportNamespaceSpecifier' ? '*' : sp.type === 'ImportDefaultSpecifier' ? 'default' : moduleName(sp.imported),
          local: sp.local.name,
        }));
        this.pushImport(source, names, n);
        return;
      }
      case 'ExportNamedDeclaration':
        if (n.source) {
          // a re-export is an import of the same names
          const names = n.specifiers.map((sp: Node) => ({
            imported: sp.type === 'ExportNamespaceSpecifier' ? '*' : sp.type === 'ExportDefaultSpecifier' ? 'default' : moduleName(sp.local),
            local: moduleName(sp.exported),
          }));
          this.pushImport(n.source.value, names, n);
        }
        this.visit(n.declaration, scope);
        return;
      case 'ExportAllDeclaration':
        this.pushImport(n.source.value, [{ imported: '*', local: n.exported ? moduleName(n.exported) : '*' }], n);
        return;
      case 'ExportDefaultDeclaration':
        // `export default foo` says what is exported; it is not a use of foo
        if (n.declaration.type !== 'Identifier') this.visit(n.declaration, scope);
        return;
      case 'TSExportAssignment':
        if (n.expression.type !== 'Identifier') this.visit(n.expression, scope);
        return;
      case 'JSXElement':
        this.jsxOpening(n.openingElement, scope);
        this.visitList(n.children, scope);
        return;
      case 'JSXOpeningElement': this.jsxOpening(n, scope); return;
      case 'JSXAttribute': this.visit(n.value, scope); return;
      case 'TSTypeReference':
        this.typeName(n.typeName, scope, TYPE);
        this.visit(n.typeParameters ?? n.typeArguments, scope);
        return;
      case 'TSExpressionWithTypeArguments': case 'TSInterfaceHeritage': case 'TSClassImplements':
        this.typeName(n.expression, scope, TYPE);
        this.visit(n.typeParameters ?? n.typeArguments, scope);
        return;
      case 'TSTypeQuery':
        this.typeName(n.exprName, scope, VALUE);
        this.visit(n.typeParameters ?? n.typeArguments, scope);
        return;
      case 'TSQualifiedName': this.typeName(n, scope, VALUE); return;
      case 'TSImportType': this.importType(n, scope); return;
      case 'TSInterfaceDeclaration': {
        const s = this.typeParamScope(n.typeParameters, scope);
        this.visitList(n.extends, s);
        this.visit(n.body, s);
        return;
      }
      case 'TSTypeAliasDeclaration': {
        const s = this.typeParamScope(n.typeParameters, scope);
        this.visit(n.typeAnnotation, s);
        return;
      }
      case 'TSEnumDeclaration': {
        // members name each other bare: `B = A << 1`
        const members = n.members ?? n.body?.members ?? [];
        const s = new Scope(scope);
        for (const m of members) { const k = keyName(m.id, false); if (k !== null) s.declare(k, LOCAL, VALUE); }
        for (const m of members) this.visit(m.initializer, s);
        return;
      }
      case 'TSEnumMember': this.visit(n.initializer, scope); return;
      case 'TSModuleDeclaration': {
        let body = n.body;
        while (body && body.type === 'TSModuleDeclaration') body = body.body;
        if (!body || body.type !== 'TSModuleBlock') return;
        let s = this.nsScopes.get(body);
        if (!s) { s = new Scope(scope); declareLexical(body.body, s); }
        hoistVars(body.body, s);
        for (const st of body.body) this.visit(st, s);
        return;
      }
      case 'TSImportEqualsDeclaration': {
        const ref = n.moduleReference;
        if (ref.type === 'TSExternalModuleReference') this.pushImport(ref.expression.value, [{ imported: '*', local: n.id.name }], n);
        else this.typeName(ref, scope, VALUE);
        return;
      }
      case 'TSPropertySignature':
        if (n.computed) this.visit(n.key, scope);
        this.visit(n.typeAnnotation, scope);
        return;
      case 'TSMethodSignature': case 'TSCallSignatureDeclaration': case 'TSConstructSignatureDeclaration':
      case 'TSFunctionType': case 'TSConstructorType':
        if (n.computed) this.visit(n.key, scope);
        this.fn(n, scope);
        return;
      case 'TSIndexSignature':
        for (const p of n.parameters ?? []) this.pattern(p, scope);
        this.visit(n.typeAnnotation, scope);
        return;
      case 'TSMappedType': {
        const tp = n.typeParameter;
        const name = tp ? (typeof tp.name === 'string' ? tp.name : tp.name?.name) : n.key?.name;
        this.visit(tp ? tp.constraint : n.constraint, scope);
        const s = new Scope(scope);
        if (name) s.declare(name, LOCAL, TYPE);
        this.visit(n.nameType, s);
        this.visit(n.typeAnnotation, s);
        return;
      }
      case 'TSConditionalType': {
        this.visit(n.checkType, scope);
        const s = new Scope(scope);
        collectInfer(n.extendsType, s);
        this.visit(n.extendsType, s);
        this.visit(n.trueType, s);
        this.visit(n.falseType, scope);
        return;
      }
      case 'TSInferType': this.visit(n.typeParameter?.constraint, scope); return;
      case 'TSTypeParameterDeclaration':
        for (const p of n.params) { this.visit(p.constraint, scope); this.visit(p.default, scope); }
        return;
      case 'TSTypeParameter': this.visit(n.constraint, scope); this.visit(n.default, scope); return;
      case 'TSTypePredicate': this.visit(n.typeAnnotation, scope); return;
      case 'TSNamedTupleMember': this.visit(n.elementType, scope); return;
      case 'TSParameterProperty': this.pattern(n, scope); return;
      case 'TypeCastExpression': this.visit(n.expression, scope); return;
      default:
        if (FLOW_SKIP.has(n.type)) return;
        this.children(n, scope);
    }
  }

  /** Every child node, for the many node types whose children are all plain expressions. */
  private children(n: Node, scope: Scope): void {
    for (const k in n) {
      if (k === 'type' || k === 'loc' || k === 'start' || k === 'end' || k === 'extra' || k === 'range'
          || k === 'leadingComments' || k === 'trailingComments' || k === 'innerComments') continue;
      const v = n[k];
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const c of v) if (c !== null && typeof c === 'object' && typeof c.type === 'string') this.visit(c, scope);
      } else if (typeof v.type === 'string') {
        this.visit(v, scope);
      }
    }
  }

  /** A binding pattern: its names are declarations, not uses; defaults, computed keys and annotations are uses. */
  private pattern(p: Node, scope: Scope): void {
    if (!p) return;
    switch (p.type) {
      case 'Identifier':
        this.visitList(p.decorators, scope);
        this.visit(p.typeAnnotation, scope);
        return;
      case 'ObjectPattern':
        for (const prop of p.properties) {
          if (prop.type === 'RestElement') { this.pattern(prop, scope); continue; }
          if (prop.computed) this.visit(prop.key, scope);
          this.pattern(prop.value, scope);
        }
        this.visit(p.typeAnnotation, scope);
        return;
      case 'ArrayPattern':
        for (const e of p.elements) this.pattern(e, scope);
        this.visit(p.typeAnnotation, scope);
        return;
      case 'AssignmentPattern':
        this.pattern(p.left, scope);
        this.visit(p.right, scope);
        return;
      case 'RestElement':
        this.pattern(p.argument, scope);
        this.visit(p.typeAnnotation, scope);
        return;
      case 'TSParameterProperty':
        this.visitList(p.decorators, scope);
        this.pattern(p.parameter, scope);
        return;
      default:
        // a member expression as a for-in target, or a recovered oddity: uses
        this.visit(p, scope);
    }
  }

  private declarator(d: Node, scope: Scope): void {
    const req = requireForm(d.init);
    if (req === null) {
      this.pattern(d.id, scope);
      if (d.id.type === 'Identifier' && d.init) {
        const v = unwrap(d.init);
        if (v.type === 'ObjectExpression') this.objectDefs(v, d.id.name, false);
      }
      this.visit(d.init, scope);
      return;
    }
    const id = d.id;
    const names: { imported: string; local: string }[] = [];
    if (id.type === 'Identifier') {
      names.push({ imported: req.member ?? '*', local: id.name });
    } else if (id.type === 'ObjectPattern' && req.member === null) {
      for (const prop of id.properties) {
        if (prop.type !== 'ObjectProperty') continue;
        const imported = keyName(prop.key, prop.computed);
        const v = prop.value;
        const local = v.type === 'Identifier' ? v : v.type === 'AssignmentPattern' && v.left.type === 'Identifier' ? v.left : null;
        if (imported !== null && local) names.push({ imported, local: local.name });
      }
    }
    this.pushImport(req.source, names, d.init);
    this.pattern(id, scope);
  }

  /** A block's statements; `sink` is false for a namespace body, whose definitions pass 1 listed. */
  private block(stmts: Node[], scope: Scope, sink = true): void {
    let s = scope;
    for (const st of stmts) {
      if (isLexical(st)) { s = new Scope(scope); declareLexical(stmts, s, sink ? this : null); break; }
    }
    for (const st of stmts) this.visit(st, s);
  }

  private typeParamScope(tpd: Node, scope: Scope): Scope {
    if (!tpd || tpd.params.length === 0) return scope;
    const s = new Scope(scope);
    this.typeParams(tpd, s);
    return s;
  }

  private typeParams(tpd: Node, scope: Scope): void {
    if (!tpd) return;
    for (const p of tpd.params) {
      const name = typeof p.name === 'string' ? p.name : p.name?.name;
      if (name) scope.declare(name, LOCAL, TYPE);
    }
    this.visit(tpd, scope);
  }

  /** Functions, methods and TS signatures: one scope for type parameters, parameters and body. */
  private fn(n: Node, scope: Scope): void {
    const s = new Scope(scope);
    const cont = this.cont;
    const thisName = this.thisName;
    const arrow = n.type === 'ArrowFunctionExpression';
    let own = this.owner.get(n);
    if (n.type === 'FunctionExpression' && n.id) {
      // `f(function onData() {})`, `var _x = function x() {}`: the name is
      // what stack traces show, so it is listed (beside the variable's)
      const name = n.id.name;
      let self = own;
      if (own === undefined || this.defs[own].name !== name) {
        self = this.addDef(name, 'func', n, n, cont, false);
        own ??= self;
      }
      s.declare(name, this.defBound(self as number), VALUE);
    }
    if (own !== undefined) {
      const d = this.defs[own];
      this.cont = d.container === '' ? d.name : d.container + '.' + d.name;
      // `this` in a method is its object; in a function, the instance it constructs
      if (!arrow) this.thisName = d.kind === 'method' ? d.container : d.name;
    } else if (!arrow) {
      this.thisName = '';
    }
    if (!arrow && n.body) s.declare('arguments', LOCAL, VALUE);
    this.typeParams(n.typeParameters, s);
    const params: Node[] = n.params ?? n.parameters ?? [];
    for (const p of params) declarePattern(p, s, LOCAL);
    for (const p of params) this.pattern(p, s);
    this.visit(n.returnType ?? n.typeAnnotation, s);
    const body = n.body;
    if (body && body.type === 'BlockStatement') {
      // one loop, so nested definitions are listed in source order
      for (const st of body.body) { hoistStmt(st, s, this); declareLexicalOne(st, s, this); }
      for (const st of body.body) this.visit(st, s);
    } else if (body) {
      this.visit(body, s);
    }
    this.cont = cont;
    this.thisName = thisName;
  }

  private cls(n: Node, scope: Scope): void {
    this.visitList(n.decorators, scope);
    const s = new Scope(scope);
    let own = this.owner.get(n);
    if (n.type === 'ClassExpression' && n.id) {
      // a named class expression: listed like a named function expression
      const name = n.id.name;
      let self = own;
      if (own === undefined || this.defs[own].name !== name) {
        self = this.addDef(name, 'class', n, n, this.cont, false);
        if (own === undefined) { own = self; this.owner.set(n, self); this.collectMembers(n, name, false); }
      }
      s.declare(name, this.defBound(self as number), BOTH);
    }
    // type parameters are visible in heritage clauses: class A<T> extends B<T>
    this.typeParams(n.typeParameters, s);
    this.visit(n.superClass, s);
    this.visit(n.superTypeParameters ?? n.superTypeArguments, s);
    this.visitList(n.implements, s);
    const cont = this.cont;
    const thisName = this.thisName;
    if (own !== undefined) this.cont = this.thisName = this.defs[own].name;
    for (const m of n.body.body) this.visit(m, s);
    this.cont = cont;
    this.thisName = thisName;
  }

  private call(n: Node, scope: Scope): void {
    const c = n.callee;
    if (c.type === 'Import') {
      const s = stringArg(n.arguments[0]);
      if (s !== null) this.pushImport(s, [], n);
      this.visitList(n.arguments, scope);
      return;
    }
    if (isRequireCall(n)) {
      this.pushImport(stringArg(n.arguments[0]) as string, [], n);
      return;
    }
    this.callee(c, scope);
    this.visitList(n.arguments, scope);
    this.visit(n.typeParameters ?? n.typeArguments, scope);
  }

  private callee(c0: Node, scope: Scope): void {
    let c = c0;
    for (;;) {
      if (c.type === 'TSNonNullExpression' || c.type === 'ParenthesizedExpression') { c = c.expression; continue; }
      if (c.type === 'TSAsExpression' || c.type === 'TSSatisfiesExpression' || c.type === 'TSTypeAssertion') {
        this.visit(c.typeAnnotation, scope);
        c = c.expression;
        continue;
      }
      if (c.type === 'TSInstantiationExpression') {
        this.visit(c.typeParameters ?? c.typeArguments, scope);
        c = c.expression;
        continue;
      }
      // compiled code calls `(0, util_1.parse)(x)` to drop `this`
      if (c.type === 'SequenceExpression' && c.expressions.length > 0) {
        for (let i = 0; i < c.expressions.length - 1; i++) this.visit(c.expressions[i], scope);
        c = c.expressions[c.expressions.length - 1];
        continue;
      }
      break;
    }
    if (c.type === 'Identifier') this.ref(c, scope, true, VALUE);
    else if (c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression') this.member(c, scope, true);
    else this.visit(c, scope);
  }

  /**
   * `a.b.c()` gives `c` (the call) and `a` (the root); middle segments are
   * property reads we cannot bind. When the root is a whole module
   * (`import * as ns`, `const m = require(...)`), `ns.f` is the module's `f`.
   */
  private member(n: Node, scope: Scope, call: boolean): void {
    const obj = n.object;
    const prop = n.property;
    if (n.computed) {
      this.visit(obj, scope);
      this.visit(prop, scope);
      return;
    }
    const name = prop.type === 'Identifier' ? prop.name : prop.type === 'PrivateName' ? '#' + prop.id.name : null;
    if (obj.type === 'Identifier') {
      const b = lookup(scope, obj.name, VALUE);
      if (b !== null && b.ns !== null && name !== null) {
        this.pushRef(name, prop, call, this.memberImport(b.ns, name));
        return;
      }
      const member = b?.members && name !== null ? b.members.v?.get(name) : undefined;
      if (member !== undefined) {
        this.pushRef(name as string, prop, call, member.b);
        return;
      }
      this.pushRef(obj.name, obj, false, bindingOf(b));
    } else {
      // A.B.f() where A.B is a namespace of this file
      const hit = name !== null && obj.type === 'MemberExpression' ? this.nsChain(obj, scope)?.members?.v?.get(name) : undefined;
      if (hit !== undefined) {
        this.pushRef(name as string, prop, call, hit.b);
        return;
      }
      this.visit(obj, scope);
    }
    if (call && name !== null) this.pushRef(name, prop, true, FREE);
  }

  /** The namespace a plain `A.B.C` chain names, or null. */
  private nsChain(n: Node, scope: Scope): Bound | null {
    if (n.type === 'Identifier') {
      const b = lookup(scope, n.name, VALUE);
      return b?.members ? b : null;
    }
    if (n.type !== 'MemberExpression' || n.computed || n.property.type !== 'Identifier') return null;
    const m = this.nsChain(n.object, scope)?.members?.v?.get(n.property.name);
    return m?.members ? m : null;
  }

  /** `<Foo/>` uses the component Foo; `<div/>` (lower case) is an intrinsic tag, not a name. */
  private jsxOpening(o: Node, scope: Scope): void {
    const name = o.name;
    if (name.type === 'JSXIdentifier') {
      const first = name.name.charCodeAt(0);
      const lower = first >= 97 && first <= 122;
      if (!lower && !name.name.includes('-') && name.name !== 'this') {
        this.pushRef(name.name, name, true, bindingOf(lookup(scope, name.name, VALUE)));
      }
    } else if (name.type === 'JSXMemberExpression') {
      const segs: Node[] = [];
      let c = name;
      while (c.type === 'JSXMemberExpression') { segs.push(c.property); c = c.object; }
      segs.reverse();
      const last = segs[segs.length - 1];
      if (c.type === 'JSXIdentifier' && c.name !== 'this') {
        const b = lookup(scope, c.name, VALUE);
        if (b !== null && b.ns !== null) {
          this.pushRef(segs[0].name, segs[0], segs.length === 1, this.memberImport(b.ns, segs[0].name));
          if (segs.length > 1) this.pushRef(last.name, last, true, FREE);
        } else {
          this.pushRef(c.name, c, false, bindingOf(b));
          this.pushRef(last.name, last, true, FREE);
        }
      } else {
        this.pushRef(last.name, last, true, FREE);
      }
    }
    this.visitList(o.attributes, scope);
    this.visit(o.typeParameters ?? o.typeArguments, scope);
  }

  /** A type name: `Foo`, or `ns.Foo` (root plus last segment, like a member call). */
  private typeName(n: Node, scope: Scope, space: number): void {
    if (!n) return;
    if (n.type === 'Identifier') { this.ref(n, scope, false, space); return; }
    if (n.type === 'MemberExpression') { this.member(n, scope, false); return; }
    if (n.type !== 'TSQualifiedName') { this.visit(n, scope); return; }
    const segs: Node[] = [];
    let c = n;
    while (c.type === 'TSQualifiedName') { segs.push(c.right); c = c.left; }
    segs.reverse();
    const last = segs[segs.length - 1];
    if (c.type !== 'Identifier') {
      this.visit(c, scope);
      this.pushRef(last.name, last, false, FREE);
      return;
    }
    const b = lookup(scope, c.name, VALUE);
    if (b !== null && b.ns !== null) {
      this.pushRef(segs[0].name, segs[0], false, this.memberImport(b.ns, segs[0].name));
      if (segs.length === 1) return;
    } else if (b?.members) {
      // ts.a.Node: walk the namespaces; the last segment is looked up in `space`
      let m: Scope | undefined = b.members;
      for (let i = 0; i < segs.length - 1 && m; i++) m = m.v?.get(segs[i].name)?.members;
      const hit = m ? (space === TYPE ? m.t : m.v)?.get(last.name) : undefined;
      if (hit !== undefined) { this.pushRef(last.name, last, false, hit.b); return; }
      this.pushRef(c.name, c, false, bindingOf(b));
    } else {
      this.pushRef(c.name, c, false, bindingOf(b));
    }
    this.pushRef(last.name, last, false, FREE);
  }

  /** `import('./x').Foo` in a type: an import of ./x and a use of its Foo. */
  private importType(n: Node, scope: Scope): void {
    const arg = n.argument;
    const source = arg?.type === 'StringLiteral' ? arg.value : arg?.literal?.type === 'StringLiteral' ? arg.literal.value : null;
    if (source !== null) {
      // declaration files repeat the same import type hundreds of times
      if (!this.importTypeSeen.has(source)) { this.importTypeSeen.add(source); this.pushImport(source, [], n); }
      const q = n.qualifier;
      if (q) {
        const segs: Node[] = [];
        let c = q;
        while (c.type === 'TSQualifiedName') { segs.push(c.right); c = c.left; }
        segs.push(c);
        segs.reverse();
        this.pushRef(segs[0].name, segs[0], false, this.memberImport(source, segs[0].name));
        if (segs.length > 1) this.pushRef(segs[segs.length - 1].name, segs[segs.length - 1], false, FREE);
      }
    }
    this.visit(n.typeParameters ?? n.typeArguments, scope);
  }
}

/** The property a member expression names: `a.b`, or `a['b']` with a string; null otherwise. */
function propName(m: Node): string | null {
  const p = m.property;
  if (!m.computed) return p.type === 'Identifier' ? p.name : null;
  return p.type === 'StringLiteral' ? p.value : null;
}

/** `module.exports`, or `module['exports']` as some packages spell it. */
function isModuleExports(n: Node): boolean {
  return !!n && n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === 'module'
    && propName(n) === 'exports';
}

/** `exports.x` / `module.exports.x` (either spelling). */
function isExportsMember(n: Node): boolean {
  return n.type === 'MemberExpression' && propName(n) !== null
    && ((n.object.type === 'Identifier' && n.object.name === 'exports') || isModuleExports(n.object));
}

/** `a` or `a.b.c` as a dotted name; null for anything else (`this.x`, `a[i]`, `f().x`). */
function chainName(n: Node): string | null {
  if (n.type === 'Identifier') return n.name;
  if (n.type !== 'MemberExpression' || n.computed || n.property.type !== 'Identifier') return null;
  const o = chainName(n.object);
  return o === null ? null : o + '.' + n.property.name;
}

// ---- entry point --------------------------------------------------------

export function parseBabel(language: string, path: string, text: string): ParsedFile {
  const lines = text.split('\n');
  let ast: Node;
  try {
    ast = parse(text, optionsFor(pluginsFor(language, path)));
  } catch (err) {
    // Flow is off by default (its generics change how plain JS parses); a .js
    // file that fails without it gets one more try with it.
    let retried: Node = null;
    if (language === 'javascript' || language === 'jsx') {
      try { retried = parse(text, optionsFor(['flow', 'jsx', ...COMMON])); } catch { /* report the first error */ }
    }
    if (retried === null) {
      return { language, definitions: [], references: [], imports: [], chunks: chunkFile(lines, []), error: errorText(err) };
    }
    ast = retried;
  }
  const w = new Walker(lines, text, /\.d\.[cm]?ts$/.test(path));
  try {
    w.run(ast.program);
  } catch {
    // A walk that fails after a good parse (a stack overflow on pathological
    // nesting) keeps what it found: definitions come first and are complete.
  }
  return { language, definitions: w.defs, references: w.refs, imports: w.imports, chunks: chunkFile(lines, w.defs) };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
