import { sql } from "drizzle-orm";
import type { Db } from "../../db/platform/client";
import { campaignTruth } from "../../db/schema";
import { createRng, shuffled } from "../lib/random";
import { gradeOfQuality, pairQuality } from "./ratings";

/** The demo expert who grades one point too high (capped at 4), so the gold tables have someone to flag. */
export const BIASED_DEMO_EXPERT = "expert3@assay.local";
/** Gold items of the demo campaign. */
export const DEMO_GOLD_ITEMS = 30;

/**
 * Gold items and a biased expert for the demo campaign, after its grades are in: the biased expert's
 * grades are raised by one (4 stays 4), and 30 pairs graded by all three experts (a seeded choice) get
 * a known grade, the pair's latent quality read without noise or leniency (scripts/demo/ratings.ts).
 */
export async function seedDemoGold(db: Db, campaignId: number, seed: string) {
  await db.execute(sql`update ratings r set grade = least(r.grade + 1, 4)
    from campaign_assignments a join users u on u.id = a.expert_id
    where a.id = r.assignment_id and a.campaign_id = ${campaignId} and u.email = ${BIASED_DEMO_EXPERT} and r.grade is not null`);
  const graded = await db.execute<{
    item_id: number;
    proposal_id: number;
    candidate_id: number;
    gold: boolean;
    overlap: number;
  }>(sql`
    select i.id as item_id, i.proposal_id, i.candidate_id,
      exists (select 1 from gold_members g where g.proposal_id = i.proposal_id and g.candidate_id = i.candidate_id) as gold,
      (select count(*)::int from unnest(p.keywords) k where k = any(c.keywords)) as overlap
    from campaign_items i join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
    where i.campaign_id = ${campaignId}
      and (select count(r.grade) from ratings r where r.item_id = i.id) = 3
    order by i.id`);
  const chosen = shuffled([...graded], createRng(`${seed}:gold-items`)).slice(0, DEMO_GOLD_ITEMS);
  if (chosen.length === 0) return;
  await db.insert(campaignTruth).values(
    chosen.map((r) => ({
      itemId: r.item_id,
      grade: gradeOfQuality(
        pairQuality(seed, { gold: r.gold, overlap: r.overlap }, `${r.proposal_id}:${r.candidate_id}`),
      ),
    })),
  );
}
