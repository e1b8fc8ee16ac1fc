import type { Db } from "../platform/client";
import type { Campaign } from "../schema";
import { campaignProgress, proposalProgress } from "../campaigns/campaigns";
import { loadCampaignData, pseudonym } from "../campaigns/campaign-data";
import { campaignGold, type GoldRun } from "../campaigns/campaign-truth";
import { disagreementsOf } from "../../scripts/judgement/campaign-results";
import { aggregateGrade } from "../../scripts/judgement/labels";
import { LEARNING_CURVE_SAMPLES } from "../../scripts/inputs/result-settings";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { remember, resultKey } from "./cache";
import { inputVersion } from "./version";
import { resultParameters } from "./parameters";

/**
 * Everything a campaign's dashboard shows (tier 2): progress, agreement, results, disagreements,
 * learning curve and gold figures, from one settings object (`resultParameters`: B, seed, cutoffs).
 * Experts appear under the pseudonyms the exports use, never their names, unless `names` is asked
 * for (the admin's campaign page, where names are needed to reassign work). The gold figures run
 * through `gold` (a page's pool answers "computing" when they take long; such a result is not kept).
 */
export async function campaignResult(
  db: Db,
  campaign: Campaign,
  options: { names?: boolean; B?: number; seed?: string; ks?: number[] },
  run: HeavyRunner,
  gold: GoldRun = (input) => run("goldFigures", input),
) {
  const names = options.names ?? false;
  const parameters = await resultParameters(db, { ...options, kind: "expert", campaign: campaign.id });
  if (parameters.kind !== "expert") throw new Error("unreachable: an expert request gave other parameters");
  const version = await inputVersion(db);
  const key = resultKey({ parameters, names, version });
  const { goldSource, label, ...page } = await remember(key, () =>
    computeCampaign(db, campaign, parameters, names, run),
  );
  // The gold figures apart: they take longest, and one still "computing" is asked for again, not kept.
  const goldFigures = goldSource
    ? await remember(
        `${key}:gold`,
        () =>
          campaignGold(db, campaign.id, goldSource, { B: parameters.B, seed: parameters.seed }, gold, label),
        (value) => value !== "computing",
      )
    : null;
  return { parameters, ...page, gold: goldFigures };
}

async function computeCampaign(
  db: Db,
  campaign: Campaign,
  { ks, B, seed }: { ks: number[]; B: number; seed: string },
  names: boolean,
  run: HeavyRunner,
) {
  const progress = await campaignProgress(db, campaign.id);
  const label = (expertId: number, name: string) => (names ? name : pseudonym(campaign.id, expertId));
  const perExpert = progress.perExpert.map((e) => ({ ...e, name: label(e.expertId, e.name) }));
  const judged = progress.grades
    .filter((g) => g.grade !== null)
    .map((g) => ({ item: String(g.itemId), rater: String(g.expertId), value: g.grade! }));
  const raterLabel = new Map(perExpert.map((e) => [String(e.expertId), e.name]));
  const data = campaign.status === "draft" ? null : await loadCampaignData(db, campaign.id, { names });
  const graded =
    data && judged.length ? { pairs: data.pairs, proposals: data.proposals, systems: data.systems } : null;
  const figures = judged.length
    ? await run("campaignFigures", {
        ratings: judged,
        data: graded,
        options: { ks, B, seed },
        curve: { samples: LEARNING_CURVE_SAMPLES, seed },
      })
    : null;
  const agreement = figures?.agreement ?? null;
  return {
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
    // What the gold figures are computed from, and the experts' labels in them.
    goldSource: data ? { grades: progress.grades, pairs: data.pairs } : null,
    label: (id: number) => raterLabel.get(String(id)) ?? label(id, String(id)),
  };
}
