import { percentTick, plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { RowHeaderTable } from "~/components/row-header-table";
import { formatCi, formatCount, formatNumber, formatP, formatRate, plural } from "~/utils/format";
import { show, type Report } from "./cells";

type GroundTruth = NonNullable<Report["groundTruth"]>;

const GROUPS = ["Committee members", "Others in the same lists"] as const;

/** One row per group and grade: the pairs and their share of the group's graded pairs. */
function gradeBars(g: GroundTruth) {
  return [g.grades.members, g.grades.nonMembers].flatMap((side, i) =>
    side.counts.map((pairs, grade) => ({
      group: GROUPS[i],
      grade: grade + 1,
      pairs,
      share: side.pairs ? pairs / side.pairs : 0,
    })),
  );
}

/**
 * What the historical gold is worth against the experts: how a campaign graded the committee members
 * and the systems' other picks in the same lists, the measures under both golds, and whether the systems
 * come out in the same order. Shown when a campaign graded the report's proposals.
 */
export function GroundTruthSection({ report }: { report: Report }) {
  const g = report.groundTruth;
  if (!g)
    return (
      <>
        <h2>What the ground truth is worth</h2>
        <p className="muted">
          No rating campaign has graded these proposals' lists yet: with one, this section sets the committees
          against the experts' grades.
        </p>
      </>
    );
  const { members, nonMembers, difference, test } = g.grades;
  // The legend and the bars' colours from one list: the groups with a graded pair.
  const groups = plottedSeries(gradeBars(g), (r) => r.group, { hasValue: (r) => r.pairs > 0, order: GROUPS });
  return (
    <>
      <h2>What the ground truth is worth</h2>
      <p className="muted">
        The committees are the gold, but they are history, not a judgement of every candidate. Here {g.source}{" "}
        grades the same lists on {plural(g.proposals, "proposal")}: committee members against the other
        candidates the systems listed. Under expert gold a grade of 3 or 4 is relevant and nDCG gains grade −
        1; an ungraded candidate counts as not relevant.
      </p>
      <Chart
        legend={groups}
        title="Expert grades: committee members and the others"
        caption="Share of each group's graded pairs at each grade (1 irrelevant … 4 highly relevant), committee members beside the other candidates of the same lists."
        deps={[g]}
        table={{
          columns: [
            { key: "group", label: "Candidates" },
            { key: "grade", label: "Grade" },
            { key: "pairs", label: "Pairs", format: (v) => formatCount(v as number) },
            { key: "share", label: "Share of the group", format: (v) => formatRate(v as number) },
          ],
          rows: gradeBars(g),
        }}
        build={(Plot) => ({
          height: 260,
          // Side by side within each grade, not stacked: each group's shares sum to 100%.
          fx: { label: "grade", domain: [1, 2, 3, 4] },
          x: { axis: null, domain: [...GROUPS] },
          // percent: the shares read 0–100, and each tick says "%".
          y: { label: "share of the group's pairs (%)", grid: true, percent: true, tickFormat: percentTick },
          color: seriesScale(groups),
          marks: [
            Plot.barY(gradeBars(g), { fx: "grade", x: "group", y: "share", fill: "group" }),
            Plot.ruleY([0]),
          ],
        })}
      />
      <p>
        Mean grade: members {formatNumber(members.mean)} ({formatCount(members.pairs)} pairs), others{" "}
        {formatNumber(nonMembers.mean)} ({formatCount(nonMembers.pairs)} pairs); difference{" "}
        {formatNumber(difference.value, { signed: true })}{" "}
        {formatCi(difference.ci, (v) => formatNumber(v, { signed: true }))} (95% CI resampling proposals).{" "}
        {test ? `${test.method}: p ${formatP(test.pValue)} (pairs taken as independent).` : ""} Members graded
        1 (irrelevant): {formatRate(g.grades.membersGradedOne)}; others graded 4 (highly relevant):{" "}
        {formatRate(g.grades.nonMembersGradedFour)}.
      </p>
      <GoldTable g={g} />
      <TauTable g={g} />
    </>
  );
}

function GoldTable({ g }: { g: GroundTruth }) {
  const measures = Object.keys(g.systems[0]?.measures ?? {});
  return (
    <RowHeaderTable
      label="Measures under committee gold and expert gold"
      corner="System"
      columns={measures.map((m) => ({ key: m, header: `${m}: committee / experts` }))}
      rows={g.systems}
      rowKey={(s) => s.key}
      rowHeader={(s) => s.name}
      cells={(s) =>
        measures.map((m) => {
          const e = s.measures[m];
          return (
            <td key={m} className="num">
              {show(m, e.committee.value)} / {show(m, e.experts.value)}
              <div className="muted">
                {formatCi(e.committee.ci, (v) => show(m, v))} / {formatCi(e.experts.ci, (v) => show(m, v))}
              </div>
            </td>
          );
        })
      }
    />
  );
}

function TauTable({ g }: { g: GroundTruth }) {
  return (
    <TableScroll label="Agreement of the system orders under both golds">
      <table aria-label="Agreement of the system orders under both golds">
        <caption className="muted">
          Kendall's τ-b between the systems' orders under committee gold and under expert gold (1: same order,
          −1: reversed; none when one gold ties every system), with a 95% CI resampling proposals.
        </caption>
        <thead>
          <tr>
            <th>Measure</th>
            <th className="num">τ-b</th>
            <th className="num">95% CI</th>
          </tr>
        </thead>
        <tbody>
          {g.agreement.map((a) => (
            <tr key={a.measure}>
              <th scope="row">{a.measure}</th>
              <td className="num">{formatNumber(a.tau, { signed: true })}</td>
              <td className="num">{formatCi(a.ci, (v) => formatNumber(v, { signed: true }))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
