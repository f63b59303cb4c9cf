// PHP: definitions, references and imports for tree-sitter-php. Owns the query
// and PHP's rules: everything is exported, `use A\B\C as D` binds D, a
// `namespace X;` statement spans the rest of the file, and variables (`$x`)
// live apart from functions and classes, so they are only reported when they
// are called (`$fn()`), bound to the parameter or assignment that made them.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';
import { groupBySource } from './imports.js';

const query = String.raw`
(function_definition name: (name) @name) @def.func
(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.class
(enum_declaration name: (name) @name) @def.enum
(method_declaration name: (name) @name) @def.method
(const_declaration (const_element (name) @name)) @def.const
(namespace_definition name: (_) @name body: (_)) @namespace
(namespace_definition name: (_) @name !body) @namespace.rest

(anonymous_function) @scope
(arrow_function) @scope
(simple_parameter name: (variable_name) @local)
(variadic_parameter name: (variable_name) @local)
(property_promotion_parameter name: (variable_name) @local)
(assignment_expression left: (variable_name) @local)
(foreach_statement (variable_name) @local)
(foreach_statement (pair (variable_name) @local))
(anonymous_function_use_clause (variable_name) @local)
(catch_clause name: (variable_name) @local)
(global_declaration (variable_name) @local)
(static_variable_declaration name: (variable_name) @local)
(list_literal (variable_name) @local)

(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (name) @call .))
(function_call_expression function: (variable_name) @call)
(member_call_expression object: (_) name: (name) @call)
(nullsafe_member_call_expression object: (_) name: (name) @call)
(scoped_call_expression scope: (_) name: (name) @call)
(object_creation_expression (name) @call)
(object_creation_expression (qualified_name (name) @call .))
(variable_name (name) @skip)
(name) @ref

(namespace_use_declaration) @import
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import
(declare_statement) @ignore
`;

function clean(path: string): string {
  return path.replace(/\s+/g, '').replace(/^\\/, '');
}

function useClause(clause: Node, prefix: string, out: { source: string; imported: string; local: string }[]): void {
  let path = '';
  let alias: string | null = null;
  for (let i = 0; i < clause.childCount; i++) {
    const c = clause.child(i);
    if (!c) continue;
    if (clause.fieldNameForChild(i) === 'alias') alias = c.text;
    else if (!path && (c.type === 'qualified_name' || c.type === 'name' || c.type === 'namespace_name')) path = clean(c.text);
  }
  if (!path) return;
  const full = prefix ? `${prefix}\\${path}` : path;
  const i = full.lastIndexOf('\\');
  const name = i < 0 ? full : full.slice(i + 1);
  out.push({ source: i < 0 ? '' : full.slice(0, i), imported: name, local: alias ?? name });
}

function imports(node: Node): ImportDecl[] {
  const line = node.startPosition.row + 1;
  if (node.type !== 'namespace_use_declaration') {
    // require __DIR__ . '/x.php' -> './x.php'; a computed path records what is literal
    const m = /["']([^"']+)["']/.exec(node.text);
    if (!m) return [];
    let source = m[1]!;
    if (/__DIR__|dirname\s*\(\s*__FILE__/.test(node.text) && source.startsWith('/')) source = `.${source}`;
    return [{ source, names: [{ imported: '*', local: '*' }], line }];
  }
  const out: { source: string; imported: string; local: string }[] = [];
  const group = node.childForFieldName('body');
  if (group) {
    const prefix = node.namedChildren.find((c) => c?.type === 'namespace_name' || c?.type === 'qualified_name' || c?.type === 'name');
    const p = prefix ? clean(prefix.text) : '';
    for (const c of group.namedChildren) if (c?.type === 'namespace_use_clause') useClause(c, p, out);
  } else {
    for (const c of node.namedChildren) if (c?.type === 'namespace_use_clause') useClause(c, '', out);
  }
  return groupBySource(out, line);
}

const builtins = new Set([
  'self', 'static', 'parent', 'true', 'false', 'null', 'array', 'isset', 'unset', 'empty', 'count', 'strlen',
  'array_map', 'array_filter', 'array_keys', 'array_values', 'array_merge', 'in_array', 'implode', 'explode',
  'sprintf', 'printf', 'json_encode', 'json_decode', 'is_array', 'is_string', 'is_int', 'is_null', 'trim',
  'str_replace', 'strtolower', 'strtoupper', 'substr', 'strpos', 'var_dump', 'print_r', 'die', 'exit',
  '__DIR__', '__FILE__', '__LINE__', '__CLASS__', '__FUNCTION__', '__METHOD__', '__NAMESPACE__',
  'Exception', 'InvalidArgumentException', 'RuntimeException', 'LogicException', 'Throwable', 'Closure',
  'stdClass', 'ArrayAccess', 'Countable', 'IteratorAggregate', 'Traversable', 'JsonSerializable', 'Stringable',
]);

export const php: LangSpec = {
  name: 'php',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-php.wasm',
  query,
  seps: ['->', '::', '\\'],
  sep: '\\',
  selfNames: ['$this', 'self', 'static'],
  implicitThis: false,
  ident: /\$?[\p{L}_][\p{L}\p{N}_]*/uy,
  builtins,
  exported: () => true,
  imports,
};
