import type { CampaignGold } from "~/data/campaigns.server";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { accuracyByN, CurveTable } from "~/components/gold-learning-curves";
import { differenceText } from "~/components/gold-agreement-tables";
import { plottedSeries } from "~/utils/chart-series";
import { savingMarks, savingPlotMarks, savingSentence } from "~/components/saving-marks";
import { formatCount, formatNumber, formatP } from "~/utils/format";
import { idClass } from "~/utils/id-like";

type TextFigures = NonNullable<Json<CampaignGold>["texts"]>;

/**
 * "Items that read alike": the clustering hypothesis per proposal (TF-IDF similarity of the candidates'
 * profiles, relevant pairs against mixed pairs) and the learning curves of the text-aware estimates
 * against the gold items (scripts/judgement/text-report.ts). Analysts and admins only: the expert's
 * page never shows any of it.
 */
export function TextFigures({ texts }: { texts: TextFigures }) {
  return (
    <>
      <h3>Items that read alike</h3>
      <p className="hint">
        Similarity: TF-IDF cosine of the candidates&apos; public profiles (keywords and summary, as the
        experts saw them) within a proposal. Inner pairs are two relevant pairs (grade 3 or 4: the known grade
        where there is one, else the median); outer pairs one relevant and one not. A proposal is flagged when
        its inner mean is not above the outer: there, reading alike says nothing about being judged alike.
      </p>
      <ClusteringTable texts={texts} />
      <TextCurves texts={texts} />
    </>
  );
}

const meanSd = (s: { mean: number | null; sd: number | null; pairs: number }) =>
  `${formatNumber(s.mean)} ± ${formatNumber(s.sd)} (${formatCount(s.pairs)})`;

function ClusteringTable({ texts }: { texts: TextFigures }) {
  const label = "Clustering hypothesis per proposal";
  return (
    <TableScroll label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            <th>Proposal</th>
            <th className="num">Pairs (relevant)</th>
            <th className="num">Inner mean ± SD (pairs)</th>
            <th className="num">Outer mean ± SD (pairs)</th>
            <th className="num">Welch p</th>
            <th>Flag</th>
            <th className="num">Pooled grade variance</th>
            <th className="num">Grades per pair (fewest)</th>
            <th className="num">Mean vote − truth [95% CI] (p)</th>
          </tr>
        </thead>
        <tbody>
          {texts.clustering.map((c) => (
            <tr key={c.proposal}>
              <td className={idClass(c.proposal)}>{c.proposal}</td>
              <td className="num">
                {formatCount(c.items)} ({formatCount(c.relevant)})
              </td>
              <td className="num">{meanSd(c.inner)}</td>
              <td className="num">{meanSd(c.outer)}</td>
              <td className="num">{formatP(c.pValue)}</td>
              <td>{c.flagged ? "flagged" : ""}</td>
              <td className="num">{formatNumber(c.pooledVariance)}</td>
              <td className="num">
                {formatNumber(c.meanGrades)} ({formatCount(c.minGrades)})
              </td>
              <td className="num">
                {c.gold
                  ? `${differenceText({ meanDifference: c.truthDifference, meanDifferenceCi: c.truthDifferenceCi })} (p ${formatP(c.truthP)})`
                  : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function TextCurves({ texts }: { texts: TextFigures }) {
  const points = texts.curves.flatMap((c) =>
    c.points.map((p) => ({ method: c.method, ...p, lower: p.ci?.lower ?? null, upper: p.ci?.upper ?? null })),
  );
  const maxN = Math.max(1, ...points.map((p) => p.n));
  const series = plottedSeries(points, (p) => p.method);
  const ties = texts.majorityTies === "coin" ? "broken by a seeded coin" : "count as wrong";
  const marks = savingMarks(texts.curves, maxN);
  const target = texts.curves.find((c) => c.method === "majority")?.allVotes ?? null;
  return (
    <>
      <Chart
        legend={series}
        caption={`Accuracy against the gold items with n votes per pair (mean of random vote orders, band: 95% of them): majority vote and the text-aware estimates, each with s = ${texts.similarity} and with the adaptive s(n) = 1 − 1/(n − 1). Majority ties ${ties}. Dashed: majority vote's all-vote accuracy; ringed: where a method first reaches it, labelled with the grades the campaign could have saved there, of ${formatCount(texts.grades)}: ${savingSentence(texts.curves)}.`}
        deps={[texts]}
        build={(Plot, { width }) => ({
          title: "Text-aware estimates: accuracy by votes per pair",
          ...accuracyByN(maxN, "Votes per pair (n)", series),
          marks: [
            Plot.areaY(points, { x: "n", y1: "lower", y2: "upper", fill: "method", fillOpacity: 0.08 }),
            Plot.lineY(points, { x: "n", y: "accuracy", stroke: "method", marker: "dot" }),
            ...savingPlotMarks(Plot, marks, target, width),
          ],
        })}
      />
      <CurveTable
        label="Text-aware estimates: accuracy by votes per pair"
        nHeader="Votes per pair"
        rangeHeader="95% of orders"
        points={points}
        compared
      />
    </>
  );
}
