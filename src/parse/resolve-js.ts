// Module-specifier resolution for TypeScript and JavaScript: (importing file,
// specifier as written) to a file of the repo. It owns relative paths with
// extension and index probing, the TS ESM convention (`./a.js` written for
// `a.ts`), and tsconfig `baseUrl` / `paths`. It must not read the file system
// (the caller hands it the repo's file set and parsed tsconfigs) nor guess at
// node_modules: anything that is not a file of the given set is null.

export interface JsResolver {
  /** repo-relative, '/'-separated paths in and out; null when the target is not a file of the set */
  resolve(fromFile: string, specifier: string): string | null;
}

/**
 * The part of one tsconfig.json the resolver reads. `dir` is the repo-relative
 * directory holding it ('' for the root); `baseUrl` and `paths` are as written
 * in the file, relative to `dir`.
 */
export interface TsconfigPaths {
  dir: string;
  baseUrl?: string;
  paths?: Record<string, string[]>;
}

// probe order for an extensionless specifier, as the brief for the linker fixes it
const EXTS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];

// TS with ESM output makes you write the emitted name: `./a.js` means a.ts
const TS_FOR_JS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

/** Collapse '.', '..' and empty segments; null when the path climbs above the repo root. */
function normalize(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(seg);
    }
  }
  return out.join('/');
}

function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function join(dir: string, rel: string): string {
  return dir === '' ? rel : rel === '' ? dir : dir + '/' + rel;
}

function isRelative(spec: string): boolean {
  return spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../');
}

interface Config {
  dir: string;
  /** repo-relative directory that `paths` targets and bare baseUrl lookups are relative to */
  base: string;
  hasBaseUrl: boolean;
  exact: Map<string, string[]>;
  /** wildcard patterns, longest prefix first (TypeScript picks the longest matching prefix) */
  wild: { prefix: string; suffix: string; targets: string[] }[];
}

function compile(t: TsconfigPaths): Config | null {
  const dir = normalize(t.dir) ?? '';
  const base = t.baseUrl !== undefined ? normalize(join(dir, t.baseUrl)) : dir;
  if (base === null) return null; // a baseUrl above the repo root names nothing we hold
  const exact = new Map<string, string[]>();
  const wild: Config['wild'] = [];
  for (const [pattern, targets] of Object.entries(t.paths ?? {})) {
    if (!Array.isArray(targets)) continue;
    const star = pattern.indexOf('*');
    if (star < 0) exact.set(pattern, targets);
    else wild.push({ prefix: pattern.slice(0, star), suffix: pattern.slice(star + 1), targets });
  }
  wild.sort((a, b) => b.prefix.length - a.prefix.length);
  return { dir, base, hasBaseUrl: t.baseUrl !== undefined, exact, wild };
}

export function createJsResolver(
  files: ReadonlySet<string>,
  tsconfigs: { dir: string; baseUrl?: string; paths?: Record<string, string[]> }[],
): JsResolver {
  // A config without baseUrl or paths cannot change resolution. Skipping it
  // approximates `extends`: packages/a/tsconfig.json usually inherits the
  // root's paths, and we do not model extends.
  const configs = tsconfigs
    .filter((t) => t.baseUrl !== undefined || (t.paths !== undefined && Object.keys(t.paths).length > 0))
    .map(compile)
    .filter((c): c is Config => c !== null)
    .sort((a, b) => b.dir.length - a.dir.length);
  const byDir = new Map<string, Config | null>();

  function configFor(dir: string): Config | null {
    let c = byDir.get(dir);
    if (c !== undefined) return c;
    c = configs.find((k) => k.dir === '' || dir === k.dir || dir.startsWith(k.dir + '/')) ?? null;
    byDir.set(dir, c);
    return c;
  }

  function probe(base: string | null): string | null {
    if (base === null) return null;
    if (base !== '' && files.has(base)) return base;
    const slash = base.lastIndexOf('/');
    const dot = base.lastIndexOf('.');
    if (dot > slash + 1) {
      const alts = TS_FOR_JS[base.slice(dot)];
      if (alts) {
        const stem = base.slice(0, dot);
        for (const e of alts) if (files.has(stem + e)) return stem + e;
      }
    }
    if (base !== '') for (const e of EXTS) if (files.has(base + e)) return base + e;
    const index = join(base, 'index');
    for (const e of EXTS) if (files.has(index + e)) return index + e;
    return null;
  }

  return {
    resolve(fromFile: string, specifier: string): string | null {
      let spec = specifier;
      // bundler suffixes: './logo.svg?raw'
      const q = spec.indexOf('?');
      if (q > 0) spec = spec.slice(0, q);
      if (spec === '') return null;
      const from = dirname(fromFile);
      if (isRelative(spec)) return probe(normalize(join(from, spec)));
      if (spec.startsWith('/')) return null; // absolute on some machine we do not know
      const cfg = configFor(from);
      if (cfg === null) return null;
      const exact = cfg.exact.get(spec);
      if (exact) return first(exact.map((t) => normalize(join(cfg.base, t))));
      for (const w of cfg.wild) {
        if (spec.length < w.prefix.length + w.suffix.length || !spec.startsWith(w.prefix) || !spec.endsWith(w.suffix)) continue;
        const hole = spec.slice(w.prefix.length, spec.length - w.suffix.length);
        // a matched pattern decides: TypeScript does not fall back to baseUrl after it
        return first(w.targets.map((t) => normalize(join(cfg.base, t.replace('*', hole)))));
      }
      if (cfg.hasBaseUrl) return probe(normalize(join(cfg.base, spec)));
      return null;
    },
  };

  function first(candidates: (string | null)[]): string | null {
    for (const c of candidates) {
      const r = probe(c);
      if (r !== null) return r;
    }
    return null;
  }
}

/**
 * Remove // and /* *\/ comments and trailing commas outside strings: tsconfig
 * is JSONC, and JSON.parse takes neither.
 */
function jsoncToJson(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
    } else {
      out += ch;
      i++;
    }
  }
  // then drop a comma that only whitespace separates from } or ]; strings are
  // skipped again, since ",}" inside one is data
  let res = '';
  for (let k = 0; k < out.length; k++) {
    const ch = out[k];
    if (ch === '"') {
      let j = k + 1;
      while (j < out.length && out[j] !== '"') j += out[j] === '\\' ? 2 : 1;
      res += out.slice(k, j + 1);
      k = j;
      continue;
    }
    if (ch === ',') {
      let j = k + 1;
      while (j < out.length && /\s/.test(out[j])) j++;
      if (out[j] === '}' || out[j] === ']') continue;
    }
    res += ch;
  }
  return res;
}

export function parseTsconfigPaths(dir: string, jsonText: string): TsconfigPaths | null {
  let json: unknown;
  try {
    json = JSON.parse(jsoncToJson(jsonText.charCodeAt(0) === 0xfeff ? jsonText.slice(1) : jsonText));
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const out: TsconfigPaths = { dir: normalize(dir) ?? '' };
  const co = (json as { compilerOptions?: unknown }).compilerOptions;
  if (co === null || typeof co !== 'object') return out;
  const { baseUrl, paths } = co as { baseUrl?: unknown; paths?: unknown };
  if (typeof baseUrl === 'string') out.baseUrl = baseUrl;
  if (paths !== null && typeof paths === 'object' && !Array.isArray(paths)) {
    const clean: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(paths)) {
      if (Array.isArray(v)) clean[k] = v.filter((t): t is string => typeof t === 'string');
    }
    out.paths = clean;
  }
  return out;
}
