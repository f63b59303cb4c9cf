// C#: definitions, references and imports for tree-sitter-c-sharp. Owns the
// query and C#'s rules: not `private` is exported, members of the enclosing
// type are visible unqualified, `using A.B;` opens a namespace (binds no
// name) while `using X = A.B.C;` binds X, and `namespace N;` spans the file.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(class_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(delegate_declaration name: (identifier) @name) @def.type
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(local_function_statement name: (identifier) @name) @def.func
(namespace_declaration name: (_) @name) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace.rest

(lambda_expression) @scope
(anonymous_method_expression) @scope
(parameter name: (identifier) @local)
(lambda_expression parameters: (implicit_parameter) @local)
(variable_declarator name: (identifier) @local)
(variable_declarator (tuple_pattern name: (identifier) @local))
(foreach_statement left: (identifier) @local)
(catch_declaration name: (identifier) @local)
(declaration_expression name: (identifier) @local)
(property_declaration name: (identifier) @local)
(event_declaration name: (identifier) @local)
(enum_member_declaration name: (identifier) @local)
(type_parameter name: (identifier) @local)

(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name (identifier) @call))
(invocation_expression function: (member_access_expression expression: _ name: (identifier) @call))
(invocation_expression function: (member_access_expression expression: _ name: (generic_name (identifier) @call)))
(object_creation_expression type: (identifier) @call)
(object_creation_expression type: (generic_name (identifier) @call))
(object_creation_expression type: (qualified_name qualifier: (_) name: (identifier) @call))
(identifier) @ref

(using_directive) @import
`;

function imports(node: Node): ImportDecl[] {
  const line = node.startPosition.row + 1;
  const alias = node.childForFieldName('name');
  let target: Node | null = null;
  for (const c of node.namedChildren) {
    if (!c || (alias && c.startIndex === alias.startIndex)) continue;
    if (c.type === 'qualified_name' || c.type === 'identifier' || c.type === 'generic_name') target = c;
  }
  if (!target) return [];
  const path = target.text.replace(/\s+/g, '');
  if (alias) {
    // `using X = A.B.C;` names one type (or namespace) X
    const i = path.lastIndexOf('.');
    return [{ source: i < 0 ? '' : path.slice(0, i), names: [{ imported: i < 0 ? path : path.slice(i + 1), local: alias.text }], line }];
  }
  return [{ source: path, names: [{ imported: '*', local: '*' }], line }];
}

const builtins = new Set([
  'var', 'nameof', 'String', 'Object', 'Int32', 'Int64', 'Boolean', 'Double', 'Decimal', 'Math', 'Console',
  'Exception', 'ArgumentException', 'ArgumentNullException', 'InvalidOperationException', 'NotImplementedException',
  'NotSupportedException', 'Func', 'Action', 'Task', 'List', 'Dictionary', 'IEnumerable', 'Array', 'Type',
]);

export const csharp: LangSpec = {
  name: 'csharp',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-c_sharp.wasm',
  query,
  seps: ['.'],
  sep: '.',
  selfNames: ['this'],
  implicitThis: true,
  ident: /@?[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: (d) => !/\bprivate\b/.test(d.head),
  imports,
};
