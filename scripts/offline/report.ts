import { DEFAULT_SEED } from "../lib/defaults";
import { createRng } from "../lib/random";
import { percentileInterval, type Interval } from "../stats/bootstrap";
import { holm, pairedTest, type PairedTest } from "../stats/paired";
import { friedmanTest } from "../stats/rank-tests";
import { quantile, quantileSorted, variance } from "../stats/quantile";
import { evaluateQueries, type QueryInput } from "../eval/evaluate";
import { parseMeasures, type Measure } from "../eval/measures";
import { aggregationOf, type Aggregation } from "../eval/registry";
import { coverage } from "../eval/registry/coverage";
import { POOL_RECALL, poolRecall } from "../eval/registry/pool-recall";
import { candidateSubjects } from "./exposure";
import { systemScoreSections, type SystemScoreSections } from "./scores";
import { createResampler, subjectStratum } from "../stats/stratified";
import {
  overallConflicts,
  prepareOfflineInput,
  systemIntegrity,
  type SystemIntegrity,
  type WindowSummary,
} from "./integrity";
import type { ConflictMap, ConflictsAtK } from "./conflicts";
import { foldFigures, protocolView, type ProtocolSummary, type ProtocolView } from "./protocol-report";
import { foldOf } from "./protocol";
import { systemResources, type SystemResources } from "./resources";
import { groundTruthReport, type ExpertLabels, type GroundTruthReport } from "./ground-truth";

/** Tier 1: the systems' ranked lists against historical committees (gold members, rel = 1). */
export interface OfflineInput {
  /** `date`: when the proposal was submitted (YYYY-MM-DD), for the window and the leakage check. */
  proposals: { id: string; title?: string; subject: string | null; date?: string | null }[];
  gold: ReadonlyMap<string, ReadonlySet<string>>;
  systems: {
    key: string;
    name: string;
    lists: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
    /** Scores parallel to `lists` (null for an item without one); absent when the lists carry none. */
    scores?: ReadonlyMap<string, ReadonlyMap<string, readonly (number | null)[]>>;
    /** `given-2:SEED` and the like: the lists answer a protocol's inputs, one variant `fold-N` per split. */
    protocol?: string | null;
    /** Each list's prediction time in ms (proposal → variant), where the import gave one. */
    latencies?: ReadonlyMap<string, ReadonlyMap<string, number>>;
    /** What building the system took, as its team reported it. */
    buildSeconds?: number | null;
    memoryMb?: number | null;
  }[];
  /** Every candidate id, for Coverage@K. */
  catalog: ReadonlySet<string>;
  /** Declared conflicts of interest, proposal → candidate → reason (COI@K, `excludeConflicts`). */
  conflicts?: ConflictMap;
  /** Candidates' profile dates (YYYY-MM-DD) where known, for the leakage check. */
  profileDates?: ReadonlyMap<string, string>;
  /** Expert grades of the same proposals' lists (a campaign's labels): the report then says what the committees are worth. */
  expertLabels?: ExpertLabels;
}

export interface OfflineOptions {
  ks?: number[];
  B?: number;
  seed?: string | number;
  level?: number;
  /** Proposals with Success@failureK = 0 are listed as failure cases. */
  failureK?: number;
  test?: PairedTest;
  /** Score band thresholds (`--bands`); the deciles of each system's scores when absent. */
  bands?: number[];
  onProgress?: (done: number, total: number) => void;
  /** Evaluate the lists with conflicted candidates removed (ranks closed up), as a convener sees them. */
  excludeConflicts?: boolean;
  /** "subject": every bootstrap resamples proposals within each subject, each subject's size kept. */
  stratify?: "subject" | null;
  /** The evaluation window over proposal dates, both inclusive (YYYY-MM-DD); undated proposals fall outside any window. */
  from?: string | null;
  to?: string | null;
  /** Drop proposals whose committee has more members than this (counted and listed in `committeeCap`). */
  maxCommittee?: number | null;
}

export interface Estimate {
  value: number | null;
  ci: Interval | null;
  /**
   * The spread across queries: sample SD and variance (n − 1) of the proposals' own values (each the
   * mean over its variants; a ratio column's per-proposal ratio). Null for corpus-level figures
   * (Coverage@K) and for fewer than two proposals with a value.
   */
  sd?: number | null;
  variance?: number | null;
}

export interface GroupReport {
  proposals: number;
  measures: Record<string, Estimate>;
  /** Per subject only: the subject's share of the overall figure's weight (its proposals / all proposals). */
  weightShare?: number;
  /** Per subject only: K_hit's median and p90 within the subject, with bootstrap CIs. */
  kHit?: { median: Estimate; p90: Estimate };
}

export interface SystemOffline extends SystemScoreSections {
  key: string;
  name: string;
  proposals: number;
  overall: GroupReport;
  subjects: Record<string, GroupReport>;
  rankDistribution: {
    g: number;
    proposals: number;
    mean: number | null;
    median: number | null;
    p90: number | null;
    /** Bootstrap CIs over proposals (absent in snapshots frozen before they existed); g = 1's median and p90 are K_hit's. */
    meanCi?: Interval | null;
    medianCi?: Interval | null;
    p90Ci?: Interval | null;
    variance: number | null;
    missing: number;
    missingShare: number;
  }[];
  kHit: { median: Estimate; p90: Estimate };
  /** Each proposal's rank of its first committee member (proposals with none retrieved left out). */
  kHitValues: number[];
  failureBreakdown: { k: number; successShare: number; recallFailures: number; rankingFailures: number }[];
  /** `conflicted`: the conflicted candidates of the list as returned, with their ranks there, within the top 10. */
  failures: {
    proposal: string;
    title?: string;
    gold: string[];
    top: string[];
    conflicted: { candidate: string; rank: number }[];
  }[];
  /**
   * Query variants: the mean spread (max − min over a proposal's variants), each variant's means, and a
   * paired test of each variant against `default` over the proposals that have both (Holm over the
   * system's tests).
   */
  variants: {
    proposalsWithSeveral: number;
    spread: Record<string, number>;
    perVariant: { variant: string; proposals: number; measures: Record<string, number | null> }[];
    tests: VariantTest[];
    /** Friedman's test per measure over the proposals with every variant (three variants or more). */
    friedman: FriedmanTest[];
  } | null;
  hints: { displayDepth: number | null; weakSubjects: string[] };
  /** COI@K and possible leakage of the lists as the system returned them. */
  integrity: SystemIntegrity;
  /**
   * User coverage: the proposals (all of them, labelled or not, in the window) for which the system
   * returned any list, beside prediction coverage (over the evaluated ones) and catalog coverage.
   */
  userCoverage: { proposals: number; withList: number; share: number | null };
  /** The protocol the lists answer (given-m, all-but-1), what it dropped and each fold's figures; null for none. */
  protocol: ProtocolSummary | null;
  /** Prediction time (p50, p95, max with CIs) and build figures: the source's other two criteria. */
  resources: SystemResources;
}

