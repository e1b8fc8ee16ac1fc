import { useEffect } from "react";
import { useRevalidator } from "@remix-run/react";
import type { CampaignGold } from "~/data/campaigns.server";
import type { GoldAgreement } from "../../scripts/judgement/gold";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatP, formatRate } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";

/** How the page names each aggregation method. */
const methodNames: Record<string, string> = {
  median: "Median",
  majority: "Majority vote",
  mean: "Mean (rounded)",
  "dawid-skene": "Dawid–Skene",
};
/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});
const signed = (v: number | null) => formatNumber(v, { signed: true });
const flagText = (g: { flagged: boolean; gold: number }) =>
  g.flagged ? "Biased (p < 0.01)" : g.gold < 2 ? "Too few" : "";

/** The columns shared by the per-expert and per-proposal tables. */
function agreementColumns<T>() {
  return [
    {
      id: "gold",
      accessorKey: "gold",
      header: "Gold graded",
      ...cellAs(formatCount),
    },
    {
      id: "exact",
      accessorKey: "exact",
      header: "Exact agreement",
      ...cellAs(formatRate),
    },
    {
      id: "withinOne",
      accessorKey: "withinOne",
      header: "Within one",
      ...cellAs(formatRate),
    },
    {
      id: "meanDifference",
      accessorKey: "meanDifference",
      header: "Mean difference (grade − truth)",
      ...cellAs(signed),
    },
    {
      id: "tStatistic",
      accessorKey: "tStatistic",
      header: "t",
      ...cellAs(formatNumber),
    },
    {
      id: "pValue",
      accessorKey: "pValue",
      header: "p (t-test)",
      ...cellAs(formatP),
    },
    { id: "flag", accessorKey: "flag", header: "Flag" },
  ] as { id: string; accessorKey: keyof T & string; header: string }[];
}

const agreementRow = (g: Json<GoldAgreement>) => ({
  gold: g.gold,
  exact: g.exact,
  withinOne: g.withinOne,
  meanDifference: g.meanDifference,
  tStatistic: g.tStatistic,
  pValue: g.pValue,
  flag: flagText(g),
});

/**
 * The gold section of a campaign page: rater accuracy against the known grades, per proposal the same
 * with the fewest judgements per item and the pooled variance, each aggregation's accuracy, and the
 * learning curves (chart and table). `gold` is null without gold items, "computing" while the worker
 * pool works (the page revalidates until it is done); `empty` says how gold items are added.
 */
export function GoldFigures({
  gold,
  empty,
}: {
  gold: Json<CampaignGold> | "computing" | null;
  empty: string;
}) {
  return (
    <section aria-labelledby="gold-heading">
      <h2 id="gold-heading">Gold items and rater accuracy</h2>
      {gold === null ? (
        <div className="empty">{empty}</div>
      ) : gold === "computing" ? (
        <Computing />
      ) : (
        <GoldTables gold={gold} />
      )}
    </section>
  );
}

/** Shown while the learning curves are computed; asks the server again every 8 seconds (each asks for the whole page). */
function Computing() {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setTimeout(() => {
      if (state === "idle") revalidate();
    }, 8000);
    return () => clearTimeout(timer);
  }, [revalidate, state]);
  return (
    <p className="notice" aria-live="polite">
      Computing the gold figures (learning curves over 1,000 random draws of raters); this page updates when
      they are ready.
    </p>
  );
}

