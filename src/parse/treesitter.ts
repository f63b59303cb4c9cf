// Tree-sitter parsing for every language that has a grammar shipped as .wasm:
// it owns loading grammars (once per thread, lazily), running one tags-style
// query per language over a file, and turning the captures into definitions,
// references with an in-file binding, imports and chunks. It knows nothing of
// other files, the store or the linker: a name it cannot bind inside the file
// stays `free`. It must never throw on bad input: tree-sitter recovers from
// syntax errors, and anything else becomes `error` with block-only chunks.
// Per-language knowledge lives in ./queries/<lang>.ts; this file holds only the
// machinery that every language shares.

import { createRequire } from 'node:module';
import { Language, Parser, Query } from 'web-tree-sitter';
import type { Node, QueryMatch } from 'web-tree-sitter';
import type { Binding, Definition, ImportDecl, Kind, ParsedFile, Reference } from '../types.js';
import { chunkFile } from './chunk.js';
import { LANGS } from './queries/index.js';

export type DefKind = Exclude<Kind, 'block'>;

/** What a language's exported() rule gets to look at. */
export interface DefInfo {
  node: Node;
  name: string;
  kind: DefKind;
  container: string;
  /** source text from the node's start to its name: where modifiers live */
  head: string;
  /** the definition sits inside a class-like body */
  inClass: boolean;
}

/**
 * One language. The query uses a fixed capture vocabulary:
 *   @def.<kind> + @name       a definition (node = whole definition, name = its identifier);
 *                             @receiver / @qualifier name the container explicitly
 *                             (Go receiver type, C++ `Foo::bar`)
 *   @class + @name            a class-like container that is not a definition (Rust impl)
 *   @namespace + @name        a namespace / module container (transparent for lookups)
 *   @namespace.rest + @name   a namespace that covers the rest of the file (C# `namespace X;`)
 *   @scope                    a function-like node with its own locals (lambdas, closures);
 *                             func/method definitions are scopes without saying so
 *   @local                    an identifier that declares a parameter or local variable
 *   @ref                      an identifier use; one written after a qualifier separator
 *                             (`a.b`) is a member and is dropped: qualified names that are not
 *                             called are read from the source after their head identifier
 *                             (`pkg.Const`), which spares a query match per field access
 *   @call                     the callee's last name segment; its qualifier (`a.b` of
 *                             `a.b.c()`) is read back from the source text
 *   @skip                     an identifier that is not a use (keyword-argument names ...)
 *   @ignore                   a node whose identifiers are none of our business
 *   @import                   an import statement, read by imports()
 */
export interface LangSpec {
  /** language name as detectLanguage() returns it */
  name: string;
  /** module specifier of the grammar's .wasm, resolved from this package */
  wasm: string;
  query: string;
  /** what may stand between a qualifier and a member name (`.`, `::`, `->`) */
  seps: readonly string[];
  /** joins qualifier segments when composing an import source ('.', '::', '\\') */
  sep: string;
  /** import sources are file paths: `Lib.fn` through `import {Lib} from "./x.sol"`
   *  stays source "./x.sol" instead of growing into "./x.sol.Lib" */
  pathSources?: boolean;
  /** members of the enclosing class are visible unqualified inside it (Java `helper()`) */
  implicitThis: boolean;
  /** receivers that mean "this object" (`self`, `this`, `$this`): `self.m()` binds to the
   *  enclosing class's own m when this file defines it */
  selfNames?: readonly string[];
  /** a bare call never names a variable (Java, Ruby): calls skip locals and fields */
  callsSkipLocals?: boolean;
  /** sticky pattern for one identifier at a given offset: names refs without a wasm call */
  ident: RegExp;
  /** predeclared names: dropped when nothing in the file binds them */
  builtins?: ReadonlySet<string>;
  exported(d: DefInfo): boolean;
  /** one import statement node -> its declarations */
  imports(node: Node): ImportDecl[];
}

// ---- loading -------------------------------------------------------------

interface Loaded {
  parser: Parser;
  query: Query;
  spec: LangSpec;
  /** capture name -> code, so the hot loop switches on small integers */
  codes: Map<string, number>;
  defKinds: Map<string, DefKind>;
}

const require = createRequire(import.meta.url);
let initOnce: Promise<void> | null = null;
const loaded = new Map<string, Promise<Loaded>>();

