// Test support: real git repositories in temp folders, and the real CLI run
// in-process with captured output.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main.js';
import { memoryIO } from '../../src/cli/io.js';

export function tempDir(prefix = 'hanzo-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A git repo with the given files (path -> content), committed. */
export function makeRepo(files: Record<string, string | Buffer>, opts: { commit?: boolean; remote?: string } = {}): string {
  const dir = tempDir('hanzo-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  writeFiles(dir, files);
  if (opts.remote) execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', opts.remote]);
  if (opts.commit !== false) {
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init', '--allow-empty']);
  }
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [p, c] of Object.entries(files)) {
    const abs = path.join(dir, p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, c);
  }
}

export interface CliResult { code: number; out: string; err: string }

/** Run `hanzo <args>` in-process against a data dir. */
export async function cli(args: string[], opts: { dataDir: string; cwd?: string; tty?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const io = memoryIO({ env: { HANZO_DATA_DIR: opts.dataDir, ...(opts.env ?? {}) }, cwd: opts.cwd ?? process.cwd(), tty: opts.tty });
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

export const BIN = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../bin/hanzo.js');
