import { bootstrapStatistics, type Interval } from "../stats/bootstrap";
import { kendallTau } from "../stats/kendall";
import { mannWhitneyU, type RankTestResult } from "../stats/rank-tests";
import { evaluateQueries, type QueryInput } from "../eval/evaluate";
import { parseMeasures } from "../eval/measures";

/**
 * What the ground truth is worth: historical committees against expert grades of the same lists.
 * `labels`: proposal → candidate → aggregated grade (1–4), e.g. a campaign's median per pair.
 */
export interface ExpertLabels {
  /** Where the grades come from, as the report names it (a campaign, a grades file). */
  source: string;
  labels: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/** The cutoff of the measures recomputed under both golds. */
export const GROUND_TRUTH_K = 10;
/** The measures recomputed under both golds, and whose system orders are compared. */
export const GROUND_TRUTH_MEASURES = [
  `Success@${GROUND_TRUTH_K}`,
  `RR@${GROUND_TRUTH_K}`,
  `nDCG@${GROUND_TRUTH_K}`,
  "AP",
] as const;
/** An expert grade at or above this counts as relevant (3 "relevant", 4 "highly relevant"). */
export const RELEVANT_GRADE = 3;

interface Side {
  pairs: number;
  /** Pairs graded 1, 2, 3, 4. */
  counts: [number, number, number, number];
  mean: number | null;
}

export interface GroundTruthReport {
  source: string;
  /** Proposals with a committee and at least one graded pair in some system's list. */
  proposals: number;
  grades: {
    members: Side;
    nonMembers: Side;
    /** Mean grade of members − non-members, with a bootstrap CI over proposals (pairs stay with their proposal). */
    difference: { value: number | null; ci: Interval | null };
    /** Pairs as independent draws: the CI above is the one that respects proposals. */
    test: RankTestResult | null;
    /** Members graded 1 ("irrelevant") and non-members graded 4 ("highly relevant"). */
    membersGradedOne: number | null;
    nonMembersGradedFour: number | null;
  };
  /** Each system's mean per measure on the same proposals, committee as gold and experts as gold. */
  systems: {
    key: string;
    name: string;
    measures: Record<string, { committee: Estimate; experts: Estimate }>;
  }[];
  /** Kendall's τ-b between the systems' orders under the two golds, per measure; null with fewer than 2 systems. */
  agreement: { measure: string; tau: number | null; ci: Interval | null }[];
}

interface Estimate {
  value: number | null;
  ci: Interval | null;
}

interface GroundTruthInput {
  proposals: readonly { id: string }[];
  gold: ReadonlyMap<string, ReadonlySet<string>>;
  systems: readonly {
    key: string;
    name: string;
    lists: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  }[];
}

/**
 * Committee gold against expert gold, over the proposals that have both a committee and graded pairs
 * in the systems' lists: the grades of committee members against non-members in those lists, and the
 * measures and system orders under each gold. Under expert gold a grade ≥ 3 is relevant (Success, RR,
 * AP) and nDCG gains grade − 1 (the qrels export's rel); an ungraded candidate counts as not relevant,
 * as an unjudged document does in trec_eval. Each system is read on its first list of a proposal (the
 * default variant), and a proposal it has no list for scores 0, so every system is read on the same
 * proposals. CIs resample proposals (B, seed).
 */
export function groundTruthReport(
  input: GroundTruthInput,
  expert: ExpertLabels,
  options: { B: number; seed: string | number; level: number },
): GroundTruthReport {
  const proposals = input.proposals
    .map((p) => p.id)
    .filter((id) => (input.gold.get(id)?.size ?? 0) > 0 && gradedInLists(input, expert, id).length > 0);
  const bootstrap = { B: options.B, level: options.level };
  return {
    source: expert.source,
    proposals: proposals.length,
    grades: gradeComparison(input, expert, proposals, { ...bootstrap, seed: `${options.seed}:ground-truth` }),
    ...goldComparison(input, expert, proposals, { ...bootstrap, seed: `${options.seed}:ground-truth:tau` }),
  };
}

/** The graded candidates of a proposal that some system listed, with their grades and committee membership. */
function gradedInLists(input: GroundTruthInput, expert: ExpertLabels, proposal: string) {
  const grades = expert.labels.get(proposal);
  if (!grades) return [];
  const listed = new Set<string>();
  for (const s of input.systems)
    for (const items of s.lists.get(proposal)?.values() ?? []) for (const c of items) listed.add(c);
  const committee = input.gold.get(proposal)!;
  return [...listed]
    .filter((c) => grades.has(c))
    .map((c) => ({ grade: grades.get(c)!, member: committee.has(c) }));
}

function gradeComparison(
  input: GroundTruthInput,
  expert: ExpertLabels,
  proposals: string[],
  bootstrap: { B: number; level: number; seed: string },
): GroundTruthReport["grades"] {
  // Per proposal: the sum and count of member and non-member grades, for the resamples.
  const perProposal = proposals.map((id) => {
    const pairs = gradedInLists(input, expert, id);
    const members = pairs.filter((p) => p.member).map((p) => p.grade);
    const others = pairs.filter((p) => !p.member).map((p) => p.grade);
    return { members, others, ms: sum(members), os: sum(others) };
  });
  const members = perProposal.flatMap((p) => p.members);
  const others = perProposal.flatMap((p) => p.others);
  const difference = (counts: (i: number) => number) => {
    let ms = 0,
      mn = 0,
      os = 0,
      on = 0;
    perProposal.forEach((p, i) => {
      const c = counts(i);
      ms += c * p.ms;
      mn += c * p.members.length;
      os += c * p.os;
      on += c * p.others.length;
    });
    return mn === 0 || on === 0 ? null : ms / mn - os / on;
  };
  const [ci] = bootstrapStatistics(perProposal.length, (c) => [difference((i) => c[i])], 1, bootstrap);
  return {
    members: side(members),
    nonMembers: side(others),
    difference: { value: difference(() => 1), ci },
    test: mannWhitneyU(members, others),
    membersGradedOne: members.length ? members.filter((g) => g === 1).length / members.length : null,
    nonMembersGradedFour: others.length ? others.filter((g) => g === 4).length / others.length : null,
  };
}

function side(grades: number[]): Side {
  const counts: Side["counts"] = [0, 0, 0, 0];
  for (const g of grades) if (g >= 1 && g <= 4) counts[g - 1]++;
  return { pairs: grades.length, counts, mean: grades.length ? sum(grades) / grades.length : null };
}

function sum(values: readonly number[]) {
  return values.reduce((a, b) => a + b, 0);
}

/** Each system's per-proposal values under both golds, their means with CIs, and τ-b of the orders. */
function goldComparison(
  input: GroundTruthInput,
  expert: ExpertLabels,
  proposals: string[],
  bootstrap: { B: number; level: number; seed: string },
): Pick<GroundTruthReport, "systems" | "agreement"> {
  const names = [...GROUND_TRUTH_MEASURES];
  // values[system][gold][measure][proposal]; gold 0 committee, 1 experts.
  const values = input.systems.map((s) =>
    [0, 1].map((g) => perProposalValues(s, input, expert, proposals, g === 1)),
  );
  const meanOf = (column: Float64Array, counts: (i: number) => number) => {
    let total = 0,
      n = 0;
    column.forEach((v, i) => {
      total += counts(i) * v;
      n += counts(i);
    });
    return n === 0 ? null : total / n;
  };
  const statistic = (counts: (i: number) => number) => {
    const means = values.map((s) => s.map((g) => g.map((column) => meanOf(column, counts))));
    const taus = names.map((_, m) =>
      values.length < 2
        ? null
        : kendallTau(
            means.map((s) => s[0][m] ?? NaN),
            means.map((s) => s[1][m] ?? NaN),
          ),
    );
    return [...means.flatMap((s) => s.flat()), ...taus];
  };
  const point = statistic(() => 1);
  const cis = bootstrapStatistics(proposals.length, (c) => statistic((i) => c[i]), point.length, bootstrap);
  const at = (s: number, g: number, m: number) => (s * 2 + g) * names.length + m;
  return {
    systems: input.systems.map((s, i) => ({
      key: s.key,
      name: s.name,
      measures: Object.fromEntries(
        names.map((name, m) => [
          name,
          {
            committee: { value: point[at(i, 0, m)], ci: cis[at(i, 0, m)] },
            experts: { value: point[at(i, 1, m)], ci: cis[at(i, 1, m)] },
          },
        ]),
      ),
    })),
    agreement: names.map((measure, m) => {
      const j = input.systems.length * 2 * names.length + m;
      return { measure, tau: point[j], ci: values.length < 2 ? null : cis[j] };
    }),
  };
}

/** One system's value of each measure on each proposal, under committee or expert gold (no list: 0). */
function perProposalValues(
  system: GroundTruthInput["systems"][number],
  input: GroundTruthInput,
  expert: ExpertLabels,
  proposals: string[],
  experts: boolean,
): Float64Array[] {
  const measures = parseMeasures([...GROUND_TRUTH_MEASURES]);
  const ndcg = measures.findIndex((m) => m.name === `nDCG@${GROUND_TRUTH_K}`);
  const binary: QueryInput[] = [];
  const graded: QueryInput[] = [];
  for (const id of proposals) {
    const items = [...(system.lists.get(id)?.values() ?? [])][0] ?? [];
    const committee = input.gold.get(id)!;
    const grades = expert.labels.get(id)!;
    const relevant = (c: string) => (experts ? (grades.get(c) ?? 0) >= RELEVANT_GRADE : committee.has(c));
    const judged = experts ? [...grades.values()].filter((g) => g >= RELEVANT_GRADE) : [...committee];
    binary.push({
      qid: id,
      ranked: Float64Array.from(items, (c) => (relevant(c) ? 1 : 0)),
      judged: new Float64Array(judged.length).fill(1),
    });
    // Graded gains (grade − 1) for nDCG under expert gold; the judged labels sorted descending.
    const gains = [...grades.values()].map((g) => g - 1).sort((a, b) => b - a);
    graded.push({
      qid: id,
      ranked: Float64Array.from(items, (c) => (grades.has(c) ? grades.get(c)! - 1 : 0)),
      judged: Float64Array.from(gains),
    });
  }
  const columns = evaluateQueries(binary, measures).columns.map((c) => c.values);
  if (experts) columns[ndcg] = evaluateQueries(graded, [measures[ndcg]]).columns[0].values;
  // A query with nothing relevant has no value (NaN): it scores 0, like a system that finds nothing.
  return columns.map((c) => c.map((v) => (Number.isNaN(v) ? 0 : v)));
}
