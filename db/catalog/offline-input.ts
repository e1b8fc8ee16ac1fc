import { asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { candidates, goldMembers, listItems, proposals, rankedLists, subjects, systems } from "../schema";
import type { OfflineInput } from "../../scripts/offline/report";
import { loadConflicts } from "./conflicts";

/** Everything the tier-1 report needs, by external ids: proposals, gold committees, every list. */
export async function loadOfflineInput(
  db: DbOrTx,
  options: { systems?: string[] } = {},
): Promise<OfflineInput> {
  const { proposalRows, proposalIds, candidateRows, candidateIds, gold } = await loadProposalsAndGold(db);
  const out = await loadSystemLists(db, options.systems, proposalIds);
  return {
    proposals: proposalRows.map((p) => ({
      id: p.externalId,
      title: p.title,
      subject: p.subject,
      date: p.date,
    })),
    gold,
    systems: out,
    catalog: new Set(candidateIds.values()),
    conflicts: await loadConflicts(db),
    profileDates: new Map(
      candidateRows.flatMap((c) => (c.profileDate ? [[c.externalId, c.profileDate] as const] : [])),
    ),
  };
}

/** Each proposal's gold committee by external ids (what `assay protocol split` splits). */
export async function loadGold(db: DbOrTx): Promise<Map<string, Set<string>>> {
  return (await loadProposalsAndGold(db)).gold;
}

/** The proposals by external id, every candidate, and each proposal's gold committee by external ids. */
async function loadProposalsAndGold(db: DbOrTx) {
  const proposalRows = await db
    .select({
      id: proposals.id,
      externalId: proposals.externalId,
      title: proposals.title,
      subject: subjects.name,
      date: proposals.date,
    })
    .from(proposals)
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .orderBy(asc(proposals.externalId));
  const proposalIds = new Map(proposalRows.map((p) => [p.id, p.externalId]));
  const candidateRows = await db
    .select({ id: candidates.id, externalId: candidates.externalId, profileDate: candidates.profileDate })
    .from(candidates);
  const candidateIds = new Map(candidateRows.map((c) => [c.id, c.externalId]));
  const gold = new Map<string, Set<string>>();
  for (const g of await db.select().from(goldMembers)) {
    const p = proposalIds.get(g.proposalId)!;
    if (!gold.has(p)) gold.set(p, new Set());
    gold.get(p)!.add(candidateIds.get(g.candidateId)!);
  }
  return { proposalRows, proposalIds, candidateRows, candidateIds, gold };
}

/** The systems asked for (all when none), by key, with their lists (and scores) by proposal and variant. */
async function loadSystemLists(
  db: DbOrTx,
  keys: string[] | undefined,
  proposalIds: Map<number, string>,
): Promise<OfflineInput["systems"]> {
  const systemRows = await db
    .select({
      id: systems.id,
      key: systems.key,
      name: systems.name,
      protocol: systems.protocol,
      buildSeconds: systems.buildSeconds,
      memoryMb: systems.memoryMb,
    })
    .from(systems)
    .where(keys?.length ? inArray(systems.key, keys) : undefined)
    .orderBy(asc(systems.key));
  // One row per list with its candidates in rank order, aggregated in SQL: the event loop maps a few
  // thousand rows rather than one object per list item (what keeps /healthz quick while reports load).
  const lists = !systemRows.length
    ? []
    : await db
        .select({
          systemId: rankedLists.systemId,
          proposalId: rankedLists.proposalId,
          variant: rankedLists.variant,
          latencyMs: rankedLists.latencyMs,
          items: sql<string[]>`array_agg(${candidates.externalId} order by ${listItems.rank})`,
          // null when no item of the list has a score, so unscored systems cost nothing more.
          scores: sql<
            (number | null)[] | null
          >`case when bool_or(${listItems.score} is not null) then array_agg(${listItems.score} order by ${listItems.rank}) end`,
        })
        .from(rankedLists)
        .innerJoin(listItems, eq(listItems.listId, rankedLists.id))
        .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
        .where(
          inArray(
            rankedLists.systemId,
            systemRows.map((s) => s.id),
          ),
        )
        .groupBy(rankedLists.id)
        .orderBy(asc(rankedLists.systemId), asc(rankedLists.proposalId), asc(rankedLists.variant));
  const bySystem = new Map(systemRows.map((s) => [s.id, new Map<string, Map<string, string[]>>()]));
  const scoresBySystem = new Map(
    systemRows.map((s) => [s.id, new Map<string, Map<string, (number | null)[]>>()]),
  );
  const latencyBySystem = new Map(systemRows.map((s) => [s.id, new Map<string, Map<string, number>>()]));
  for (const l of lists) {
    const perProposal = bySystem.get(l.systemId)!;
    const p = proposalIds.get(l.proposalId)!;
    if (l.latencyMs !== null) {
      const latencies = latencyBySystem.get(l.systemId)!;
      if (!latencies.has(p)) latencies.set(p, new Map());
      latencies.get(p)!.set(l.variant, l.latencyMs);
    }
    if (!perProposal.has(p)) perProposal.set(p, new Map());
    perProposal.get(p)!.set(l.variant, l.items);
    if (l.scores) {
      const scores = scoresBySystem.get(l.systemId)!;
      if (!scores.has(p)) scores.set(p, new Map());
      scores.get(p)!.set(
        l.variant,
        l.scores.map((v) => (v === null ? null : Number(v))),
      );
    }
  }
  return systemRows.map((s) => ({
    key: s.key,
    name: s.name,
    ...(s.protocol ? { protocol: s.protocol } : {}),
    lists: bySystem.get(s.id)!,
    ...(scoresBySystem.get(s.id)!.size ? { scores: scoresBySystem.get(s.id)! } : {}),
    ...(latencyBySystem.get(s.id)!.size ? { latencies: latencyBySystem.get(s.id)! } : {}),
    buildSeconds: s.buildSeconds,
    memoryMb: s.memoryMb,
  }));
}
