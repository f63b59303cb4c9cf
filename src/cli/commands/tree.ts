// `hanzo code tree`: the indexed files as a tree, with language and symbol counts.

import type { Command } from 'commander';
import type { TreeEntry } from '../../api.js';
import type { Ctx } from '../main.js';

export function treeText(entries: TreeEntry[], symbols: boolean): string {
  let out = '';
  let repo = '';
  let dirs: string[] = [];
  for (const e of entries) {
    if (e.repo !== repo) {
      out += `${e.repo}\n`;
      repo = e.repo;
      dirs = [];
    }
    const parts = e.file.split('/');
    const fileName = parts.pop()!;
    let k = 0;
    while (k < parts.length && dirs[k] === parts[k]) k++;
    for (let i = k; i < parts.length; i++) out += `${'  '.repeat(i + 1)}${parts[i]}/\n`;
    dirs = parts;
    const info = e.skipped ? `skipped: ${e.skipped}` : `${e.language}, ${e.symbols} symbol${e.symbols === 1 ? '' : 's'}`;
    out += `${'  '.repeat(parts.length + 1)}${fileName}  (${info})\n`;
    if (symbols) {
      for (const d of e.definitions ?? []) {
        out += `${'  '.repeat(parts.length + 2)}${d.kind} ${d.container ? d.container + '.' : ''}${d.name}  ${d.line}-${d.endLine}\n`;
      }
    }
  }
  return out;
}

export function registerTree(code: Command, ctx: Ctx): Command {
  return code
    .command('tree')
    .description('the indexed files with language and per-file symbol count')
    .option('--repo <name>', 'only this repo')
    .option('--symbols', "list each file's definitions too")
    .action(async (o: { repo?: string; symbols?: boolean }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { tree } = await import('../../api.js');
      const entries = tree({ dataDir: g.dataDir, org: g.org, repo: o.repo, symbols: o.symbols });
      if (g.json) {
        ctx.io.stdout.write(JSON.stringify(entries.map((e) => {
          const j: Record<string, unknown> = { repo: e.repo, file: e.file, language: e.language, symbols: e.symbols };
          if (e.skipped) j.skipped = e.skipped;
          if (o.symbols) j.definitions = (e.definitions ?? []).map((d) => ({ name: d.name, kind: d.kind, line: d.line, endLine: d.endLine }));
          return j;
        })) + '\n');
      } else {
        ctx.io.stdout.write(treeText(entries, !!o.symbols));
      }
      ctx.exitCode = entries.length > 0 ? 0 : 1;
    });
}
