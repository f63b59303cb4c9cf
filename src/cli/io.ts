// The CLI's view of the outside world, injected so tests drive the real CLI
// in-process and capture what it prints without a terminal.

export interface Sink {
  write(s: string): void;
  isTTY?: boolean;
}

export interface IO {
  stdout: Sink;
  stderr: Sink;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): IO {
  return {
    stdout: { write: (s) => void process.stdout.write(s), isTTY: !!process.stdout.isTTY },
    stderr: { write: (s) => void process.stderr.write(s), isTTY: !!process.stderr.isTTY },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Collects output in memory (tests). */
export function memoryIO(opts: { env?: NodeJS.ProcessEnv; cwd?: string; tty?: boolean } = {}): IO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s) => { out += s; }, isTTY: !!opts.tty },
    stderr: { write: (s) => { err += s; }, isTTY: !!opts.tty },
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
    out: () => out,
    err: () => err,
  };
}
