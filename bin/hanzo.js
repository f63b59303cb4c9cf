#!/usr/bin/env node
// The only place that exits the process. A closed stdout (`| head`) ends
// quietly with 0, as ripgrep does; any other write failure (a full disk) is an
// error, exit 2, never mistaken for "no results".
process.stdout.on('error', (e) => {
  if (e && e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`hanzo: cannot write the output: ${e && e.message ? e.message : e}\n`);
  process.exit(2);
});
const { run } = await import('../dist/src/cli/main.js');
const { processIO } = await import('../dist/src/cli/io.js');
const code = await run(process.argv.slice(2), processIO());
process.exitCode = code;
