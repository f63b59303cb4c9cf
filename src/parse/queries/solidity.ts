// Solidity: definitions, references and imports for tree-sitter-solidity. Owns
// the query and Solidity's rules: everything is exported (visibility is about
// callers, not about the index), contract members are visible unqualified in
// the contract, and `import {A as B} from "x"` / `import * as X` bind names.

import type { Node } from 'web-tree-sitter';
import type { ImportDecl } from '../../types.js';
import type { LangSpec } from '../treesitter.js';

const query = String.raw`
(contract_declaration name: (identifier) @name) @def.class
(library_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(struct_declaration name: (identifier) @name) @def.struct
(enum_declaration name: (identifier) @name) @def.enum
(function_definition name: (identifier) @name) @def.func
(modifier_definition name: (identifier) @name) @def.func
(event_definition name: (identifier) @name) @def.type
(error_declaration name: (identifier) @name) @def.type
(user_defined_type_definition name: (identifier) @name) @def.type
(constant_variable_declaration name: (identifier) @name) @def.const

(parameter name: (identifier) @local)
(variable_declaration name: (identifier) @local)
(state_variable_declaration name: (identifier) @local)
(event_parameter name: (identifier) @skip)
(error_parameter name: (identifier) @skip)
(struct_member name: (identifier) @skip)

(call_expression function: (expression (identifier) @call))
(call_expression function: (expression (member_expression object: (_) property: (identifier) @call)))
(call_expression function: (expression (new_expression name: (type_name (user_defined_type (identifier) @call .)))))
(emit_statement name: (expression (identifier) @call))
(emit_statement name: (expression (member_expression object: (_) property: (identifier) @call)))
(revert_statement error: (expression (identifier) @call))
(revert_statement error: (expression (member_expression object: (_) property: (identifier) @call)))
(modifier_invocation (identifier) @call)
(identifier) @ref

(import_directive) @import
(pragma_directive) @ignore
`;

function imports(node: Node): ImportDecl[] {
  const source = (node.childForFieldName('source')?.text ?? '').replace(/^["']|["']$/g, '');
  const names: { imported: string; local: string }[] = [];
  let pending: { imported: string; local: string } | null = null;
  for (let i = 0; i < node.childCount; i++) {
    const field = node.fieldNameForChild(i);
    const c = node.child(i);
    if (!c) continue;
    if (field === 'import_name') {
      pending = { imported: c.text, local: c.text };
      names.push(pending);
    } else if (field === 'alias') {
      // `A as B` renames the name before it; `* as X` / `"x" as X` names the whole file
      if (pending) pending.local = c.text;
      else names.push({ imported: '*', local: c.text });
      pending = null;
    } else if (c.type === ',') {
      pending = null;
    }
  }
  if (names.length === 0) names.push({ imported: '*', local: '*' });
  return [{ source, names, line: node.startPosition.row + 1 }];
}

const builtins = new Set([
  'msg', 'block', 'tx', 'this', 'super', 'require', 'assert', 'revert', 'keccak256', 'sha256', 'ripemd160',
  'ecrecover', 'addmod', 'mulmod', 'abi', 'address', 'payable', 'type', 'selfdestruct', 'gasleft', 'blockhash',
  'blobhash', 'now', '_',
]);

export const solidity: LangSpec = {
  name: 'solidity',
  wasm: '@repomix/tree-sitter-wasms/out/tree-sitter-solidity.wasm',
  query,
  seps: ['.'],
  sep: '.',
  pathSources: true,
  selfNames: ['this'],
  implicitThis: true,
  ident: /[\p{L}_$][\p{L}\p{N}_$]*/uy,
  builtins,
  exported: () => true,
  imports,
};