export interface VariantTest {
  variant: string;
  measure: string;
  proposals: number;
  meanDefault: number;
  meanVariant: number;
  difference: number;
  pValue: number;
  pAdjusted: number;
  method: string;
}

export interface FriedmanTest {
  measure: string;
  variants: number;
  proposals: number;
  statistic: number;
  pValue: number;
  method: string;
}

export interface OfflineComparison {
  measure: string;
  a: string;
  b: string;
  proposals: number;
  meanA: number;
  meanB: number;
  difference: number;
  /**
   * Paired bootstrap interval of the mean per-proposal difference B − A at the report's level, seed
   * and B (proposals resampled, within subjects when the report stratifies). Absent in snapshots
   * frozen before it.
   */
  ci?: Interval | null;
  statistic: number;
  pValue: number;
  pAdjusted: number;
  method: string;
}

export interface OfflineReport {
  parameters: {
    ks: number[];
    B: number;
    seed: string | number;
    level: number;
    failureK: number;
    test: PairedTest;
    stratify: "subject" | null;
    excludeConflicts: boolean;
    window: WindowSummary;
    bands?: number[];
  };
  systems: SystemOffline[];
  /** Declared conflicts, and COI@K over all systems' lists together. */
  conflicts: { declared: number; overall: ConflictsAtK[] };
  comparisons: OfflineComparison[];
  /** With `maxCommittee`: the cap and the proposals it dropped, with their committee sizes. */
  committeeCap?: { max: number; dropped: { proposal: string; members: number }[] };
  /** With expert labels: committee members' grades against the others', and both golds side by side. */
  groundTruth?: GroundTruthReport;
}

export const DEFAULT_KS = [5, 10, 20, 30, 50];

export function offlineMeasureNames(ks: readonly number[]): string[] {
  return [
    ...ks.flatMap((k) => [
      `Success@${k}`,
      `RR@${k}`,
      `Success(g=2)@${k}`,
      `Success(g=3)@${k}`,
      `Coverage@${k}`,
      // Binary gains (a committee member 1, anyone else 0): nDCG on committees, beside the hit rates.
      `nDCG@${k}`,
    ]),
    "AP",
    "HLU(a=5)",
    "HLU-ratio(a=5)",
    "Rank(g=1)",
    "Rank(g=2)",
    "Rank(g=3)",
  ];
}

interface ProposalValues {
  id: string;
  subject: string | null;
  /** Per variant, one value per measure column (HLU-ratio: numerator) ... */
  variants: Float64Array[];
  /** ... and, for ratio columns, the denominator. */
  weights: Float64Array[];
  /** The variants' names, in the order of `variants` (a protocol's `fold-N`). */
  variantNames: string[];
}

/** The options with their defaults filled in. */
interface Settings {
  ks: number[];
  B: number;
  seed: string | number;
  level: number;
  failureK: number;
  test: PairedTest;
  stratify: "subject" | null;
  excludeConflicts: boolean;
}

/** The report's columns: the measures of offlineMeasureNames and pool recall, with their aggregations. */
interface Columns {
  measures: Measure[];
  names: string[];
  aggregations: Aggregation[];
}

/** One system's per-proposal values, and the first list of each proposal for Coverage@K. */
interface SystemValues {
  system: OfflineInput["systems"][number];
  proposals: ProposalValues[];
  coverageLists: QueryInput[];
}

/** What every part of one system's report reads. */
interface SystemContext {
  given: OfflineInput;
  input: OfflineInput;
  settings: Settings;
  columns: Columns;
  system: OfflineInput["systems"][number];
  proposals: ProposalValues[];
  /** A proposal's value of the named column (the mean over its variants). */
  meanOver: (p: ProposalValues, name: string) => number;
}

/**
 * The whole tier-1 report. Each proposal's value is the mean over its query variants; bootstrap CIs
 * resample proposals and, inside each drawn proposal, its variants (DESIGN.md, Statistics).
 */
