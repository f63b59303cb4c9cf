// Settings every entry point needs before anything heavy loads: where stores
// live, what an org slug may be, the search tiers. No I/O, no dependencies,
// so `--help`, `--version` and flag errors never wait for SQLite or parsers.

import os from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.js';

export const ORG_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const SEARCH_TYPES = ['hybrid', 'text', 'regex', 'symbol', 'semantic'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** {XDG_DATA_HOME or ~/.local/share}/hanzo, unless HANZO_DATA_DIR or --data-dir says otherwise. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HANZO_DATA_DIR) return path.resolve(env.HANZO_DATA_DIR);
  const xdg = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(xdg, 'hanzo');
}

/** The org's store file; the slug is checked first because it becomes a path. */
export function storePath(dataDir: string, org: string): string {
  if (!ORG_SLUG.test(org)) {
    throw new UsageError(
      `invalid org "${org}": an org slug is 1-63 characters of a-z, 0-9 and '-', starting with a letter or digit`,
    );
  }
  return path.join(dataDir, 'orgs', org, 'code.db');
}
