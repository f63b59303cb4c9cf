// `ask` against a real chat-completions server on 127.0.0.1: the model sees
// exactly the packed spans, citations map back to them, and failures are
// fail-honest.

import assert from 'node:assert/strict';
import test from 'node:test';
import { startFakeGateway } from './support/fake-gateway.js';
import { cli, makeRepo, tempDir } from './support/repo.js';

const REPO = {
  'src/cookie.ts': 'export function parseCookie(h: string) {\n  return { domain: h.toLowerCase() };\n}\n',
  'src/redirect.ts': "import { parseCookie } from './cookie.js';\nexport function followRedirect(loc: string, hs: string[]) {\n  return hs.map((h) => parseCookie(h)).filter((c) => loc.endsWith(c.domain));\n}\n",
};

test('ask: a cited answer over exactly the packed spans', async () => {
  let prompt = '';
  const gw = await startFakeGateway({
    chat: (messages) => {
      prompt = messages[messages.length - 1]!.content;
      return 'followRedirect keeps cookies whose domain matches [1], parsed by parseCookie [2].';
    },
  });
  try {
    const env = { HANZO_BASE_URL: gw.url, HANZO_CHAT_MODEL: 'fake-chat' };
    const data = tempDir();
    await cli(['code', 'index', makeRepo(REPO), '--repo', 'acme/app'], { dataDir: data, env });
    const r = await cli(['code', 'ask', 'how does followRedirect treat cookies?', '--json'], { dataDir: data, env });
    assert.equal(r.code, 0, r.err);
    const o = JSON.parse(r.out);
    assert.equal(o.answer, 'followRedirect keeps cookies whose domain matches [1], parsed by parseCookie [2].');
    assert.deepEqual(o.cited, [1, 2]);
    assert.equal(o.model, 'fake-chat');
    assert.equal(o.spans[0].file, 'src/redirect.ts');
    assert.equal(o.spans[1].file, 'src/cookie.ts');
    assert.equal(o.degraded, false);
    // the model was given every packed span, numbered, with its code
    for (const [i, s] of o.spans.entries()) {
      assert.ok(prompt.includes(`[${i + 1}] acme/app/${s.file}:${s.line}-${s.endLine}`), prompt);
      assert.ok(prompt.includes(s.snippet));
    }
    const chat = gw.calls.find((c) => c.path.endsWith('/chat/completions'))!;
    assert.equal(chat.body.model, 'fake-chat');
    const text = await cli(['code', 'ask', 'how does followRedirect treat cookies?'], { dataDir: data, env });
    assert.match(text.out, /\nSources:\n\*\[1\] acme\/app\/src\/redirect\.ts:\d+-\d+/);
  } finally {
    await gw.close();
  }
});

test('ask: nothing indexed matches -> no model call, exit 1; a gateway failure -> degraded, exit 0', async () => {
  const gw = await startFakeGateway({ apiKey: 'sk-right' });
  try {
    const data = tempDir();
    const env = { HANZO_BASE_URL: gw.url, HANZO_API_KEY: 'sk-right' };
    await cli(['code', 'index', makeRepo(REPO)], { dataDir: data, env });
    const none = await cli(['code', 'ask', 'zzqqxx', '--json'], { dataDir: data, env });
    assert.equal(none.code, 1);
    assert.equal(gw.calls.length, 0);
    const bad = await cli(['code', 'ask', 'followRedirect', '--json'], { dataDir: data, env: { ...env, HANZO_API_KEY: 'sk-wrong' } });
    assert.equal(bad.code, 0);
    const o = JSON.parse(bad.out);
    assert.equal(o.degraded, true);
    assert.equal(o.answer, '');
    assert.ok(o.spans.length > 0, 'the spans it would have answered from still come back');
    assert.match(bad.err, /ask failed: .*HANZO_API_KEY/);
  } finally {
    await gw.close();
  }
});