export function offlineReport(given: OfflineInput, options: OfflineOptions = {}): OfflineReport {
  const { input: windowed, window } = prepareOfflineInput(given, options);
  const { input, committeeCap } = capCommittees(windowed, options.maxCommittee);
  const settings = settingsOf(options);
  const measures = parseMeasures(offlineMeasureNames(settings.ks));
  const columns: Columns = {
    measures,
    names: [...measures.map((m) => m.name), POOL_RECALL],
    aggregations: [...measures.map(aggregationOf), "present-mean"],
  };
  const labelled = input.proposals.filter((p) => (input.gold.get(p.id)?.size ?? 0) > 0);
  const candidateSubject = candidateSubjects(input.proposals, input.gold);
  const total = input.systems.length * (2 + new Set(labelled.map((p) => p.subject ?? "(none)")).size);
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);

  const views = input.systems.map((system) => protocolView(input, system));
  const perSystem = views.map((view) => systemValues(view, labelled, columns));
  const systems: SystemOffline[] = perSystem.map(({ system, proposals, coverageLists }, i) => {
    const meanOver = (p: ProposalValues, name: string) =>
      proposalValue(p, columns.names.indexOf(name), columns.aggregations[columns.names.indexOf(name)]);
    const context: SystemContext = { given, input, settings, columns, system, proposals, meanOver };
    const { integrity, ...report } = systemReport(context, coverageLists, tick);
    const scoreOptions = { ks: settings.ks, bands: options.bands, level: settings.level, candidateSubject };
    const protocol = protocolSection(views[i], proposals, columns);
    const userCoverage = userCoverageOf(input, input.systems[i]);
    const resources = systemResources(
      input.systems[i],
      input.proposals.map((p) => p.id),
      { B: settings.B, seed: `${settings.seed}:${system.key}:latency`, level: settings.level },
    );
    return {
      ...report,
      ...systemScoreSections(input, system, labelled, scoreOptions),
      integrity,
      userCoverage,
      protocol,
      resources,
    };
  });
  const comparisons = compareSystems(perSystem, columns, settings);
  const declared = [...(input.conflicts ?? new Map()).values()].reduce((n, m) => n + m.size, 0);
  return {
    parameters: { ...settings, window, ...(options.bands?.length ? { bands: options.bands } : {}) },
    systems,
    comparisons,
    ...(committeeCap ? { committeeCap } : {}),
    ...(given.expertLabels ? { groundTruth: groundTruthReport(input, given.expertLabels, settings) } : {}),
    conflicts: {
      declared,
      overall: overallConflicts(
        systems.map((s) => s.integrity),
        settings.ks,
      ),
    },
  };
}

/**
 * Without the proposals whose committee is larger than `max` (the analogue of dropping multi-winner
 * contracts): they leave the evaluated set and are listed with their sizes.
 */
function capCommittees(input: OfflineInput, max: number | null | undefined) {
  if (!max) return { input, committeeCap: null };
  const dropped = input.proposals
    .map((p) => ({ proposal: p.id, members: input.gold.get(p.id)?.size ?? 0 }))
    .filter((d) => d.members > max);
  const out = new Set(dropped.map((d) => d.proposal));
  return {
    input: { ...input, proposals: input.proposals.filter((p) => !out.has(p.id)) },
    committeeCap: { max, dropped },
  };
}

function settingsOf(options: OfflineOptions): Settings {
  return {
    ks: options.ks ?? DEFAULT_KS,
    B: options.B ?? 2000,
    seed: options.seed ?? DEFAULT_SEED,
    level: options.level ?? 0.95,
    failureK: options.failureK ?? 30,
    test: options.test ?? "t",
    stratify: options.stratify ?? null,
    excludeConflicts: options.excludeConflicts ?? false,
  };
}

/**
 * Every column's value for each variant of each labelled proposal the system has a list for, against
 * the gold the view gives (a protocol's measurement set of that fold, else the committee).
 */
function systemValues(
  view: ProtocolView,
  labelled: OfflineInput["proposals"],
  columns: Columns,
): SystemValues {
  const { system, goldFor } = view;
  const proposals: ProposalValues[] = [];
  const coverageLists: QueryInput[] = [];
  const perQuery = columns.measures.filter((m) => m.kind !== "Coverage");
  for (const p of labelled) {
    const variants = [...(system.lists.get(p.id) ?? [])].flatMap(([variant, items]) => {
      const gold = goldFor(p.id, variant);
      return gold?.size ? [{ variant, items, gold }] : [];
    });
    if (variants.length === 0) continue;
    const queries: (QueryInput & { judged: Float64Array })[] = variants.map(({ variant, items, gold }) => ({
      qid: `${p.id}\u0000${variant}`,
      ranked: Float64Array.from(items, (c) => (gold.has(c) ? 1 : 0)),
      judged: new Float64Array(gold.size).fill(1),
      items,
    }));
    coverageLists.push(...queries.slice(0, 1));
    const evaluation = evaluateQueries(queries, perQuery);
    const byName = new Map(evaluation.columns.map((c) => [c.measure.name, c]));
    proposals.push({
      id: p.id,
      subject: p.subject,
      variants: queries.map((q, v) =>
        Float64Array.from(columns.names, (name) =>
          name === POOL_RECALL
            ? (poolRecall(q.ranked, q.judged) ?? NaN)
            : (byName.get(name)?.values[v] ?? NaN),
        ),
      ),
      weights: queries.map((_, v) =>
        Float64Array.from(columns.names, (name) => byName.get(name)?.weights?.[v] ?? 1),
      ),
      variantNames: variants.map((v) => v.variant),
    });
  }
  return { system, proposals, coverageLists };
}

/** The share of all proposals for which the system returned a non-empty list (any variant). */
function userCoverageOf(input: OfflineInput, system: OfflineInput["systems"][number]) {
  const proposals = input.proposals.length;
  const withList = input.proposals.filter((p) =>
    [...(system.lists.get(p.id)?.values() ?? [])].some((items) => items.length > 0),
  ).length;
  return { proposals, withList, share: proposals ? withList / proposals : null };
}

/** The measures whose figure per fold, and spread across folds, a protocol system reports. */
export const FOLD_MEASURES = ["Success@10", "RR@10", "AP", "HLU(a=5)", "PoolRecall", "Rank(g=1)"];

/** A protocol system's summary with each fold's figures (the mean over that fold's proposals). */
function protocolSection(
  view: ProtocolView,
  proposals: ProposalValues[],
  columns: Columns,
): ProtocolSummary | null {
  if (!view.summary) return null;
  const measures = FOLD_MEASURES.filter((n) => columns.names.includes(n));
  const values = proposals.flatMap((p) =>
    p.variantNames.flatMap((variant, v) =>
      measures.map((measure) => {
        const j = columns.names.indexOf(measure);
        const x = p.variants[v][j];
        const value = columns.aggregations[j] === "ratio" ? x / p.weights[v][j] : x;
        return { fold: foldOf(variant) ?? 0, measure, value };
      }),
    ),
  );
  return { ...view.summary, ...foldFigures(values, measures) };
}

