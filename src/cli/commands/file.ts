// `hanzo code file <path>`: the indexed content of one file.

import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Ctx } from '../main.js';

export function parseLines(spec: string | undefined): [number, number] | undefined {
  if (spec === undefined) return undefined;
  const m = spec.match(/^(\d+)(?::(\d*))?$/);
  const a = m ? Number(m[1]) : NaN;
  const b = m && m[2] ? Number(m[2]) : m && m[2] === '' ? Infinity : a;
  if (!m || a < 1 || b < a) throw new UsageError(`invalid --lines "${spec}": use a:b with 1 <= a <= b (or a: for a to the end)`);
  return [a, b];
}

export function registerFile(code: Command, ctx: Ctx): Command {
  return code
    .command('file')
    .description('print the indexed content of one file')
    .argument('<path>', 'path relative to the repo root')
    .option('--repo <name>', 'the repo the file is in')
    .option('--lines <a:b>', 'only lines a to b (1-based, inclusive)')
    .action(async (p: string, o: { repo?: string; lines?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { file } = await import('../../api.js');
      const r = file(p, { dataDir: g.dataDir, org: g.org, repo: o.repo, lines: parseLines(o.lines) });
      if (r.skipped) {
        // indexed as seen, but without content: say why rather than print an empty file
        ctx.io.stderr.write(`hanzo: ${r.file} has no indexed content: skipped (${r.skipped})\n`);
        if (g.json) ctx.io.stdout.write(JSON.stringify(r) + '\n');
        ctx.exitCode = 1;
        return;
      }
      if (g.json) {
        ctx.io.stdout.write(JSON.stringify(r) + '\n');
      } else if (ctx.io.stdout.isTTY) {
        const w = String(r.endLine).length;
        const lines = r.content.endsWith('\n') ? r.content.slice(0, -1).split('\n') : r.content.split('\n');
        ctx.io.stdout.write(lines.map((l, i) => `${String(r.line + i).padStart(w)}  ${l}`).join('\n') + '\n');
      } else {
        ctx.io.stdout.write(r.content);
      }
      ctx.exitCode = 0;
    });
}
