// `hanzo code index [path]`: resolve options, run the indexer, print the summary.

import type { Command } from 'commander';
import Table from 'cli-table3';
import type { IndexSummary } from '../../api.js';
import type { EmbedSummary } from '../../index/embed.js';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

type Summary = IndexSummary & { store: string; embed?: EmbedSummary };

export function summaryJson(s: Summary): string {
  return JSON.stringify({
    scanned: s.scanned, added: s.added, updated: s.updated, unchanged: s.unchanged, pruned: s.pruned,
    skipped: s.skipped, bytes: s.bytes, seconds: s.seconds, repo: s.repo, store: s.store,
    ...(s.embed ? { embedded: s.embed.embedded, embedTokens: s.embed.tokens, embedModel: s.embed.model } : {}),
  }) + '\n';
}

export function summaryTable(s: Summary): string {
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
  if (s.embed) {
    t.push(['embedded', `${s.embed.embedded} chunks (${s.embed.reused} already had vectors), ${s.embed.tokens} tokens, ${s.embed.model}, ${s.embed.seconds.toFixed(2)} s`]);
  }
  return t.toString() + '\n';
}

export function registerIndex(code: Command, ctx: Ctx): Command {
  return code
    .command('index')
    .description('index a checkout (incremental: unchanged files are skipped, deleted ones pruned)')
    .argument('[path]', 'the checkout to index', '.')
    .option('--repo <owner/name>', 'repo name (default: from the origin remote, else the folder name)')
    .option('--max-file-size <bytes>', 'skip files larger than this (default 1048576)')
    .option('--no-symbols', 'lexical only: skip the parsers (no definitions, references or AST chunks), for speed on huge trees')
    .option('--embed', 'also embed new and changed chunks through the gateway (HANZO_BASE_URL, HANZO_API_KEY)')
    .option('--embed-model <model>', 'embedding model (env HANZO_EMBED_MODEL, default text-embedding-3-small)')
    .action(async (p: string, o: { repo?: string; maxFileSize?: string; embed?: boolean; embedModel?: string; symbols?: boolean }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const maxFileSize = intFlag('--max-file-size', o.maxFileSize, 1, 1 << 30);
      const io = ctx.io;
      const root = p.startsWith('/') ? p : `${io.cwd}/${p}`;
      let spinner: { text: string; stop(): void } | null = null;
      // a terminal that reports no width (some CI pseudo-terminals) would get one redraw per column: no spinner there
      if (io.stderr.isTTY && !g.json && !io.env.CI && (process.stderr.columns ?? 0) > 0) {
        const { default: ora } = await import('ora');
        spinner = ora({ text: 'walking…', stream: process.stderr }).start();
      }
      try {
        const { indexCheckout } = await import('../../api.js');
        const s = await indexCheckout(root, {
          dataDir: g.dataDir, org: g.org, repo: o.repo, maxFileSize, symbols: o.symbols, embed: o.embed, embedModel: o.embedModel, env: io.env,
          onEmbedProgress: spinner
            ? ({ done, total, tokens, seconds }) => {
                spinner!.text = `embedding ${done}/${total} chunks  ${(done / Math.max(seconds, 0.001)).toFixed(0)} chunks/s  ${tokens} tokens`;
              }
            : undefined,
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