/** One system's report but for its score sections: estimates overall and per subject, and what they suggest. */
function systemReport(
  context: SystemContext,
  coverageLists: QueryInput[],
  tick: () => void,
): Omit<SystemOffline, keyof SystemScoreSections | "protocol" | "userCoverage" | "resources"> {
  const { system, proposals, settings } = context;
  const { overall, subjects, subjectNames } = groupReports(context, coverageLists, tick);
  const kHitValues = proposals.map((p) => context.meanOver(p, "Rank(g=1)"));
  const { B, seed, level } = settings;
  const strata = settings.stratify ? proposals.map((p) => subjectStratum(p.subject)) : null;
  const kHit = {
    median: quantileEstimate(kHitValues, 0.5, { B, seed: `${seed}:${system.key}:khit50`, level, strata }),
    p90: kHitP90(kHitValues, system.key, { B, seed, level, strata }),
  };
  const integrity = returnedListsIntegrity(context);
  tick();
  return {
    key: system.key,
    name: system.name,
    proposals: proposals.length,
    overall,
    subjects,
    rankDistribution: rankDistribution(context, kHit),
    kHit,
    kHitValues: kHitValues.filter((v) => !Number.isNaN(v)),
    failureBreakdown: failureBreakdown(context),
    failures: failureCases(context, integrity),
    variants: variantSpread(context),
    hints: {
      displayDepth: kHit.p90.value === null ? null : Math.ceil(kHit.p90.value),
      weakSubjects: weakSubjects(settings.ks, overall, subjects, subjectNames),
    },
    integrity,
  };
}

/** Every column's estimate over all the system's proposals and over each subject's. */
function groupReports(context: SystemContext, coverageLists: QueryInput[], tick: () => void) {
  const { input, settings, columns, system, proposals } = context;
  const group = (members: ProposalValues[], label: string): GroupReport => {
    const estimates = estimateGroup(members, columns.aggregations, {
      B: settings.B,
      seed: `${settings.seed}:${system.key}:${label}`,
      level: settings.level,
      stratify: settings.stratify,
    });
    const out: Record<string, Estimate> = {};
    columns.names.forEach(
      (name, j) => (out[name] = { ...estimates[j], ...acrossQueries(members, j, columns.aggregations[j]) }),
    );
    // Coverage@K is a property of the whole set of lists: no interval.
    const ids = new Set(members.map((m) => m.id));
    for (const m of columns.measures.filter((x) => x.kind === "Coverage")) {
      const lists = coverageLists.filter((q) => ids.has(q.qid.split("\u0000")[0]));
      const value =
        input.catalog.size === 0 ? null : coverage(lists, m.k!, input.catalog, { outsiders: "counted" });
      out[m.name] = { value, ci: null };
    }
    tick();
    return { proposals: members.length, measures: out };
  };
  const overall = group(proposals, "overall");
  const subjectNames = [...new Set(proposals.map((p) => p.subject ?? "(none)"))].sort();
  const subjects = Object.fromEntries(
    subjectNames.map((name) => {
      const members = proposals.filter((p) => (p.subject ?? "(none)") === name);
      return [name, { ...group(members, name), ...subjectExtras(context, members, name) }];
    }),
  );
  return { overall, subjects, subjectNames };
}

/** Rank(g) for g = 1, 2, 3 over the proposals that have one: mean, median, p90, variance, and how many have none. */
function rankDistribution(
  { proposals, meanOver, settings, system }: SystemContext,
  kHit: SystemOffline["kHit"],
): SystemOffline["rankDistribution"] {
  const { B, seed, level } = settings;
  const strata = settings.stratify ? proposals.map((p) => subjectStratum(p.subject)) : null;
  return [1, 2, 3].map((g) => {
    const all = proposals.map((p) => meanOver(p, `Rank(g=${g})`));
    const values = all.filter((v) => !Number.isNaN(v));
    const missing = proposals.length - values.length;
    const o = (what: string) => ({ B, seed: `${seed}:${system.key}:rank${g}:${what}`, level, strata });
    // g = 1 is K_hit: the same estimates as the headline's, from the same resamples.
    const median = g === 1 ? kHit.median : quantileEstimate(all, 0.5, o("50"));
    const p90 = g === 1 ? kHit.p90 : quantileEstimate(all, 0.9, o("90"));
    return {
      g,
      proposals: proposals.length,
      mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      median: values.length ? quantile(values, 0.5) : null,
      p90: values.length ? quantile(values, 0.9) : null,
      meanCi: meanCi(all, o("mean")),
      medianCi: median.ci,
      p90Ci: p90.ci,
      variance: values.length > 1 ? variance(values) : null,
      missing,
      missingShare: proposals.length ? missing / proposals.length : 0,
    };
  });
}

/** COI@K and leakage describe the lists as the system returned them, before any exclusion. */
function returnedListsIntegrity({ given, input, settings, system, proposals }: SystemContext) {
  const returned = proposals.map((p) => ({
    proposal: p.id,
    items: [
      ...given.systems
        .find((s) => s.key === system.key)!
        .lists.get(p.id)!
        .values(),
    ][0],
  }));
  return systemIntegrity(input, returned, settings.ks, Math.max(...settings.ks));
}

/** Per K: the share of proposals with a hit, and the misses told apart: never retrieved, or ranked too low. */
function failureBreakdown({
  settings,
  proposals,
  meanOver,
}: SystemContext): SystemOffline["failureBreakdown"] {
  return settings.ks.map((k) => {
    const success = proposals.map((p) => meanOver(p, `Success@${k}`));
    const pool = proposals.map((p) => meanOver(p, POOL_RECALL));
    let recallFailures = 0;
    let rankingFailures = 0;
    success.forEach((v, i) => {
      if (v === 0) {
        if (pool[i] === 0) recallFailures++;
        else rankingFailures++;
      }
    });
    return {
      k,
      successShare: proposals.length ? success.reduce((a, b) => a + b, 0) / proposals.length : 0,
      recallFailures,
      rankingFailures,
    };
  });
}

