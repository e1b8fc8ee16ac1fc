import { exposureRows } from "./exposure-rows";
import { fairnessRows } from "./fairness-rows";
import type { GroundTruthReport } from "../offline/ground-truth";
import type { ResultRow } from "./result-row";

/** Results as rows (pure, so the browser and the server share it); the row itself is ./result-row.ts. */
export type { ResultRow };

type Estimated =
  { value?: number | null; ci?: { lower: number; upper: number } | null; sd?: number | null } | undefined;
type Group = {
  measures: Record<string, unknown>;
  weightShare?: number;
  kHit?: { median: NonNullable<Estimated>; p90: NonNullable<Estimated> };
};
type Grouped = {
  key: string;
  variants?: {
    perVariant?: { variant: string; measures: Record<string, number | null> }[];
    tests?: { variant: string; measure: string; difference: number }[];
    friedman?: { measure: string; statistic: number; pValue: number }[];
  } | null;
  overall: Group;
  subjects: Record<string, Group>;
  rankDistribution?: RankRow[];
  kHit?: { median: NonNullable<Estimated>; p90: NonNullable<Estimated> };
  /** Absent in a snapshot frozen before prediction time was recorded. */
  resources?: {
    p50: NonNullable<Estimated>;
    p95: NonNullable<Estimated>;
    max: NonNullable<Estimated>;
    buildSeconds: number | null;
    memoryMb: number | null;
  };
};

type Gold = {
  raters: Record<
    string,
    Record<string, number | boolean | null> & { meanDifferenceCi?: { lower: number; upper: number } | null }
  >;
  aggregation: Record<string, { accuracy: number; ci: { lower: number; upper: number } | null }>;
  enoughRaters: Record<string, { suggestedN: number | null }>;
};

/**
 * A campaign's gold figures (a snapshot's `gold`): each aggregation's accuracy on the gold items with
 * its interval and the suggested raters per pair (group "gold"), and each expert's agreement with the
 * gold items (group "gold"; the mean difference with its 95% t interval).
 */
function goldRows(gold: Gold | null | undefined): ResultRow[] {
  if (!gold) return [];
  const rows: ResultRow[] = [];
  for (const [method, a] of Object.entries(gold.aggregation)) {
    rows.push({
      system: method,
      group: "gold",
      measure: "accuracy",
      value: a.accuracy,
      lower: a.ci?.lower ?? null,
      upper: a.ci?.upper ?? null,
    });
    rows.push({
      system: method,
      group: "gold",
      measure: "suggested raters",
      value: gold.enoughRaters[method]?.suggestedN ?? null,
      lower: null,
      upper: null,
    });
  }
  for (const [expert, g] of Object.entries(gold.raters)) {
    for (const measure of ["gold", "exact", "withinOne", "meanDifference", "pValue"]) {
      // The mean difference carries its 95% t interval (absent from snapshots frozen before it existed).
      const ci = measure === "meanDifference" ? (g.meanDifferenceCi ?? null) : null;
      rows.push({
        system: expert,
        group: "gold",
        measure,
        value: (g[measure] as number | null) ?? null,
        lower: ci?.lower ?? null,
        upper: ci?.upper ?? null,
      });
    }
  }
  return rows;
}

const blank = (system: string, group: string) => ({ system, group, lower: null, upper: null });

type RankRow = { g: number; mean: number | null; median: number | null; p90: number | null } & Record<
  string,
  unknown
>;

/**
 * The rank distribution's figures with their intervals (absent before they existed): the mean for every
 * g, the median and p90 for g ≥ 2 (g = 1's are the K_hit rows).
 */
function rankRows(r: RankRow): [string, number | null, Ci][] {
  const name = `Rank(g=${r.g})`;
  return [
    [`${name} mean`, r.mean, r.meanCi as Ci],
    ...(r.g === 1
      ? []
      : ([
          [`${name} median`, r.median, r.medianCi as Ci],
          [`${name} p90`, r.p90, r.p90Ci as Ci],
        ] as [string, number | null, Ci][])),
  ];
}

