import type { Db } from "../platform/client";
import type { Campaign } from "../schema";
import { campaignProgress, proposalProgress } from "../campaigns/campaigns";
import { loadCampaignData, pseudonymizer } from "../campaigns/campaign-data";
import { campaignGold, labelGoldRaters, type CampaignGold } from "../campaigns/campaign-truth";
import { pendingGrades } from "../campaigns/grade-requests";
import { disagreementsOf, type GradedPair } from "../../scripts/judgement/campaign-results";
import { loadCandidateAttributes } from "../catalog/candidate-attributes";
import { DEFAULT_MIN_GROUP } from "../../scripts/fairness/report";
import { aggregateGrade } from "../../scripts/judgement/labels";
import { LEARNING_CURVE_SAMPLES } from "../../scripts/inputs/result-settings";
import type { HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { computedAt, keepLatest, latestOf, progressOf, remember, resultKey, settledValue } from "./cache";
import { inputVersion } from "./version";
import { resultParameters } from "./parameters";

/**
 * Everything a campaign's dashboard shows (tier 2): progress, agreement, results, disagreements,
 * learning curve and gold figures, from one settings object (`resultParameters`: B, seed, cutoffs).
 * Experts appear under the pseudonyms the exports use, never their names, unless `names` is asked
 * for (the admin's campaign page, where names are needed to reassign work).
 *
 * The gold figures take longest (seconds to tens of seconds), so they are a computation apart:
 * `goldFigures()` resolves when they are done, `goldReady` holds them when they already are (a page
 * waits a little for them and then says "computing"). They are kept under the settings and input
 * version without the labels, so the analyst's page, the admin's and a snapshot share one computation.
 * `fresh` computes both anew (the analyst's Recompute).
 */
export async function campaignResult(
  db: Db,
  campaign: Campaign,
  options: { names?: boolean; B?: number; seed?: string; ks?: number[]; fresh?: boolean },
  run: HeavyRunner,
) {
  const fresh = options.fresh ?? false;
  const names = options.names ?? false;
  const parameters = await resultParameters(db, { ...options, kind: "expert", campaign: campaign.id });
  if (parameters.kind !== "expert") throw new Error("unreachable: an expert request gave other parameters");
  const version = await inputVersion(db);
  const computation = remember(
    resultKey({ parameters, names, version }),
    () => computeCampaign(db, campaign, parameters, names, run),
    undefined,
    fresh,
  );
  const { goldSource, label, ...page } = await computation;
  const goldKey = resultKey({ parameters, version, part: "gold" });
  const goldFamily = resultKey({ parameters, part: "gold" });
  const previousGold = latestOf<CampaignGold | null>(goldFamily);
  const unlabelled = goldSource
    ? remember(
        goldKey,
        (progress) =>
          campaignGold(db, campaign.id, goldSource, parameters, (input) =>
            run("goldFigures", input, progress),
          ),
        undefined,
        fresh,
      )
    : Promise.resolve(null);
  if (goldSource) keepLatest(goldFamily, goldKey, unlabelled);
  const labelled = (gold: CampaignGold | null) => gold && labelGoldRaters(gold, label);
  const ready = settledValue(unlabelled);
  return {
    parameters,
    ...page,
    goldFigures: () => unlabelled.then(labelled),
    goldReady: ready ? labelled(ready.value) : undefined,
    /**
     * The last gold figures finished with these settings (on older grades, or before a Recompute), under
     * this page's labels: what the page shows while `goldFigures()` computes; undefined when none has.
     */
    goldPrevious: previousGold?.value ? labelled(previousGold.value) : undefined,
    /** The gold figures' learning-curve points done so far while they are computed. */
    goldProgress: () => progressOf(unlabelled),
    computedAt: computedAt(computation),
  };
}

/** Each "needs another grade" row with the grades already asked for it and not given yet. */
async function withPendingGrades<Row extends { item: string }>(db: Db, campaignId: number, rows: Row[]) {
  const pending = rows.length ? await pendingGrades(db, campaignId) : new Map<number, number>();
  return rows.map((r) => ({ ...r, pending: pending.get(Number(r.item)) ?? 0 }));
}

async function computeCampaign(
  db: Db,
  campaign: Campaign,
  { ks, B, seed }: { ks: number[]; B: number; seed: string },
  names: boolean,
  run: HeavyRunner,
) {
  const progress = await campaignProgress(db, campaign.id);
  const pseudonym = await pseudonymizer(db, campaign.id);
  const label = (expertId: number, name: string) => (names ? name : pseudonym(expertId));
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
    // Kept apart from the labels (names or pseudonyms), so the analyst's and the admin's pages share it.
    gradesByGroup: data
      ? await remember(
          resultKey({
            part: "gradesByGroup",
            campaign: campaign.id,
            B,
            seed,
            version: await inputVersion(db),
          }),
          () => gradesByGroupOf(db, data.pairs, { B, seed }, run),
        )
      : null,
    needsGrade: await withPendingGrades(db, campaign.id, figures?.needsGrade ?? []),
    // What the gold figures are computed from, and the experts' labels for them.
    goldSource: data ? { grades: progress.grades, pairs: data.pairs } : null,
    label: (id: number) => raterLabel.get(String(id)) ?? label(id, String(id)),
  };
}

/**
 * Each group's share among the pairs graded 3–4 against all graded pairs and the pool (issue 27), from
 * the pairs' labels (the median grade, or the adjudicated one); null when no candidate has an attribute.
 */
async function gradesByGroupOf(
  db: Db,
  pairs: readonly GradedPair[],
  bootstrap: { B: number; seed: string },
  run: HeavyRunner,
) {
  const attributes = await loadCandidateAttributes(db);
  const labelled = pairs.flatMap((p) => {
    const grade = aggregateGrade(
      p.grades.map((g) => g.grade),
      p.adjudicated,
    );
    return grade === null ? [] : [{ proposal: p.proposal, candidate: p.candidate, grade }];
  });
  if (attributes.size === 0 || labelled.length === 0) return null;
  return {
    minGroup: DEFAULT_MIN_GROUP,
    attributes: await run("gradesByGroup", {
      pairs: labelled,
      attributes,
      minGroup: DEFAULT_MIN_GROUP,
      bootstrap,
    }),
  };
}