/** The proposals with no committee member in the top failureK, with their top 10 and its conflicts. */
function failureCases(context: SystemContext, integrity: SystemIntegrity): SystemOffline["failures"] {
  const { input, system, proposals, meanOver } = context;
  const failureColumn = `Success@${context.settings.failureK}`;
  return proposals
    .filter((p) => context.columns.names.includes(failureColumn) && meanOver(p, failureColumn) === 0)
    .map((p) => {
      const info = input.proposals.find((x) => x.id === p.id)!;
      const firstList = [...system.lists.get(p.id)!.values()][0];
      const conflicted = integrity.conflictedSlots
        .filter((c) => c.proposal === p.id && c.rank <= 10)
        .map(({ candidate, rank }) => ({ candidate, rank }));
      return {
        proposal: p.id,
        title: info.title,
        gold: [...input.gold.get(p.id)!].sort(),
        top: firstList.slice(0, 10),
        conflicted,
      };
    });
}

/** Over proposals with several variants: each column's mean range (max − min) across a proposal's variants. */
function variantSpread(context: SystemContext): SystemOffline["variants"] {
  const { columns, proposals } = context;
  const several = proposals.filter((p) => p.variants.length > 1);
  if (!several.length) return null;
  const { names, aggregations } = columns;
  return {
    proposalsWithSeveral: several.length,
    spread: Object.fromEntries(
      names
        .filter((_, j) => aggregations[j] !== "corpus")
        .map((name) => {
          const j = names.indexOf(name);
          const ranges = several.map((p) => {
            const vs = p.variants
              .map((v, i) => (aggregations[j] === "ratio" ? v[j] / p.weights[i][j] : v[j]))
              .filter((x) => !Number.isNaN(x));
            return vs.length ? Math.max(...vs) - Math.min(...vs) : NaN;
          });
          const valid = ranges.filter((x) => !Number.isNaN(x));
          return [name, valid.length ? valid.reduce((a, b) => a + b, 0) / valid.length : NaN];
        }),
    ),
    ...variantTests(context),
  };
}

/** The measures each variant is tested on: HR and MRR at 10 (else the first K) and AP. */
function variantMeasures(ks: readonly number[]): string[] {
  const k = ks.includes(10) ? 10 : ks[0];
  return [`Success@${k}`, `RR@${k}`, "AP"];
}

/** Each variant's means, and a paired test (the report's test) of each against `default`, Holm-adjusted. */
function variantTests({ columns, proposals, settings, system }: SystemContext) {
  const measures = variantMeasures(settings.ks);
  const value = (p: ProposalValues, v: number, j: number) =>
    columns.aggregations[j] === "ratio" ? p.variants[v][j] / p.weights[v][j] : p.variants[v][j];
  const valueOf = (p: ProposalValues, v: number, measure: string) =>
    value(p, v, columns.names.indexOf(measure));
  const names = [...new Set(proposals.flatMap((p) => p.variantNames))].sort();
  const perVariant = names.map((variant) => {
    const having = proposals.filter((p) => p.variantNames.includes(variant));
    const means = measures.map((m) => {
      const j = columns.names.indexOf(m);
      const xs = having
        .map((p) => value(p, p.variantNames.indexOf(variant), j))
        .filter((x) => !Number.isNaN(x));
      return [m, xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null] as const;
    });
    return { variant, proposals: having.length, measures: Object.fromEntries(means) };
  });
  const tests: VariantTest[] = [];
  for (const variant of names.filter((n) => n !== "default")) {
    const both = proposals.filter(
      (p) => p.variantNames.includes("default") && p.variantNames.includes(variant),
    );
    for (const measure of measures) {
      const j = columns.names.indexOf(measure);
      const a: number[] = [];
      const b: number[] = [];
      for (const p of both) {
        const x = value(p, p.variantNames.indexOf("default"), j);
        const y = value(p, p.variantNames.indexOf(variant), j);
        if (Number.isNaN(x) || Number.isNaN(y)) continue;
        a.push(x);
        b.push(y);
      }
      if (a.length < 2) continue;
      const r = pairedTest(settings.test, a, b, {
        B: settings.B,
        seed: `${settings.seed}:${system.key}:${variant}`,
      });
      const meanDefault = a.reduce((s, x) => s + x, 0) / a.length;
      const meanVariant = b.reduce((s, x) => s + x, 0) / b.length;
      tests.push({
        variant,
        measure,
        proposals: a.length,
        meanDefault,
        meanVariant,
        difference: meanVariant - meanDefault,
        pValue: r.pValue,
        pAdjusted: r.pValue,
        method: r.method,
      });
    }
  }
  holm(tests.map((t) => t.pValue)).forEach((p, i) => (tests[i].pAdjusted = p));
  return { perVariant, tests, friedman: friedmanTests(names, measures, proposals, valueOf) };
}

/**
 * Whether the variant changes the figure at all: Friedman's test over the proposals that have every
 * variant (complete blocks), per measure; only with three variants or more (with two, the paired test
 * above is the test). Each test stands alone: they are not adjusted together.
 */
function friedmanTests(
  names: string[],
  measures: string[],
  proposals: ProposalValues[],
  value: (p: ProposalValues, v: number, measure: string) => number,
): FriedmanTest[] {
  if (names.length < 3) return [];
  const complete = proposals.filter((p) => names.every((n) => p.variantNames.includes(n)));
  return measures.flatMap((measure) => {
    const rows = complete
      .map((p) => names.map((n) => value(p, p.variantNames.indexOf(n), measure)))
      .filter((row) => row.every((x) => !Number.isNaN(x)));
    const r = friedmanTest(names.map((_, v) => rows.map((row) => row[v])));
    return r
      ? [
          {
            measure,
            variants: names.length,
            proposals: rows.length,
            statistic: r.statistic,
            pValue: r.pValue,
            method: r.method,
          },
        ]
      : [];
  });
}

