// Reciprocal-rank fusion, pure: ranked lists of ids in, fused scores out.
// score(id) = Σ over lists of weight / (K + rank), rank 1-based, as the API
// defines hybrid scores (Σ 1/(60+rank)). The tier order and K live here and
// nowhere else; fusion never sees SQL, text or vectors.

export const RRF_K = 60;

export interface RankedList {
  name: string;
  ids: string[];
  /** 1 unless the ranking set shows a tier deserves more or less */
  weight?: number;
}

export interface Fused {
  id: string;
  score: number;
  /** best (lowest) rank per list that contained the id */
  ranks: Record<string, number>;
}

export function rrf(lists: RankedList[], k = RRF_K): Fused[] {
  const acc = new Map<string, Fused>();
  for (const list of lists) {
    const w = list.weight ?? 1;
    const seen = new Set<string>();
    let rank = 0;
    for (const id of list.ids) {
      if (seen.has(id)) continue; // an id counts once per list, at its best rank
      seen.add(id);
      rank++;
      let f = acc.get(id);
      if (!f) acc.set(id, (f = { id, score: 0, ranks: {} }));
      f.score += w / (k + rank);
      f.ranks[list.name] = rank;
    }
  }
  return [...acc.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
