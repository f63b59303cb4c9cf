// The store: the only module that holds SQL or touches the SQLite driver.
// One file per org at {dataDir}/orgs/{slug}/code.db, so an org's query can
// never reach another org's rows. Everything else gets typed functions.
//
// Durability model: WAL, and every batch of file writes in one transaction, so
// a SIGKILL at any moment leaves the last committed batch readable and the
// next `index` run finishes the job (unchanged files are skipped by hash).

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { storePath } from '../config.js';
import { StoreError, UsageError } from '../errors.js';
import type { ChunkSpec, Definition, ImportDecl, Kind, Reference, SkipReason } from '../types.js';
import { DDL, SCHEMA_VERSION } from './schema.js';

type DB = Database.Database;

export { ORG_SLUG, storePath } from '../config.js';

export interface RepoRow { id: number; name: string; root: string; indexedAt: number }
export interface FileRow {
  id: number; repoId: number; path: string; hash: string; size: number; mtimeMs: number;
  language: string; skipReason: SkipReason | null; lines: number; indexedAt: number;
  /** set by filesOf, for change detection */
  extractor?: string;
}
export interface ChunkRow { id: number; fileId: number; line: number; endLine: number; kind: Kind; symbol: string; hash: string }
export interface SymbolRow {
  id: number; fileId: number; name: string; kind: Exclude<Kind, 'block'>; container: string;
  line: number; endLine: number; signature: string; exported: boolean;
}

const LINK_PAGE = 50_000;

export interface LinkRef {
  id: number; fileId: number; name: string; binding: string; source: string | null; imported: string | null; target: number | null; ambiguous: number;
}

export interface ChunkHit extends ChunkRow { path: string; repo: string; language: string }
export interface SymbolHit extends SymbolRow { path: string; repo: string; language: string }

/** Everything one parsed file contributes, written in one go. */
export interface FileWrite {
  repoId: number;
  path: string;
  hash: string;
  size: number;
  mtimeMs: number;
  language: string;
  skipReason: SkipReason | null;
  /** what produced the derived rows: see files.extractor */
  extractor: string;
  /** absent for skipped files */
  text?: string;
  lines: number;
  parseError?: string;
  definitions: Definition[];
  references: Reference[];
  imports: ImportDecl[];
  chunks: (ChunkSpec & { hash: string; words: { path: string; symbol: string; body: string } })[];
}

export interface OpenOptions { create?: boolean; readonly?: boolean }

export class Store {
  readonly db: DB;
  readonly file: string;
  private stmts = new Map<string, Database.Statement>();

  private constructor(db: DB, file: string) {
    this.db = db;
    this.file = file;
  }

