// Module resolution for the linker: (language, importing file, module source
// as written) -> the repo files that module is. Pure: it sees only the repo's
// path list (and parsed tsconfigs for JS/TS), never the file system. An
// import it cannot place inside the repo (a third-party package) resolves to
// nothing, so its names are never bound to a same-named local definition.

import { createJsResolver, type JsResolver, type TsconfigPaths } from '../parse/resolve-js.js';

const JS = new Set(['typescript', 'tsx', 'javascript', 'jsx']);
/** Languages whose unqualified names are package-scoped: a directory is one namespace. */
export const PACKAGE_SCOPED = new Set(['go', 'java', 'kotlin', 'csharp', 'swift', 'scala']);

function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function join(dir: string, rel: string): string | null {
  const out = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

export class ModuleResolver {
  private files: Set<string>;
  /** last 1..4 path components of every file -> files */
  private fileSuffix = new Map<string, string[]>();
  /** last 1..4 components of every directory -> files directly in it */
  private dirSuffix = new Map<string, string[]>();
  private js: JsResolver;

  constructor(paths: string[], tsconfigs: TsconfigPaths[] = []) {
    this.files = new Set(paths);
    for (const p of paths) {
      const parts = p.split('/');
      for (let k = 1; k <= Math.min(4, parts.length); k++) push(this.fileSuffix, parts.slice(-k).join('/'), p);
      const dparts = parts.slice(0, -1);
      for (let k = 0; k <= Math.min(4, dparts.length); k++) push(this.dirSuffix, k === 0 ? '' : dparts.slice(-k).join('/'), p);
    }
    this.js = createJsResolver(this.files, tsconfigs);
  }

  /** Files whose path is `rel` or ends with `/rel`, shortest first. */
  private bySuffix(rel: string): string[] {
    if (this.files.has(rel)) return [rel];
    const parts = rel.split('/');
    const key = parts.slice(-4).join('/');
    const hits = (this.fileSuffix.get(key) ?? []).filter((p) => p === rel || p.endsWith('/' + rel));
    return hits.sort((a, b) => a.length - b.length);
  }

  /** Files directly in a directory whose path is `rel` or ends with `/rel`. */
  private inDir(rel: string): string[] {
    const parts = rel.split('/');
    const key = parts.slice(-4).join('/');
    const hits = (this.dirSuffix.get(key) ?? []).filter((p) => {
      const d = dirname(p);
      return d === rel || d.endsWith('/' + rel);
    });
    if (hits.length === 0) return [];
    // one directory: the shortest matching one
    const best = hits.map(dirname).sort((a, b) => a.length - b.length)[0]!;
    return hits.filter((p) => dirname(p) === best);
  }

  /** Files of the package a file belongs to (itself included). */
  samePackage(file: string): string[] {
    const d = dirname(file);
    return (this.dirSuffix.get(d.split('/').slice(-4).join('/')) ?? []).filter((p) => dirname(p) === d);
  }

  resolve(language: string, from: string, source: string): string[] {
    if (JS.has(language)) {
      const r = this.js.resolve(from, source);
      return r ? [r] : [];
    }
    switch (language) {
      case 'python': return this.python(from, source);
      case 'go': return this.go(source);
      case 'rust': return this.rust(from, source);
      case 'java': case 'kotlin': case 'scala': return this.jvm(source);
      case 'c': case 'cpp': return this.include(from, source);
      default: {
        const rel = source.replace(/^['"<]|['">]$/g, '');
        const local = join(dirname(from), rel);
        if (local && this.files.has(local)) return [local];
        return rel.includes('/') || rel.includes('.') ? this.bySuffix(rel).slice(0, 1) : [];
      }
    }
  }

  private python(from: string, source: string): string[] {
    const dots = source.match(/^\.*/)![0].length;
    const mod = source.slice(dots).replace(/\./g, '/');
    const candidates: string[] = [];
    if (dots > 0) {
      let base: string | null = dirname(from);
      for (let i = 1; i < dots && base !== null; i++) base = base === '' ? null : dirname(base);
      if (base === null) return [];
      const p = mod ? (base ? `${base}/${mod}` : mod) : base;
      for (const c of [`${p}.py`, `${p}/__init__.py`, `${p}.pyi`]) if (this.files.has(c.replace(/^\//, ''))) candidates.push(c.replace(/^\//, ''));
      return candidates;
    }
    if (!mod) return [];
    for (const c of [`${mod}.py`, `${mod}/__init__.py`, `${mod}.pyi`]) {
      const hits = this.bySuffix(c);
      if (hits.length) return hits.slice(0, 1);
    }
    return [];
  }

  private go(source: string): string[] {
    const parts = source.split('/');
    // the longest suffix of the import path that names a directory of the repo
    for (let k = parts.length; k >= 1; k--) {
      if (k === 1 && parts.length > 2) break; // a lone last component of a long path is too weak
      const hits = this.inDir(parts.slice(-k).join('/')).filter((p) => p.endsWith('.go'));
      if (hits.length) return hits;
    }
    return [];
  }

  private rust(from: string, source: string): string[] {
    let parts = source.split('::').filter(Boolean);
    let base = '';
    if (parts[0] === 'crate') { parts = parts.slice(1); }
    else if (parts[0] === 'self' || parts[0] === 'super') {
      base = dirname(from);
      while (parts[0] === 'super') { base = dirname(base); parts = parts.slice(1); }
      if (parts[0] === 'self') parts = parts.slice(1);
    }
    if (parts.length === 0) return [from];
    const rel = parts.join('/');
    for (const c of [`${rel}.rs`, `${rel}/mod.rs`]) {
      const p = base ? `${base}/${c}` : c;
      if (this.files.has(p)) return [p];
      const hits = this.bySuffix(c);
      if (hits.length) return hits.slice(0, 1);
    }
    return [];
  }

  private jvm(source: string): string[] {
    const rel = source.replace(/\./g, '/');
    for (const ext of ['.java', '.kt', '.scala']) {
      const hits = this.bySuffix(rel + ext);
      if (hits.length) return hits.slice(0, 1);
    }
    return this.inDir(rel);
  }

  private include(from: string, source: string): string[] {
    const rel = source.replace(/^["<]|[">]$/g, '');
    const local = join(dirname(from), rel);
    if (local && this.files.has(local)) return [local];
    return this.bySuffix(rel).slice(0, 1);
  }
}

function push(m: Map<string, string[]>, k: string, v: string): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
