import { and, asc, desc, eq, exists, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import {
  adjudications,
  campaignAssignments,
  campaignItems,
  campaigns,
  candidates,
  goldMembers,
  proposals,
  ratings,
} from "../schema";
import { CampaignError } from "./campaigns";
import { aggregateGrade, type Grade } from "../../scripts/judgement/labels";
import type { ExpertLabels } from "../../scripts/offline/ground-truth";

/**
 * A campaign's labels as the offline report's expert gold: each graded pair's median grade (an
 * adjudicated grade overrides it, as in the qrels export), by external ids. `campaignId` absent: the
 * newest campaign with a grade on a proposal that has a committee, or null when there is none. A
 * campaign asked for by id that does not exist is a 404. Reads only (no pseudonym key is made), so it
 * runs inside the offline report's read-only transaction.
 */
export async function loadExpertLabels(db: DbOrTx, campaignId?: number): Promise<ExpertLabels | null> {
  const id = campaignId ?? (await newestGradedCampaign(db));
  if (id === null) return null;
  const [campaign] = await db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(eq(campaigns.id, id));
  if (!campaign) throw new CampaignError(`There is no campaign ${id}.`, 404);
  const labels = new Map<string, Map<string, number>>();
  for (const p of await gradedPairs(db, id)) {
    const grade = aggregateGrade(p.grades, p.adjudicated);
    if (grade === null) continue;
    if (!labels.has(p.proposal)) labels.set(p.proposal, new Map());
    labels.get(p.proposal)!.set(p.candidate, grade);
  }
  return { source: `campaign ${campaign.id} (${campaign.name})`, labels };
}

async function newestGradedCampaign(db: DbOrTx): Promise<number | null> {
  const [row] = await db
    .select({ id: campaignItems.campaignId })
    .from(ratings)
    .innerJoin(campaignItems, eq(campaignItems.id, ratings.itemId))
    .where(
      and(
        isNotNull(ratings.grade),
        exists(
          db
            .select({ one: goldMembers.proposalId })
            .from(goldMembers)
            .where(eq(goldMembers.proposalId, campaignItems.proposalId)),
        ),
      ),
    )
    .orderBy(desc(campaignItems.campaignId))
    .limit(1);
  return row?.id ?? null;
}

/** Each of the campaign's pairs by external ids, with its grades (experts in id order) and adjudication. */
async function gradedPairs(db: DbOrTx, campaignId: number) {
  const items = await db
    .select({
      itemId: campaignItems.id,
      proposal: proposals.externalId,
      candidate: candidates.externalId,
      adjudicated: adjudications.grade,
    })
    .from(campaignItems)
    .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .leftJoin(adjudications, eq(adjudications.itemId, campaignItems.id))
    .where(eq(campaignItems.campaignId, campaignId))
    .orderBy(asc(campaignItems.id));
  const grades = await db
    .select({ itemId: ratings.itemId, grade: ratings.grade })
    .from(ratings)
    .innerJoin(campaignAssignments, eq(campaignAssignments.id, ratings.assignmentId))
    .where(eq(campaignAssignments.campaignId, campaignId))
    .orderBy(asc(ratings.itemId), asc(campaignAssignments.expertId));
  const byItem = new Map<number, Grade[]>();
  for (const g of grades) {
    if (!byItem.has(g.itemId)) byItem.set(g.itemId, []);
    byItem.get(g.itemId)!.push(g.grade as Grade);
  }
  return items.map((i) => ({
    ...i,
    grades: byItem.get(i.itemId) ?? [],
    adjudicated: i.adjudicated as Grade,
  }));
}
