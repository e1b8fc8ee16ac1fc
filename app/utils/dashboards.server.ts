import { json } from "@remix-run/node";
import { armCounts, unknownIdFindings } from "../../db/experiments/experiment-stats";
import { getExperiment } from "../../db/experiments/experiments";
import { type IntervalKind } from "../../scripts/online/report";
import { DEFAULT_N_STAR } from "../../scripts/online/sequential";
import { cumulativeDailyWithIntervals } from "../../scripts/online/daily-intervals";
import { sqlStreamTotals } from "../../db/experiments/online-sql";
import { getDb } from "./db.server";
import { parseId } from "./route-params.server";
import { campaignProgress, getCampaign, proposalProgress } from "../../db/campaigns/campaigns";
import { loadCampaignData, pseudonym } from "../../db/campaigns/campaign-data";
import { disagreementsOf } from "../../scripts/judgement/campaign-results";
import { aggregateGrade } from "../../scripts/judgement/labels";
import { packStreamTotals } from "../../scripts/online/pack";
import { runInWorkerPool } from "./worker-pool.server";
import { goldInPool } from "./gold-figures.server";
import { campaignGold } from "../../db/campaigns/campaign-truth";

/** Everything an experiment's dashboard shows: counts per arm, the report with CIs, findings, daily values. */
export async function experimentDashboard(
  key: string | undefined,
  view: { intervals?: IntervalKind; nStar?: number } = {},
) {
  const db = getDb();
  const experiment = await getExperiment(db, key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${key}.` }, { status: 404 });
  // Aggregated to sessions in SQL: the app holds O(sessions), not O(events).
  const totals = await sqlStreamTotals(db, experiment);
  const control = experiment.arms.find((a) => a.isControl)!.key;
  const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
  const intervals = view.intervals ?? "fixed";
  const nStar = view.nStar ?? DEFAULT_N_STAR;
  // Sequential intervals only when asked for: a fixed report stays exactly what it always was.
  const options = {
    weights,
    control,
    intervals: true,
    B: 1000,
    seed: experiment.seed,
    ...(intervals === "sequential" ? { intervalKind: intervals, nStar } : {}),
  };
  const report = totals.events
    ? await runInWorkerPool("onlineReport", { packed: packStreamTotals(totals), options })
    : null;
  return {
    experiment,
    control,
    counts: await armCounts(db, experiment, totals.perArm),
    unknown: await unknownIdFindings(db, experiment),
    report,
    daily: totals.events ? cumulativeDailyWithIntervals(totals.sessions) : [],
    // What "Freeze snapshot" passes on, so the snapshot's figures are this page's.
    parameters: {
      B: options.B,
      seed: options.seed,
      intervals,
      ...(intervals === "sequential" ? { nStar } : {}),
    },
  };
}

/** How long a campaign page waits for its gold figures before showing "computing" (they are kept once done). */
const GOLD_WAIT_MS = 2000;

/**
 * Everything a campaign's dashboard shows: progress, agreement, results, disagreements, learning curve.
 * Experts appear under the pseudonyms the exports use (`pseudonym`), never their names, unless
 * `names` is asked for (the admin's campaign page, where names are needed to reassign work).
 */
export async function campaignDashboard(
  rawId: string | undefined,
  options: { names?: boolean; goldWaitMs?: number } = {},
) {
  const db = getDb();
  const campaign = await getCampaign(db, parseId(rawId, "campaign"));
  if (!campaign) throw json({ message: `There is no campaign with id ${rawId}.` }, { status: 404 });
  const names = options.names ?? false;
  const progress = await campaignProgress(db, campaign.id);
  const label = (expertId: number, name: string) => (names ? name : pseudonym(campaign.id, expertId));
  const perExpert = progress.perExpert.map((e) => ({ ...e, name: label(e.expertId, e.name) }));
  const judged = progress.grades
    .filter((g) => g.grade !== null)
    .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
  const raterLabel = new Map(perExpert.map((e) => [String(e.expertId), e.name]));
  const data = campaign.status === "draft" ? null : await loadCampaignData(db, campaign.id, { names });
  const seed = `campaign-${campaign.id}`;
  const graded =
    data && judged.length ? { pairs: data.pairs, proposals: data.proposals, systems: data.systems } : null;
  const figures = judged.length
    ? await runInWorkerPool("campaignFigures", {
        ratings: judged,
        data: graded,
        options: { B: 1000, seed },
        curve: { samples: 30, seed },
      })
    : null;
  const agreement = figures?.agreement ?? null;
  const gold = data
    ? await campaignGold(
        db,
        campaign.id,
        { grades: progress.grades, pairs: data.pairs },
        { B: 1000, seed },
        goldInPool(options.goldWaitMs ?? GOLD_WAIT_MS),
        (id) => raterLabel.get(String(id)) ?? label(id, String(id)),
      )
    : null;
  return {
    campaign,
    perExpert,
    assignments: (await proposalProgress(db, campaign.id)).map((a) => ({
      ...a,
      expert: label(a.expertId, a.expert),
    })),
    agreement: agreement && {
      ...agreement,
      leaveOneOut: agreement.leaveOneOut.map((l) => ({ ...l, rater: raterLabel.get(l.rater) ?? l.rater })),
    },
    results: figures?.results ?? null,
    queue: data
      ? disagreementsOf(data.pairs).map((p) => ({
          ...p,
          median: aggregateGrade(p.grades.map((g) => g.grade)),
        }))
      : [],
    curve: figures?.curve ?? [],
    gold,
    // What "Freeze snapshot" passes on, so the snapshot's figures are this page's.
    parameters: { B: 1000, seed },
  };
}