function GoldTables({ gold }: { gold: Json<CampaignGold> }) {
  const experts = Object.entries(gold.raters).map(([expert, g]) => ({
    expert,
    ...agreementRow(g),
  }));
  const flagged = experts.filter((e) => e.flag.startsWith("Biased"));
  const proposals = Object.entries(gold.proposals).map(([proposal, p]) => ({
    proposal,
    items: p.items,
    minJudgements: p.minJudgements,
    pooledVariance: p.pooledVariance,
    ...agreementRow(p),
  }));
  const methods = Object.keys(gold.aggregation) as (keyof typeof gold.aggregation)[];
  const curvePoints = methods.flatMap((m) =>
    (gold.learningCurve[m] ?? []).map((p) => ({
      method: methodNames[m] ?? m,
      n: p.n,
      accuracy: p.accuracy,
      lower: p.ci?.lower ?? null,
      upper: p.ci?.upper ?? null,
    })),
  );
  const allRaters = methods.map((m) => ({
    method: methodNames[m] ?? m,
    accuracy: gold.enoughRaters[m]?.allRaters ?? null,
    suggestedN: gold.enoughRaters[m]?.suggestedN ?? null,
  }));
  const maxN = Math.max(1, ...curvePoints.map((p) => p.n));
  return (
    <>
      <p>
        {formatCount(gold.goldItems)} gold items. An expert is flagged when the one-sample t-test of their
        differences from the known grades gives p &lt; 0.01
        {flagged.length
          ? `: ${flagged
              .map((e) => `${e.expert} (mean difference ${signed(e.meanDifference)}, p ${formatP(e.pValue)})`)
              .join(", ")}.`
          : "; nobody is flagged."}
      </p>
      <h3>Per expert</h3>
      <TableScroll label="Per expert">
        <ClientTable
          caption="Agreement with the gold items per expert"
          fileName="gold-per-expert.csv"
          data={experts}
          columns={[{ id: "expert", accessorKey: "expert", header: "Expert" }, ...agreementColumns()]}
        />
      </TableScroll>
      <h3>Per proposal</h3>
      <p className="muted">
        Each gold item's average vote against its known grade; the fewest judgements any item of the proposal
        has, and the pooled within-item variance of its grades.
      </p>
      <TableScroll label="Per proposal">
        <ClientTable
          caption="Agreement with the gold items per proposal"
          fileName="gold-per-proposal.csv"
          pageSize={10}
          data={proposals}
          columns={[
            { id: "proposal", accessorKey: "proposal", header: "Proposal" },
            {
              id: "items",
              accessorKey: "items",
              header: "Pairs graded",
              ...cellAs(formatCount),
            },
            {
              id: "minJudgements",
              accessorKey: "minJudgements",
              header: "Fewest judgements per pair",
              ...cellAs(formatCount),
            },
            {
              id: "pooledVariance",
              accessorKey: "pooledVariance",
              header: "Pooled variance",
              ...cellAs(formatNumber),
            },
            ...agreementColumns(),
          ]}
        />
      </TableScroll>
      <h3>Aggregation methods</h3>
      <TableScroll label="Accuracy of each aggregation against the gold items">
        <table aria-label="Accuracy of each aggregation against the gold items">
          <thead>
            <tr>
              <th>Method</th>
              <th className="num">Accuracy on gold</th>
              <th className="num">95% CI</th>
              <th className="num">Raters per pair suggested</th>
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr key={m}>
                <td>{methodNames[m] ?? m}</td>
                <td className="num">{formatRate(gold.aggregation[m]?.accuracy)}</td>
                <td className="num">{formatCi(gold.aggregation[m]?.ci, formatRate)}</td>
                <td className="num">{formatCount(gold.enoughRaters[m]?.suggestedN)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h3>How many experts are enough</h3>
      <Chart
        caption={`Accuracy against the gold items with n raters per pair (mean of 1,000 random draws, band: 95% of the draws), per aggregation method; dashed: the accuracy with every rater. Suggested: ${allRaters
          .map((a) => `${a.method} ${a.suggestedN === null ? "none" : `n = ${a.suggestedN}`}`)
          .join(", ")} (the fewest raters reaching 95% of the all-rater accuracy).`}
        deps={[gold]}
        build={(Plot) => ({
          title: "Learning curves: accuracy by raters per pair",
          // Room for "100%" beside the y axis.
          marginLeft: 52,
          x: {
            label: "Raters per pair (n)",
            ticks: Array.from({ length: maxN }, (_, i) => i + 1),
            tickFormat: (v: number) => formatCount(v),
          },
          y: {
            label: "Accuracy on gold items (higher is better)",
            domain: [0, 1],
            grid: true,
            tickFormat: (v: number) => formatRate(v),
          },
          color: { legend: true },
          marks: [
            Plot.areaY(curvePoints, {
              x: "n",
              y1: "lower",
              y2: "upper",
              fill: "method",
              fillOpacity: 0.12,
            }),
            Plot.lineY(curvePoints, {
              x: "n",
              y: "accuracy",
              stroke: "method",
              marker: "dot",
            }),
            Plot.ruleY(allRaters, {
              y: "accuracy",
              stroke: "method",
              strokeDasharray: "4 3",
            }),
          ],
        })}
      />
      <TableScroll label="Learning curves: accuracy by raters per pair">
        <table aria-label="Learning curves: accuracy by raters per pair">
          <thead>
            <tr>
              <th>Method</th>
              <th className="num">Raters per pair</th>
              <th className="num">Accuracy on gold</th>
              <th className="num">95% of draws</th>
            </tr>
          </thead>
          <tbody>
            {curvePoints.map((p) => (
              <tr key={`${p.method}-${p.n}`}>
                <td>{p.method}</td>
                <td className="num">{formatCount(p.n)}</td>
                <td className="num">{formatRate(p.accuracy)}</td>
                <td className="num">
                  {formatCi(
                    p.lower === null || p.upper === null ? null : { lower: p.lower, upper: p.upper },
                    formatRate,
                  )}
                </td>
              </tr>
            ))}
            {allRaters.map((a) => (
              <tr key={`${a.method}-all`}>
                <td>{a.method}</td>
                <td className="num">all</td>
                <td className="num">{formatRate(a.accuracy)}</td>
                <td className="num">suggested n: {formatCount(a.suggestedN)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
