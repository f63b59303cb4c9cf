// Go: definitions, references and imports for tree-sitter-go. Owns only the
// query text and Go's rules (capitalised = exported, receiver = container,
// import alias = last path element); the shared engine does the binding.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(function_declaration name: (identifier) @name) @def.func
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(var_spec name: (identifier) @name) @def.var
(const_spec name: (identifier) @name) @def.const

(func_literal) @scope
(parameter_declaration name: (identifier) @local)
(variadic_parameter_declaration name: (identifier) @local)
(short_var_declaration left: (expression_list (identifier) @local))
(range_clause left: (expression_list (identifier) @local))
(type_switch_statement alias: (expression_list (identifier) @local))
(type_parameter_declaration name: (identifier) @local)

(call_expression function: (identifier) @call)
(call_expression function: (selector_expression operand: (_) field: (field_identifier) @call))
(call_expression function: (parenthesized_expression (identifier) @call))
(qualified_type package: (package_identifier) @ref)
(keyed_element key: (literal_element (identifier) @skip))
(identifier) @ref
(type_identifier) @ref

(import_spec) @import
(package_clause) @ignore
`;

/** The package name a path is imported under when no alias is given. */
function defaultName(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1] ?? path;
  // major-version suffix directories (example.com/mod/v2) name the package before them
  if (/^v[0-9]+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
  last = last.replace(/^go-/, '').replace(/[.-]go$/, '').replace(/\.v[0-9]+$/, '');
  return last.replace(/[^\p{L}\p{N}_]/gu, '_');
}

function imports(node: Node): ImportDecl[] {
  const path = node.childForFieldName('path');
  if (!path) return [];
  const source = path.text.replace(/^["`]|["`]$/g, '');
  const alias = node.childForFieldName('name');
  let local = defaultName(source);
  if (alias) {
    // `.` imports every exported name unqualified: bind nothing, the linker sees them free
    local = alias.type === 'dot' ? '*' : alias.text;
  }
  return [{ source, names: [{ imported: '*', local }], line: node.startPosition.row + 1 }];
}

const builtins = new Set([
  'bool', 'byte', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16', 'int32',
  'int64', 'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr', 'any', 'comparable',
  'append', 'cap', 'clear', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max', 'min', 'new',
  'panic', 'print', 'println', 'real', 'recover', 'true', 'false', 'iota', 'nil', '_',
]);

export const go: LangSpec = {
  name: 'go',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-go.wasm',
  query,
  seps: ['.'],
  sep: '/',
  implicitThis: false,
  ident: /[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: (d) => /^\p{Lu}/u.test(d.name),
  imports,
};
