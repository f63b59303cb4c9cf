// `hanzo code serve`: the REST API on a local port, for agents, until
// interrupted. It binds to 127.0.0.1 unless told otherwise: this is an index
// of private source.

import type { Command } from 'commander';
import type { Ctx } from '../main.js';
import { intFlag } from '../main.js';

export function registerServe(code: Command, ctx: Ctx): Command {
  return code
    .command('serve')
    .description('serve the REST API (/v1/code/search, context, ask, tree, file, index) for this org on a local port')
    .option('--port <n>', 'port (default 7777; 0 picks a free one)')
    .option('--host <addr>', 'address to bind (default 127.0.0.1)')
    .action(async (o: { port?: string; host?: string }, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { serve } = await import('../../server/rest.js');
      const s = await serve({ dataDir: g.dataDir, org: g.org, env: ctx.io.env, host: o.host, port: intFlag('--port', o.port, 0, 65535) });
      ctx.io.stderr.write(`hanzo: serving org "${g.org}" at ${s.url}/v1/code (Ctrl-C to stop)\n`);
      if (g.json) ctx.io.stdout.write(JSON.stringify({ url: s.url, org: g.org }) + '\n');
      await new Promise<void>((resolve) => {
        const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); resolve(); };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await s.close();
    });
}
