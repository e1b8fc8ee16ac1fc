import { createRng } from "../lib/random";
import type { BootstrapOptions, Interval } from "../stats/bootstrap";
import { kendallTau } from "../stats/kendall";
import { aggregateGrade, gradeToRel, isDisagreement, type Grade } from "./labels";
import { compareSystems, type SystemComparison } from "../eval/compare";
import { evaluateQueries, summarize, type QueryInput } from "../eval/evaluate";
import { evaluationIntervals } from "../eval/intervals";
import { parseMeasures } from "../eval/measures";

export interface GradedPair {
  itemId: number;
  proposal: string;
  candidate: string;
  subject: string | null;
  grades: { expert: string; grade: Grade; rationale: string }[];
  adjudicated: Grade;
}

export interface CampaignData {
  pairs: GradedPair[];
  proposals: { id: string; subject: string | null }[];
  systems: { key: string; lists: ReadonlyMap<string, readonly string[]> }[];
}

/** Aggregated labels as TREC relevance (grade − 1): proposal → candidate → rel; unlabelled pairs left out. */
export function labelsOf(
  pairs: readonly GradedPair[],
  pick: (p: GradedPair) => Grade[] = (p) => p.grades.map((g) => g.grade),
  adjudicate = true,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const p of pairs) {
    const grade = aggregateGrade(pick(p), adjudicate ? p.adjudicated : null);
    if (grade === null) continue;
    if (!out.has(p.proposal)) out.set(p.proposal, new Map());
    out.get(p.proposal)!.set(p.candidate, gradeToRel(grade));
  }
  return out;
}

export const disagreementsOf = (pairs: readonly GradedPair[]) =>
  pairs.filter((p) => isDisagreement(p.grades.map((g) => g.grade)));

function queriesFor(
  data: CampaignData,
  system: CampaignData["systems"][number],
  labels: Map<string, Map<string, number>>,
  proposals: readonly string[],
): QueryInput[] {
  return proposals
    .filter((p) => system.lists.has(p) && labels.has(p))
    .map((p) => {
      const judged = labels.get(p)!;
      return {
        qid: p,
        ranked: Float64Array.from(system.lists.get(p)!, (c) => judged.get(c) ?? NaN),
        judged: Float64Array.from(judged.values()).sort().reverse(),
      };
    });
}

export interface CampaignResults {
  ks: number[];
  systems: {
    key: string;
    overall: { proposals: number; measures: Record<string, { value: number | null; ci: Interval | null }> };
    subjects: Record<
      string,
      { proposals: number; measures: Record<string, { value: number | null; ci: Interval | null }> }
    >;
  }[];
  comparison: SystemComparison | null;
}

/** NDCG@K (linear and exponential gain) and Judged@K per system, overall and per subject, on the aggregated labels. */
export function campaignResults(
  data: CampaignData,
  options: BootstrapOptions & { ks?: number[] } = {},
): CampaignResults {
  const ks = options.ks ?? [5, 10, 20];
  const measures = parseMeasures(ks.flatMap((k) => [`nDCG@${k}`, `nDCG(gain=exp)@${k}`, `Judged@${k}`]));
  const labels = labelsOf(data.pairs);
  const all = data.proposals.map((p) => p.id);
  const subjectOf = new Map(data.proposals.map((p) => [p.id, p.subject ?? "(none)"]));
  const groupReport = (queries: QueryInput[]) => {
    const evaluation = evaluateQueries(queries, measures);
    const summary = summarize(evaluation);
    const cis = evaluationIntervals(evaluation, options);
    return {
      proposals: queries.length,
      measures: Object.fromEntries(
        measures.map((m) => [m.name, { value: summary.aggregate[m.name], ci: cis[m.name] }]),
      ),
    };
  };
  const systems = data.systems.map((system) => {
    const queries = queriesFor(data, system, labels, all);
    const subjects: CampaignResults["systems"][number]["subjects"] = {};
    for (const subject of [...new Set(queries.map((q) => subjectOf.get(q.qid)!))].sort())
      subjects[subject] = groupReport(queries.filter((q) => subjectOf.get(q.qid) === subject));
    return { key: system.key, overall: groupReport(queries), subjects };
  });
  let comparison: SystemComparison | null = null;
  if (data.systems.length >= 2) {
    const shared = all.filter((p) => labels.has(p) && data.systems.every((s) => s.lists.has(p)));
    if (shared.length >= 2) {
      const k = ks.includes(10) ? 10 : ks[0];
      comparison = compareSystems(
        data.systems.map((s) => ({
          name: s.key,
          values: evaluateQueries(queriesFor(data, s, labels, shared), parseMeasures([`nDCG@${k}`]))
            .columns[0].values,
        })),
        "t",
        options,
      );
    }
  }
  return { ks, systems, comparison };
}

/**
 * The label learning curve: for n = 1 … r raters per pair, draw n of each pair's raters many times
 * and report how often the n-rater label equals the all-rater label, and the Kendall τ between the
 * systems' nDCG@10 ordering under n raters and under all (null with fewer than two systems).
 */
export function learningCurve(
  data: CampaignData,
  options: { samples?: number; seed?: string | number } = {},
) {
  const samples = options.samples ?? 100;
  const rng = createRng(options.seed ?? "assay-curve");
  const r = Math.max(0, ...data.pairs.map((p) => p.grades.length));
  const full = labelsOf(data.pairs, undefined, false);
  const all = data.proposals.map((p) => p.id);
  const scores = (labels: Map<string, Map<string, number>>) =>
    data.systems.map((s) => {
      const values = evaluateQueries(queriesFor(data, s, labels, all), parseMeasures(["nDCG@10"])).columns[0]
        .values;
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
    });
  const reference = scores(full);
  const curve: { raters: number; labelAgreement: number; kendallTau: number | null }[] = [];
  for (let n = 1; n <= r; n++) {
    let same = 0,
      compared = 0,
      tauSum = 0,
      taus = 0;
    for (let s = 0; s < samples; s++) {
      const drawn = new Map<number, Grade[]>();
      for (const p of data.pairs) {
        const pool = p.grades.map((g) => g.grade);
        const picked: Grade[] = [];
        const copy = pool.slice();
        const take = Math.min(n, copy.length); // fixed before the loop: splicing shrinks `copy`
        for (let i = 0; i < take; i++) picked.push(copy.splice(rng.int(copy.length), 1)[0]);
        drawn.set(p.itemId, picked);
        const label = aggregateGrade(picked);
        const reference = aggregateGrade(pool);
        if (reference !== null) {
          compared++;
          if (label === reference) same++;
        }
      }
      if (data.systems.length >= 2) {
        const tau = kendallTau(scores(labelsOf(data.pairs, (p) => drawn.get(p.itemId)!, false)), reference);
        if (tau !== null) {
          tauSum += tau;
          taus++;
        }
      }
    }
    curve.push({
      raters: n,
      labelAgreement: compared ? same / compared : 0,
      kendallTau: taus ? tauSum / taus : null,
    });
  }
  return curve;
}
