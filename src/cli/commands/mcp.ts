// `hanzo code mcp`: an MCP server on stdin/stdout for coding agents, until
// stdin closes. Diagnostics go to stderr: stdout is the protocol stream.

import type { Command } from 'commander';
import type { Ctx } from '../main.js';

export function registerMcp(code: Command, ctx: Ctx): Command {
  return code
    .command('mcp')
    .description('serve the code tools over MCP (JSON-RPC on stdio) for coding agents')
    .action(async (_o: unknown, cmd: Command) => {
      const g = ctx.globals(cmd);
      const { runMcp } = await import('../../server/mcp.js');
      ctx.io.stderr.write(`hanzo: MCP server for org "${g.org}" on stdio\n`);
      await runMcp(process.stdin, (line) => ctx.io.stdout.write(line), { dataDir: g.dataDir, org: g.org, env: ctx.io.env });
    });
}
