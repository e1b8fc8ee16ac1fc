import type { Db } from "../platform/client";
import { getCampaign } from "../campaigns/campaigns";
import { getExperiment } from "../experiments/experiments";
import { runInProcess, type HeavyRunner } from "../../scripts/workers/heavy-tasks";
import { ResultError, resultParameters, type ResultRequest } from "./parameters";
import { offlineResult } from "./offline";
import { onlineResult } from "./online";
import { campaignResult } from "./campaign";
import { clicksResult } from "./clicks";
import { interleavingResult } from "./interleaving";
import { compositionResult } from "./online-composition";

/**
 * A result as a snapshot freezes it, computed by the same functions as its page (so a snapshot frozen
 * from a page holds that page's figures, by construction): the settings are `resultParameters`', the
 * heavy work runs where `run` puts it (the app's worker pool, whose gold figures are the campaign page's;
 * this thread for the CLI). Nothing to report yet is a ResultError.
 */
export async function computeResult(db: Db, request: ResultRequest, run: HeavyRunner = runInProcess) {
  const parameters = await resultParameters(db, request);
  if (parameters.kind === "offline") {
    // The offline report reads its inputs and their version in one transaction: `version` is its data.
    // With the page's "Fairness and diversity" section (the report's K grid, B, seed and systems, and the
    // targets the analyst set on the page), read in the report's transaction.
    const targets = "targets" in parameters ? parameters.targets : undefined;
    const { result, version, fairness } = await offlineResult(db, request, run, { fairness: { targets } });
    if (!result) throw new ResultError("There are no lists and gold committees to report on yet.");
    return { parameters, result: fairness ? { ...result, fairness } : result, version };
  }
  if (parameters.kind === "expert") {
    const campaign = (await getCampaign(db, parameters.campaign))!;
    const { B, seed, ks } = parameters;
    const page = await campaignResult(db, campaign, { B, seed, ks }, run);
    if (!page.results) throw new ResultError(`Campaign ${campaign.name} has no grades to freeze yet.`);
    return {
      parameters,
      result: {
        campaign: { id: campaign.id, name: campaign.name },
        results: page.results,
        agreement: page.agreement,
        gradesByGroup: page.gradesByGroup,
        gold: await page.goldFigures(),
      },
    };
  }
  const experiment = (await getExperiment(db, parameters.experiment))!;
  if (parameters.kind === "clicks") {
    const { seed, testShare, iterations, maxRank, B } = parameters;
    const { fit } = await clicksResult(db, experiment, { seed, testShare, iterations, maxRank, B }, run);
    const result = await fit;
    if (!result.fit)
      throw new ResultError(
        `Experiment ${experiment.key} has too few convener sessions (${result.sessions}) to fit click models.`,
      );
    return { parameters, result };
  }
  // An interleaving or multileaving experiment: the figures of its analyst page (win rates, or the
  // preference matrix and ranking), with its method and systems, by click and by adoption credit.
  if ("method" in parameters) {
    const { B, seed } = parameters;
    const page = await interleavingResult(db, experiment, run, { B, seed });
    if (!page.figures && !page.multileaving)
      throw new ResultError(`Experiment ${experiment.key} has no sessions with an impression yet.`);
    const { control, challenger, method, systems, multileaving, quality, otherTeams, figures } = page;
    // The page's slices too: a snapshot is read by the same analysts and admins as the page.
    const { slices, multileavingSlices } = page;
    return {
      parameters: { ...parameters },
      result: {
        experiment: { key: experiment.key, name: experiment.name },
        interleaving: {
          ...{ method, control, challenger, systems, figures, multileaving, quality, otherTeams },
          ...{ slices, multileavingSlices },
        },
        // The page's composition of adopted candidates by team, with its B and seed.
        composition: await compositionResult(db, experiment, { B, seed }, run),
      },
    };
  }
  const online = await onlineResult(db, { ...request, experiment: experiment.key }, run);
  if (!online.report) throw new ResultError(`Experiment ${experiment.key} has no events yet.`);
  return {
    parameters,
    result: {
      experiment: online.experiment,
      ...online.report,
      daily: online.daily,
      decisions: online.decisions,
      composition: await compositionResult(db, experiment, parameters, run),
    },
  };
}
