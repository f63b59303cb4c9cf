// Rust: definitions, references and imports for tree-sitter-rust. Owns the
// query and Rust's rules: `pub` is exported, an `impl` block is the container
// of its functions, `use a::b::{c, d as e}` binds c and e, and paths (`a::b()`)
// resolve through whatever their first segment names.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';
import { groupBySource } from './imports.js';

const query = String.raw`
(function_item name: (identifier) @name) @def.func
(function_signature_item name: (identifier) @name) @def.func
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.interface
(type_item name: (type_identifier) @name) @def.type
(const_item name: (identifier) @name) @def.const
(static_item name: (identifier) @name) @def.var
(macro_definition name: (identifier) @name) @def.func
(impl_item type: [
  (type_identifier) @name
  (generic_type type: (type_identifier) @name)
  (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  (scoped_type_identifier name: (type_identifier) @name)
]) @class
(mod_item name: (identifier) @name body: (_)) @namespace

(closure_expression) @scope
(parameter pattern: (identifier) @local)
(closure_parameters (identifier) @local)
(let_declaration pattern: (identifier) @local)
(for_expression pattern: (identifier) @local)
(match_pattern (identifier) @local)
(tuple_pattern (identifier) @local)
(slice_pattern (identifier) @local)
(mut_pattern (identifier) @local)
(ref_pattern (identifier) @local)
(reference_pattern (identifier) @local)
(captured_pattern (identifier) @local)
(tuple_struct_pattern type: (_) (identifier) @local)
(field_pattern pattern: (identifier) @local)
(field_pattern name: (shorthand_field_identifier) @local)
(type_parameter name: (type_identifier) @local)

(call_expression function: (identifier) @call)
(call_expression function: (scoped_identifier path: (_) name: (identifier) @call))
(call_expression function: (field_expression value: (_) field: (field_identifier) @call))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (scoped_identifier path: (_) name: (identifier) @call)))
(call_expression function: (generic_function function: (field_expression value: (_) field: (field_identifier) @call)))
(macro_invocation macro: (identifier) @call)
(macro_invocation macro: (scoped_identifier path: (_) name: (identifier) @call))
(enum_variant name: (identifier) @skip)
(lifetime (identifier) @skip)
(identifier) @ref
(type_identifier) @ref

(use_declaration) @import
(extern_crate_declaration) @import
(attribute_item) @ignore
(inner_attribute_item) @ignore
`;

type Bind = { source: string; imported: string; local: string };

function lastSeg(path: string): [string, string] {
  const i = path.lastIndexOf('::');
  return i < 0 ? ['', path] : [path.slice(0, i), path.slice(i + 2)];
}

function bindPath(path: string, alias: string | null, out: Bind[]): void {
  const [source, name] = lastSeg(path);
  if (name === 'self') {
    // `use a::b::{self}` imports the module b itself
    const [s2, n2] = lastSeg(source);
    out.push(s2 ? { source: s2, imported: n2, local: alias ?? n2 } : { source: n2, imported: '*', local: alias ?? n2 });
  } else if (!source) {
    out.push({ source: name, imported: '*', local: alias ?? name }); // a crate
  } else {
    out.push({ source, imported: name, local: alias ?? name });
  }
}

function walk(node: Node, prefix: string, out: Bind[]): void {
  const join = (p: string) => (prefix ? `${prefix}::${p}` : p);
  switch (node.type) {
    case 'identifier': case 'self': case 'crate': case 'super': case 'scoped_identifier': case 'metavariable':
      bindPath(join(node.text.replace(/\s+/g, '')), null, out);
      break;
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      if (path) bindPath(join(path.text.replace(/\s+/g, '')), node.childForFieldName('alias')?.text ?? null, out);
      break;
    }
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const list = node.childForFieldName('list');
      if (list) walk(list, path ? join(path.text.replace(/\s+/g, '')) : prefix, out);
      break;
    }
    case 'use_list':
      for (const c of node.namedChildren) if (c) walk(c, prefix, out);
      break;
    case 'use_wildcard': {
      const path = node.namedChildren[0];
      out.push({ source: path ? join(path.text.replace(/\s+/g, '')) : prefix, imported: '*', local: '*' });
      break;
    }
  }
}

function imports(node: Node): ImportDecl[] {
  const line = node.startPosition.row + 1;
  const out: Bind[] = [];
  if (node.type === 'extern_crate_declaration') {
    const name = node.childForFieldName('name')?.text ?? '';
    const alias = node.childForFieldName('alias')?.text;
    out.push({ source: name, imported: '*', local: alias ?? name });
  } else {
    const arg = node.childForFieldName('argument');
    if (arg) walk(arg, '', out);
  }
  return groupBySource(out, line);
}

const builtins = new Set([
  'Self', 'Some', 'None', 'Ok', 'Err', 'Option', 'Result', 'Vec', 'String', 'Box', 'Rc', 'Arc',
  'Clone', 'Copy', 'Debug', 'Default', 'Drop', 'Eq', 'PartialEq', 'Ord', 'PartialOrd', 'Hash', 'Send', 'Sync',
  'Sized', 'Fn', 'FnMut', 'FnOnce', 'Iterator', 'IntoIterator', 'From', 'Into', 'AsRef', 'ToString', 'ToOwned',
  'println', 'print', 'eprintln', 'eprint', 'format', 'write', 'writeln', 'vec', 'panic', 'assert',
  'assert_eq', 'assert_ne', 'debug_assert', 'debug_assert_eq', 'unreachable', 'unimplemented', 'todo',
  'matches', 'dbg', 'concat', 'stringify', 'include_str', 'env', 'cfg',
]);

export const rust: LangSpec = {
  name: 'rust',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-rust.wasm',
  query,
  seps: ['::', '.'],
  sep: '::',
  selfNames: ['self', 'Self'],
  implicitThis: false,
  ident: /[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: (d) => /\bpub\b/.test(d.head),
  imports,
};
