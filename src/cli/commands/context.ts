// `hanzo code context <query>`: the code for a query packed into a token
// budget. Text output is prompt-ready: a header per span and a fenced block.

import type { Command } from 'commander';
import { detectLanguage, fenceTag } from '../../parse/language.js';
import type { ContextBundle } from '../../types.js';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

export function contextText(b: ContextBundle): string {
  let out = '';
  for (const s of b.spans) {
    const label = s.role === 'match' ? '' : `  (${s.role}${s.symbol ? ' ' + s.symbol : ''})`;
    const fence = s.snippet.includes('```') ? '````' : '```';
    out += `${s.repo}/${s.file}:${s.line}-${s.endLine}${label}\n${fence}${fenceTag(detectLanguage(s.file))}\n${s.snippet}\n${fence}\n\n`;
  }
  return out;
}

export function registerContext(code: Command, ctx: Ctx): Command {
  return code
    .command('context')
    .description('the most relevant code for a query, packed into a token budget')
    .argument('<query...>', 'what the context is for (a question, a bug report, an identifier)')
    .option('--budget <tokens>', 'token budget (default 8000, at most 200000; ~4 characters a token)')
    .option('--repo <name>', 'only this repo')
    .option('--embed-model <model>', 'embedding model for the semantic tier (env HANZO_EMBED_MODEL)')
    .action(async (words: string[], o: { budget?: string; repo?: string; embedModel?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { context } = await import('../../api.js');
      const b = await context(words.join(' '), {
        dataDir: g.dataDir, org: g.org, repo: o.repo, budgetTokens: intFlag('--budget', o.budget, 1, 200_000),
        embedModel: o.embedModel, env: ctx.io.env,
      });
      if (b.degraded) ctx.io.stderr.write('hanzo: retrieval failed; the bundle is empty because of an outage, not an absence of matches\n');
      ctx.io.stdout.write(g.json ? JSON.stringify(b) + '\n' : contextText(b));
      ctx.exitCode = b.spans.length > 0 ? 0 : 1;
    });
}