function systemRows(systems: readonly Grouped[] | undefined): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const system of systems ?? []) {
    for (const [group, g] of [["overall", system.overall] as const, ...Object.entries(system.subjects)]) {
      const row = (measure: string, value: number | null, ci?: { lower: number; upper: number } | null) =>
        rows.push({
          system: system.key,
          group,
          measure,
          value,
          lower: ci?.lower ?? null,
          upper: ci?.upper ?? null,
        });
      for (const [measure, e] of Object.entries(g.measures)) {
        const x = e as Estimated;
        row(measure, x?.value ?? null, x?.ci);
        // The spread across proposals, a figure of its own (an older snapshot has none).
        if (typeof x?.sd === "number") row(`SD ${measure}`, x.sd);
      }
      if (typeof g.weightShare === "number") row("WeightShare", g.weightShare);
      // The overall K_hit is the system's own (its groups' kHit are per subject).
      const kHit = group === "overall" ? system.kHit : g.kHit;
      if (kHit) row("K_hit median", kHit.median.value ?? null, kHit.median.ci);
      if (kHit) row("K_hit p90", kHit.p90.value ?? null, kHit.p90.ci);
      if (group === "overall")
        for (const r of system.rankDistribution ?? []) rankRows(r).forEach((x) => row(...x));
      // Each query variant's means, in a group of its own (`variant long`), and its difference from default.
      if (group === "overall")
        for (const v of system.variants?.perVariant ?? [])
          for (const [measure, value] of Object.entries(v.measures))
            rows.push({ ...blank(system.key, `variant ${v.variant}`), measure, value });
      if (group === "overall")
        for (const t of system.variants?.tests ?? [])
          rows.push({
            ...blank(system.key, `variant ${t.variant}`),
            measure: `${t.measure} difference`,
            value: t.difference,
          });
      // Friedman's test over all variants (absent before it existed): its statistic and p per measure.
      if (group === "overall")
        for (const f of system.variants?.friedman ?? []) {
          rows.push({
            ...blank(system.key, "variants"),
            measure: `Friedman ${f.measure}`,
            value: f.statistic,
          });
          rows.push({
            ...blank(system.key, "variants"),
            measure: `Friedman p ${f.measure}`,
            value: f.pValue,
          });
        }
      // Prediction time and build figures belong to the system as a whole: in its overall group.
      if (group === "overall" && system.resources) {
        const r = system.resources;
        row("LatencyP50", r.p50.value ?? null, r.p50.ci);
        row("LatencyP95", r.p95.value ?? null, r.p95.ci);
        row("LatencyMax", r.max.value ?? null, r.max.ci);
        row("BuildSeconds", r.buildSeconds);
        row("MemoryMb", r.memoryMb);
      }
    }
  }
  return rows;
}

type Protocolled = {
  key: string;
  protocol?: {
    protocol: string;
    perFold: { fold: number; measures: Record<string, number | null> }[];
    spread: Record<
      string,
      { mean: number | null; sd: number | null; min: number | null; max: number | null }
    >;
    dropped: unknown[];
    givenReturned: { lists: number; slots: number };
  } | null;
};

/**
 * A protocol system's own figures (group `given-2 fold-1`, …): each fold's value, the across-fold mean
 * with the folds' range as its bounds, the across-fold SD, and the dropped and given-returned counts.
 */
function protocolRows(systems: readonly Protocolled[] | undefined): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (
    system: string,
    group: string,
    measure: string,
    value: number | null,
    lower = null as number | null,
    upper = null as number | null,
  ) => rows.push({ system, group, measure, value, lower, upper });
  for (const s of systems ?? []) {
    const p = s.protocol;
    if (!p) continue;
    for (const f of p.perFold)
      for (const [m, v] of Object.entries(f.measures)) row(s.key, `${p.protocol} fold-${f.fold}`, m, v);
    for (const [m, x] of Object.entries(p.spread)) {
      row(s.key, `${p.protocol} folds`, m, x.mean, x.min, x.max);
      row(s.key, `${p.protocol} folds`, `${m} SD`, x.sd);
    }
    row(s.key, p.protocol, "DroppedProposals", p.dropped.length);
    row(s.key, p.protocol, "GivenReturnedSlots", p.givenReturned.slots);
  }
  return rows;
}

/** The ground-truth section: grades of members and others, both golds per system, τ-b per measure. */
function groundTruthRows(g: GroundTruthReport | undefined): ResultRow[] {
  if (!g) return [];
  const row = (system: string, group: string, measure: string, value: number | null, ci?: Interval) => ({
    system,
    group,
    measure,
    value,
    lower: ci?.lower ?? null,
    upper: ci?.upper ?? null,
  });
  type Interval = { lower: number; upper: number } | null;
  const rows: ResultRow[] = [];
  for (const [who, side] of [
    ["committee members", g.grades.members],
    ["others in the lists", g.grades.nonMembers],
  ] as const) {
    side.counts.forEach((n, i) => rows.push(row(who, "expert grades", `PairsGraded${i + 1}`, n)));
    rows.push(row(who, "expert grades", "MeanGrade", side.mean));
  }
  rows.push(
    row(
      "members − others",
      "expert grades",
      "MeanGradeDifference",
      g.grades.difference.value,
      g.grades.difference.ci,
    ),
  );
  rows.push(row("members − others", "expert grades", "MannWhitneyP", g.grades.test?.pValue ?? null));
  rows.push(row("committee members", "expert grades", "ShareGraded1", g.grades.membersGradedOne));
  rows.push(row("others in the lists", "expert grades", "ShareGraded4", g.grades.nonMembersGradedFour));
  for (const s of g.systems)
    for (const [measure, e] of Object.entries(s.measures)) {
      rows.push(row(s.key, "committee gold", measure, e.committee.value, e.committee.ci));
      rows.push(row(s.key, "expert gold", measure, e.experts.value, e.experts.ci));
    }
  for (const a of g.agreement) rows.push(row("system order", "Kendall tau-b", a.measure, a.tau, a.ci));
  return rows;
}

