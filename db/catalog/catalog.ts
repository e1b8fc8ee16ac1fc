import { and, asc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../platform/client";
import { inPageOrder, keysetPage, type Cursor, type Page } from "../platform/keyset";
import { candidates, goldMembers, listItems, proposals, rankedLists, subjects, systems } from "../schema";

export type { Cursor, Page } from "../platform/keyset";

/**
 * A page of proposals in two steps, as for candidates: the page's ids (by cursor, or by offset over the
 * sort column alone), then their details and counts, so no count is made for a skipped row.
 */
export async function listProposals(db: DbOrTx, page: Page & Cursor) {
  const pattern = `%${page.q}%`;
  const where = page.q
    ? or(
        ilike(proposals.externalId, pattern),
        ilike(proposals.title, pattern),
        sql`array_to_string(${proposals.keywords}, ' ') ilike ${pattern}`,
      )
    : undefined;
  const listCount = sql<number>`(select count(*)::int from ${rankedLists} where ${rankedLists.proposalId} = ${proposals.id})`;
  const goldCount = sql<number>`(select count(*)::int from ${goldMembers} where ${goldMembers.proposalId} = ${proposals.id})`;
  const keyed = { externalId: proposals.externalId, title: proposals.title }[page.sort];
  const unkeyed = { subject: subjects.name, lists: listCount, gold: goldCount }[page.sort];
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(proposals)
    .where(where);
  const plan = keysetPage(
    { ...page, total },
    {
      column: keyed ?? unkeyed ?? proposals.externalId,
      id: proposals.id,
      keyed: Boolean(keyed),
    },
  );
  const ids = await db
    .select({ id: proposals.id, key: plan.key })
    .from(proposals)
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(and(where, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const { edges } = plan.finish(ids);
  const details = ids.length
    ? await db
        .select({
          id: proposals.id,
          externalId: proposals.externalId,
          title: proposals.title,
          subject: subjects.name,
          lists: listCount,
          gold: goldCount,
        })
        .from(proposals)
        .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
        .where(
          inArray(
            proposals.id,
            ids.map((r) => r.id),
          ),
        )
    : [];
  return { rows: inPageOrder(ids, details), total, cursors: edges };
}

/**
 * A page of candidates, in two steps so a deep page stays fast: first the page's ids, by keyset from
 * a cursor (no OFFSET) or, for a page asked by number, by an offset over the sort column alone; then
 * those rows' details and list counts (a count per skipped row was what made `?page=1000` take 101 s).
 * Sorting by the list count needs every row's count, so that sort pages by offset as before.
 */
export async function listCandidates(db: DbOrTx, page: Page & Cursor) {
  const pattern = `%${page.q}%`;
  const where = page.q
    ? or(
        ilike(candidates.externalId, pattern),
        ilike(candidates.name, pattern),
        ilike(candidates.affiliation, pattern),
        sql`array_to_string(${candidates.keywords}, ' ') ilike ${pattern}`,
      )
    : undefined;
  // Written with table names: in a select without joins drizzle leaves columns unqualified, and the
  // inner table would capture "id".
  const listed = sql<number>`(select count(*)::int from list_items li where li.candidate_id = "candidates"."id")`;
  const keyed = {
    externalId: candidates.externalId,
    name: candidates.name,
    affiliation: candidates.affiliation,
  }[page.sort];
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(candidates)
    .where(where);
  const plan = keysetPage(
    { ...page, total },
    {
      column: keyed ?? (page.sort === "listed" ? listed : candidates.externalId),
      id: candidates.id,
      keyed: Boolean(keyed),
    },
  );
  const ids = await db
    .select({ id: candidates.id, key: plan.key })
    .from(candidates)
    .where(and(where, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const { edges } = plan.finish(ids);
  const details = ids.length
    ? await db
        .select({
          id: candidates.id,
          externalId: candidates.externalId,
          name: candidates.name,
          affiliation: candidates.affiliation,
          keywords: candidates.keywords,
          listed,
        })
        .from(candidates)
        .where(
          inArray(
            candidates.id,
            ids.map((r) => r.id),
          ),
        )
    : [];
  return { rows: inPageOrder(ids, details), total, cursors: edges };
}

export async function listSystems(db: DbOrTx) {
  return db
    .select({
      id: systems.id,
      key: systems.key,
      name: systems.name,
      version: systems.version,
      protocol: systems.protocol,
      lists: sql<number>`count(distinct ${rankedLists.id})::int`,
      proposals: sql<number>`count(distinct ${rankedLists.proposalId})::int`,
      variants: sql<number>`count(distinct ${rankedLists.variant})::int`,
      items: sql<number>`(select count(*)::int from ${listItems} li join ${rankedLists} rl on rl.id = li.list_id where rl.system_id = ${systems.id})`,
    })
    .from(systems)
    .leftJoin(rankedLists, eq(rankedLists.systemId, systems.id))
    .groupBy(systems.id)
    .orderBy(asc(systems.key));
}

export async function getProposalDetail(db: DbOrTx, externalId: string) {
  const [proposal] = await db
    .select({
      id: proposals.id,
      externalId: proposals.externalId,
      title: proposals.title,
      abstract: proposals.abstract,
      keywords: proposals.keywords,
      subject: subjects.name,
    })
    .from(proposals)
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(eq(proposals.externalId, externalId));
  if (!proposal) return null;
  const gold = await db
    .select({
      id: candidates.id,
      externalId: candidates.externalId,
      name: candidates.name,
      affiliation: candidates.affiliation,
    })
    .from(goldMembers)
    .innerJoin(candidates, eq(candidates.id, goldMembers.candidateId))
    .where(eq(goldMembers.proposalId, proposal.id))
    .orderBy(asc(candidates.name));
  const lists = await db
    .select({
      listId: rankedLists.id,
      systemKey: systems.key,
      systemName: systems.name,
      variant: rankedLists.variant,
    })
    .from(rankedLists)
    .innerJoin(systems, eq(systems.id, rankedLists.systemId))
    .where(eq(rankedLists.proposalId, proposal.id))
    .orderBy(asc(systems.key), asc(rankedLists.variant));
  const items = await db
    .select({
      listId: listItems.listId,
      rank: listItems.rank,
      score: listItems.score,
      candidateId: candidates.id,
      externalId: candidates.externalId,
      name: candidates.name,
      affiliation: candidates.affiliation,
    })
    .from(listItems)
    .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
    .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
    .where(and(eq(rankedLists.proposalId, proposal.id)))
    .orderBy(asc(listItems.listId), asc(listItems.rank));
  return {
    proposal,
    gold,
    lists: lists.map((l) => ({ ...l, items: items.filter((i) => i.listId === l.listId) })),
  };
}

export async function catalogCounts(db: DbOrTx) {
  const [row] = await db.execute<Record<string, number>>(sql`select
    (select count(*)::int from subjects) as subjects,
    (select count(*)::int from proposals) as proposals,
    (select count(*)::int from candidates) as candidates,
    (select count(*)::int from systems) as systems,
    (select count(*)::int from ranked_lists) as lists,
    (select count(*)::int from list_items) as items,
    (select count(*)::int from gold_members) as gold,
    (select count(*)::int from users) as users`);
  return row;
}

export async function listSubjects(db: DbOrTx) {
  return db
    .select({ id: subjects.id, key: subjects.key, name: subjects.name })
    .from(subjects)
    .orderBy(asc(subjects.name));
}

/**
 * Every ranked list with its length and how many of the proposal's gold members it contains, a page at
 * a time in two steps as for proposals (the counts only for the page's rows).
 */
export async function listRankedLists(db: DbOrTx, page: Page & Cursor) {
  const pattern = `%${page.q}%`;
  const where = page.q
    ? or(
        ilike(systems.key, pattern),
        ilike(proposals.externalId, pattern),
        ilike(proposals.title, pattern),
        ilike(rankedLists.variant, pattern),
      )
    : undefined;
  const items = sql<number>`(select count(*)::int from ${listItems} where ${listItems.listId} = ${rankedLists.id})`;
  const goldFound = sql<number>`(select count(*)::int from ${listItems} li join ${goldMembers} g on g.candidate_id = li.candidate_id and g.proposal_id = ${rankedLists.proposalId} where li.list_id = ${rankedLists.id})`;
  // By system is by the system's id (the order systems were added): a column of the list itself, so
  // an index on (system_id, id) serves every page; the system's key would need the join for each row.
  const keyed = {
    system: rankedLists.systemId,
    proposal: proposals.externalId,
    variant: rankedLists.variant,
    importedAt: rankedLists.importedAt,
  }[page.sort];
  const unkeyed = { items, goldFound }[page.sort];
  const joined = <T extends PgSelect>(query: T) =>
    query
      .innerJoin(systems, eq(systems.id, rankedLists.systemId))
      .innerJoin(proposals, eq(proposals.id, rankedLists.proposalId));
  const [{ total }] = await joined(
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(rankedLists)
      .$dynamic(),
  ).where(where);
  const plan = keysetPage(
    { ...page, total },
    {
      column: keyed ?? unkeyed ?? rankedLists.systemId,
      id: rankedLists.id,
      keyed: Boolean(keyed),
    },
  );
  const ids = await joined(db.select({ id: rankedLists.id, key: plan.key }).from(rankedLists).$dynamic())
    .where(and(where, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
  const { edges } = plan.finish(ids);
  const details = ids.length
    ? await joined(
        db
          .select({
            id: rankedLists.id,
            system: systems.key,
            proposal: proposals.externalId,
            title: proposals.title,
            variant: rankedLists.variant,
            items,
            goldFound,
            importedAt: rankedLists.importedAt,
          })
          .from(rankedLists)
          .$dynamic(),
      ).where(
        inArray(
          rankedLists.id,
          ids.map((r) => r.id),
        ),
      )
    : [];
  return { rows: inPageOrder(ids, details), total, cursors: edges };
}
