// Discovers the files of a checkout that git would consider part of the work
// tree: every regular file under the root that is not excluded by a .gitignore
// (at any directory level, with git's precedence), by .git/info/exclude, by the
// built-in deny list or by the caller's extra patterns. It owns discovery and
// ignore semantics only: it must not read file contents (classify.ts judges
// those) nor apply the size limit (the caller does, from the size given here),
// and it never asks git, so it works on a plain folder as well as a repository.
//
// Rules, as in git's dir.c: for each entry the .gitignore files of the
// directories on its path are consulted deepest first, the last matching line
// of the first file with a match decides (so a nested `!keep.log` re-includes
// what a parent's `*.log` excluded), then .git/info/exclude. An excluded
// directory is never read, which both keeps huge ignored trees (node_modules,
// build/) free and gives git's rule that nothing below an excluded directory
// can be re-included. The root is the top: .gitignore files above it, the
// user's core.excludesFile and the info/exclude of a worktree (whose `.git` is
// a file) are not read, so an index does not depend on who built it. It lists
// directories itself (readdir) instead of through fast-glob because pruning
// needs each directory's .gitignore read before its entries are judged, which
// a glob walk's fixed ignore list cannot express.
//
// Symlinks are skipped entirely, whether they point at a file or a directory,
// inside the root or out of it, as `rg` does without -L (and close to git,
// which records the link, not its target). That one rule means nothing outside
// the root is ever reached and a link loop cannot make the walk spin; a file
// reached through a link inside the root is still indexed at its real path.
// Sockets, FIFOs and devices are skipped too: only regular files are returned.
//
// Matching uses the `ignore` package, case-sensitively as git does on Linux.
// Its public test() also excludes a path whose parent one file's rules
// exclude, which is wrong when a deeper file re-included that parent (root
// `logs/`, sub/.gitignore `!logs/`); since this walk has already decided every
// parent, it asks the rule set about the path alone (see `compileRules`).

import { lstatSync, promises as fsp, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { UsageError } from '../errors.js';

export interface WalkedFile {
  /** repo-relative, '/'-separated */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  /**
   * More gitignore-syntax patterns, relative to the root, that exclude on top
   * of everything else: no .gitignore can re-include what they match. They add
   * to the built-in deny list and cannot lift it.
   */
  extraDeny?: string[];
}

// Names denied at any depth below the root (never the root itself, so walking
// a folder named node_modules works): other VCSs' metadata and git's own, the
// two package-manager trees that are almost never source and are huge, Python's
// bytecode cache, and macOS's Finder litter. Kept this small on purpose: a name
// here can never be indexed, even when a repository tracks it; .venv, dist,
// target and the like are left to the repository's own .gitignore.
const DENY_NAMES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'CVS',
  'node_modules',
  'bower_components',
  '__pycache__',
  '.DS_Store',
]);

const enum Verdict {
  NoRule = 0,
  Excluded = 1,
  Included = 2,
}

/** Tests a path relative to the rules' own directory; a directory ends in '/'. */
type PathTest = (relPath: string) => Verdict;

/** One .gitignore file in force, linked to the shallower ones. */
interface Layer {
  /** Length of its directory's repo-relative path plus '/', 0 at the root. */
  prefixLen: number;
  test: PathTest;
  next: Layer | null;
}

/** The part of ignore 7.0.x's internal rule list used to test one path without its parents. */
interface RuleList {
  _rules?: unknown;
  test?: (path: string, mode: string) => { ignored: boolean; unignored: boolean };
}

/** Returns null when the text holds no rule, so empty files add no layer. */
function compileRules(patterns: string | string[]): PathTest | null {
  const ig = ignore({ ignorecase: false }).add(patterns);
  const rules = (ig as unknown as { _rules?: RuleList })._rules;
  if (rules && Array.isArray(rules._rules) && typeof rules.test === 'function') {
    if (rules._rules.length === 0) return null;
    const test = rules.test.bind(rules);
    // 'regex' is the mode ignores() itself uses; this is the single-path step
    // of its own parent-first recursion, without the recursion or its cache.
    return (p) => {
      const r = test(p, 'regex');
      return r.ignored ? Verdict.Excluded : r.unignored ? Verdict.Included : Verdict.NoRule;
    };
  }
  // Another `ignore` build without that internal: the public test() is right
  // except in the re-included-parent case the module comment describes.
  return (p) => {
    const r = ig.test(p);
    return r.ignored ? Verdict.Excluded : r.unignored ? Verdict.Included : Verdict.NoRule;
  };
}

