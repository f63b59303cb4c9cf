// `hanzo code search <query>`: check flags, call api.search, render.
// Exit status as ripgrep: 0 with results, 1 without, 2 on error.

import { Option, type Command } from 'commander';
import { SEARCH_TYPES, type SearchType } from '../../config.js';
import { UsageError } from '../../errors.js';
import type { CaseMode } from '../../retrieve/types.js';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

export function registerSearch(code: Command, ctx: Ctx): Command {
  return code
    .command('search')
    .description('search the index: hybrid (default), text, regex, symbol or semantic')
    .argument('<query...>', 'what to search for (several words are joined by spaces)')
    .addOption(new Option('-t, --type <tier>', `retrieval tier: ${SEARCH_TYPES.join(', ')}`))
    .option('--repo <name>', 'only this repo')
    .option('--limit <n>', 'at most this many results (default 20, max 100)')
    .option('--all', 'every match (text and regex tiers), for pipelines')
    .option('--embed-model <model>', 'embedding model for the semantic tier (env HANZO_EMBED_MODEL)')
    .option('--refs', 'with --type symbol: the references to the best-matching definition')
    .option('-s, --case-sensitive', 'match case exactly')
    .option('-i, --ignore-case', 'ignore case')
    .action(async (words: string[], o: { type?: string; repo?: string; limit?: string; all?: boolean; caseSensitive?: boolean; ignoreCase?: boolean; refs?: boolean; embedModel?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const query = words.join(' ');
      if (o.type !== undefined && !(SEARCH_TYPES as readonly string[]).includes(o.type)) {
        throw new UsageError(`invalid --type "${o.type}": use one of ${SEARCH_TYPES.join(', ')}`);
      }
      if (o.caseSensitive && o.ignoreCase) throw new UsageError('--case-sensitive and --ignore-case contradict each other: give one');
      const caseMode: CaseMode = o.caseSensitive ? 'sensitive' : o.ignoreCase ? 'insensitive' : 'smart';
      const limit = intFlag('--limit', o.limit, 1, 100);
      // heavy modules load only when a command runs, so --help and flag errors stay instant
      const [{ search }, { searchJson, searchPlain, searchTTY }] = await Promise.all([import('../../api.js'), import('../render/search.js')]);
      const r = await search(query, {
        dataDir: g.dataDir, org: g.org, type: o.type as SearchType | undefined, repo: o.repo, limit, all: o.all, caseMode, refs: o.refs, embedModel: o.embedModel, env: ctx.io.env,
      });
      for (const w of r.warnings) ctx.io.stderr.write(`hanzo: ${w}\n`);
      const out = g.json ? searchJson(r) : ctx.io.stdout.isTTY ? searchTTY(r, g.color) : searchPlain(r);
      ctx.io.stdout.write(out);
      // an outage is not an absence of matches: degraded answers exit 0 (fail-honest)
      ctx.exitCode = r.results.length > 0 || r.degraded ? 0 : 1;
    });
}
