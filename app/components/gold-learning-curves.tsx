import type { CampaignGold } from "~/data/campaigns.server";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { goldMethods, methodName } from "~/components/gold-aggregation";
import { formatCi, formatCount, formatP, formatPp, formatRate } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";
import { plottedSeries, seriesScale, type Series } from "~/utils/chart-series";
import { savingMarks, savingPlotMarks, savingSentence, type SavingCurve } from "~/components/saving-marks";

interface CurvePoint {
  method: string;
  n: number;
  accuracy: number;
  lower: number | null;
  upper: number | null;
}
interface AllRaters {
  method: string;
  accuracy: number | null;
  suggestedN: number | null;
}

/** The learning curves of every method, one point per number of raters, and each method's all-rater accuracy. */
function learningCurves(gold: Json<CampaignGold>) {
  const methods = goldMethods(gold);
  const curvePoints: CurvePoint[] = methods.flatMap((m) =>
    (gold.learningCurve[m] ?? []).map((p) => ({
      method: methodName(m),
      n: p.n,
      accuracy: p.accuracy,
      lower: p.ci?.lower ?? null,
      upper: p.ci?.upper ?? null,
    })),
  );
  const allRaters: AllRaters[] = methods.map((m) => ({
    method: methodName(m),
    accuracy: gold.enoughRaters[m]?.allRaters ?? null,
    suggestedN: gold.enoughRaters[m]?.suggestedN ?? null,
  }));
  return { curvePoints, allRaters };
}

/**
 * What the learning-curve chart draws: one solid line per method with a curve, the dashed all-rater
 * line of those methods (in the method's colour), and the legend entry that says what dashed means.
 */
export function learningCurveSeries(gold: Json<CampaignGold>) {
  const { curvePoints, allRaters } = learningCurves(gold);
  const methods = plottedSeries(curvePoints, (p) => p.method);
  const drawn = new Set(methods.map((m) => m.key));
  const rules = allRaters.filter((a) => drawn.has(a.method) && a.accuracy !== null);
  const dashed: Series[] = rules.length
    ? [{ key: "every rater", label: "dashed: with every rater", color: "#59636e", dash: "4 3" }]
    : [];
  return { curvePoints, allRaters, rules, series: [...methods, ...dashed] };
}

/**
 * Each method's curve with where it first reaches majority vote's accuracy with every rater (the grades
 * the campaign could have saved there); results kept before that was computed have no saving.
 */
export function savingCurves(gold: Json<CampaignGold>): SavingCurve[] {
  return goldMethods(gold).map((m) => ({
    method: methodName(m),
    points: gold.learningCurve[m] ?? [],
    saving: gold.gradesSaved?.[m] ?? null,
  }));
}

/** The frame of an accuracy-against-gold chart by n (raters or votes per pair), one colour per method. */
export function accuracyByN(maxN: number, xLabel: string, series: readonly Series[]) {
  return {
    // Room for "100%" beside the y axis.
    marginLeft: 52,
    x: {
      label: xLabel,
      ticks: Array.from({ length: maxN }, (_, i) => i + 1),
      tickFormat: (v: number) => formatCount(v),
    },
    y: {
      label: "Accuracy on gold items (higher is better)",
      domain: [0, 1],
      grid: true,
      tickFormat: (v: number) => formatRate(v),
    },
    color: seriesScale(series),
  };
}

/** "How many experts are enough": the learning curves as a chart and as a table. */
export function LearningCurves({ gold }: { gold: Json<CampaignGold> }) {
  const { curvePoints, allRaters, rules, series } = learningCurveSeries(gold);
  const maxN = Math.max(1, ...curvePoints.map((p) => p.n));
  const curves = savingCurves(gold);
  const marks = savingMarks(curves, maxN);
  const saved =
    gold.gradesSaved && gold.grades !== undefined
      ? ` Ringed: where a method first reaches majority vote's accuracy with every rater (its dashed line), labelled with the grades the campaign could have saved there, of ${formatCount(gold.grades)}: ${savingSentence(curves)}.`
      : "";
  return (
    <>
      <Chart
        legend={series}
        caption={`Accuracy against the gold items with n raters per pair (mean of 1,000 random draws, band: 95% of the draws), per aggregation method; dashed: the accuracy with every rater. Suggested: ${allRaters
          .map((a) => `${a.method} ${a.suggestedN === null ? "none" : `n = ${a.suggestedN}`}`)
          .join(", ")} (the fewest raters reaching 95% of the all-rater accuracy).${saved}`}
        deps={[gold]}
        build={(Plot, { width }) => ({
          title: "Learning curves: accuracy by raters per pair",
          ...accuracyByN(maxN, "Raters per pair (n)", series),
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
            Plot.ruleY(rules, {
              y: "accuracy",
              stroke: "method",
              strokeDasharray: "4 3",
            }),
            // Majority vote's dashed line is already among the rules: no second target line.
            ...savingPlotMarks(Plot, marks, null, width),
          ],
        })}
      />
      <CurveTable
        label="Learning curves: accuracy by raters per pair"
        nHeader="Raters per pair"
        rangeHeader="95% of draws"
        points={curvePoints}
        allRaters={allRaters}
      />
    </>
  );
}

/** A learning-curve point as the table shows it; the text-aware curves add the test against majority vote. */
export interface CurveRow {
  method: string;
  n: number;
  accuracy: number;
  lower: number | null;
  upper: number | null;
  difference?: number | null;
  /** Absent in results kept before it. */
  differenceCi?: { lower: number; upper: number } | null;
  pHolm?: number | null;
}

/**
 * The table beside a learning-curve chart (main and text-aware): one row per method and n, the band
 * as an interval; with `compared`, each point's difference from majority vote and its Holm-adjusted
 * p; with `allRaters`, a last row per method at every rater with its suggested n.
 */
export function CurveTable({
  label,
  nHeader,
  rangeHeader,
  points,
  compared = false,
  allRaters = [],
}: {
  label: string;
  nHeader: string;
  rangeHeader: string;
  points: readonly CurveRow[];
  compared?: boolean;
  allRaters?: readonly AllRaters[];
}) {
  return (
    <TableScroll label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            <th>Method</th>
            <th className="num">{nHeader}</th>
            <th className="num">Accuracy on gold</th>
            <th className="num">{rangeHeader}</th>
            {compared ? (
              <>
                <th className="num">− majority vote [95% t CI]</th>
                <th className="num">p (paired t, Holm)</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
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
              {compared ? (
                <>
                  <td className="num">
                    {p.difference == null ? "—" : formatPp(p.difference)}{" "}
                    {p.differenceCi ? formatCi(p.differenceCi, formatPp) : null}
                  </td>
                  <td className="num">{formatP(p.pHolm ?? null)}</td>
                </>
              ) : null}
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
  );
}
