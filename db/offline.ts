import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "./client";
import { candidates, goldMembers, listItems, proposals, rankedLists, subjects, systems } from "./schema";
import type { OfflineInput } from "../scripts/metrics/offline";

/** Everything the tier-1 report needs, by external ids: proposals, gold committees, every list. */
export async function loadOfflineInput(db: DbOrTx, options: { systems?: string[] } = {}): Promise<OfflineInput> {
  const proposalRows = await db
    .select({ id: proposals.id, externalId: proposals.externalId, title: proposals.title, subject: subjects.name })
    .from(proposals)
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .orderBy(asc(proposals.externalId));
  const proposalIds = new Map(proposalRows.map((p) => [p.id, p.externalId]));
  const candidateRows = await db.select({ id: candidates.id, externalId: candidates.externalId }).from(candidates);
  const candidateIds = new Map(candidateRows.map((c) => [c.id, c.externalId]));
  const gold = new Map<string, Set<string>>();
  for (const g of await db.select().from(goldMembers)) {
    const p = proposalIds.get(g.proposalId)!;
    if (!gold.has(p)) gold.set(p, new Set());
    gold.get(p)!.add(candidateIds.get(g.candidateId)!);
  }
  const systemRows = await db
    .select({ id: systems.id, key: systems.key, name: systems.name })
    .from(systems)
    .where(options.systems?.length ? inArray(systems.key, options.systems) : undefined)
    .orderBy(asc(systems.key));
  const out: OfflineInput["systems"] = [];
  for (const s of systemRows) {
    const rows = await db
      .select({ proposalId: rankedLists.proposalId, variant: rankedLists.variant, candidateId: listItems.candidateId })
      .from(listItems)
      .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
      .where(eq(rankedLists.systemId, s.id))
      .orderBy(asc(rankedLists.proposalId), asc(rankedLists.variant), asc(listItems.rank));
    const lists = new Map<string, Map<string, string[]>>();
    for (const r of rows) {
      const p = proposalIds.get(r.proposalId)!;
      if (!lists.has(p)) lists.set(p, new Map());
      const variants = lists.get(p)!;
      if (!variants.has(r.variant)) variants.set(r.variant, []);
      variants.get(r.variant)!.push(candidateIds.get(r.candidateId)!);
    }
    out.push({ key: s.key, name: s.name, lists });
  }
  return {
    proposals: proposalRows.map((p) => ({ id: p.externalId, title: p.title, subject: p.subject })),
    gold,
    systems: out,
    catalog: new Set(candidateIds.values()),
  };
}
