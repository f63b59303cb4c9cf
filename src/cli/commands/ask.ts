// `hanzo code ask <question>`: a cited answer from the chat model, written
// over exactly the spans `context` packs, which are printed with it.

import type { Command } from 'commander';
import type { AskResult } from '../../api.js';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

export function askText(r: AskResult): string {
  let out = r.answer ? `${r.answer}\n` : '';
  if (r.spans.length) {
    out += '\nSources:\n';
    r.spans.forEach((s, i) => {
      const mark = r.cited.includes(i + 1) ? '*' : ' ';
      out += `${mark}[${i + 1}] ${s.repo}/${s.file}:${s.line}-${s.endLine}${s.symbol ? `  ${s.symbol}` : ''}\n`;
    });
  }
  return out;
}

export function registerAsk(code: Command, ctx: Ctx): Command {
  return code
    .command('ask')
    .description('a cited answer about the indexed code, written by a chat model over the packed context')
    .argument('<question...>', 'the question')
    .option('--budget <tokens>', 'context budget for the model (default 6000, at most 200000)')
    .option('--repo <name>', 'only this repo')
    .option('--chat-model <model>', 'chat model (env HANZO_CHAT_MODEL, default gpt-4o-mini)')
    .option('--embed-model <model>', 'embedding model for the semantic tier (env HANZO_EMBED_MODEL)')
    .action(async (words: string[], o: { budget?: string; repo?: string; chatModel?: string; embedModel?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { ask } = await import('../../api.js');
      const r = await ask(words.join(' '), {
        dataDir: g.dataDir, org: g.org, repo: o.repo, budgetTokens: intFlag('--budget', o.budget, 1, 200_000),
        chatModel: o.chatModel, embedModel: o.embedModel, env: ctx.io.env,
      });
      for (const w of r.warnings) ctx.io.stderr.write(`hanzo: ${w}\n`);
      if (r.spans.length === 0 && !r.degraded) ctx.io.stderr.write('hanzo: no indexed code matches the question; nothing to answer from\n');
      const { warnings: _w, ...json } = r;
      ctx.io.stdout.write(g.json ? JSON.stringify(json) + '\n' : askText(r));
      ctx.exitCode = r.answer || r.degraded ? 0 : 1;
    });
}
