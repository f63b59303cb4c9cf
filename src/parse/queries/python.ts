// Python: definitions, references and imports for tree-sitter-python. Owns the
// query and Python's rules: `_name` is private, module-level assignments are
// definitions (UPPER_CASE ones constants), any assignment inside a function
// makes the name local to the whole function, `import a.b` is used as `a.b.x`.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(decorated_definition definition: (class_definition name: (identifier) @name)) @def.class
(decorated_definition definition: (function_definition name: (identifier) @name)) @def.func
(class_definition name: (identifier) @name) @def.class
(function_definition name: (identifier) @name) @def.func
(module (expression_statement (assignment left: (identifier) @name)) @def.const
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
(module (expression_statement (assignment left: (pattern_list (identifier) @name))) @def.const
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
(module (expression_statement (assignment left: (identifier) @name)) @def.var)
(module (expression_statement (assignment left: (pattern_list (identifier) @name))) @def.var)

(lambda) @scope
(parameters (identifier) @local)
(lambda_parameters (identifier) @local)
(default_parameter name: (identifier) @local)
(typed_parameter (identifier) @local)
(typed_default_parameter name: (identifier) @local)
(list_splat_pattern (identifier) @local)
(dictionary_splat_pattern (identifier) @local)
(assignment left: (identifier) @local)
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] (identifier) @local)
(augmented_assignment left: (identifier) @local)
(for_statement left: (identifier) @local)
(for_statement left: [(pattern_list) (tuple_pattern)] (identifier) @local)
(for_in_clause left: (identifier) @local)
(for_in_clause left: [(pattern_list) (tuple_pattern)] (identifier) @local)
(as_pattern_target (identifier) @local)
(as_pattern_target (tuple (identifier) @local))
(named_expression name: (identifier) @local)

(call function: (identifier) @call)
(call function: (attribute object: (_) attribute: (identifier) @call))
(keyword_argument name: (identifier) @skip)
(global_statement (identifier) @skip)
(nonlocal_statement (identifier) @skip)
(identifier) @ref

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @ignore
`;

function imports(node: Node): ImportDecl[] {
  const line = node.startPosition.row + 1;
  const names: { imported: string; local: string }[] = [];
  if (node.type === 'import_statement') {
    // `import a.b, c as d`: each module is its own declaration
    const out: ImportDecl[] = [];
    for (const n of node.childrenForFieldName('name')) {
      if (n.type === 'aliased_import') {
        const mod = n.childForFieldName('name')?.text ?? '';
        out.push({ source: mod, names: [{ imported: '*', local: n.childForFieldName('alias')?.text ?? mod }], line });
      } else {
        out.push({ source: n.text, names: [{ imported: '*', local: n.text }], line });
      }
    }
    return out;
  }
  const source = (node.childForFieldName('module_name')?.text ?? '').replace(/\s+/g, '');
  for (const n of node.childrenForFieldName('name')) {
    if (n.type === 'aliased_import') {
      const imported = n.childForFieldName('name')?.text ?? '';
      names.push({ imported, local: n.childForFieldName('alias')?.text ?? imported });
    } else {
      names.push({ imported: n.text, local: n.text });
    }
  }
  for (const c of node.namedChildren) if (c?.type === 'wildcard_import') names.push({ imported: '*', local: '*' });
  return [{ source, names, line }];
}

const builtins = new Set([
  'abs', 'all', 'any', 'ascii', 'bin', 'bool', 'breakpoint', 'bytearray', 'bytes', 'callable', 'chr',
  'classmethod', 'compile', 'complex', 'delattr', 'dict', 'dir', 'divmod', 'enumerate', 'eval', 'exec',
  'filter', 'float', 'format', 'frozenset', 'getattr', 'globals', 'hasattr', 'hash', 'help', 'hex', 'id',
  'input', 'int', 'isinstance', 'issubclass', 'iter', 'len', 'list', 'locals', 'map', 'max', 'memoryview',
  'min', 'next', 'object', 'oct', 'open', 'ord', 'pow', 'print', 'property', 'range', 'repr', 'reversed',
  'round', 'set', 'setattr', 'slice', 'sorted', 'staticmethod', 'str', 'sum', 'super', 'tuple', 'type',
  'vars', 'zip', '__import__', '__name__', '__file__', '__doc__', 'self', 'cls', 'NotImplemented', 'Ellipsis',
  'BaseException', 'Exception', 'ArithmeticError', 'AssertionError', 'AttributeError', 'EOFError',
  'ImportError', 'ModuleNotFoundError', 'IndexError', 'KeyError', 'KeyboardInterrupt', 'LookupError',
  'MemoryError', 'NameError', 'NotImplementedError', 'OSError', 'IOError', 'OverflowError', 'RecursionError',
  'RuntimeError', 'StopIteration', 'StopAsyncIteration', 'SyntaxError', 'SystemExit', 'TypeError',
  'UnicodeDecodeError', 'UnicodeEncodeError', 'UnicodeError', 'ValueError', 'ZeroDivisionError',
  'FileNotFoundError', 'FileExistsError', 'PermissionError', 'TimeoutError', 'ConnectionError',
  'Warning', 'DeprecationWarning', 'UserWarning', 'RuntimeWarning',
]);

export const python: LangSpec = {
  name: 'python',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-python.wasm',
  query,
  seps: ['.'],
  sep: '.',
  selfNames: ['self', 'cls'],
  implicitThis: false,
  ident: /[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: (d) => !d.name.startsWith('_'),
  imports,
};