export const TREE_SITTER_LANGUAGES: readonly string[] = Object.freeze(Object.keys(LANGS));

const CAP_DEF = 1, CAP_NAME = 2, CAP_RECEIVER = 3, CAP_QUALIFIER = 4, CAP_CLASS = 5, CAP_NAMESPACE = 6,
  CAP_SCOPE = 7, CAP_LOCAL = 8, CAP_REF = 9, CAP_CALL = 10,
  CAP_SKIP = 13, CAP_IGNORE = 14, CAP_IMPORT = 15, CAP_NAMESPACE_REST = 16;

const CAPTURE_CODES: Record<string, number> = {
  name: CAP_NAME, receiver: CAP_RECEIVER, qualifier: CAP_QUALIFIER, class: CAP_CLASS,
  namespace: CAP_NAMESPACE, 'namespace.rest': CAP_NAMESPACE_REST, scope: CAP_SCOPE, local: CAP_LOCAL,
  ref: CAP_REF, call: CAP_CALL, skip: CAP_SKIP, ignore: CAP_IGNORE, import: CAP_IMPORT,
};

const DEF_KINDS = new Set<DefKind>(['func', 'method', 'class', 'type', 'struct', 'interface', 'enum', 'var', 'const']);

async function load(language: string): Promise<Loaded> {
  const spec = LANGS[language];
  if (!spec) throw new Error(`no tree-sitter grammar for ${language}`);
  initOnce ??= Parser.init();
  await initOnce;
  const lang = await Language.load(require.resolve(spec.wasm));
  const parser = new Parser();
  parser.setLanguage(lang);
  const query = new Query(lang, spec.query);
  const codes = new Map<string, number>();
  const defKinds = new Map<string, DefKind>();
  for (const n of query.captureNames) {
    if (n.startsWith('def.')) {
      const k = n.slice(4) as DefKind;
      if (!DEF_KINDS.has(k)) throw new Error(`${language}: unknown definition kind @${n}`);
      codes.set(n, CAP_DEF);
      defKinds.set(n, k);
    } else if (n.startsWith('_')) {
      codes.set(n, 0); // predicate helpers
    } else {
      const c = CAPTURE_CODES[n];
      if (c === undefined) throw new Error(`${language}: unknown capture @${n}`);
      codes.set(n, c);
    }
  }
  return { parser, query, spec, codes, defKinds };
}

function getLoaded(language: string): Promise<Loaded> {
  let p = loaded.get(language);
  if (!p) {
    p = load(language);
    // a failed load is not cached: the next file may succeed (and reports its own error)
    p.catch(() => loaded.delete(language));
    loaded.set(language, p);
  }
  return p;
}

// ---- per-file extraction ---------------------------------------------------

const CLASS_LIKE = new Set<DefKind>(['class', 'struct', 'interface', 'enum']);

interface RawDef {
  kind: DefKind;
  start: number;
  end: number;
  row: number;
  endRow: number;
  endCol: number;
  name: string;
  nameStart: number;
  nameRow: number;
  explicit: string | null; // receiver / qualifier
  pattern: number;
  node: Node;
}

/** A node that nests other things: definitions, impl blocks, namespaces, lambdas. */
interface Frame {
  start: number;
  end: number;
  /** 'fn' has locals; 'class' is class-like; 'ns' is transparent for lookups */
  type: 'fn' | 'class' | 'ns';
  name: string;
  def: RawDef | null;
  parent: Frame | null;
  /** name -> binding for lookups from inside; null until something is declared */
  table: Map<string, Binding> | null;
}

interface RawRef {
  start: number;
  row: number;
  col: number;
  prio: number; // call 3 > ref 1
  name: string;
  /** qualifier text before the name (`a.b` for `a.b.c()`), '' when unqualified */
  object: string;
}

const LOCAL: Binding = Object.freeze({ kind: 'local' }) as Binding;
const FREE: Binding = Object.freeze({ kind: 'free' }) as Binding;

function frameOrder(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return a.start - b.start || b.end - a.end;
}

function lineText(lines: string[], row: number): string {
  const t = (lines[row] ?? '').trim();
  return t.length > 200 ? t.slice(0, 200) : t;
}

const QUALIFIER_SPLIT = /\s*(?:\?\.|\.|::|->|\\)\s*/;
const IDENT_ONLY = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

