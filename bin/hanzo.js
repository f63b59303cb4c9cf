#!/usr/bin/env node
// The only place that exits the process. A closed stdout (`| head`) ends quietly with 0.
process.stdout.on('error', (e) => {
  if (e && e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { run } = await import('../dist/src/cli/main.js');
const { processIO } = await import('../dist/src/cli/io.js');
const code = await run(process.argv.slice(2), processIO());
process.exitCode = code;
