// Swift: definitions, references and imports for tree-sitter-swift. Owns the
// query and Swift's rules: not `private`/`fileprivate` is exported, a global
// `let` is a constant, an `extension` is a container for its members, members
// are visible unqualified in their type, and `import M` opens a whole module.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(class_declaration "struct" name: (type_identifier) @name) @def.struct
(class_declaration "enum" name: (type_identifier) @name) @def.enum
(class_declaration "extension" name: (user_type (type_identifier) @name)) @class
(class_declaration name: (type_identifier) @name) @def.class
(protocol_declaration name: (type_identifier) @name) @def.interface
(function_declaration name: (simple_identifier) @name) @def.func
(protocol_function_declaration name: (simple_identifier) @name) @def.func
(typealias_declaration name: (type_identifier) @name) @def.type
((property_declaration (value_binding_pattern) @_k name: (pattern bound_identifier: (simple_identifier) @name)) @def.const
  (#eq? @_k "let"))
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.var

(lambda_literal) @scope
(init_declaration) @scope
(deinit_declaration) @scope
(subscript_declaration) @scope
(parameter name: (simple_identifier) @local)
(parameter external_name: (simple_identifier) @skip)
(lambda_parameter name: (simple_identifier) @local)
(_ bound_identifier: (simple_identifier) @local)
(property_declaration name: (pattern (pattern (simple_identifier) @local)))
(for_statement item: (pattern (pattern (simple_identifier) @local)))
(for_statement item: (pattern (simple_identifier) @local))
(enum_entry name: (simple_identifier) @local)
(type_parameter (type_identifier) @local)

(call_expression . (simple_identifier) @call)
(call_expression . (navigation_expression target: _ suffix: (navigation_suffix suffix: (simple_identifier) @call)))
(value_argument_label (simple_identifier) @skip)
(prefix_expression target: (simple_identifier) @skip)
(simple_identifier) @ref
(type_identifier) @ref

(import_declaration) @import
`;

function imports(node: Node): ImportDecl[] {
  const id = node.namedChildren.find((c) => c?.type === 'identifier');
  if (!id) return [];
  // `import M` makes M's names visible bare and M usable as a qualifier (`M.f()`)
  const source = id.text.replace(/\s+/g, '');
  return [{ source, names: [{ imported: '*', local: source }], line: node.startPosition.row + 1 }];
}

const builtins = new Set([
  '$0', '$1', '$2', '$3', 'print', 'fatalError', 'precondition', 'assert', 'min', 'max', 'abs', 'zip', 'stride',
  'String', 'Int', 'Int64', 'Int32', 'UInt', 'Double', 'Float', 'Bool', 'Character', 'Array', 'Dictionary', 'Set',
  'Optional', 'Result', 'Error', 'Void', 'Any', 'AnyObject', 'Codable', 'Equatable', 'Hashable', 'Comparable',
  'Identifiable', 'CustomStringConvertible', 'Sendable', 'nil', 'true', 'false', 'super',
]);

export const swift: LangSpec = {
  name: 'swift',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm',
  query,
  seps: ['.'],
  sep: '.',
  selfNames: ['self', 'Self'],
  implicitThis: true,
  ident: /[\p{L}_$][\p{L}\p{N}_$]*/uy,
  builtins,
  exported: (d) => !/\b(?:private|fileprivate)\b/.test(d.head),
  imports,
};