type OfflineComparisonRow = {
  measure: string;
  a: string;
  b: string;
  difference: number;
  ci?: { lower: number; upper: number } | null;
};

/** The offline report's pairwise comparisons as B against A: the mean difference and its paired interval. */
function offlineComparisonRows(comparisons: readonly OfflineComparisonRow[] | undefined): ResultRow[] {
  return (comparisons ?? []).map((c) => ({
    system: c.b,
    group: `vs ${c.a}`,
    measure: `${c.measure} difference`,
    value: c.difference,
    lower: c.ci?.lower ?? null,
    upper: c.ci?.upper ?? null,
  }));
}

export function resultRows(kind: string, result: unknown): ResultRow[] {
  const r = (result ?? {}) as Record<string, unknown>;
  if (kind === "offline")
    return [
      ...systemRows(r.systems as Grouped[]),
      ...exposureRows(r.systems as Parameters<typeof exposureRows>[0]),
      ...protocolRows(r.systems as Protocolled[]),
      ...groundTruthRows(r.groundTruth as GroundTruthReport | undefined),
      ...offlineComparisonRows(r.comparisons as OfflineComparisonRow[] | undefined),
      ...fairnessRows(kind, r),
    ];
  if (kind === "expert")
    return [
      ...systemRows((r.results as { systems: Grouped[] } | null)?.systems),
      ...goldRows(r.gold as Gold | null | undefined),
      ...fairnessRows(kind, r),
    ];
  if (kind === "clicks") return clickRows(r.fit as ClickFit | null);
  if (r.interleaving) return [...interleavingRows(r.interleaving as Interleaved), ...fairnessRows(kind, r)];
  const rows: ResultRow[] = [];
  const arms = r.arms as
    | Record<
        string,
        Record<string, unknown> & { ci?: Record<string, { lower: number; upper: number } | null> }
      >
    | undefined;
  for (const [arm, a] of Object.entries(arms ?? {})) {
    for (const m of ["ctr", "adoptionRate", "meanAdoptedRank", "sessionSuccessRate"])
      rows.push({
        system: arm,
        group: "arm",
        measure: m,
        value: (a[m] as number | null) ?? null,
        lower: a.ci?.[m]?.lower ?? null,
        upper: a.ci?.[m]?.upper ?? null,
      });
  }
  for (const c of (r.comparisons as {
    arm: string;
    control: string;
    metric: string;
    difference: number | null;
    ci: { lower: number; upper: number } | null;
  }[]) ?? []) {
    rows.push({
      system: c.arm,
      group: `vs ${c.control}`,
      measure: `${c.metric} difference`,
      value: c.difference,
      lower: c.ci?.lower ?? null,
      upper: c.ci?.upper ?? null,
    });
  }
  rows.push(...fairnessRows(kind, r));
  return rows;
}

type Ci = { lower: number; upper: number } | null | undefined;
type ClickFit = {
  models: ({ name: string; perplexityByRank: number[]; perplexityByRankCi?: Ci[] } & Record<
    string,
    unknown
  >)[];
  examination: { rank: number; relative: number; relativeCi?: Ci }[];
  displayDepth: { arm: string; depth: number | null; kHitP90?: { value: number | null; ci: Ci } }[];
  arms: {
    arm: string;
    ctr: number | null;
    correctedCtr: number | null;
    ctrCi?: Ci;
    correctedCtrCi?: Ci;
    difference?: {
      control: string;
      ctr: number | null;
      ctrCi: Ci;
      correctedCtr: number | null;
      correctedCtrCi: Ci;
    };
  }[];
};

/**
 * A click-model result (scripts/clicks/experiment-report.ts): per model, per rank, per arm; log-likelihood,
 * perplexity and the CTRs with their intervals (none in a snapshot frozen before they existed).
 */
