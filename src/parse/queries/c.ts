// C (and the part of C++ that is C): definitions, references and includes for
// tree-sitter-c. Owns the query and C's rules: a `static` definition is not
// exported, `#include` brings in a whole header, prototypes are declarations
// (not definitions), and a name's declarator may be nested in pointers,
// arrays and parentheses. The C++ spec builds on the shared pieces here.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

/** Patterns that read the same in tree-sitter-c and tree-sitter-cpp. */
export const cCommon = String.raw`
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.struct
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @def.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @def.type
(preproc_def name: (identifier) @name value: (_)) @def.const
(preproc_function_def name: (identifier) @name) @def.func
(declaration declarator: [
  (identifier) @name
  (init_declarator declarator: (identifier) @name)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
  (init_declarator declarator: (array_declarator declarator: (identifier) @name))
  (pointer_declarator declarator: (identifier) @name)
  (array_declarator declarator: (identifier) @name)
]) @def.var

(parameter_declaration declarator: (identifier) @local)
(pointer_declarator declarator: (identifier) @local)
(array_declarator declarator: (identifier) @local)
(init_declarator declarator: (identifier) @local)
(declaration declarator: (identifier) @local)
(parenthesized_declarator (pointer_declarator declarator: (identifier) @local))
(preproc_function_def parameters: (preproc_params (identifier) @local))
(function_declarator declarator: (identifier) @skip)
(enumerator name: (identifier) @skip)

(call_expression function: (identifier) @call)
(call_expression function: (field_expression argument: (_) field: (field_identifier) @call))
(call_expression function: (parenthesized_expression (identifier) @call))
(identifier) @ref
(type_identifier) @ref

(preproc_include) @import
`;

const query = String.raw`
(function_definition declarator: [
  (function_declarator declarator: (identifier) @name)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
]) @def.func
${cCommon}
`;

export function includes(node: Node): ImportDecl[] {
  const path = node.childForFieldName('path');
  if (!path) return [];
  const source = path.text.replace(/^[<"]|[>"]$/g, '');
  // an include makes every name of the header visible unqualified: nothing to bind locally
  return [{ source, names: [{ imported: '*', local: '*' }], line: node.startPosition.row + 1 }];
}

export const cBuiltins = new Set(['NULL', 'EOF', 'errno', 'stdin', 'stdout', 'stderr', 'bool', 'true', 'false']);

export const c: LangSpec = {
  name: 'c',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-c.wasm',
  query,
  seps: ['.', '->'],
  sep: '/',
  pathSources: true,
  implicitThis: false,
  ident: /[\p{L}_$][\p{L}\p{N}_$]*/uy,
  builtins: cBuiltins,
  exported: (d) => !/\bstatic\b/.test(d.head),
  imports: includes,
};
