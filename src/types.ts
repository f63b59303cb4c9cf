// The shapes every stage speaks. Wire-facing names (Span, SearchResults,
// ContextBundle) follow the hosted service's API field for field, so JSON from
// this CLI and from /v1/code is interchangeable for an agent.

/** What the indexer decided a chunk or definition IS. */
export type Kind =
  | 'func'
  | 'method'
  | 'class'
  | 'type'
  | 'struct'
  | 'interface'
  | 'enum'
  | 'var'
  | 'const'
  | 'block';

/** Which retrieval produced a span, as the API names them. */
export type Tier = 'hybrid' | 'text' | 'regex' | 'symbol' | 'semantic';

export type Role = 'match' | 'definition' | 'caller';

/** code.Span: one located piece of code. */
export interface Span {
  repo: string;
  file: string;
  line: number;
  endLine: number;
  kind: Kind;
  symbol: string;
  role: Role;
  tier: Tier;
  score: number;
  snippet: string;
}

/** code.searchResults */
export interface SearchResults {
  query: string;
  type: Tier;
  results: Span[];
  degraded: boolean;
  capped: boolean;
}

/** code.ContextBundle (plus `omitted`, which the CLI adds for agents). */
export interface ContextBundle {
  query: string;
  repo: string;
  budgetTokens: number;
  usedTokens: number;
  spans: Span[];
  capped: boolean;
  degraded: boolean;
  omitted: { repo: string; file: string; line: number; endLine: number; tokens: number }[];
}

// ---- parse stage output -------------------------------------------------

export interface Definition {
  name: string;
  kind: Exclude<Kind, 'block'>;
  /** 1-based, inclusive */
  line: number;
  endLine: number;
  /** enclosing class, impl, receiver type or namespace, '' at top level */
  container: string;
  /** the definition's first source line, trimmed, at most 200 chars */
  signature: string;
  /** visible outside its file (export, pub, capitalised Go name, ...) */
  exported: boolean;
}

/**
 * How the parser bound a reference. `def` points into the same file's
 * definitions; `import` names a module specifier and the name exported by it;
 * `local` means it resolved to a binding we do not index (a parameter, a local
 * variable) and must NOT be bound to a same-named definition elsewhere;
 * `free` means the parser could not tell and the linker resolves it by name.
 */
export type Binding =
  | { kind: 'def'; def: number }
  | { kind: 'import'; source: string; name: string }
  | { kind: 'local' }
  | { kind: 'free' };

export interface Reference {
  name: string;
  line: number;
  /** 0-based column of the identifier */
  col: number;
  /** the identifier is the callee of a call (or `new`) */
  call: boolean;
  binding: Binding;
}

export interface ImportDecl {
  /** module specifier as written: './util', 'fmt', 'os.path', 'crate::a::b' */
  source: string;
  /** imported name -> local name; '*' for namespace / whole-module imports */
  names: { imported: string; local: string }[];
  line: number;
}

export interface ChunkSpec {
  line: number;
  endLine: number;
  kind: Kind;
  symbol: string;
}

export interface ParsedFile {
  language: string;
  definitions: Definition[];
  references: Reference[];
  imports: ImportDecl[];
  chunks: ChunkSpec[];
  /** set when the parser failed outright; chunks are then blocks */
  error?: string;
}

/** Why a file the walker saw has no content in the index. */
export type SkipReason = 'binary' | 'too-large' | 'long-line' | 'invalid-utf8' | 'unreadable';
