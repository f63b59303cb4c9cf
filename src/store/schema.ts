// The store's schema, in one place so its version and its DDL change together.
// Bump SCHEMA_VERSION on any change a previous build could misread; the store
// refuses other versions with a rebuild hint rather than guessing.

export const SCHEMA_VERSION = 2;

/**
 * Layout (measured in STACK-NOTES on 95 MiB of real source):
 * - `lex` is a contentless trigram FTS5 table with detail=none, one row per
 *   file (rowid = files.id): candidates only, ~1.3x source. Exact matching
 *   happens on `contents`, deflate-compressed, so the whole store is ~0.6x.
 * - `words` is the code-token BM25 index, one row per chunk (rowid =
 *   chunks.id): identifiers split at camelCase/snake_case, lower-cased, the
 *   whole identifier kept too, operators kept as tokens, Porter-stemmed so
 *   prose queries ("redirects handled") meet code ("handleRedirect").
 * - symbols/refs/imports come from the parsers; `refs.target` is the
 *   definition a reference resolved to (NULL when unresolved or local).
 * - embeddings are keyed by (chunk content hash, model): the same text in two
 *   places is embedded once, and a model switch never mixes vector sets.
 */
export const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS repos (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  root       TEXT NOT NULL,
  indexed_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS files (
  id          INTEGER PRIMARY KEY,
  repo_id     INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  path        TEXT NOT NULL,
  hash        TEXT NOT NULL,
  size        INTEGER NOT NULL,
  mtime_ms    INTEGER NOT NULL,
  language    TEXT NOT NULL,
  skip_reason TEXT,
  lines       INTEGER NOT NULL DEFAULT 0,
  indexed_at  INTEGER NOT NULL DEFAULT 0,
  parse_error TEXT,
  -- what produced this file's derived rows (parser set and version, or lexical-only):
  -- a file indexed by another extractor is re-parsed even when its content is unchanged
  extractor   TEXT NOT NULL DEFAULT '',
  UNIQUE (repo_id, path)
);

CREATE TABLE IF NOT EXISTS contents (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  data    BLOB NOT NULL
);

CREATE VIRTUAL TABLE IF NOT EXISTS lex USING fts5(
  text, content='', contentless_delete=1, detail=none, tokenize='trigram'
);

CREATE TABLE IF NOT EXISTS chunks (
  id       INTEGER PRIMARY KEY,
  file_id  INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  line     INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  kind     TEXT NOT NULL,
  symbol   TEXT NOT NULL,
  hash     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id, line);
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);

CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(
  path, symbol, body, content='', contentless_delete=1,
  tokenize = "porter unicode61 remove_diacritics 0 tokenchars '=!<>&|+-*/%^~?:'"
);

CREATE TABLE IF NOT EXISTS symbols (
  id        INTEGER PRIMARY KEY,
  file_id   INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  kind      TEXT NOT NULL,
  container TEXT NOT NULL,
  line      INTEGER NOT NULL,
  end_line  INTEGER NOT NULL,
  signature TEXT NOT NULL,
  exported  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE INDEX IF NOT EXISTS symbols_lname ON symbols(lower(name));
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);

CREATE TABLE IF NOT EXISTS refs (
  id        INTEGER PRIMARY KEY,
  file_id   INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  -- the chunk the reference sits in: with target, the caller-chunk -> callee-definition edge
  chunk     INTEGER,
  name      TEXT NOT NULL,
  line      INTEGER NOT NULL,
  col       INTEGER NOT NULL,
  call      INTEGER NOT NULL,
  -- how the parser bound it: def | import | local | free
  binding   TEXT NOT NULL,
  -- for binding=def: index into the file's definitions; for import: source + imported name
  bind_def  INTEGER,
  source    TEXT,
  imported  TEXT,
  -- resolution by the linker
  target    INTEGER REFERENCES symbols(id) ON DELETE SET NULL,
  ambiguous INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id, line);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_target ON refs(target);

CREATE TABLE IF NOT EXISTS imports (
  file_id  INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  source   TEXT NOT NULL,
  line     INTEGER NOT NULL,
  names    TEXT NOT NULL,
  resolved INTEGER REFERENCES files(id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);

CREATE TABLE IF NOT EXISTS embeddings (
  hash  TEXT NOT NULL,
  model TEXT NOT NULL,
  dim   INTEGER NOT NULL,
  vec   BLOB NOT NULL,
  PRIMARY KEY (hash, model)
) WITHOUT ROWID;
`;
