// The linker: binds the references a parser could not bind inside one file.
// Order of preference: the parser's own same-file binding (set at write
// time), then through the file's imports (module resolved inside the repo),
// then the same package for package-scoped languages, then repo-wide by
// name. Several candidates at the deciding step make the reference ambiguous
// (candidate count kept, no target): never guessed silently. An import that
// resolves outside the repo stays unbound rather than meeting a namesake.

import type { Store } from '../store/store.js';
import { parseTsconfigPaths, type TsconfigPaths } from '../parse/resolve-js.js';
import { ModuleResolver, PACKAGE_SCOPED } from './modules.js';

interface Sym { id: number; fileId: number; name: string; exported: boolean }

const EMPTY: Map<string, Sym[]> = new Map();

export interface LinkScope {
  /** files whose references all need (re)linking; null = every file */
  files: Set<number> | null;
  /** names defined or removed this run: references to them elsewhere are re-linked */
  names: Set<string>;
}

export function linkRepo(store: Store, repoId: number, scope: LinkScope = { files: null, names: new Set() }): number {
  const files = store.filesOf(repoId).filter((f) => f.skipReason === null);
  const pathOf = new Map(files.map((f) => [f.id, f.path]));
  const idOf = new Map(files.map((f) => [f.path, f.id]));
  const langOf = new Map(files.map((f) => [f.id, f.language]));

  const tsconfigs: TsconfigPaths[] = [];
  for (const f of files) {
    if (!/(^|\/)(tsconfig|jsconfig)[^/]*\.json$/.test(f.path)) continue;
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    const t = parseTsconfigPaths(dir, store.content(f.id) ?? '');
    if (t) tsconfigs.push(t);
  }
  const modules = new ModuleResolver(files.map((f) => f.path), tsconfigs);

  const byName = new Map<string, Sym[]>();
  const byFile = new Map<number, Map<string, Sym[]>>();
  for (const s of store.repoSymbols(repoId)) {
    push(byName, s.name, s);
    let m = byFile.get(s.fileId);
    if (!m) byFile.set(s.fileId, (m = new Map()));
    push(m, s.name, s);
  }

  // Per module (a set of files) one name -> definitions map, built once and
  // shared by every file that imports it: the linker's inner loop is then a
  // few map lookups per reference, whatever the fan-out of imports.
  const moduleIndex = new Map<string, Map<string, Sym[]>>();
  const indexOfFiles = (fileIds: number[]): Map<string, Sym[]> => {
    if (fileIds.length === 1) return byFile.get(fileIds[0]!) ?? EMPTY;
    const key = fileIds.join(',');
    let m = moduleIndex.get(key);
    if (!m) {
      m = new Map();
      for (const id of fileIds) for (const [name, syms] of byFile.get(id) ?? EMPTY) for (const s of syms) push(m, name, s);
      moduleIndex.set(key, m);
    }
    return m;
  };
  const sourceCache = new Map<string, number[]>();
  const resolveSource = (fileId: number, source: string): number[] => {
    const lang = langOf.get(fileId)!;
    const from = pathOf.get(fileId)!;
    // relative specifiers depend on the importing file's folder, others only on the language
    const key = /^[./]|^(self|super)::/.test(source) ? `${lang}\0${from.slice(0, from.lastIndexOf('/') + 1)}\0${source}` : `${lang}\0\0${source}`;
    let r = sourceCache.get(key);
    if (!r) {
      r = modules.resolve(lang, from, source).map((p) => idOf.get(p)).filter((x): x is number => x !== undefined);
      sourceCache.set(key, r);
    }
    return r;
  };
  const importCache = new Map<number, Map<string, Sym[]>[]>();
  const importsOf = (fileId: number) => {
    let r = importCache.get(fileId);
    if (!r) {
      r = store.importsOf(fileId).map((im) => resolveSource(fileId, im.source)).filter((f) => f.length > 0).map(indexOfFiles);
      importCache.set(fileId, r);
    }
    return r;
  };
  const packageCache = new Map<string, Map<string, Sym[]>>();
  const packageOf = (fileId: number) => {
    const p = pathOf.get(fileId)!;
    const dir = p.slice(0, p.lastIndexOf('/') + 1);
    let r = packageCache.get(dir);
    if (!r) {
      r = indexOfFiles(modules.samePackage(p).map((x) => idOf.get(x)!).filter((x) => x !== undefined));
      packageCache.set(dir, r);
    }
    return r;
  };
  const fromMaps = (maps: Map<string, Sym[]>[], name: string): Sym[] => {
    const out: Sym[] = [];
    for (const m of maps) { const x = m.get(name); if (x) out.push(...x); }
    return out;
  };
  const decide = (c: Sym[]): { target: number | null; ambiguous: number } | null => {
    if (c.length === 0) return null;
    if (c.length === 1) return { target: c[0]!.id, ambiguous: 0 };
    const exported = c.filter((s) => s.exported);
    if (exported.length === 1) return { target: exported[0]!.id, ambiguous: 0 };
    return { target: null, ambiguous: c.length };
  };

  let changed = 0;
  for (const page of store.refsToLink(repoId, scope.files, scope.names)) {
    const updates: { id: number; target: number | null; ambiguous: number }[] = [];
    for (const r of page) {
      if (!pathOf.has(r.fileId)) continue;
      let res: { target: number | null; ambiguous: number } | null = null;
      if (r.binding === 'import') {
        const targets = resolveSource(r.fileId, r.source ?? '');
        // an import that leaves the repo binds to nothing here
        if (targets.length === 0) res = { target: null, ambiguous: 0 };
        else {
          const m = indexOfFiles(targets);
          const name = r.imported === '*' || r.imported === 'default' || !r.imported ? r.name : r.imported;
          res = decide(m.get(name) ?? []) ?? decide(m.get(r.name) ?? []) ?? { target: null, ambiguous: 0 };
        }
      } else {
        res =
          decide(byFile.get(r.fileId)?.get(r.name) ?? []) ??
          decide(fromMaps(importsOf(r.fileId), r.name)) ??
          (PACKAGE_SCOPED.has(langOf.get(r.fileId)!) ? decide(packageOf(r.fileId).get(r.name) ?? []) : null) ??
          decide(byName.get(r.name) ?? []) ?? { target: null, ambiguous: 0 };
      }
      if (res.target !== r.target || res.ambiguous !== r.ambiguous) updates.push({ id: r.id, ...res });
    }
    store.setRefTargets(updates);
    changed += updates.length;
  }
  return changed;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
