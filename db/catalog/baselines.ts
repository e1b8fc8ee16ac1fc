import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../platform/client";
import { candidates, goldMembers, listItems, proposals, rankedLists, systems } from "../schema";
import { createRng, shuffled } from "../../scripts/lib/random";
import { pagerankLists } from "./pagerank-baseline";
import { earlierHistory } from "../../scripts/offline/history";

export const baselineKeys = ["random", "popular", "subject-match", "pagerank"] as const;

/**
 * Reference systems that give every report a floor to beat, written in one transaction (replacing
 * earlier baseline lists):
 *  - random: a seeded shuffle of the catalog;
 *  - popular: candidates most often in gold committees, counted without the proposal itself
 *    (leave-one-out, so the proposal's own committee cannot leak into its list), and for a dated
 *    proposal (when dates exist) only over committees dated before it (scripts/offline/history.ts);
 *  - subject-match: candidates whose expertise keywords overlap the proposal's keywords most;
 *  - pagerank: PageRank (damping 0.85) over the co-committee graph, without the proposal's own
 *    committee (leave-one-out) or, dated, of earlier committees only, restricted to the proposal's subject
 *    when it has one (pagerank-baseline.ts).
 * Ties are broken by candidate external id, so the lists are deterministic.
 */
export async function createBaselines(db: Db, options: { seed?: string; depth?: number } = {}) {
  const seed = options.seed ?? "assay-baselines";
  const depth = options.depth ?? 50;
  const catalog = await loadBaselineCatalog(db);
  return writeBaselines(db, seed, catalog.allProposals, baselineListMakers(catalog, seed, depth));
}

type BaselineCatalog = Awaited<ReturnType<typeof loadBaselineCatalog>>;
type BaselineProposal = BaselineCatalog["allProposals"][number];
type ListMaker = (p: BaselineProposal) => { id: number; score: number }[];

/** Candidates and proposals by external id, and the gold committees: by proposal, and counts by candidate. */
async function loadBaselineCatalog(db: Db) {
  const allCandidates = await db
    .select({ id: candidates.id, externalId: candidates.externalId, keywords: candidates.keywords })
    .from(candidates)
    .orderBy(candidates.externalId);
  const allProposals = await db
    .select({
      id: proposals.id,
      keywords: proposals.keywords,
      subjectId: proposals.subjectId,
      date: proposals.date,
    })
    .from(proposals)
    .orderBy(proposals.externalId);
  if (allCandidates.length === 0 || allProposals.length === 0)
    throw new Error("there are no proposals or candidates yet: import them first");
  const gold = await db.select().from(goldMembers);
  const goldCount = new Map<number, number>();
  const goldOf = new Map<number, Set<number>>();
  for (const g of gold) {
    goldCount.set(g.candidateId, (goldCount.get(g.candidateId) ?? 0) + 1);
    if (!goldOf.has(g.proposalId)) goldOf.set(g.proposalId, new Set());
    goldOf.get(g.proposalId)!.add(g.candidateId);
  }
  return { allCandidates, allProposals, goldCount, goldOf };
}

/** Each baseline's list of a proposal, its top `depth` candidates with their scores. */
function baselineListMakers(
  { allCandidates, allProposals, goldCount, goldOf }: BaselineCatalog,
  seed: string,
  depth: number,
): Record<(typeof baselineKeys)[number], ListMaker> {
  const rng = createRng(seed);
  const pagerankOf = pagerankLists(allCandidates, allProposals, goldOf, depth);
  // A dated proposal counts only earlier committees (none of them its own); else all but its own.
  const countsBefore = earlierHistory(allProposals, (earlier) => {
    const counts = new Map<number, number>();
    for (const q of earlier) for (const c of goldOf.get(q.id) ?? []) counts.set(c, (counts.get(c) ?? 0) + 1);
    return counts;
  });
  return {
    random: () =>
      shuffled(allCandidates, rng)
        .slice(0, depth)
        .map((c, i) => ({ id: c.id, score: 1 - i / depth })),
    popular: (p) => {
      const earlier = countsBefore(p.date);
      const score = (c: number) =>
        earlier ? (earlier.get(c) ?? 0) : (goldCount.get(c) ?? 0) - (goldOf.get(p.id)?.has(c) ? 1 : 0);
      return allCandidates
        .map((c) => ({ id: c.id, score: score(c.id) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, depth);
    },
    "subject-match": (p) => {
      const wanted = new Set(p.keywords.map((k) => k.toLowerCase()));
      return allCandidates
        .map((c) => ({
          id: c.id,
          score: c.keywords.reduce((n, k) => n + (wanted.has(k.toLowerCase()) ? 1 : 0), 0),
        }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, depth);
    },
    pagerank: (p) => pagerankOf(p.id),
  };
}

const baselineNames = {
  random: "Random (seeded)",
  popular: "Popular (leave-one-out)",
  "subject-match": "Subject match (keyword overlap)",
  pagerank: "PageRank (co-committee, leave-one-out)",
};

/** In one transaction, each baseline system upserted and its lists replaced by new ones. */
async function writeBaselines(
  db: Db,
  seed: string,
  allProposals: BaselineProposal[],
  listsFor: Record<(typeof baselineKeys)[number], ListMaker>,
) {
  return db.transaction(async (tx) => {
    const summary: { key: string; lists: number; items: number }[] = [];
    for (const key of baselineKeys) {
      const name = baselineNames[key];
      const [system] = await tx
        .insert(systems)
        .values({ key, name, version: `seed=${seed}` })
        .onConflictDoUpdate({ target: systems.key, set: { name, version: `seed=${seed}` } })
        .returning({ id: systems.id });
      await tx.delete(rankedLists).where(eq(rankedLists.systemId, system.id));
      const lists = await tx
        .insert(rankedLists)
        .values(allProposals.map((p) => ({ systemId: system.id, proposalId: p.id, variant: "default" })))
        .returning({ id: rankedLists.id, proposalId: rankedLists.proposalId });
      const listOf = new Map(lists.map((l) => [l.proposalId, l.id]));
      const items = allProposals.flatMap((p) =>
        listsFor[key](p).map((c, i) => ({
          listId: listOf.get(p.id)!,
          rank: i + 1,
          candidateId: c.id,
          score: c.score,
        })),
      );
      for (let i = 0; i < items.length; i += 5000)
        await tx.insert(listItems).values(items.slice(i, i + 5000));
      summary.push({ key, lists: lists.length, items: items.length });
    }
    return summary;
  });
}

/** How many lists each baseline has (for messages). */
export async function baselineCounts(db: Db) {
  return db
    .select({ key: systems.key, lists: sql<number>`count(${rankedLists.id})::int` })
    .from(systems)
    .leftJoin(rankedLists, and(eq(rankedLists.systemId, systems.id)))
    .where(inArray(systems.key, [...baselineKeys]))
    .groupBy(systems.key);
}
