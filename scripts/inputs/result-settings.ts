import { PAGE_B } from "../lib/defaults";

/** The kinds of result a snapshot freezes (the database's `snapshot_kind`; db/schema/snapshots.ts). */
export const RESULT_KINDS = ["offline", "expert", "online", "clicks"] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/** A campaign's bootstrap seed: its own, so two campaigns' intervals do not share their draws. */
export const campaignSeed = (campaignId: number) => `campaign-${campaignId}`;

/** The cutoffs of a campaign's results (nDCG@k, Judged@k). */
export const CAMPAIGN_KS = [5, 10, 20];

/** Draws per point of a campaign page's learning curve. */
export const LEARNING_CURVE_SAMPLES = 30;

export { PAGE_B };
