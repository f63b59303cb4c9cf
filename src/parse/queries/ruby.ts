// Ruby: definitions, references and requires for tree-sitter-ruby. Owns the
// query and Ruby's rules: everything is exported, a module is a namespace, a
// method in a class is visible unqualified in that class, a call with
// arguments always names a method (never a local), `Foo.new` is a call of Foo,
// and blocks have their own parameters. `require_relative "x"` is recorded as
// source "./x".

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(class name: (constant) @name) @def.class
(class name: (scope_resolution name: (constant) @name)) @def.class
(module name: (constant) @name) @namespace
(module name: (scope_resolution name: (constant) @name)) @namespace
(method name: (_) @name) @def.func
(singleton_method name: (_) @name) @def.func
(assignment left: (constant) @name) @def.const

(block) @scope
(do_block) @scope
(lambda) @scope
(method_parameters (identifier) @local)
(block_parameters (identifier) @local)
(lambda_parameters (identifier) @local)
(optional_parameter name: (identifier) @local)
(keyword_parameter name: (identifier) @local)
(splat_parameter name: (identifier) @local)
(hash_splat_parameter name: (identifier) @local)
(block_parameter name: (identifier) @local)
(destructured_parameter (identifier) @local)
(assignment left: (identifier) @local)
(operator_assignment left: (identifier) @local)
(left_assignment_list (identifier) @local)
(for pattern: (identifier) @local)
(exception_variable (identifier) @local)

((call receiver: (constant) @call method: (identifier) @skip) (#eq? @skip "new"))
(call !receiver method: (identifier) @call)
(call receiver: (_) method: [(identifier) (constant)] @call)
(identifier) @ref
(constant) @ref

((call method: (identifier) @_m arguments: (argument_list . (string) .)) @import
  (#any-of? @_m "require" "require_relative" "load" "autoload"))
`;

function imports(node: Node): ImportDecl[] {
  const method = node.childForFieldName('method')?.text ?? '';
  const str = node.childForFieldName('arguments')?.namedChildren[0];
  if (!str) return [];
  let source = str.text.replace(/^["']|["']$/g, '');
  if (method === 'require_relative' && !source.startsWith('.')) source = `./${source}`;
  // require loads a file's constants globally: nothing is bound to a local name
  return [{ source, names: [{ imported: '*', local: '*' }], line: node.startPosition.row + 1 }];
}

const builtins = new Set([
  'new', 'puts', 'print', 'p', 'pp', 'raise', 'require', 'require_relative', 'attr_reader', 'attr_writer',
  'attr_accessor', 'private', 'protected', 'public', 'module_function', 'include', 'extend', 'prepend',
  'lambda', 'proc', 'loop', 'block_given?', 'yield', 'super', 'format', 'sprintf', 'freeze', 'frozen?',
  'Integer', 'Float', 'String', 'Array', 'Hash', 'Symbol', 'Object', 'Kernel', 'Comparable', 'Enumerable',
  'StandardError', 'ArgumentError', 'RuntimeError', 'NotImplementedError', 'TypeError', 'KeyError', 'IOError',
  'File', 'Dir', 'IO', 'Time', 'Struct', 'Class', 'Module', 'Proc', 'Exception',
]);

export const ruby: LangSpec = {
  name: 'ruby',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-ruby.wasm',
  query,
  seps: ['.', '::'],
  sep: '::',
  pathSources: true,
  selfNames: ['self'],
  implicitThis: true,
  callsSkipLocals: true,
  ident: /[\p{L}_][\p{L}\p{N}_]*(?:[?!](?!=))?/uy,
  builtins,
  exported: () => true,
  imports,
};
