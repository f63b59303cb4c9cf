// argv -> run -> exit code. The only place errors become text and numbers;
// it never calls process.exit (bin/ does), so tests run the real CLI
// in-process. Global options are accepted before or after the subcommand.

import { Command, CommanderError, Option } from 'commander';
import { defaultDataDir, storePath } from '../config.js';
import { HanzoError, UsageError } from '../errors.js';
import type { IO } from './io.js';
import { registerIndex } from './commands/index.js';
import { registerSearch } from './commands/search.js';
import { registerTree } from './commands/tree.js';
import { registerFile } from './commands/file.js';
import { registerContext } from './commands/context.js';
import { registerAsk } from './commands/ask.js';
import { registerServe } from './commands/serve.js';
import { registerMcp } from './commands/mcp.js';

export const VERSION = '0.1.0';

export interface Globals {
  org: string;
  dataDir: string;
  json: boolean;
  color: boolean;
}

export interface Ctx {
  io: IO;
  exitCode: number;
  /** resolved globals for a command (lowargs -> hiargs) */
  globals(cmd: Command): Globals;
}

function addGlobals(cmd: Command): Command {
  return cmd
    .addOption(new Option('--org <slug>', 'org whose store to use (env HANZO_ORG, default "local")'))
    .addOption(new Option('--data-dir <dir>', 'where stores live (env HANZO_DATA_DIR, default $XDG_DATA_HOME/hanzo)'))
    .addOption(new Option('--json', 'print JSON instead of text'))
    .addOption(new Option('--color <when>', 'colour output: auto, always or never').choices(['auto', 'always', 'never']));
}

export async function run(argv: string[], io: IO): Promise<number> {
  const ctx: Ctx = {
    io,
    exitCode: 0,
    globals(cmd: Command): Globals {
      const o = cmd.optsWithGlobals() as { org?: string; dataDir?: string; json?: boolean; color?: string };
      if (o.dataDir === '' || io.env.HANZO_DATA_DIR === '') throw new UsageError('invalid data dir "": give a directory (or leave --data-dir / HANZO_DATA_DIR unset for the default)');
      const org = o.org ?? io.env.HANZO_ORG ?? 'local';
      const dataDir = o.dataDir ? (o.dataDir.startsWith('/') ? o.dataDir : `${io.cwd}/${o.dataDir}`) : defaultDataDir(io.env);
      storePath(dataDir, org); // validates the slug before anything touches the disk
      const when = o.color ?? 'auto';
      const color = when === 'always' || (when === 'auto' && !!io.stdout.isTTY && !io.env.NO_COLOR);
      return { org, dataDir, json: !!o.json, color };
    },
  };

  const program = new Command('hanzo')
    .description('hanzo: the Hanzo command line')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `hanzo: ${s}` : s),
    });
  const code = addGlobals(
    program.command('code').description('index a checkout and search it: lexical, symbol and semantic tiers fused by rank'),
  );
  code.exitOverride();
  for (const reg of [registerIndex, registerSearch, registerContext, registerAsk, registerTree, registerFile, registerServe, registerMcp]) {
    const cmd = reg(code, ctx);
    addGlobals(cmd).exitOverride();
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      // commander already printed its message; usage errors are exit 2
      return 2;
    }
    if (e instanceof HanzoError) {
      io.stderr.write(`hanzo: ${e.message}\n`);
      if (e.hint) io.stderr.write(`hanzo: hint: ${e.hint}\n`);
      return e.exitCode;
    }
    const err = e as NodeJS.ErrnoException;
    if (err?.code === 'EPIPE') return 0;
    io.stderr.write(`hanzo: internal error: ${err?.stack ?? String(e)}\n`);
    return 2;
  }
}

/** Parse an integer flag, naming the flag and the allowed range when it is bad. */
export function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`invalid ${name} "${value}": use a whole number from ${min} to ${max}`);
  }
  return n;
}
