import type { OfflineReport } from "../offline/report";
import { RELEVANT_GRADE } from "../offline/ground-truth";
import { ciText, fmt, table, type Cell } from "./output";

/** What the committees are worth against expert grades: the grade table, both golds, and τ-b. */
export function printGroundTruth(report: OfflineReport) {
  const g = report.groundTruth;
  if (!g)
    return console.log(
      "Ground truth: no campaign has graded these proposals' lists (assay offline --campaign ID picks one).\n",
    );
  console.log(
    `What the ground truth is worth: ${g.source}, ${g.proposals} proposals with a committee and graded pairs in the lists.`,
  );
  const { members, nonMembers } = g.grades;
  console.log(
    table(
      ["candidates", "graded pairs", "grade 1", "grade 2", "grade 3", "grade 4", "mean grade"],
      [
        ["committee members", members.pairs, ...members.counts, members.mean],
        ["others in the lists", nonMembers.pairs, ...nonMembers.counts, nonMembers.mean],
      ],
      2,
    ),
  );
  const test = g.grades.test;
  console.log(
    `Members − others: ${fmt(g.grades.difference.value, 3)} ${ciText(g.grades.difference.ci, 3)} (95% CI resampling proposals)` +
      (test
        ? `; ${test.method}: U = ${fmt(test.statistic, 1)}, p = ${fmt(test.pValue)} (pairs as independent).`
        : "."),
  );
  console.log(
    `Members graded 1 (irrelevant): ${fmt(g.grades.membersGradedOne, 3)}; others graded 4 (highly relevant): ${fmt(g.grades.nonMembersGradedFour, 3)}.`,
  );
  console.log(
    `Measures with each gold (experts: grade ≥ ${RELEVANT_GRADE} relevant, nDCG gains grade − 1), on the same proposals:`,
  );
  console.log(
    table(
      ["system", "measure", "committee gold", "ci95", "expert gold", "ci95 "],
      g.systems.flatMap((s) =>
        Object.entries(s.measures).map(([measure, e]) => [
          s.key,
          measure,
          e.committee.value,
          ciText(e.committee.ci),
          e.experts.value,
          ciText(e.experts.ci),
        ]),
      ),
    ),
  );
  console.log(
    "Agreement of the systems' orders under the two golds (Kendall's τ-b, 95% CI resampling proposals):",
  );
  console.log(
    table(
      ["measure", "τ-b", "ci95"],
      g.agreement.map((a) => [a.measure, a.tau, ciText(a.ci, 3)]),
      3,
    ),
  );
  console.log("");
}

/** CSV rows (system, group, proposals, measure, value, ci_lower, ci_upper) of the ground-truth section. */
export function groundTruthCsvRows(report: OfflineReport): Cell[][] {
  const g = report.groundTruth;
  if (!g) return [];
  const rows: Cell[][] = [];
  for (const [group, side] of [
    ["ground truth: committee members", g.grades.members],
    ["ground truth: others in the lists", g.grades.nonMembers],
  ] as const) {
    side.counts.forEach((n, i) => rows.push(["", group, side.pairs, `pairs graded ${i + 1}`, n, null, null]));
    rows.push(["", group, side.pairs, "mean grade", side.mean, null, null]);
  }
  const d = g.grades.difference;
  rows.push([
    "",
    "ground truth",
    g.proposals,
    "mean grade members − others",
    d.value,
    d.ci?.lower,
    d.ci?.upper,
  ]);
  rows.push(["", "ground truth", g.proposals, "Mann–Whitney p", g.grades.test?.pValue, null, null]);
  rows.push(["", "ground truth", g.proposals, "members graded 1", g.grades.membersGradedOne, null, null]);
  rows.push(["", "ground truth", g.proposals, "others graded 4", g.grades.nonMembersGradedFour, null, null]);
  for (const s of g.systems)
    for (const [measure, e] of Object.entries(s.measures))
      for (const [gold, est] of [
        ["committee gold", e.committee],
        ["expert gold", e.experts],
      ] as const)
        rows.push([
          s.key,
          `ground truth: ${gold}`,
          g.proposals,
          measure,
          est.value,
          est.ci?.lower,
          est.ci?.upper,
        ]);
  for (const a of g.agreement)
    rows.push(["", "ground truth: Kendall tau-b", g.proposals, a.measure, a.tau, a.ci?.lower, a.ci?.upper]);
  return rows;
}
