// Kotlin: definitions, references and imports for the tree-sitter-grammars
// Kotlin grammar. Owns the query and Kotlin's rules: not `private` is exported,
// `const val` is a constant, class members (constructor `val`s included) are
// visible unqualified in the class, and `import a.b.C as D` binds D.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(class_declaration "interface" name: (identifier) @name) @def.interface
((class_declaration (modifiers (class_modifier) @_m) name: (identifier) @name) @def.enum (#eq? @_m "enum"))
(class_declaration name: (identifier) @name) @def.class
(object_declaration name: (identifier) @name) @def.class
(function_declaration name: (identifier) @name) @def.func
(type_alias type: (identifier) @name) @def.type
((property_declaration (modifiers (property_modifier) @_c) (variable_declaration . (identifier) @name)) @def.const (#eq? @_c "const"))
(property_declaration (variable_declaration . (identifier) @name)) @def.var

(lambda_literal) @scope
(anonymous_function) @scope
(parameter (identifier) @local)
(class_parameter (identifier) @local)
(variable_declaration (identifier) @local)
(catch_block (identifier) @local)
(enum_entry (identifier) @local)
(type_parameter (identifier) @local)

(call_expression . (identifier) @call)
(call_expression . (navigation_expression (_) . (identifier) @call .))
(identifier) @ref

(import) @import
(package_header) @ignore
`;

function imports(node: Node): ImportDecl[] {
  const line = node.startPosition.row + 1;
  let path = '';
  let alias: string | null = null;
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'qualified_identifier') path = c.text.replace(/\s+/g, '');
    else if (c.type === 'identifier') alias = c.text;
  }
  if (!path) return [];
  if (/\.\s*\*\s*$/.test(node.text)) return [{ source: path, names: [{ imported: '*', local: '*' }], line }];
  const i = path.lastIndexOf('.');
  const name = i < 0 ? path : path.slice(i + 1);
  return [{ source: i < 0 ? '' : path.slice(0, i), names: [{ imported: name, local: alias ?? name }], line }];
}

const builtins = new Set([
  'it', 'println', 'print', 'require', 'requireNotNull', 'check', 'checkNotNull', 'error', 'listOf', 'mutableListOf',
  'setOf', 'mutableSetOf', 'mapOf', 'mutableMapOf', 'arrayOf', 'emptyList', 'emptyMap', 'lazy', 'let', 'also',
  'apply', 'run', 'with', 'repeat', 'TODO', 'String', 'Int', 'Long', 'Double', 'Float', 'Boolean', 'Char',
  'Byte', 'Short', 'Unit', 'Any', 'Nothing', 'List', 'MutableList', 'Map', 'MutableMap', 'Set', 'MutableSet',
  'Array', 'Pair', 'Triple', 'Exception', 'IllegalArgumentException', 'IllegalStateException', 'null', 'true', 'false',
]);

export const kotlin: LangSpec = {
  name: 'kotlin',
  wasm: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  query,
  seps: ['.', '::'],
  sep: '.',
  selfNames: ['this'],
  implicitThis: true,
  ident: /[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: (d) => !/\bprivate\b/.test(d.head),
  imports,
};
