// Java: definitions, references and imports for tree-sitter-java. Owns the
// query and Java's rules: everything not `private` is exported, members of the
// enclosing class are visible unqualified, and a bare call always names a
// method (a local variable cannot be called), so locals never capture calls.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(compact_constructor_declaration name: (identifier) @name) @def.method

(lambda_expression) @scope
(formal_parameter name: (identifier) @local)
(spread_parameter (variable_declarator name: (identifier) @local))
(catch_formal_parameter name: (identifier) @local)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local))
(enhanced_for_statement name: (identifier) @local)
(lambda_expression parameters: (identifier) @local)
(inferred_parameters (identifier) @local)
(resource name: (identifier) @local)
(instanceof_expression name: (identifier) @local)
(type_parameter (type_identifier) @local)
(field_declaration declarator: (variable_declarator name: (identifier) @local))
(constant_declaration declarator: (variable_declarator name: (identifier) @local))
(enum_constant name: (identifier) @local)
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @local)))

(method_invocation !object name: (identifier) @call)
(method_invocation object: (_) name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(object_creation_expression type: (scoped_type_identifier (_) . (type_identifier) @call .))
(object_creation_expression type: (generic_type (scoped_type_identifier (_) . (type_identifier) @call .)))
(identifier) @ref
(type_identifier) @ref

(import_declaration) @import
(package_declaration) @ignore
`;

function imports(node: Node): ImportDecl[] {
  let path = '';
  let star = false;
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'scoped_identifier' || c.type === 'identifier') path = c.text.replace(/\s+/g, '');
    else if (c.type === 'asterisk') star = true;
  }
  if (!path) return [];
  const line = node.startPosition.row + 1;
  if (star) return [{ source: path, names: [{ imported: '*', local: '*' }], line }];
  const dot = path.lastIndexOf('.');
  const name = path.slice(dot + 1);
  return [{ source: dot < 0 ? '' : path.slice(0, dot), names: [{ imported: name, local: name }], line }];
}

const builtins = new Set([
  'var', 'String', 'Object', 'Integer', 'Long', 'Double', 'Float', 'Boolean', 'Character', 'Byte', 'Short',
  'Number', 'Math', 'System', 'Class', 'Void', 'Thread', 'StringBuilder', 'Iterable', 'Comparable', 'Runnable',
  'Throwable', 'Exception', 'Error', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException',
  'NullPointerException', 'UnsupportedOperationException', 'IndexOutOfBoundsException', 'InterruptedException',
  'Override', 'Deprecated', 'SuppressWarnings', 'FunctionalInterface', 'SafeVarargs', 'Record', 'Enum',
]);

export const java: LangSpec = {
  name: 'java',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-java.wasm',
  query,
  seps: ['.', '::'],
  sep: '.',
  selfNames: ['this'],
  implicitThis: true,
  callsSkipLocals: true,
  ident: /[\p{L}_$][\p{L}\p{N}_$]*/uy,
  builtins,
  exported: (d) => !/\bprivate\b/.test(d.head),
  imports,
};
