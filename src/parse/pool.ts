// A small pool of worker threads for parsing, the slow stage of indexing
// (tree-sitter ~2.5 MB/s, Babel ~4.5 MB/s on one core): workers parse while
// the main thread reads files and writes SQLite. Small jobs parse inline,
// since starting a worker and loading grammars costs more than they save.

import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { prepareFile, type PreparedFile } from './prepare.js';
import { loadParsers } from './registry.js';

export interface ParseJob { language: string; path: string; text: string; symbols?: boolean }

export class ParsePool {
  private workers: Worker[] = [];
  private queue: { job: ParseJob; resolve: (p: PreparedFile) => void; reject: (e: Error) => void }[] = [];
  private busy = new Map<Worker, { resolve: (p: PreparedFile) => void; reject: (e: Error) => void }>();
  private idle: Worker[] = [];
  private nextId = 0;
  private size: number;

  constructor(size = Math.max(1, Math.min(4, os.availableParallelism()))) {
    this.size = size;
  }

  private spawn(): void {
    const w = new Worker(new URL('./worker.js', import.meta.url));
    w.unref();
    w.on('message', (msg: { id: number; parsed: PreparedFile }) => {
      const pending = this.busy.get(w);
      this.busy.delete(w);
      pending?.resolve(msg.parsed);
      this.idle.push(w);
      this.pump();
    });
    w.on('error', (err) => {
      const pending = this.busy.get(w);
      this.busy.delete(w);
      this.workers = this.workers.filter((x) => x !== w);
      this.idle = this.idle.filter((x) => x !== w);
      pending?.reject(err);
      this.pump();
    });
    this.workers.push(w);
    this.idle.push(w);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      if (this.idle.length === 0 && this.workers.length < this.size) this.spawn();
      const w = this.idle.pop();
      if (!w) return;
      const item = this.queue.shift()!;
      this.busy.set(w, item);
      w.postMessage({ id: this.nextId++, ...item.job });
    }
  }

  parse(job: ParseJob): Promise<PreparedFile> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers = [];
    this.idle = [];
  }
}

/** Parse a batch: inline for small batches, through the pool otherwise. */
export async function parseBatch(jobs: ParseJob[], pool: ParsePool | null): Promise<PreparedFile[]> {
  if (!pool) {
    await loadParsers();
    const out: PreparedFile[] = [];
    for (const j of jobs) out.push(await prepareFile(j.language, j.path, j.text, j.symbols !== false));
    return out;
  }
  return Promise.all(jobs.map((j) => pool.parse(j)));
}