/** Decision hint: subjects (of 5 proposals or more) whose Success@10 interval lies wholly below the overall rate. */
function weakSubjects(
  ks: readonly number[],
  overall: GroupReport,
  subjects: Record<string, GroupReport>,
  subjectNames: string[],
): string[] {
  const hintK = ks.includes(10) ? 10 : ks[0];
  const overallRate = overall.measures[`Success@${hintK}`].value;
  return subjectNames.filter((name) => {
    const ci = subjects[name].measures[`Success@${hintK}`].ci;
    return overallRate !== null && ci !== null && subjects[name].proposals >= 5 && ci.upper < overallRate;
  });
}

/** Pairwise comparison on the proposals both systems have lists for; Holm over every test. */
function compareSystems(
  perSystem: SystemValues[],
  columns: Columns,
  settings: Settings,
): OfflineComparison[] {
  const { ks, test, B, seed } = settings;
  const comparisons: OfflineComparison[] = [];
  const compared = [...ks.map((k) => `Success@${k}`), ...ks.map((k) => `RR@${k}`), "AP", "Rank(g=1)"].filter(
    (n) => columns.names.includes(n),
  );
  for (let i = 0; i < perSystem.length; i++) {
    for (let j = i + 1; j < perSystem.length; j++) {
      const A = new Map(perSystem[i].proposals.map((p) => [p.id, p]));
      const both = perSystem[j].proposals.filter((p) => A.has(p.id));
      for (const name of compared) {
        const c = columns.names.indexOf(name);
        const a: number[] = [];
        const b: number[] = [];
        const strata: string[] = [];
        for (const pb of both) {
          const va = proposalValue(A.get(pb.id)!, c, columns.aggregations[c]);
          const vb = proposalValue(pb, c, columns.aggregations[c]);
          if (!Number.isNaN(va) && !Number.isNaN(vb)) {
            a.push(va);
            b.push(vb);
            strata.push(subjectStratum(pb.subject));
          }
        }
        if (a.length < 2) continue;
        const result = pairedTest(test, a, b, { B, seed });
        const meanA = a.reduce((x, y) => x + y, 0) / a.length;
        const meanB = b.reduce((x, y) => x + y, 0) / b.length;
        comparisons.push({
          measure: name,
          a: perSystem[i].system.key,
          b: perSystem[j].system.key,
          proposals: a.length,
          meanA,
          meanB,
          difference: meanB - meanA,
          ci: differenceInterval(
            b.map((x, k) => x - a[k]),
            settings.stratify ? strata : null,
            settings,
          ),
          statistic: result.statistic,
          pValue: result.pValue,
          pAdjusted: result.pValue,
          method: result.method,
        });
      }
    }
  }
  holm(comparisons.map((c) => c.pValue)).forEach((p, i) => (comparisons[i].pAdjusted = p));
  return comparisons;
}

/**
 * The paired bootstrap interval of a mean difference: the same proposals are drawn for both systems
 * (so their shared difficulty cancels), with the report's seed, B and level, like every other interval.
 */
function differenceInterval(
  differences: number[],
  strata: string[] | null,
  settings: Pick<Settings, "B" | "seed" | "level">,
): Interval | null {
  const n = differences.length;
  const draw = createResampler(n, createRng(settings.seed), strata);
  const picked = new Int32Array(n);
  const means = new Float64Array(settings.B);
  for (let r = 0; r < settings.B; r++) {
    draw(picked);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[picked[i]];
    means[r] = sum / n;
  }
  return percentileInterval(means, settings.level);
}

/** A proposal's value of column j: the mean over its variants (ratio columns: Σ num / Σ den). */
function proposalValue(p: ProposalValues, j: number, aggregation: Aggregation): number {
  let sum = 0,
    n = 0;
  for (let v = 0; v < p.variants.length; v++) {
    const x = p.variants[v][j];
    if (aggregation === "ratio") {
      sum += x;
      n += p.weights[v][j];
    } else if (!Number.isNaN(x)) {
      sum += x;
      n++;
    }
  }
  return n === 0 ? NaN : sum / n;
}

/**
 * Point estimates and two-level bootstrap CIs of every column over a group of proposals: each draw
 * picks proposals with replacement and, for each, its variants with replacement.
 */
function estimateGroup(
  members: ProposalValues[],
  aggregations: Aggregation[],
  o: { B: number; seed: string; level: number; stratify: "subject" | null },
): Estimate[] {
  const m = aggregations.length;
  const n = members.length;
  const point = groupMeans(members, aggregations, (p) => p.variants.map((_, v) => v));
  if (n === 0) return point.map(() => ({ value: null, ci: null }));
  const layout = resampleLayout(members, aggregations);
  const { sumColumns, countColumns, rowSums, rowCounts, patterns } = layout;
  const S = sumColumns.length;
  const C = countColumns.length;
  const rng = createRng(o.seed);
  const draws = Array.from({ length: m }, () => new Float64Array(o.B).fill(NaN));
  const draw = createResampler(n, rng, o.stratify ? members.map((p) => subjectStratum(p.subject)) : null);
  const picked = new Int32Array(n);
  const single = Uint8Array.from(members, (p) => (p.variants.length === 1 ? 1 : 0));
  const sums = new Float64Array(m);
  const counts = new Float64Array(m);
  const oneSums = new Float64Array(m);
  const oneCounts = new Float64Array(m);
  const drawnPatterns = patterns ? new Float64Array(patterns.count) : null;
  // The laid-out columns are summed in arrays of their own (no lookup of the column per addition).
  const rowSum = new Float64Array(S);
  const rowCount = new Float64Array(C);
  for (let r = 0; r < o.B; r++) {
    draw(picked);
    sums.fill(0);
    counts.fill(0);
    rowSum.fill(0);
    rowCount.fill(0);
    drawnPatterns?.fill(0);
    for (let i = 0; i < n; i++) {
      const q = picked[i];
      // A flag per proposal, not its object: a draw touches only flat arrays, which stay in cache.
      if (single[q]) {
        if (drawnPatterns) drawnPatterns[patterns!.of[q]]++;
        const s = q * S;
        for (let k = 0; k < S; k++) rowSum[k] += rowSums[s + k];
        const c = q * C;
        for (let k = 0; k < C; k++) rowCount[k] += rowCounts[c + k];
      } else {
        // Variants are resampled inside a drawn proposal, in the order the proposals were drawn.
        oneSums.fill(0);
        oneCounts.fill(0);
        // (A group with such a proposal has no patterns: every column but corpus ones is laid out.)
        const p = members[q];
        addProposal(
          p,
          p.variants.map(() => rng.int(p.variants.length)),
          aggregations,
          oneSums,
          oneCounts,
        );
        for (let k = 0; k < S; k++) rowSum[k] += oneSums[sumColumns[k]];
        for (let k = 0; k < C; k++) rowCount[k] += oneCounts[countColumns[k]];
      }
    }
    for (let k = 0; k < S; k++) sums[sumColumns[k]] += rowSum[k];
    for (let k = 0; k < C; k++) counts[countColumns[k]] += rowCount[k];
    if (patterns) patterns.addUp(drawnPatterns!, sums, counts);
    for (let j = 0; j < m; j++) {
      const count = layout.countsAreN[j] ? n : counts[j];
      draws[j][r] = count === 0 ? NaN : sums[j] / count;
    }
  }
  return point.map((value, j) => ({
    value: Number.isNaN(value) ? null : value,
    ci: aggregations[j] === "corpus" ? null : percentileInterval(draws[j], o.level),
  }));
}

