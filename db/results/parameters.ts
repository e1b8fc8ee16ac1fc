import type { DbOrTx } from "../platform/client";
import { getCampaign } from "../campaigns/campaigns";
import { getExperiment } from "../experiments/experiments";
import { clickModelSettings } from "../experiments/experiment-clicks";
import { DEFAULT_KS } from "../../scripts/offline/report";
import type { PairedTest } from "../../scripts/stats/paired";
import { type IntervalKind } from "../../scripts/online/report";
import { DEFAULT_N_STAR } from "../../scripts/online/sequential";
import { viewParameters, type OfflineView } from "../../scripts/offline/view";
import { DEFAULT_SEED, PAGE_B } from "../../scripts/lib/defaults";
import type { FairnessTarget } from "../../scripts/inputs/fairness-targets";
import { CAMPAIGN_KS, campaignSeed, type ResultKind } from "../../scripts/inputs/result-settings";

/** A result that cannot be computed as asked (no such campaign, nothing to freeze yet); `status` is its HTTP status. */
export class ResultError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** What a result is asked for with: its kind and subject, and any setting that is not the page's default. */
export interface ResultRequest {
  kind: ResultKind;
  campaign?: number;
  experiment?: string;
  ks?: number[];
  B?: number;
  seed?: string;
  /** Online: the differences' intervals, fixed (bootstrap, default) or sequential (always valid). */
  intervals?: IntervalKind;
  /** Online, sequential intervals: the tuning N* (default 5,000). */
  nStar?: number;
  /** Offline only: window, stratification, conflict exclusion (recorded only when not the default). */
  view?: OfflineView;
  /** Offline, the CLI's flags (recorded only when given): the paired test, score bands, only these systems. */
  test?: PairedTest;
  bands?: number[];
  systems?: string[];
  /** Offline: the page's fairness targets (`?target=`), recorded only when set. */
  targets?: FairnessTarget[];
}

/**
 * The settings a request stands for, with every default filled in as the pages fill it: the offline
 * report's cutoffs and seed, an experiment's own seed, a campaign's `campaign-<id>` seed, B = PAGE_B. The
 * one place the defaults are applied; cheap (no bootstrap), so a freeze can find an existing snapshot,
 * and the result cache its entry, before anything is computed.
 */
export async function resultParameters(db: DbOrTx, request: ResultRequest) {
  const B = request.B ?? PAGE_B;
  if (request.kind === "offline") {
    // The campaign whose grades say what the committees are worth (`--campaign`); else the newest graded one.
    if (request.campaign && !(await getCampaign(db, request.campaign)))
      throw new ResultError(`There is no campaign ${request.campaign}.`, 404);
    return {
      kind: "offline" as const,
      ks: request.ks ?? DEFAULT_KS,
      B,
      seed: request.seed ?? DEFAULT_SEED,
      ...(request.view ? viewParameters(request.view) : {}),
      ...(request.test ? { test: request.test } : {}),
      ...(request.bands?.length ? { bands: request.bands } : {}),
      ...(request.systems ? { systems: request.systems } : {}),
      ...(request.campaign ? { campaign: request.campaign } : {}),
      ...(request.targets?.length ? { targets: request.targets } : {}),
    };
  }
  if (request.kind === "expert") {
    if (!request.campaign) throw new ResultError("An expert snapshot needs a campaign.");
    const campaign = await getCampaign(db, request.campaign);
    if (!campaign) throw new ResultError(`There is no campaign ${request.campaign}.`, 404);
    return {
      kind: "expert" as const,
      campaign: campaign.id,
      ks: request.ks ?? CAMPAIGN_KS,
      B,
      seed: request.seed ?? campaignSeed(campaign.id),
    };
  }
  if (!request.experiment)
    throw new ResultError(
      request.kind === "clicks"
        ? "A click-model snapshot needs an experiment."
        : "An online snapshot needs an experiment.",
    );
  const experiment = await getExperiment(db, request.experiment);
  if (!experiment) throw new ResultError(`There is no experiment ${request.experiment}.`, 404);
  // Click models: the page's fit (split seed, test share, EM passes, ranks) and its intervals' B.
  if (request.kind === "clicks")
    return {
      kind: "clicks" as const,
      experiment: experiment.key,
      ...clickModelSettings(experiment, request.seed, B),
    };
  // An interleaving experiment's page: its figures' resamples and seed, and its method (no arms to compare).
  if (experiment.kind === "interleaving")
    return {
      kind: "online" as const,
      experiment: experiment.key,
      B,
      seed: request.seed ?? experiment.seed,
      method: experiment.method,
    };
  return { ...abParameters(experiment, { ...request, B }) };
}

/**
 * An A/B page's settings: its B, the experiment's seed unless another is asked for, the control arm and
 * the kind of interval. The admin page of an interleaving experiment counts sessions per arm with these too.
 */
export function abParameters(
  experiment: { key: string; seed: string; arms: { key: string; isControl: boolean }[] },
  request: Pick<ResultRequest, "seed" | "intervals" | "nStar"> & { B: number },
) {
  const { B } = request;
  const control = experiment.arms.find((a) => a.isControl)!.key;
  const intervals = request.intervals ?? "fixed";
  const nStar = intervals === "sequential" ? (request.nStar ?? DEFAULT_N_STAR) : undefined;
  return {
    kind: "online" as const,
    experiment: experiment.key,
    B,
    seed: request.seed ?? experiment.seed,
    control,
    intervals,
    ...(nStar !== undefined ? { nStar } : {}),
  };
}

export type ResultParameters = Awaited<ReturnType<typeof resultParameters>>;
export type ParametersOf<K extends ResultKind> = Extract<ResultParameters, { kind: K }>;