async function readRules(file: string): Promise<PathTest | null> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    // Missing or unreadable: git also carries on as if it were empty.
    return null;
  }
  return compileRules(text);
}

export async function walk(root: string, opts: WalkOptions = {}): Promise<WalkedFile[]> {
  const rootAbs = path.resolve(root);
  const deny = opts.extraDeny && opts.extraDeny.length > 0 ? compileRules(opts.extraDeny) : null;
  const infoExclude = await readRules(path.join(rootAbs, '.git', 'info', 'exclude'));
  const out: WalkedFile[] = [];

  /** `p` is repo-relative, with a trailing '/' for a directory. */
  const excluded = (p: string, layers: Layer | null): boolean => {
    if (deny !== null && deny(p) === Verdict.Excluded) return true;
    for (let l = layers; l !== null; l = l.next) {
      const v = l.test(l.prefixLen === 0 ? p : p.slice(l.prefixLen));
      if (v !== Verdict.NoRule) return v === Verdict.Excluded;
    }
    return infoExclude !== null && infoExclude(p) === Verdict.Excluded;
  };

  // lstatSync, not the promise API: on a warm 78k-file tree one promise
  // lstat per file took 2.2-2.8 s (each a thread-pool hop plus a promise),
  // a synchronous lstat 0.3 s. The event loop still turns between
  // directories, since each blocks only for its own few entries.
  const statInto = (abs: string, rel: string): void => {
    let st: Stats | undefined;
    try {
      st = lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return;
    }
    // Re-checked because the entry may have been replaced or deleted since
    // readdir; a vanished file is simply not part of this walk.
    if (st !== undefined && st.isFile()) out.push({ path: rel, abs, size: st.size, mtimeMs: st.mtimeMs });
  };

  const visit = async (dirAbs: string, dirRel: string, parentLayers: Layer | null): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dirAbs, { withFileTypes: true });
    } catch (err) {
      // The root failing is the caller's mistake (a wrong path) and is
      // reported; below it, an unreadable or vanished directory is skipped.
      if (dirRel === '') {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        throw new UsageError(`cannot walk ${root}: not a readable directory (${code})`);
      }
      return;
    }
    const prefix = dirRel === '' ? '' : dirRel + '/';

    let layers = parentLayers;
    for (const e of entries) {
      // Like git (2.32+), a .gitignore that is a symlink is not followed.
      if (e.name === '.gitignore' && e.isFile()) {
        const test = await readRules(dirAbs + path.sep + '.gitignore');
        if (test !== null) layers = { prefixLen: prefix.length, test, next: parentLayers };
        break;
      }
    }

    const pending: Promise<void>[] = [];
    for (const e of entries) {
      const name = e.name;
      if (DENY_NAMES.has(name)) continue;
      // Dirent types come from d_type; where the file system reports none,
      // Node lstat()s for us, so a symlink is never mistaken for its target.
      const isDir = e.isDirectory();
      if (!isDir && !e.isFile()) continue;
      const rel = prefix + name;
      if (excluded(isDir ? rel + '/' : rel, layers)) continue;
      const abs = dirAbs + path.sep + name;
      if (isDir) pending.push(visit(abs, rel, layers));
      else statInto(abs, rel);
    }
    await Promise.all(pending);
  };

  await visit(rootAbs, '', null);
  return sortByBytes(out);
}

/**
 * Sorts by the UTF-8 bytes of `path`, the order git and a byte-wise store
 * use. JavaScript compares UTF-16 units, which agrees with UTF-8 byte order
 * except between U+E000..U+FFFF and astral characters (surrogate pairs), so
 * the cheap native comparison is used unless a path holds a surrogate.
 */
function sortByBytes(files: WalkedFile[]): WalkedFile[] {
  const astral = files.some((f) => /[\uD800-\uDFFF]/.test(f.path));
  if (!astral) return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.sort((a, b) => compareCodePoints(a.path, b.path));
}

function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates above U+E000..U+FFFF so that unit order is code point order. */
function rank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}