/**
 * How a resample adds up a group's one-variant proposals, worked out once per group. A resample sums
 * the drawn proposals' contributions to each column's sum and count; a one-variant proposal's never
 * change, so they are laid out in flat rows, and only where needed: corpus columns have no interval,
 * and a mean column counts every drawn proposal (its count is n). Columns whose contributions are all
 * 0 or 1 (Success@K, Success(g)@K, whether Rank(g) exists) add up to whole numbers, exact in any
 * order; when every proposal has one variant they are summed by how often each pattern of them was
 * drawn (a few dozen patterns instead of a value per drawn proposal). Every other addition happens in
 * the order the proposals were drawn, as summing each afresh would: the figures are the same, bit for
 * bit, several times faster.
 */
function resampleLayout(members: ProposalValues[], aggregations: Aggregation[]) {
  const m = aggregations.length;
  const n = members.length;
  const single = members.filter((p) => p.variants.length === 1);
  const contributions = new Map<ProposalValues, { sums: Float64Array; counts: Float64Array }>();
  for (const p of single) {
    const sums = new Float64Array(m);
    const counts = new Float64Array(m);
    addProposal(p, [0], aggregations, sums, counts);
    contributions.set(p, { sums, counts });
  }
  const zeroOne = (x: number) => x === 0 || x === 1;
  const allSingle = single.length === n;
  const patternedSum = aggregations.map(
    (a, j) => allSingle && a !== "corpus" && single.every((p) => zeroOne(contributions.get(p)!.sums[j])),
  );
  const countsAreN = aggregations.map((a) => a === "mean");
  const patternedCount = aggregations.map(
    (a, j) =>
      allSingle &&
      a !== "corpus" &&
      !countsAreN[j] &&
      single.every((p) => zeroOne(contributions.get(p)!.counts[j])),
  );
  const sumColumns = Int32Array.from(
    aggregations.flatMap((a, j) => (a === "corpus" || patternedSum[j] ? [] : [j])),
  );
  const countColumns = Int32Array.from(
    aggregations.flatMap((a, j) => (a === "corpus" || countsAreN[j] || patternedCount[j] ? [] : [j])),
  );
  const rowSums = new Float64Array(n * sumColumns.length);
  const rowCounts = new Float64Array(n * countColumns.length);
  members.forEach((p, i) => {
    const c = contributions.get(p);
    if (!c) return;
    sumColumns.forEach((j, k) => (rowSums[i * sumColumns.length + k] = c.sums[j]));
    countColumns.forEach((j, k) => (rowCounts[i * countColumns.length + k] = c.counts[j]));
  });
  const sumBits = aggregations.flatMap((_, j) => (patternedSum[j] ? [j] : []));
  const countBits = aggregations.flatMap((_, j) => (patternedCount[j] ? [j] : []));
  let patterns: {
    count: number;
    of: Int32Array;
    addUp: (drawn: Float64Array, sums: Float64Array, counts: Float64Array) => void;
  } | null = null;
  if (sumBits.length + countBits.length > 0) {
    const ids = new Map<string, number>();
    const rows: number[][] = [];
    const of = Int32Array.from(members, (p) => {
      const c = contributions.get(p)!;
      const row = [...sumBits.map((j) => c.sums[j]), ...countBits.map((j) => c.counts[j])];
      const key = row.join("");
      if (!ids.has(key)) {
        ids.set(key, rows.length);
        rows.push(row);
      }
      return ids.get(key)!;
    });
    patterns = {
      count: rows.length,
      of,
      addUp: (drawn, sums, counts) => {
        for (let id = 0; id < rows.length; id++) {
          const times = drawn[id];
          if (times === 0) continue;
          const row = rows[id];
          sumBits.forEach((j, b) => (sums[j] += times * row[b]));
          countBits.forEach((j, b) => (counts[j] += times * row[sumBits.length + b]));
        }
      },
    };
  }
  return { sumColumns, countColumns, rowSums, rowCounts, patterns, countsAreN };
}

/** Each column's mean over proposals (ratio columns: Σ num / Σ den), each proposal taking the variants `pick` gives. */
function groupMeans(
  proposals: ProposalValues[],
  aggregations: Aggregation[],
  pick: (p: ProposalValues) => number[],
): number[] {
  const sums = new Float64Array(aggregations.length);
  const counts = new Float64Array(aggregations.length);
  for (const p of proposals) addProposal(p, pick(p), aggregations, sums, counts);
  return Array.from(sums, (s, j) => (counts[j] === 0 ? NaN : s / counts[j]));
}