export async function parseTreeSitter(language: string, text: string): Promise<ParsedFile> {
  const lines = text.split('\n');
  try {
    const l = await getLoaded(language);
    return extract(l, language, text, lines);
  } catch (e) {
    return {
      language,
      definitions: [],
      references: [],
      imports: [],
      chunks: chunkFile(lines, []),
      error: e instanceof Error ? e.message : String(e),
    };
  }
}

function extract(l: Loaded, language: string, text: string, lines: string[]): ParsedFile {
  const { parser, query, spec, codes, defKinds } = l;
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  let matches: QueryMatch[];
  const rawDefs: RawDef[] = [];
  const frames: Frame[] = [];
  const localStarts: number[] = [];
  const localNames: string[] = [];
  const skip = new Set<number>();
  const ignores: { start: number; end: number }[] = [];
  const refs: RawRef[] = [];
  const imports: ImportDecl[] = [];
  const ident = spec.ident;

  // test() + slice() instead of exec(): no match array per identifier
  const identAt = (start: number): string => {
    ident.lastIndex = start;
    return ident.test(text) ? text.slice(start, ident.lastIndex) : '';
  };

  try {
    matches = query.matches(tree.rootNode);
    for (let mi = 0; mi < matches.length; mi++) {
      const m = matches[mi]!;
      const caps = m.captures;
      let defNode: Node | null = null;
      let defKind: DefKind | null = null;
      let frameType: 'class' | 'ns' | null = null;
      let toEnd = false;
      let names: Node[] | null = null;
      let explicit: Node | null = null;
      let named: Node | null = null; // @call
      for (let ci = 0; ci < caps.length; ci++) {
        const c = caps[ci]!;
        const node = c.node;
        switch (codes.get(c.name)) {
          case CAP_DEF: defNode = node; defKind = defKinds.get(c.name)!; break;
          case CAP_NAME: (names ??= []).push(node); break;
          case CAP_RECEIVER: case CAP_QUALIFIER: explicit = node; break;
          case CAP_CLASS: defNode = node; frameType = 'class'; break;
          case CAP_NAMESPACE: defNode = node; frameType = 'ns'; break;
          case CAP_NAMESPACE_REST: defNode = node; frameType = 'ns'; toEnd = true; break;
          case CAP_SCOPE:
            frames.push({ start: node.startIndex, end: node.endIndex, type: 'fn', name: '', def: null, parent: null, table: null });
            break;
          case CAP_LOCAL: {
            const name = identAt(node.startIndex);
            if (name) { localStarts.push(node.startIndex); localNames.push(name); }
            break;
          }
          case CAP_REF: {
            const name = identAt(node.startIndex);
            if (name) refs.push({ start: node.startIndex, row: node.startPosition.row, col: node.startPosition.column, prio: 1, name, object: '' });
            break;
          }
          case CAP_CALL: named = node; break;
          case CAP_SKIP: skip.add(node.startIndex); break;
          case CAP_IGNORE: ignores.push({ start: node.startIndex, end: node.endIndex }); break;
          case CAP_IMPORT: {
            ignores.push({ start: node.startIndex, end: node.endIndex });
            for (const d of spec.imports(node)) imports.push(d);
            break;
          }
        }
      }
      if (named) {
        const name = identAt(named.startIndex);
        if (name) {
          // the qualifier is read back from the source, not from the tree: a grammar that
          // mis-nests `a + pkg.f()` as `(a + pkg).f()` still yields `pkg`
          const obj = qualifierBefore(spec, text, named.startIndex);
          refs.push({ start: named.startIndex, row: named.startPosition.row, col: named.startPosition.column, prio: 3, name, object: obj });
        }
      }
      if (defNode && names) {
        if (defKind) {
          const start = defNode.startIndex, end = defNode.endIndex;
          const endPos = defNode.endPosition;
          const ex = explicit ? explicit.text : null;
          for (const n of names) {
            rawDefs.push({
              kind: defKind, start, end, row: defNode.startPosition.row, endRow: endPos.row, endCol: endPos.column,
              name: n.text, nameStart: n.startIndex, nameRow: n.startPosition.row, explicit: ex, pattern: m.patternIndex, node: defNode,
            });
          }
        } else if (frameType) {
          // a namespace's own name is a declaration; an impl's type is a use of it
          if (frameType === 'ns') ignores.push({ start: names[0]!.startIndex, end: names[0]!.endIndex });
          frames.push({ start: defNode.startIndex, end: toEnd ? text.length + 1 : defNode.endIndex, type: frameType, name: names[0]!.text, def: null, parent: null, table: null });
        }
      }
    }
    return resolve(spec, language, text, lines, rawDefs, frames, localStarts, localNames, skip, ignores, refs, imports);
  } finally {
    tree.delete();
  }
}

