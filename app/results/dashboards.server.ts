import { json } from "@remix-run/node";
import { armCounts, getExperiment, unknownIdFindings } from "~/data/experiments.server";
import { getCampaign } from "~/data/campaigns.server";
import { campaignResult, onlineResult } from "~/data/results.server";
import { type IntervalKind } from "../../scripts/online/report";
import { getDb } from "../utils/db.server";
import { parseId } from "../utils/route-params.server";
import { runInWorkerPool } from "./worker-pool.server";
import { goldWithin, runInAppPools } from "./gold-figures.server";

/**
 * Everything an experiment's dashboard shows: the result service's report with CIs and daily values
 * (kept while the data is unchanged), and, read on every view, the counts per arm and the findings.
 */
export async function experimentDashboard(
  key: string | undefined,
  view: { intervals?: IntervalKind; nStar?: number } = {},
  { fresh = false } = {},
) {
  const db = getDb();
  const experiment = await getExperiment(db, key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${key}.` }, { status: 404 });
  const { parameters, report, daily, perArm, decisions, guardrails, computedAt } = await onlineResult(
    db,
    { experiment: experiment.key, ...view },
    runInWorkerPool,
    { fresh },
  );
  const { B, seed, control, intervals } = parameters;
  return {
    experiment,
    control,
    counts: await armCounts(db, experiment, perArm),
    unknown: await unknownIdFindings(db, experiment),
    report,
    daily,
    decisions,
    guardrails,
    computedAt: computedAt?.toISOString() ?? null,
    // What "Freeze snapshot" passes on, so the snapshot's figures are this page's.
    parameters: {
      B,
      seed,
      intervals,
      ...(parameters.nStar !== undefined ? { nStar: parameters.nStar } : {}),
    },
  };
}

/** How long a campaign page waits for its gold figures before showing "computing" (they are kept once done). */
const GOLD_WAIT_MS = 2000;

/**
 * Everything a campaign's dashboard shows (db/results/campaign.ts), experts under pseudonyms unless
 * `names` is asked for (the admin's campaign page).
 */
export async function campaignDashboard(
  rawId: string | undefined,
  options: { names?: boolean; goldWaitMs?: number; fresh?: boolean } = {},
) {
  const db = getDb();
  const campaign = await getCampaign(db, parseId(rawId, "campaign"));
  if (!campaign) throw json({ message: `There is no campaign with id ${rawId}.` }, { status: 404 });
  const { parameters, goldFigures, goldReady, goldPrevious, goldProgress, computedAt, ...page } =
    await campaignResult(db, campaign, { names: options.names, fresh: options.fresh }, runInAppPools);
  const gold =
    goldReady !== undefined ? goldReady : await goldWithin(goldFigures(), options.goldWaitMs ?? GOLD_WAIT_MS);
  // While new ones are computed, the last gold figures finished stay on screen (stale while revalidate).
  const goldStale = gold === "computing" && goldPrevious !== undefined;
  return {
    campaign,
    ...page,
    gold: goldStale ? goldPrevious! : gold,
    goldStale,
    // While the gold figures are computed: learning-curve points done, of all (null before the first).
    goldProgress: gold === "computing" ? goldProgress() : null,
    computedAt: computedAt?.toISOString() ?? null,
    // What "Freeze snapshot" passes on, so the snapshot's figures are this page's.
    parameters: { B: parameters.B, seed: parameters.seed },
  };
}
