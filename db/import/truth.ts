import { eq, inArray } from "drizzle-orm";
import type { RowError } from "./parse";
import type { Row, Writer } from "./index";
import { campaignItems, campaigns, candidates, proposals } from "../schema";
import { upsertTruth } from "../campaigns/campaign-truth";

type Prepared = { itemId: number; grade: number }[];

/**
 * Import entity `truth` (campaign, proposal, candidate, grade): known grades of pooled pairs, the gold
 * items a campaign's experts are scored against. Each row must name an existing campaign and a pair
 * that campaign pooled (so the campaign must be launched); a pair may appear once per file.
 */
export const truthWriter: Writer<Prepared> = {
  async resolve(db, rows: Row<"truth">[], errors: RowError[], state) {
    const first = state.seen("truth");
    for (const r of rows) {
      const key = `${r.campaign}\u0000${r.proposal}\u0000${r.candidate}`;
      const seen = first.get(key);
      if (seen !== undefined)
        errors.push({
          line: r.line,
          message: `gold item ${r.proposal} / ${r.candidate} of campaign ${r.campaign} repeats line ${seen}`,
        });
      else first.set(key, r.line);
    }
    const campaignIds = [...new Set(rows.map((r) => r.campaign))];
    const known = new Set(
      (
        await db
          .select({ id: campaigns.id })
          .from(campaigns)
          .where(inArray(campaigns.id, campaignIds.concat(-1)))
      ).map((c) => c.id),
    );
    const proposalIds = new Set(
      (
        await db
          .select({ e: proposals.externalId })
          .from(proposals)
          .where(inArray(proposals.externalId, [...new Set(rows.map((r) => r.proposal))].concat("")))
      ).map((p) => p.e),
    );
    const candidateIds = new Set(
      (
        await db
          .select({ e: candidates.externalId })
          .from(candidates)
          .where(inArray(candidates.externalId, [...new Set(rows.map((r) => r.candidate))].concat("")))
      ).map((c) => c.e),
    );
    const items = new Map<string, number>();
    for (const id of known) {
      const pooled = await db
        .select({ id: campaignItems.id, proposal: proposals.externalId, candidate: candidates.externalId })
        .from(campaignItems)
        .innerJoin(proposals, eq(proposals.id, campaignItems.proposalId))
        .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
        .where(eq(campaignItems.campaignId, id));
      for (const p of pooled) items.set(`${id}\u0000${p.proposal}\u0000${p.candidate}`, p.id);
    }
    const out: Prepared = [];
    for (const r of rows) {
      const problems = [
        known.has(r.campaign) ? "" : `unknown campaign ${r.campaign}`,
        proposalIds.has(r.proposal) ? "" : `unknown proposal ${r.proposal}`,
        candidateIds.has(r.candidate) ? "" : `unknown candidate ${r.candidate}`,
      ].filter(Boolean);
      const itemId = items.get(`${r.campaign}\u0000${r.proposal}\u0000${r.candidate}`);
      if (problems.length === 0 && itemId === undefined) {
        problems.push(
          `${r.proposal} / ${r.candidate} is not a pair of campaign ${r.campaign} (only pooled pairs of a launched campaign can be gold items)`,
        );
      }
      if (problems.length > 0) errors.push({ line: r.line, message: problems.join("; ") });
      else out.push({ itemId: itemId!, grade: r.grade });
    }
    return out;
  },
  async write(tx, rows) {
    return upsertTruth(tx, null, rows);
  },
};
