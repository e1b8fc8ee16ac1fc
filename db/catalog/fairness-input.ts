import { sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { loadCandidateAttributes } from "./candidate-attributes";

export interface FairnessData {
  /** system → proposal → candidate ids in rank order (the default variant) */
  lists: Map<string, Map<string, string[]>>;
  /** attribute → candidate → value; the candidates named here are the pool */
  attributes: Map<string, Map<string, string>>;
  /** proposal → candidate → the proposal's keywords the candidate's keywords hold (its aspects) */
  aspects: Map<string, Map<string, Set<string>>>;
}

/**
 * What the fairness figures read, by external ids: the systems' default-variant lists, the candidates'
 * group attributes, and each listed proposal's aspects: its keywords, covered by every candidate (of the
 * whole catalog, so the ideal list can use anyone) whose keywords hold them.
 */
export async function loadFairnessInput(
  db: DbOrTx,
  options: { systems?: string[] } = {},
): Promise<FairnessData> {
  const items = await db.execute<{ system: string; proposal: string; candidate: string }>(sql`
    select s.key as system, p.external_id as proposal, c.external_id as candidate
    from list_items li join ranked_lists rl on rl.id = li.list_id join systems s on s.id = rl.system_id
    join proposals p on p.id = rl.proposal_id join candidates c on c.id = li.candidate_id
    where rl.variant = 'default' ${options.systems ? sql`and s.key in ${options.systems}` : sql``}
    order by s.key, p.external_id, li.rank`);
  const lists = new Map<string, Map<string, string[]>>();
  for (const r of items) {
    const bySystem = lists.get(r.system) ?? new Map<string, string[]>();
    bySystem.set(r.proposal, [...(bySystem.get(r.proposal) ?? []), r.candidate]);
    lists.set(r.system, bySystem);
  }
  return {
    lists,
    // One loader of the attributes for every tier (the pool is every candidate with a value).
    attributes: await loadCandidateAttributes(db),
    aspects: await loadAspects(db, new Set([...lists.values()].flatMap((m) => [...m.keys()]))),
  };
}

async function loadAspects(db: DbOrTx, listed: ReadonlySet<string>) {
  const holders = new Map<string, string[]>();
  for (const c of await db.execute<{ id: string; keywords: string[] }>(
    sql`select external_id as id, keywords from candidates where cardinality(keywords) > 0`,
  ))
    for (const k of c.keywords) holders.set(k, [...(holders.get(k) ?? []), c.id]);
  const aspects = new Map<string, Map<string, Set<string>>>();
  for (const p of await db.execute<{ id: string; keywords: string[] }>(
    sql`select external_id as id, keywords from proposals`,
  )) {
    if (!listed.has(p.id)) continue;
    const judged = new Map<string, Set<string>>();
    for (const k of p.keywords)
      for (const c of holders.get(k) ?? []) judged.set(c, (judged.get(c) ?? new Set()).add(k));
    aspects.set(p.id, judged);
  }
  return aspects;
}