/**
 * Adds one proposal (the variants `chosen`) to the running sums and counts of each column: its mean
 * over the chosen variants with a value (a mean column counts a proposal without one as 0), or for a
 * ratio column its numerators and denominators; corpus columns are left out.
 */
function addProposal(
  p: ProposalValues,
  chosen: readonly number[],
  aggregations: readonly Aggregation[],
  sums: Float64Array,
  counts: Float64Array,
) {
  for (let j = 0; j < aggregations.length; j++) {
    const aggregation = aggregations[j];
    if (aggregation === "corpus") continue;
    let s = 0,
      c = 0;
    for (const v of chosen) {
      const x = p.variants[v][j];
      if (aggregation === "ratio") {
        s += x;
        c += p.weights[v][j];
      } else if (!Number.isNaN(x)) {
        s += x;
        c++;
      }
    }
    if (aggregation === "ratio") {
      sums[j] += s;
      counts[j] += c;
    } else if (c > 0) {
      sums[j] += s / c;
      counts[j]++;
    } else if (aggregation === "mean") counts[j]++;
  }
}

/** SD and variance across the group's proposals of column j (none for corpus-level columns). */
function acrossQueries(
  members: ProposalValues[],
  j: number,
  aggregation: Aggregation,
): { sd: number | null; variance: number | null } {
  if (aggregation === "corpus") return { sd: null, variance: null };
  const values: number[] = [];
  for (const p of members) {
    const x = proposalValue(p, j, aggregation);
    // A mean column counts a proposal without a value as 0, as its mean does; other columns leave it out.
    if (!Number.isNaN(x)) values.push(x);
    else if (aggregation === "mean") values.push(0);
  }
  if (values.length < 2) return { sd: null, variance: null };
  const v = variance(values);
  return { sd: Math.sqrt(v), variance: v };
}

/** A subject's weight share in the overall figures and its own K_hit median and p90 with CIs. */
function subjectExtras(context: SystemContext, members: ProposalValues[], name: string) {
  const { settings, system, proposals } = context;
  const { B, seed, level } = settings;
  const values = members.map((p) => context.meanOver(p, "Rank(g=1)"));
  return {
    weightShare: proposals.length === 0 ? 0 : members.length / proposals.length,
    kHit: {
      median: quantileEstimate(values, 0.5, {
        B,
        seed: `${seed}:${system.key}:${name}:khit50`,
        level,
        strata: null,
      }),
      p90: quantileEstimate(values, 0.9, {
        B,
        seed: `${seed}:${system.key}:${name}:khit90`,
        level,
        strata: null,
      }),
    },
  };
}

/**
 * A system's K_hit 90th percentile with its CI, from its proposals' K_hit values: the report's own
 * figure (same seed, same resamples), for a page that shows the display depth without the whole report.
 */
export function kHitP90(
  values: number[],
  system: string,
  o: { B: number; seed: string | number; level: number; strata: string[] | null },
): Estimate {
  return quantileEstimate(values, 0.9, { ...o, seed: `${o.seed}:${system}:khit90` });
}

/** A quantile of the present values (K_hit median, p90) with a bootstrap CI over proposals. */
function quantileEstimate(
  values: number[],
  p: number,
  o: { B: number; seed: string; level: number; strata: string[] | null },
): Estimate {
  const present = values.filter((v) => !Number.isNaN(v));
  if (present.length === 0) return { value: null, ci: null };
  const rng = createRng(o.seed);
  const draws = new Float64Array(o.B);
  const sample = new Float64Array(present.length);
  const draw = createResampler(
    present.length,
    rng,
    o.strata && o.strata.filter((_, i) => !Number.isNaN(values[i])),
  );
  const picked = new Int32Array(present.length);
  // K_hit is a small whole number: a resample's order statistics come from a tally of its values, not a sort.
  const tally = present.every((v) => Number.isInteger(v) && v >= 0 && v <= MAX_TALLIED)
    ? new Int32Array(Math.max(...present) + 1)
    : null;
  for (let r = 0; r < o.B; r++) {
    draw(picked);
    if (tally) {
      tally.fill(0);
      for (let i = 0; i < present.length; i++) tally[present[picked[i]]]++;
      draws[r] = quantileOfTally(tally, present.length, p);
      continue;
    }
    for (let i = 0; i < present.length; i++) sample[i] = present[picked[i]];
    draws[r] = quantileSorted(sample.sort(), p);
  }
  return { value: quantile(present, p), ci: percentileInterval(draws, o.level) };
}

/** The percentile CI of the mean of the present values, resampling proposals as `quantileEstimate` does. */
function meanCi(
  values: number[],
  o: { B: number; seed: string; level: number; strata: string[] | null },
): Interval | null {
  const present = values.filter((v) => !Number.isNaN(v));
  if (present.length === 0) return null;
  const draw = createResampler(
    present.length,
    createRng(o.seed),
    o.strata && o.strata.filter((_, i) => !Number.isNaN(values[i])),
  );
  const picked = new Int32Array(present.length);
  const draws = new Float64Array(o.B);
  for (let r = 0; r < o.B; r++) {
    draw(picked);
    let sum = 0;
    for (let i = 0; i < present.length; i++) sum += present[picked[i]];
    draws[r] = sum / present.length;
  }
  return percentileInterval(draws, o.level);
}

/** Largest value `quantileEstimate` tallies instead of sorting (a list deeper than this is sorted). */
const MAX_TALLIED = 100_000;

/** `quantileSorted` of the sample whose tally (count of each whole value) is given: the same order statistics, found by counting. */
function quantileOfTally(tally: Int32Array, n: number, p: number): number {
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  let seen = 0;
  let low = -1;
  for (let v = 0; v < tally.length; v++) {
    seen += tally[v];
    if (low < 0 && seen > lo) low = v;
    if (seen > hi) return low + (h - lo) * (v - low);
  }
  throw new Error("quantile of an empty tally");
}

export type { Measure };
