import { and, desc, eq, exists, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "../platform/client";
import { campaignItems, campaigns, goldMembers, ratings } from "../schema";
import { CampaignError } from "./campaigns";
import { loadCampaignData } from "./campaign-data";
import { aggregateGrade } from "../../scripts/judgement/labels";
import type { ExpertLabels } from "../../scripts/offline/ground-truth";

/**
 * A campaign's labels as the offline report's expert gold: each graded pair's median grade (an
 * adjudicated grade overrides it, as in the qrels export), by external ids. `campaignId` absent: the
 * newest campaign with a grade on a proposal that has a committee, or null when there is none. A
 * campaign asked for by id that does not exist is a 404.
 */
export async function loadExpertLabels(db: DbOrTx, campaignId?: number): Promise<ExpertLabels | null> {
  const id = campaignId ?? (await newestGradedCampaign(db));
  if (id === null) return null;
  const [campaign] = await db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(eq(campaigns.id, id));
  if (!campaign) throw new CampaignError(`There is no campaign ${id}.`, 404);
  const { pairs } = await loadCampaignData(db, id);
  const labels = new Map<string, Map<string, number>>();
  for (const p of pairs) {
    const grade = aggregateGrade(
      p.grades.map((g) => g.grade),
      p.adjudicated,
    );
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