function clickRows(fit: ClickFit | null): ResultRow[] {
  const row = (system: string, group: string, measure: string, value: unknown, ci?: unknown): ResultRow => ({
    system,
    group,
    measure,
    value: typeof value === "number" ? value : null,
    lower: (ci as Ci)?.lower ?? null,
    upper: (ci as Ci)?.upper ?? null,
  });
  if (!fit) return [];
  return [
    ...fit.models.flatMap((m) => [
      ...[
        "logLikelihood",
        "perplexity",
        "ctrPredictionRmse",
        "relevanceAuc",
        "rankingNdcg5",
        "trainSeconds",
      ].map((measure) => row(m.name, "model", measure, m[measure], m[`${measure}Ci`])),
      ...m.perplexityByRank.map((p, i) =>
        row(m.name, `rank ${i + 1}`, "perplexity", p, m.perplexityByRankCi?.[i]),
      ),
    ]),
    ...fit.examination.map((e) => row("PBM", `rank ${e.rank}`, "examination", e.relative, e.relativeCi)),
    ...fit.arms.flatMap((a) => [
      row(a.arm, "arm", "ctrTop10", a.ctr, a.ctrCi),
      row(a.arm, "arm", "correctedCtr", a.correctedCtr, a.correctedCtrCi),
      ...(a.difference
        ? [
            row(
              a.arm,
              `vs ${a.difference.control}`,
              "ctrTop10 difference",
              a.difference.ctr,
              a.difference.ctrCi,
            ),
            row(
              a.arm,
              `vs ${a.difference.control}`,
              "correctedCtr difference",
              a.difference.correctedCtr,
              a.difference.correctedCtrCi,
            ),
          ]
        : []),
    ]),
    ...fit.displayDepth.flatMap((d) => [
      row(d.arm, "arm", "displayDepth", d.depth),
      ...(d.kHitP90 ? [row(d.arm, "arm", "kHitP90", d.kHitP90.value, d.kHitP90.ci)] : []),
    ]),
  ];
}

type Pair = [number, number] | null;
type Interleaved = {
  control: string;
  challenger: string;
  figures: Record<
    "click" | "adopt",
    {
      sessions: number;
      noPreference: number;
      wins: Record<string, number>;
      ties: number;
      winRate: number | null;
      ci: Pair;
      pValue: number | null;
    }
  > | null;
  multileaving: Record<
    "click" | "adopt",
    {
      sessions: number;
      noPreference: number;
      pairs: {
        system: string;
        other: string;
        wins: number;
        losses: number;
        ties: number;
        share: number | null;
        ci: Pair;
        pValue: number | null;
      }[];
      ranking: { system: string; rank: number; copeland: number; meanShare: number | null }[];
    }
  > | null;
};

/**
 * An interleaving experiment's figures by credit (group `click credit`, `adopt credit`): the challenger's
 * win rate with its interval, each system's wins, ties, sessions and the sign test's p; a multileave's
 * preference matrix (group `click credit vs <other>`: each system's share against that other, with its
 * interval) and ranking (group `click credit ranking`).
 */
function interleavingRows(x: Interleaved): ResultRow[] {
  const rows: ResultRow[] = [];
  const row = (system: string, group: string, measure: string, value: number | null, ci: Pair = null) =>
    rows.push({ system, group, measure, value, lower: ci?.[0] ?? null, upper: ci?.[1] ?? null });
  for (const credit of ["click", "adopt"] as const) {
    const group = `${credit} credit`;
    const f = x.figures?.[credit];
    if (f) {
      row(x.challenger, group, "winRate", f.winRate, f.ci);
      for (const [system, wins] of Object.entries(f.wins)) row(system, group, "wins", wins);
      row("both", group, "ties", f.ties);
      row("both", group, "noPreference", f.noPreference);
      row("both", group, "sessions", f.sessions);
      row(x.challenger, group, "signTestP", f.pValue);
    }
    const m = x.multileaving?.[credit];
    if (m) {
      for (const p of m.pairs) {
        const vs = `${group} vs ${p.other}`;
        row(p.system, vs, "preferenceShare", p.share, p.ci);
        row(p.system, vs, "wins", p.wins);
        row(p.system, vs, "losses", p.losses);
        row(p.system, vs, "ties", p.ties);
        row(p.system, vs, "signTestP", p.pValue);
      }
      for (const s of m.ranking) {
        row(s.system, `${group} ranking`, "rank", s.rank);
        row(s.system, `${group} ranking`, "copeland", s.copeland);
        row(s.system, `${group} ranking`, "meanShare", s.meanShare);
      }
      row("all", group, "noPreference", m.noPreference);
      row("all", group, "sessions", m.sessions);
    }
  }
  return rows;
}
