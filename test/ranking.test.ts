// Ranking regression: hybrid search over the real Python and Go corpora must
// keep hitting the expected file in the top 5 for as many queries as the
// committed figures say, give or take one query (a tie broken differently by
// an unrelated change should not fail CI; two lost queries is a regression).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import test from 'node:test';

import { FIGURES_PATH, evaluate, loadSet, missingRoots, parseFigures } from '../bench/ranking.js';

/** queries the committed file's per-query ranks have in the top 5 */
function top5(ranks: Record<string, number | null> | undefined): Set<string> {
  return new Set(Object.entries(ranks ?? {}).filter(([, r]) => r !== null && r <= 5).map(([id]) => id));
}

test('ranking: hybrid recall@5 holds against test/ranking/figures.txt', async (t) => {
  const set = loadSet();
  if (missingRoots(set).length) {
    t.skip('corpus not installed: run bench/corpus.sh');
    return;
  }
  if (!existsSync(FIGURES_PATH)) {
    t.skip('no committed figures: run node dist/bench/ranking.js --write');
    return;
  }
  const committed = parseFigures(readFileSync(FIGURES_PATH, 'utf8'));
  const base = committed.groups.hybrid?.all;
  assert.ok(base, `${FIGURES_PATH} has no "hybrid all" row; regenerate it with node dist/bench/ranking.js --write`);

  const figures = await evaluate({ tiers: ['hybrid'], log: (l) => t.diagnostic(l) });
  const now = figures.tiers.hybrid!;
  const hits = now.groups.all!.hits5;
  const floor = base.hits5 - 1;
  t.diagnostic(`hybrid recall@5: ${hits}/${now.groups.all!.n} (committed ${base.hits5}/${base.n})`);

  const before = top5(committed.ranks.hybrid);
  const after = top5(now.ranks);
  const lost = [...before].filter((id) => !after.has(id)).map((id) => `${id} (now ${now.ranks[id] ?? 'missed'})`);
  const gained = [...after].filter((id) => !before.has(id));
  if (hits > base.hits5) t.diagnostic(`better than committed: regenerate figures.txt (gained ${gained.join(', ')})`);
  assert.ok(
    hits >= floor,
    `hybrid recall@5 fell to ${hits}/${now.groups.all!.n}, committed ${base.hits5}/${base.n} (at least ${floor} needed)\n` +
      `  lost from the top 5: ${lost.join(', ') || 'none'}\n  gained: ${gained.join(', ') || 'none'}`,
  );
});
