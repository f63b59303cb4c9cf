// `hanzo code index [path]`: resolve options, run the indexer, print the summary.

import type { Command } from 'commander';
import Table from 'cli-table3';
import { indexCheckout, type IndexSummary } from '../../api.js';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

export function summaryJson(s: IndexSummary & { store: string }): string {
  return JSON.stringify({
    scanned: s.scanned, added: s.added, updated: s.updated, unchanged: s.unchanged, pruned: s.pruned,
    skipped: s.skipped, bytes: s.bytes, seconds: s.seconds, repo: s.repo, store: s.store,
  }) + '\n';
}

export function summaryTable(s: IndexSummary & { store: string }): string {
  const t = new Table({
    head: ['repo', s.repo],
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  const skipped = Object.entries(s.skipped).map(([k, v]) => `${v} ${k}`).join(', ') || '0';
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
  t.push(
    ['scanned', String(s.scanned)], ['added', String(s.added)], ['updated', String(s.updated)],
    ['unchanged', String(s.unchanged)], ['pruned', String(s.pruned)], ['skipped', skipped],
    ['read', `${mb(s.sourceBytes)} (${s.seconds > 0 ? (s.sourceBytes / 1048576 / s.seconds).toFixed(1) : '-'} MB/s)`],
    ['store', `${mb(s.bytes)}  ${s.store}`], ['seconds', s.seconds.toFixed(2)],
  );
  return t.toString() + '\n';
}

export function registerIndex(code: Command, ctx: Ctx): Command {
  return code
    .command('index')
    .description('index a checkout (incremental: unchanged files are skipped, deleted ones pruned)')
    .argument('[path]', 'the checkout to index', '.')
    .option('--repo <owner/name>', 'repo name (default: from the origin remote, else the folder name)')
    .option('--max-file-size <bytes>', 'skip files larger than this (default 1048576)')
    .action(async (p: string, o: { repo?: string; maxFileSize?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const maxFileSize = intFlag('--max-file-size', o.maxFileSize, 1, 1 << 30);
      const io = ctx.io;
      const root = p.startsWith('/') ? p : `${io.cwd}/${p}`;
      let spinner: { text: string; stop(): void } | null = null;
      if (io.stderr.isTTY && !g.json && !io.env.CI) {
        const { default: ora } = await import('ora');
        spinner = ora({ text: 'walking…', stream: process.stderr }).start();
      }
      try {
        const s = await indexCheckout(root, {
          dataDir: g.dataDir, org: g.org, repo: o.repo, maxFileSize,
          onProgress: spinner
            ? ({ done, total, bytes, seconds }) => {
                spinner!.text = `${done}/${total} files  ${(bytes / 1048576 / Math.max(seconds, 0.001)).toFixed(1)} MB/s`;
              }
            : undefined,
        });
        spinner?.stop();
        io.stdout.write(g.json ? summaryJson(s) : summaryTable(s));
      } finally {
        spinner?.stop();
      }
    });
}