function resolve(
  spec: LangSpec, language: string, text: string, lines: string[], rawDefs: RawDef[], frames: Frame[],
  localStarts: number[], localNames: string[], skip: Set<number>, ignores: { start: number; end: number }[],
  refs: RawRef[], imports: ImportDecl[],
): ParsedFile {
  // One definition per name node: when two patterns claim it (a struct is also
  // a type; a decorated function is also a function) the earlier pattern in the
  // query is the more specific one.
  const byKey = new Map<number, RawDef>();
  for (const d of rawDefs) {
    const prev = byKey.get(d.nameStart);
    if (!prev || d.pattern < prev.pattern) byKey.set(d.nameStart, d);
  }
  const defs = [...byKey.values()];
  for (const d of defs) {
    skip.add(d.nameStart);
    const type = d.kind === 'func' || d.kind === 'method' ? 'fn' : CLASS_LIKE.has(d.kind) ? 'class' : null;
    if (type) frames.push({ start: d.start, end: d.end, type, name: d.name, def: d, parent: null, table: null });
  }

  // Nest frames: parent = innermost frame enclosing it. Identical ranges (a
  // @scope capture on a definition node) keep the definition outermost.
  frames.sort((a, b) => frameOrder(a, b) || (a.def ? 0 : 1) - (b.def ? 0 : 1));
  const stack: Frame[] = [];
  for (const f of frames) {
    while (stack.length && stack[stack.length - 1]!.end <= f.start) stack.pop();
    f.parent = stack[stack.length - 1] ?? null;
    stack.push(f);
  }

  // Decide each definition's container, kind and whether it is kept at all.
  const kept: { d: RawDef; frame: Frame | null; container: string; kind: DefKind; inClass: boolean }[] = [];
  const defFrame = new Map<RawDef, Frame>();
  for (const f of frames) if (f.def) defFrame.set(f.def, f);
  // Enclosing frame of every definition: its own frame's parent, or for a
  // non-frame definition (var, const, type) the innermost frame holding it.
  const parentOf = new Map<RawDef, Frame | null>();
  defs.sort((a, b) => a.start - b.start || b.end - a.end);
  sweep(frames, defs, (d, f) => {
    const own = defFrame.get(d);
    parentOf.set(d, own ? own.parent : f);
  });
  const enclosing = (d: RawDef): Frame | null => parentOf.get(d) ?? null;
  const convertedLocals: { start: number; name: string }[] = [];
  for (const d of defs) {
    const parent = enclosing(d);
    let fn: Frame | null = null;
    let cls: Frame | null = null;
    for (let f = parent; f; f = f.parent) {
      if (f.type === 'fn' && !fn && !cls) fn = f;
      if (f.type !== 'fn' && !cls) cls = f;
    }
    let kind = d.kind;
    if ((kind === 'var' || kind === 'const') && (fn || (cls && cls.type === 'class'))) {
      // a local (or a field): not indexed, but it still shadows
      convertedLocals.push({ start: d.nameStart, name: d.name });
      continue;
    }
    const immediate = parent;
    const inClass = !!immediate && immediate.type === 'class';
    if (kind === 'func' && (inClass || d.explicit)) kind = 'method';
    const container = d.explicit ?? (cls ? cls.name : '');
    kept.push({ d, frame: defFrame.get(d) ?? null, container, kind, inClass });
  }
  kept.sort((a, b) => a.d.start - b.d.start || b.d.end - a.d.end);

  const definitions: Definition[] = [];
  const fileTable = new Map<string, Binding>();
  for (const k of kept) {
    const { d } = k;
    const endRow = d.endCol === 0 && d.endRow > d.row ? d.endRow - 1 : d.endRow;
    let sig = lineText(lines, d.row);
    // annotations, decorators, `template <...>`, a return type on its own line: the name's line says more
    if (d.nameRow > d.row && !sig.includes(d.name)) {
      const at = lineText(lines, d.nameRow);
      if (/^(?:@|\[|#\[|template\b)/.test(sig) || at.startsWith(d.name)) sig = at;
    }
    const head = text.slice(d.start, d.nameStart);
    const exported = spec.exported({ node: d.node, name: d.name, kind: k.kind, container: k.container, head, inClass: k.inClass });
    const index = definitions.length;
    definitions.push({ name: d.name, kind: k.kind, line: d.row + 1, endLine: endRow + 1, container: k.container, signature: sig, exported });
    if (d.explicit) continue; // Go methods, C++ Foo::bar: never called bare
    // Register the name where an unqualified use can see it.
    const parent = k.frame ? k.frame.parent : enclosing(d);
    let target: Map<string, Binding> | null = fileTable;
    for (let f = parent; f; f = f.parent) {
      if (f.type === 'ns') continue;
      if (f.type === 'fn' || spec.implicitThis) {
        f.table ??= new Map();
        target = f.table;
      } else {
        target = null; // a method of a class whose members need `self.`
      }
      break;
    }
    // a constructor shares its class's name: a bare use of that name means the class
    if (k.kind === 'method' && d.name === k.container) continue;
    if (target && !target.has(d.name)) target.set(d.name, { kind: 'def', def: index });
  }

  // Locals (parameters, local variables, fields in implicit-this classes) go
  // into the innermost frame that holds them; they shadow anything outside.
  const localEvents: { start: number; name: string }[] = convertedLocals;
  for (let i = 0; i < localStarts.length; i++) {
    skip.add(localStarts[i]!);
    localEvents.push({ start: localStarts[i]!, name: localNames[i]! });
  }
  localEvents.sort((a, b) => a.start - b.start);
  sweep(frames, localEvents, (ev, f) => {
    if (!f) return;
    if (f.type === 'ns' || (f.type === 'class' && !spec.implicitThis)) return;
    f.table ??= new Map();
    if (!f.table.has(ev.name)) f.table.set(ev.name, LOCAL);
  });

  // Imports: local name -> what it stands for.
  const named = new Map<string, { source: string; name: string }>();
  const namespaces = new Map<string, string>();
  const nsHeads = new Set<string>(); // `a` of a dotted namespace local `a.b`
  for (const imp of imports) {
    for (const n of imp.names) {
      if (n.local === '*' || n.local === '_' || n.local === '') continue;
      if (n.imported === '*') {
        if (!namespaces.has(n.local)) namespaces.set(n.local, imp.source);
        const dot = n.local.indexOf('.');
        if (dot > 0) nsHeads.add(n.local.slice(0, dot));
      }
      else if (!named.has(n.local)) named.set(n.local, { source: imp.source, name: n.imported });
    }
  }

  // References: one per identifier position, the strongest capture winning.
  refs.sort((a, b) => a.start - b.start || b.prio - a.prio);
  ignores.sort((a, b) => a.start - b.start);
  const references: Reference[] = [];
  const picked: RawRef[] = [];
  let ig = 0;
  let lastStart = -1;
  for (const r of refs) {
    if (r.start === lastStart) continue;
    lastStart = r.start;
    if (skip.has(r.start)) continue;
    while (ig < ignores.length && ignores[ig]!.end <= r.start) ig++;
    let ignored = false;
    for (let j = ig; j < ignores.length && ignores[j]!.start <= r.start; j++) {
      if (ignores[j]!.end > r.start) { ignored = true; break; }
    }
    if (ignored) continue;
    if (r.prio === 1 && afterSeparator(spec, text, r.start)) continue; // a member: its head reads it
    picked.push(r);
  }
  const callStarts = new Set<number>();
  for (const r of picked) if (r.prio === 3) callStarts.add(r.start);

  // `Type::method` / `Class.method` / `module::fn` with the qualifier defined in this file
  const members = new Map<string, number>();
  definitions.forEach((d, i) => {
    const key = `${d.container}\0${d.name}`;
    if (d.container && !members.has(key)) members.set(key, i);
  });
  const nsNames = new Set<string>();
  const classFrames = new Map<string, Frame>();
  for (const f of frames) {
    if (f.type === 'ns') nsNames.add(f.name);
    else if (f.type === 'class' && !classFrames.has(f.name)) classFrames.set(f.name, f);
  }

  const lookup = (name: string, f: Frame | null, call = false): Binding | null => {
    const skipLocal = call && spec.callsSkipLocals;
    for (; f; f = f.parent) {
      const b = f.table?.get(name);
      if (b && !(skipLocal && b === LOCAL)) return b;
      if (spec.implicitThis) {
        // members defined elsewhere in the file: `void Cls::put()` seen from Cls or another Cls:: body
        const cls = f.type === 'class' ? f.name : f.def?.explicit;
        if (cls) {
          const m = members.get(`${cls}\0${name}`);
          if (m !== undefined) return { kind: 'def', def: m };
          // and the fields of that class when the body is out of line
          const fb = f.type === 'class' ? undefined : classFrames.get(cls)?.table?.get(name);
          if (fb && !(skipLocal && fb === LOCAL)) return fb;
        }
      }
    }
    return fileTable.get(name) ?? null;
  };

  sweep(frames, picked, (r, f) => {
    if (r.prio === 1) {
      // `head.a.b` not called: the member b is a reference when the head is an import,
      // `self`, or a namespace/type of this file
      const m = memberAfter(spec, text, r, callStarts);
      if (m) {
        const b = qualified(spec, m, f, lookup, named, namespaces, members, nsNames);
        if (b) references.push({ name: m.name, line: m.row + 1, col: m.col, call: false, binding: b });
      }
    }
    let binding: Binding | null;
    if (!r.object) {
      binding = lookup(r.name, f, r.prio === 3);
      if (!binding) {
        const imp = named.get(r.name);
        if (imp) binding = { kind: 'import', source: imp.source, name: imp.name };
        else if (namespaces.has(r.name) || nsHeads.has(r.name) || nsNames.has(r.name) || spec.builtins?.has(r.name)) return; // a module alias or a predeclared name: nothing to link
        else binding = FREE;
      }
    } else {
      binding = qualified(spec, r, f, lookup, named, namespaces, members, nsNames);
      if (!binding) return;
    }
    references.push({ name: r.name, line: r.row + 1, col: r.col, call: r.prio === 3, binding });
  });

  return { language, definitions, references, imports, chunks: chunkFile(lines, definitions) };
}

/** `q.name`: an import when q starts with an import's local name; a call on anything else is free. */
function qualified(
  spec: LangSpec, r: RawRef, f: Frame | null, lookup: (n: string, f: Frame | null, call?: boolean) => Binding | null,
  named: Map<string, { source: string; name: string }>, namespaces: Map<string, string>,
  members: Map<string, number>, nsNames: Set<string>,
): Binding | null {
  const call = r.prio === 3;
  if (spec.selfNames?.includes(r.object)) {
    for (let c = f; c; c = c.parent) {
      const cls = c.type === 'class' ? c.name : c.def?.explicit;
      if (!cls) continue;
      const m = members.get(`${cls}\0${r.name}`);
      if (m !== undefined) return { kind: 'def', def: m };
      break;
    }
    return call ? FREE : null;
  }
  const segs = r.object.split(QUALIFIER_SPLIT);
  for (const s of segs) if (!IDENT_ONLY.test(s)) return call ? FREE : null;
  const head = segs[0]!;
  const local = lookup(head, f);
  if (local) {
    // a same-file type's member; anything else on a local or a def is an unknown object's method
    if (local.kind === 'def' && segs.length === 1) {
      const m = members.get(`${head}\0${r.name}`);
      if (m !== undefined) return { kind: 'def', def: m };
    }
    return call ? FREE : null;
  }
  // longest dotted prefix first: Python's `import a.b` is used as `a.b.c()`
  for (let i = segs.length; i >= 1; i--) {
    const ns = namespaces.get(i === 1 ? head : segs.slice(0, i).join('.'));
    if (ns === undefined) continue;
    const rest = spec.pathSources ? '' : segs.slice(i).join(spec.sep);
    return { kind: 'import', source: rest ? ns + spec.sep + rest : ns, name: r.name };
  }
  const rest = spec.pathSources ? '' : segs.slice(1).join(spec.sep);
  const imp = named.get(head);
  if (imp) {
    const base = spec.pathSources ? imp.source : imp.source ? imp.source + spec.sep + imp.name : imp.name;
    return { kind: 'import', source: rest ? base + spec.sep + rest : base, name: r.name };
  }
  if (segs.length === 1 && nsNames.has(head)) {
    const m = members.get(`${head}\0${r.name}`);
    if (m !== undefined) return { kind: 'def', def: m };
  }
  return call ? FREE : null;
}

/** Walk position-sorted events against the (sorted) frames, giving each its innermost frame. */
function sweep<T extends { start: number }>(frames: Frame[], events: T[], fn: (ev: T, f: Frame | null) => void): void {
  const stack: Frame[] = [];
  let fi = 0;
  for (const ev of events) {
    while (fi < frames.length && frames[fi]!.start <= ev.start) {
      const f = frames[fi++]!;
      while (stack.length && stack[stack.length - 1]!.end <= f.start) stack.pop();
      stack.push(f);
    }
    while (stack.length && stack[stack.length - 1]!.end <= ev.start) stack.pop();
    fn(ev, stack[stack.length - 1] ?? null);
  }
}

/** The separator ending at i (after optional spaces): its start, or -1 when there is none. */
function sepEndingAt(spec: LangSpec, text: string, i: number): number {
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  if (i < 0) return -1;
  for (const sep of spec.seps) {
    let at = i - sep.length + 1;
    if (at < 0 || !text.startsWith(sep, at)) continue;
    if (sep === '.' && text.charCodeAt(at - 1) === 46) return -1; // `a..b` is a range
    if (sep === '\\' && !isIdentCode(text.charCodeAt(at - 1))) return -1; // `\Foo` is rooted, not a member
    const c = text.charCodeAt(at - 1);
    if (c === 63 /* ? */ || c === 33 /* ! */ || c === 38 /* & */) at--; // `a?.b`, `a!.b`, `a&.b`
    return at;
  }
  return -1;
}

/** Is the identifier at `start` written right after a qualifier separator (`x.name`)? */
function afterSeparator(spec: LangSpec, text: string, start: number): boolean {
  return sepEndingAt(spec, text, start - 1) >= 0;
}

/** Marks a qualifier that is not a plain chain of names (`f().g`, `a[0].g`): never an import. */
const COMPLEX = '()';

/**
 * The qualifier written before the name at `start`: '' when there is none,
 * `a.b` for `a.b.name`, COMPLEX when it ends in a call, index, cast ...
 */
function qualifierBefore(spec: LangSpec, text: string, start: number): string {
  let out = '';
  let i = start;
  for (;;) {
    const at = sepEndingAt(spec, text, i - 1);
    if (at < 0) return out;
    const sep = text.slice(at, i).trim().replace(/^[?!&]/, '');
    let j = at - 1;
    while (j >= 0 && isSpace(text.charCodeAt(j))) j--;
    const end = j + 1;
    while (j >= 0 && (isIdentCode(text.charCodeAt(j)) || text.charCodeAt(j) === 36 /* $ */)) j--;
    const id = text.slice(j + 1, end);
    if (!id || /^[0-9]/.test(id)) return COMPLEX;
    out = out ? id + sep + out : id;
    i = j + 1;
  }
}

/**
 * After a head identifier, the chain `.a.b` up to its last name; null when there
 * is none or when the chain ends in a call (the query reports calls itself).
 */
function memberAfter(spec: LangSpec, text: string, head: RawRef, callStarts: Set<number>): RawRef | null {
  let i = head.start + head.name.length;
  let object = head.name;
  let last = -1;
  let lastName = '';
  const ident = spec.ident;
  for (;;) {
    let j = i;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    const sep = spec.seps.find((s) => text.startsWith(s, j));
    if (!sep) break;
    j += sep.length;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    ident.lastIndex = j;
    if (!ident.test(text)) break;
    if (last >= 0) object += sep + lastName;
    last = j;
    lastName = text.slice(j, ident.lastIndex);
    i = ident.lastIndex;
  }
  if (last < 0 || callStarts.has(last)) return null;
  let k = i;
  while (k < text.length && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
  const next = text.charCodeAt(k);
  if (next === 40 /* ( */ || next === 33 /* ! (Rust macro) */) return null;
  // the member's line and column, counted from the head's
  let row = head.row;
  let lineStart = -1;
  for (let p = head.start; p < last; p++) {
    if (text.charCodeAt(p) === 10) { row++; lineStart = p; }
  }
  const col = lineStart < 0 ? head.col + (last - head.start) : last - lineStart - 1;
  return { start: last, row, col, prio: 2, name: lastName, object };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isIdentCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}