  /** Open an org's store. Without `create`, a missing store is a StoreError (exit 3). */
  static open(dataDir: string, org: string, opts: OpenOptions = {}): Store {
    const file = storePath(dataDir, org);
    const exists = fs.existsSync(file);
    if (!exists && !opts.create) {
      throw new StoreError('no-store', `no index for org "${org}" at ${file}`, 'run `hanzo code index .` in a checkout to make one');
    }
    if (!exists) {
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
      } catch (e) {
        throw new UsageError(`invalid data dir "${dataDir}": cannot create ${path.dirname(file)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    }
    let db: DB;
    try {
      db = new Database(file, { readonly: !!opts.readonly && exists, fileMustExist: !opts.create });
    } catch (e) {
      throw new StoreError('corrupt', `cannot open the store ${file}: ${(e as Error).message}`);
    }
    const store = new Store(db, file);
    try {
      store.init(!exists);
    } catch (e) {
      db.close();
      throw e;
    }
    return store;
  }

  private init(fresh: boolean): void {
    const db = this.db;
    db.pragma('busy_timeout = 10000');
    if (!db.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');
    let version: number;
    try {
      version = db.pragma('user_version', { simple: true }) as number;
    } catch (e) {
      throw new StoreError('corrupt', `${this.file} is not a readable SQLite store: ${(e as Error).message}`, 'delete it and run `hanzo code index .` again');
    }
    if (fresh || version === 0) {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type='table'").get() as { n: number };
      if (tables.n > 0 && version === 0) {
        throw new StoreError('schema', `${this.file} is not a hanzo-code store (no schema version)`, `move it aside and run \`hanzo code index .\``);
      }
      if (db.readonly) throw new StoreError('no-store', `the store ${this.file} is empty`, 'run `hanzo code index .`');
      db.exec('BEGIN');
      db.exec(DDL);
      db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('created_at', String(Date.now()));
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      db.exec('COMMIT');
      return;
    }
    if (version !== SCHEMA_VERSION) {
      throw new StoreError(
        'schema',
        `the store ${this.file} has schema version ${version}; this hanzo-code reads version ${SCHEMA_VERSION}`,
        `rebuild it: rm ${JSON.stringify(this.file)} && hanzo code index .`,
      );
    }
  }

  close(): void {
    this.stmts.clear();
    if (this.db.open) this.db.close();
  }

  private q(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Run fn in one transaction (atomic batch). IMMEDIATE takes the write lock
   * up front, so a second index run waits for it (busy_timeout) instead of
   * failing at once when its read turns into a write, as a deferred one would.
   */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  sizeBytes(): number {
    let total = 0;
    for (const f of [this.file, this.file + '-wal']) {
      try { total += fs.statSync(f).size; } catch { /* absent */ }
    }
    return total;
  }

  /**
   * Bulk-write mode for an index run: let the WAL grow (a checkpoint every
   * ~80 MB instead of every 4 MB) and checkpoint once at the end. Readers are
   * unaffected, and each batch is still its own durable transaction.
   */
  bulk(on: boolean, heavy = false): void {
    if (this.db.readonly) return;
    this.db.pragma(`wal_autocheckpoint = ${on ? 20000 : 1000}`);
    // FTS5 merges its segments as it goes; during a bulk load that work is
    // redone many times. Off while loading, then one pass at the end: a full
    // optimize after a heavy run (the index it leaves is also the fastest to
    // query), a bounded merge after a small one. crisismerge still caps the
    // segment count if a run dies with automerge off, and the next run restores it.
    for (const t of ['lex', 'words']) {
      if (on) this.q(`INSERT INTO ${t}(${t}, rank) VALUES ('automerge', 0)`).run();
      else {
        if (heavy) this.q(`INSERT INTO ${t}(${t}) VALUES ('optimize')`).run();
        else this.q(`INSERT INTO ${t}(${t}, rank) VALUES ('merge', 500)`).run();
        this.q(`INSERT INTO ${t}(${t}, rank) VALUES ('automerge', 4)`).run();
      }
    }
  }

  checkpoint(): void {
    if (!this.db.readonly) this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  // ---- repos -------------------------------------------------------------

  upsertRepo(name: string, root: string): RepoRow {
    this.q('INSERT INTO repos(name, root) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET root = excluded.root').run(name, root);
    return this.repo(name)!;
  }

  repo(name: string): RepoRow | undefined {
    const r = this.q('SELECT id, name, root, indexed_at AS indexedAt FROM repos WHERE name = ?').get(name) as RepoRow | undefined;
    return r;
  }

  repos(): RepoRow[] {
    return this.q('SELECT id, name, root, indexed_at AS indexedAt FROM repos ORDER BY name').all() as RepoRow[];
  }

  markRepoIndexed(repoId: number, at: number): void {
    this.q('UPDATE repos SET indexed_at = ? WHERE id = ?').run(at, repoId);
  }

  // ---- files -------------------------------------------------------------

  filesOf(repoId: number): FileRow[] {
    return this.q(
      `SELECT id, repo_id AS repoId, path, hash, size, mtime_ms AS mtimeMs, language, skip_reason AS skipReason,
              lines, indexed_at AS indexedAt, extractor FROM files WHERE repo_id = ? ORDER BY path`,
    ).all(repoId) as FileRow[];
  }

  fileByPath(repoId: number, p: string): FileRow | undefined {
    return this.q(
      `SELECT id, repo_id AS repoId, path, hash, size, mtime_ms AS mtimeMs, language, skip_reason AS skipReason,
              lines, indexed_at AS indexedAt FROM files WHERE repo_id = ? AND path = ?`,
    ).get(repoId, p) as FileRow | undefined;
  }

  fileById(id: number): (FileRow & { repo: string }) | undefined {
    return this.q(
      `SELECT f.id, f.repo_id AS repoId, f.path, f.hash, f.size, f.mtime_ms AS mtimeMs, f.language,
              f.skip_reason AS skipReason, f.lines, f.indexed_at AS indexedAt, r.name AS repo
         FROM files f JOIN repos r ON r.id = f.repo_id WHERE f.id = ?`,
    ).get(id) as (FileRow & { repo: string }) | undefined;
  }

  /** Record that an unchanged file was seen again with a new mtime (stat fast path stays valid). */
  touchFile(id: number, mtimeMs: number, at: number): void {
    this.q('UPDATE files SET mtime_ms = ?, indexed_at = ? WHERE id = ?').run(mtimeMs, at, id);
  }

  /** Delete a file and every row it owns (FTS rows are not covered by cascades). */
  deleteFile(id: number): void {
    this.q('DELETE FROM lex WHERE rowid = ?').run(id);
    for (const c of this.q('SELECT id FROM chunks WHERE file_id = ?').all(id) as { id: number }[]) {
      this.q('DELETE FROM words WHERE rowid = ?').run(c.id);
    }
    this.q('DELETE FROM files WHERE id = ?').run(id);
  }

  /** Replace (or add) one file with everything it owns. Returns the file id. Call inside tx(). */
  writeFile(w: FileWrite, at: number): number {
    const old = this.fileByPath(w.repoId, w.path);
    if (old) this.deleteFile(old.id);
    const info = this.q(
      `INSERT INTO files(repo_id, path, hash, size, mtime_ms, language, skip_reason, lines, indexed_at, parse_error, extractor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(w.repoId, w.path, w.hash, w.size, Math.trunc(w.mtimeMs), w.language, w.skipReason, w.lines, at, w.parseError ?? null, w.extractor);
    const fileId = Number(info.lastInsertRowid);
    if (w.text === undefined) return fileId;

    this.q('INSERT INTO contents(file_id, data) VALUES (?, ?)').run(fileId, zlib.deflateRawSync(w.text, { level: 1 }));
    this.q('INSERT INTO lex(rowid, text) VALUES (?, ?)').run(fileId, w.text);

    const insChunk = this.q('INSERT INTO chunks(file_id, line, end_line, kind, symbol, hash) VALUES (?, ?, ?, ?, ?, ?)');
    const insWords = this.q('INSERT INTO words(rowid, path, symbol, body) VALUES (?, ?, ?, ?)');
    const chunkIds: { id: number; line: number; endLine: number }[] = [];
    for (const c of w.chunks) {
      const r = insChunk.run(fileId, c.line, c.endLine, c.kind, c.symbol, c.hash);
      insWords.run(r.lastInsertRowid, c.words.path, c.words.symbol, c.words.body);
      chunkIds.push({ id: Number(r.lastInsertRowid), line: c.line, endLine: c.endLine });
    }
    chunkIds.sort((a, b) => a.line - b.line);
    const chunkAt = (line: number): number | null => {
      let lo = 0;
      let hi = chunkIds.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = chunkIds[mid]!;
        if (line < c.line) hi = mid - 1;
        else if (line > c.endLine) lo = mid + 1;
        else return c.id;
      }
      return null;
    };
    const insSym = this.q(
      'INSERT INTO symbols(file_id, name, kind, container, line, end_line, signature, exported) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const symIds: number[] = [];
    for (const d of w.definitions) {
      const r = insSym.run(fileId, d.name, d.kind, d.container, d.line, d.endLine, d.signature, d.exported ? 1 : 0);
      symIds.push(Number(r.lastInsertRowid));
    }
    const insRef = this.q(
      `INSERT INTO refs(file_id, chunk, name, line, col, call, binding, bind_def, source, imported, target)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of w.references) {
      const b = r.binding;
      // a same-file binding resolves right away; the linker handles the rest
      const target = b.kind === 'def' ? symIds[b.def] ?? null : null;
      insRef.run(
        fileId, chunkAt(r.line), r.name, r.line, r.col, r.call ? 1 : 0, b.kind,
        b.kind === 'def' ? b.def : null,
        b.kind === 'import' ? b.source : null,
        b.kind === 'import' ? b.name : null,
        target,
      );
    }
    const insImp = this.q('INSERT INTO imports(file_id, source, line, names) VALUES (?, ?, ?, ?)');
    for (const im of w.imports) insImp.run(fileId, im.source, im.line, JSON.stringify(im.names));
    return fileId;
  }

  // ---- content -----------------------------------------------------------

  content(fileId: number): string | undefined {
    const r = this.q('SELECT data FROM contents WHERE file_id = ?').get(fileId) as { data: Buffer } | undefined;
    return r ? zlib.inflateRawSync(r.data).toString('utf8') : undefined;
  }

  // ---- lexical -----------------------------------------------------------

  /** Files whose trigram set satisfies an FTS5 MATCH expression (ids ascending). */
  trigramCandidates(match: string, repoId?: number): number[] {
    const rows = (repoId === undefined
      ? this.q('SELECT rowid AS id FROM lex WHERE lex MATCH ? ORDER BY rowid').all(match)
      : this.q(
          'SELECT l.rowid AS id FROM lex l JOIN files f ON f.id = l.rowid WHERE lex MATCH ? AND f.repo_id = ? ORDER BY l.rowid',
        ).all(match, repoId)) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** Every file with content (the fallback when a query has no trigram to filter by). */
  allContentFileIds(repoId?: number): number[] {
    const rows = (repoId === undefined
      ? this.q('SELECT file_id AS id FROM contents ORDER BY file_id').all()
      : this.q('SELECT c.file_id AS id FROM contents c JOIN files f ON f.id = c.file_id WHERE f.repo_id = ? ORDER BY c.file_id').all(repoId)) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** BM25 keyword search over code tokens at chunk level. Lower bm25 is better; we return -bm25. */
  wordSearch(match: string, limit: number, weights: [number, number, number] = [2, 4, 1], repoId?: number): { chunkId: number; score: number }[] {
    const sql = `SELECT w.rowid AS chunkId, -bm25(words, ?, ?, ?) AS score FROM words w
                 ${repoId === undefined ? '' : 'JOIN chunks c ON c.id = w.rowid JOIN files f ON f.id = c.file_id'}
                 WHERE words MATCH ? ${repoId === undefined ? '' : 'AND f.repo_id = ?'}
                 ORDER BY bm25(words, ?, ?, ?) LIMIT ?`;
    const args: unknown[] = [...weights, match];
    if (repoId !== undefined) args.push(repoId);
    args.push(...weights, limit);
    return this.q(sql).all(...args) as { chunkId: number; score: number }[];
  }

  // ---- chunks ------------------------------------------------------------

  chunksOf(fileId: number): ChunkRow[] {
    return this.q(
      'SELECT id, file_id AS fileId, line, end_line AS endLine, kind, symbol, hash FROM chunks WHERE file_id = ? ORDER BY line',
    ).all(fileId) as ChunkRow[];
  }

  /** Chunks with their file, for turning chunk ids into spans. */
  chunksByIds(ids: number[]): ChunkHit[] {
    if (ids.length === 0) return [];
    const out: ChunkHit[] = [];
    const stmt = this.q(
      `SELECT c.id, c.file_id AS fileId, c.line, c.end_line AS endLine, c.kind, c.symbol, c.hash, f.path, r.name AS repo, f.language
         FROM chunks c JOIN files f ON f.id = c.file_id JOIN repos r ON r.id = f.repo_id WHERE c.id = ?`,
    );
    for (const id of ids) {
      const row = stmt.get(id) as ChunkHit | undefined;
      if (row) out.push(row);
    }
    return out;
  }

  /** Files whose path ends with (or equals) a fragment, shortest first. */
  filesByPathSuffix(fragment: string, repoId?: number, limit = 20): { id: number; path: string }[] {
    const f = fragment.replace(/^\/+/, '');
    const like = '%' + f.replace(/[\\%_]/g, (c) => '\\' + c);
    const rows = (repoId === undefined
      ? this.q(`SELECT id, path FROM files WHERE skip_reason IS NULL AND (path = ? OR path LIKE ? ESCAPE '\\') ORDER BY length(path) LIMIT ?`).all(f, like, limit)
      : this.q(`SELECT id, path FROM files WHERE skip_reason IS NULL AND repo_id = ? AND (path = ? OR path LIKE ? ESCAPE '\\') ORDER BY length(path) LIMIT ?`).all(repoId, f, like, limit)) as { id: number; path: string }[];
    return rows.filter((r) => r.path === f || r.path.endsWith('/' + f) || r.path.endsWith(f));
  }

  chunk(id: number): ChunkRow | undefined {
    return this.q('SELECT id, file_id AS fileId, line, end_line AS endLine, kind, symbol, hash FROM chunks WHERE id = ?').get(id) as ChunkRow | undefined;
  }

  // ---- symbols -----------------------------------------------------------

  symbolsOf(fileId: number): SymbolRow[] {
    const rows = this.q(
      `SELECT id, file_id AS fileId, name, kind, container, line, end_line AS endLine, signature, exported
         FROM symbols WHERE file_id = ? ORDER BY line, id`,
    ).all(fileId) as (Omit<SymbolRow, "exported"> & { exported: number })[];
    return rows.map((r) => ({ ...r, exported: !!r.exported }));
  }

  /** Definitions joined with their file and repo, by one of the name indexes. */
  findSymbols(how: 'exact' | 'lower' | 'prefix' | 'names', value: string | string[], repoId?: number, limit = 1000): SymbolHit[] {
    const cols = `s.id, s.file_id AS fileId, s.name, s.kind, s.container, s.line, s.end_line AS endLine, s.signature,
                  s.exported, f.path, r.name AS repo, f.language`;
    const from = 'FROM symbols s JOIN files f ON f.id = s.file_id JOIN repos r ON r.id = f.repo_id';
    const repoCond = repoId === undefined ? '' : ' AND f.repo_id = ' + Number(repoId);
    let rows: unknown[];
    if (how === 'names') {
      const names = value as string[];
      if (names.length === 0) return [];
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS find_names(name TEXT PRIMARY KEY); DELETE FROM temp.find_names;');
      const ins = this.db.prepare('INSERT OR IGNORE INTO temp.find_names(name) VALUES (?)');
      for (const n of names) ins.run(n);
      rows = this.db.prepare(`SELECT ${cols} ${from} WHERE s.name IN (SELECT name FROM temp.find_names)${repoCond} LIMIT ?`).all(limit);
    } else if (how === 'exact') {
      rows = this.q(`SELECT ${cols} ${from} WHERE s.name = ?${repoCond} LIMIT ?`).all(value, limit);
    } else if (how === 'lower') {
      rows = this.q(`SELECT ${cols} ${from} WHERE lower(s.name) = ?${repoCond} LIMIT ?`).all((value as string).toLowerCase(), limit);
    } else {
      const v = (value as string).toLowerCase();
      rows = this.q(`SELECT ${cols} ${from} WHERE lower(s.name) >= ? AND lower(s.name) < ?${repoCond} LIMIT ?`).all(v, v + '\uffff', limit);
    }
    return (rows as (Omit<SymbolHit, 'exported'> & { exported: number })[]).map((r) => ({ ...r, exported: !!r.exported }));
  }

  /** Every distinct definition name (the sub-word and substring tiers scan these). */
  symbolNames(repoId?: number): string[] {
    const rows = (repoId === undefined
      ? this.q('SELECT DISTINCT name FROM symbols').all()
      : this.q('SELECT DISTINCT s.name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.repo_id = ?').all(repoId)) as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** References bound to a definition, with the chunk each sits in (the callers). */
  refsTo(symbolId: number, limit = 1000): { fileId: number; path: string; repo: string; line: number; col: number; call: boolean; chunk: number | null }[] {
    const rows = this.q(
      `SELECT r.file_id AS fileId, f.path, rp.name AS repo, r.line, r.col, r.call, r.chunk
         FROM refs r JOIN files f ON f.id = r.file_id JOIN repos rp ON rp.id = f.repo_id
        WHERE r.target = ? ORDER BY f.path, r.line LIMIT ?`,
    ).all(symbolId, limit) as { fileId: number; path: string; repo: string; line: number; col: number; call: number; chunk: number | null }[];
    return rows.map((r) => ({ ...r, call: !!r.call }));
  }

  /** Definitions referenced from a chunk (its callees), calls first, then most referenced. */
  calleesOf(chunkId: number, limit = 50): { symbolId: number; n: number }[] {
    // by file and line range, which the refs_file index serves, rather than a second index on refs.chunk
    const c = this.chunk(chunkId);
    if (!c) return [];
    return this.q(
      `SELECT target AS symbolId, count(*) AS n FROM refs WHERE file_id = ? AND line BETWEEN ? AND ? AND target IS NOT NULL
        GROUP BY target ORDER BY max(call) DESC, n DESC LIMIT ?`,
    ).all(c.fileId, c.line, c.endLine, limit) as { symbolId: number; n: number }[];
  }

  symbolById(id: number): SymbolHit | undefined {
    const r = this.q(
      `SELECT s.id, s.file_id AS fileId, s.name, s.kind, s.container, s.line, s.end_line AS endLine, s.signature,
              s.exported, f.path, r.name AS repo, f.language
         FROM symbols s JOIN files f ON f.id = s.file_id JOIN repos r ON r.id = f.repo_id WHERE s.id = ?`,
    ).get(id) as (Omit<SymbolHit, 'exported'> & { exported: number }) | undefined;
    return r ? { ...r, exported: !!r.exported } : undefined;
  }

  /** The chunk of a file that holds a line. */
  chunkAt(fileId: number, line: number): ChunkRow | undefined {
    return this.q(
      `SELECT id, file_id AS fileId, line, end_line AS endLine, kind, symbol, hash FROM chunks
        WHERE file_id = ? AND line <= ? AND end_line >= ? ORDER BY end_line - line LIMIT 1`,
    ).get(fileId, line, line) as ChunkRow | undefined;
  }

  symbolCounts(repoId: number): Map<number, number> {
    const rows = this.q(
      'SELECT s.file_id AS id, count(*) AS n FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.repo_id = ? GROUP BY s.file_id',
    ).all(repoId) as { id: number; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  // ---- linking -----------------------------------------------------------

  repoSymbols(repoId: number): { id: number; fileId: number; name: string; exported: boolean }[] {
    const rows = this.q(
      'SELECT s.id, s.file_id AS fileId, s.name, s.exported FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.repo_id = ?',
    ).all(repoId) as { id: number; fileId: number; name: string; exported: number }[];
    return rows.map((r) => ({ ...r, exported: !!r.exported }));
  }

  symbolNamesOf(fileId: number): string[] {
    return (this.q('SELECT DISTINCT name FROM symbols WHERE file_id = ?').all(fileId) as { name: string }[]).map((r) => r.name);
  }

  importsOf(fileId: number): { source: string; line: number; names: { imported: string; local: string }[] }[] {
    const rows = this.q('SELECT source, line, names FROM imports WHERE file_id = ? ORDER BY line').all(fileId) as { source: string; line: number; names: string }[];
    return rows.map((r) => ({ source: r.source, line: r.line, names: JSON.parse(r.names) }));
  }

  /**
   * References the linker must (re)consider: every unbound-by-parser reference
   * of the given files, plus those anywhere in the repo whose name is in `names`.
   * files = null means the whole repo.
   */
  refsToLink(repoId: number, files: Set<number> | null, names: Set<string>): Iterable<LinkRef[]> {
    const cols = 'r.id, r.file_id AS fileId, r.name, r.binding, r.source, r.imported, r.target, r.ambiguous';
    let where = "f.repo_id = ? AND r.binding IN ('free', 'import')";
    if (files !== null) {
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS link_files(id INTEGER PRIMARY KEY); DELETE FROM temp.link_files;');
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS link_names(name TEXT PRIMARY KEY); DELETE FROM temp.link_names;');
      const insF = this.db.prepare('INSERT OR IGNORE INTO temp.link_files(id) VALUES (?)');
      const insN = this.db.prepare('INSERT OR IGNORE INTO temp.link_names(name) VALUES (?)');
      this.tx(() => {
        for (const f of files) insF.run(f);
        for (const n of names) insN.run(n);
      });
      where += ' AND (r.file_id IN (SELECT id FROM temp.link_files) OR r.name IN (SELECT name FROM temp.link_names))';
    }
    // pages by id, so a corpus with tens of millions of references is never
    // held in memory at once, and updates can be written between pages
    const page = this.db.prepare(`SELECT ${cols} FROM refs r JOIN files f ON f.id = r.file_id WHERE ${where} AND r.id > ? ORDER BY r.id LIMIT ?`);
    return {
      *[Symbol.iterator]() {
        let after = 0;
        for (;;) {
          const rows = page.all(repoId, after, LINK_PAGE) as LinkRef[];
          if (rows.length === 0) return;
          after = rows[rows.length - 1]!.id;
          yield rows;
        }
      },
    };
  }

  setRefTargets(rows: { id: number; target: number | null; ambiguous: number }[]): void {
    const up = this.q('UPDATE refs SET target = ?, ambiguous = ? WHERE id = ?');
    for (let i = 0; i < rows.length; i += 5000) {
      this.tx(() => {
        for (const r of rows.slice(i, i + 5000)) up.run(r.target, r.ambiguous, r.id);
      });
    }
  }

  // ---- embeddings --------------------------------------------------------

  /** One chunk per distinct content hash that has no vector for `model` yet (the same text is embedded once). */
  chunksWithoutVectors(model: string, repoId?: number): { hash: string; fileId: number; line: number; endLine: number }[] {
    const repoCond = repoId === undefined ? '' : 'AND f.repo_id = ' + Number(repoId);
    return this.db.prepare(
      `SELECT c.hash, min(c.file_id) AS fileId, c.line, c.end_line AS endLine
         FROM chunks c JOIN files f ON f.id = c.file_id
        WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.hash = c.hash AND e.model = ?) ${repoCond}
        GROUP BY c.hash ORDER BY min(c.id)`,
    ).all(model) as { hash: string; fileId: number; line: number; endLine: number }[];
  }

  putEmbeddings(model: string, dim: number, rows: { hash: string; vec: Buffer }[]): void {
    const ins = this.q('INSERT OR REPLACE INTO embeddings(hash, model, dim, vec) VALUES (?, ?, ?, ?)');
    this.tx(() => { for (const r of rows) ins.run(r.hash, model, dim, r.vec); });
  }

  /** Vectors whose chunk is gone go with it. */
  pruneEmbeddings(): number {
    return this.q('DELETE FROM embeddings WHERE hash NOT IN (SELECT hash FROM chunks)').run().changes;
  }

  vectorCount(model: string, repoId?: number): number {
    const r = (repoId === undefined
      ? this.q('SELECT count(*) AS n FROM embeddings WHERE model = ?').get(model)
      : this.q(`SELECT count(*) AS n FROM embeddings e WHERE e.model = ? AND EXISTS
                 (SELECT 1 FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.hash = e.hash AND f.repo_id = ?)`).get(model, repoId)) as { n: number };
    return r.n;
  }

  /** At most `cap` vectors of a model, in a stable order, for the cosine scan. */
  vectors(model: string, cap: number, repoId?: number): { hash: string; dim: number; vec: Buffer }[] {
    return (repoId === undefined
      ? this.q('SELECT hash, dim, vec FROM embeddings WHERE model = ? ORDER BY hash LIMIT ?').all(model, cap)
      : this.q(`SELECT e.hash, e.dim, e.vec FROM embeddings e WHERE e.model = ? AND EXISTS
                 (SELECT 1 FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.hash = e.hash AND f.repo_id = ?)
                ORDER BY e.hash LIMIT ?`).all(model, repoId, cap)) as { hash: string; dim: number; vec: Buffer }[];
  }

  /** The chunks holding a content hash (first one per file). */
  chunksByHash(hash: string, repoId?: number): ChunkHit[] {
    return (repoId === undefined
      ? this.q(`SELECT c.id, c.file_id AS fileId, c.line, c.end_line AS endLine, c.kind, c.symbol, c.hash, f.path, r.name AS repo, f.language
                  FROM chunks c JOIN files f ON f.id = c.file_id JOIN repos r ON r.id = f.repo_id WHERE c.hash = ? ORDER BY c.id`).all(hash)
      : this.q(`SELECT c.id, c.file_id AS fileId, c.line, c.end_line AS endLine, c.kind, c.symbol, c.hash, f.path, r.name AS repo, f.language
                  FROM chunks c JOIN files f ON f.id = c.file_id JOIN repos r ON r.id = f.repo_id WHERE c.hash = ? AND f.repo_id = ? ORDER BY c.id`).all(hash, repoId)) as ChunkHit[];
  }

  // ---- meta --------------------------------------------------------------

  getMeta(key: string): string | undefined {
    const r = this.q('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return r?.value;
  }

  setMeta(key: string, value: string): void {
    this.q('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
