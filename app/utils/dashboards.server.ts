import { json } from "@remix-run/node";
import { armCounts, unknownIdFindings } from "../../db/experiment-stats";
import { getExperiment } from "../../db/experiments";
import { cumulativeDailyFromSessions } from "../../scripts/metrics/online";
import { sqlStreamTotals } from "../../db/online-sql";
import { getDb } from "./db.server";
import { campaignProgress, getCampaign, proposalProgress } from "../../db/campaigns";
import { loadCampaignData } from "../../db/campaign-data";
import { disagreementsOf } from "../../scripts/metrics/campaign-results";
import { aggregateGrade } from "../../scripts/stats/labels";
import { packStreamTotals } from "../../scripts/metrics/online-pack";
import { runInWorkerPool } from "./worker-pool.server";

/** Everything an experiment's dashboard shows: counts per arm, the report with CIs, findings, daily values. */
export async function experimentDashboard(key: string | undefined) {
  const db = getDb();
  const experiment = await getExperiment(db, key ?? "");
  if (!experiment) throw json({ message: `There is no experiment ${key}.` }, { status: 404 });
  // Aggregated to sessions in SQL: the app holds O(sessions), not O(events).
  const totals = await sqlStreamTotals(db, experiment);
  const control = experiment.arms.find((a) => a.isControl)!.key;
  const weights = Object.fromEntries(experiment.arms.map((a) => [a.key, a.weight]));
  const options = { weights, control, intervals: true, B: 1000, seed: experiment.seed };
  const report = totals.events ? await runInWorkerPool("onlineReport", { packed: packStreamTotals(totals), options }) : null;
  return {
    experiment,
    control,
    counts: await armCounts(db, experiment, totals.perArm),
    unknown: await unknownIdFindings(db, experiment),
    report,
    daily: totals.events ? cumulativeDailyFromSessions(totals.sessions) : [],
  };
}

/** Everything a campaign's dashboard shows: progress, agreement, results, disagreements, learning curve. */
export async function campaignDashboard(rawId: string | undefined) {
  const db = getDb();
  const campaign = /^\d+$/.test(rawId ?? "") ? await getCampaign(db, Number(rawId)) : null;
  if (!campaign) throw json({ message: `There is no campaign ${rawId}.` }, { status: 404 });
  const { perExpert, grades } = await campaignProgress(db, campaign.id);
  const judged = grades.filter((g) => g.grade !== null).map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
  const names = new Map(perExpert.map((e) => [String(e.expertId), e.name]));
  const data = campaign.status === "draft" ? null : await loadCampaignData(db, campaign.id, { names: true });
  const seed = `campaign-${campaign.id}`;
  const graded = data && judged.length ? { pairs: data.pairs, proposals: data.proposals, systems: data.systems } : null;
  const figures = judged.length
    ? await runInWorkerPool("campaignFigures", { ratings: judged, data: graded, options: { B: 1000, seed }, curve: { samples: 30, seed } })
    : null;
  const agreement = figures?.agreement ?? null;
  return {
    campaign,
    perExpert,
    assignments: await proposalProgress(db, campaign.id),
    agreement: agreement && { ...agreement, leaveOneOut: agreement.leaveOneOut.map((l) => ({ ...l, rater: names.get(l.rater) ?? l.rater })) },
    results: figures?.results ?? null,
    queue: data ? disagreementsOf(data.pairs).map((p) => ({ ...p, median: aggregateGrade(p.grades.map((g) => g.grade)) })) : [],
    curve: figures?.curve ?? [],
  };
}
