// Worker-thread body for the parse pool: receives {id, language, path, text}
// and answers {id, parsed}. It owns no state but the parsers' caches.

import { parentPort } from 'node:worker_threads';
import { prepareFile } from './prepare.js';
import { loadParsers } from './registry.js';

await loadParsers();
parentPort!.on('message', async (msg: { id: number; language: string; path: string; text: string; symbols?: boolean }) => {
  const parsed = await prepareFile(msg.language, msg.path, msg.text, msg.symbols !== false);
  parentPort!.postMessage({ id: msg.id, parsed });
});
