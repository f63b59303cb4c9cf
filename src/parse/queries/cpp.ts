// C++: definitions, references and imports for tree-sitter-cpp, on top of the
// C patterns. Owns what C++ adds: classes and namespaces as containers,
// out-of-line `Cls::method` definitions, members visible unqualified inside
// their class, `using` declarations as imports, and `new T` as a call.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';
import { cBuiltins, cCommon, includes } from './c.js';

// function declarators, plain and out-of-line (`Cls::name`), through pointer/reference returns
const fnDecl = String.raw`[
  (function_declarator declarator: [(identifier) (field_identifier)] @name)
  (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
  (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
]`;
const methodDecl = String.raw`[
  (function_declarator declarator: (qualified_identifier scope: (_) @qualifier name: (identifier) @name))
  (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @qualifier name: (identifier) @name)))
  (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @qualifier name: (identifier) @name)))
]`;

// Templates first: the template line belongs to the definition, and its
// parameters become locals of it (a later pattern for the same name loses).
const query = String.raw`
(template_declaration (function_definition declarator: ${fnDecl})) @def.func
(template_declaration (function_definition declarator: ${methodDecl})) @def.method
(template_declaration (class_specifier name: (type_identifier) @name body: (_))) @def.class
(template_declaration (struct_specifier name: (type_identifier) @name body: (_))) @def.struct
(function_definition declarator: ${fnDecl}) @def.func
(function_definition declarator: ${methodDecl}) @def.method
(class_specifier name: (type_identifier) @name body: (_)) @def.class
(alias_declaration name: (type_identifier) @name) @def.type
(concept_definition name: (identifier) @name) @def.type
(namespace_definition name: (_) @name) @namespace
${cCommon}
(lambda_expression) @scope
(reference_declarator (identifier) @local)
(field_declaration declarator: (field_identifier) @local)
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @local))
(field_declaration declarator: (reference_declarator (field_identifier) @local))
(field_declaration declarator: (array_declarator declarator: (field_identifier) @local))
(type_parameter_declaration (type_identifier) @local)
(optional_type_parameter_declaration name: (type_identifier) @local)
(for_range_loop declarator: (identifier) @local)
(catch_clause parameters: (parameter_list (parameter_declaration declarator: (identifier) @local)))
(lambda_capture_specifier (identifier) @local)
(structured_binding_declarator (identifier) @local)
(function_declarator declarator: (field_identifier) @skip)

(call_expression function: (qualified_identifier scope: (_) name: (identifier) @call))
(call_expression function: (template_function name: (identifier) @call))
(call_expression function: (qualified_identifier scope: (_) name: (template_function name: (identifier) @call)))
(call_expression function: (field_expression argument: (_) field: (template_method name: (field_identifier) @call)))
(new_expression type: (type_identifier) @call)
(new_expression type: (qualified_identifier scope: (_) name: (type_identifier) @call))
(new_expression type: (template_type name: (type_identifier) @call))

(using_declaration) @import
`;

function imports(node: Node): ImportDecl[] {
  if (node.type === 'preproc_include') return includes(node);
  // `using namespace a::b;` opens a namespace; `using a::b::C;` names one member
  const line = node.startPosition.row + 1;
  const target = node.namedChildren.find((c) => c && (c.type === 'qualified_identifier' || c.type === 'identifier'));
  if (!target) return [];
  const path = target.text.replace(/\s+/g, '');
  if (/\bnamespace\b/.test(node.text.slice(0, target.startIndex - node.startIndex))) {
    return [{ source: path, names: [{ imported: '*', local: '*' }], line }];
  }
  const i = path.lastIndexOf('::');
  const name = i < 0 ? path : path.slice(i + 2);
  return [{ source: i < 0 ? '' : path.slice(0, i), names: [{ imported: name, local: name }], line }];
}

const builtins = new Set([
  ...cBuiltins, 'nullptr', 'std', 'static_cast', 'dynamic_cast', 'reinterpret_cast', 'const_cast', 'move',
  'forward', 'make_unique', 'make_shared', 'size_t', 'string', 'vector', 'this',
]);

export const cpp: LangSpec = {
  name: 'cpp',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-cpp.wasm',
  query,
  seps: ['.', '->', '::'],
  sep: '::',
  selfNames: ['this'],
  implicitThis: true,
  ident: /[\p{L}_$][\p{L}\p{N}_$]*/uy,
  builtins,
  // `static` hides a namespace-scope name; inside a class it only means per-class
  exported: (d) => d.inClass || d.kind === 'method' || !/\bstatic\b/.test(d.head),
  imports,
};
