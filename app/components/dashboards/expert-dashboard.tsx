import type { CampaignResults } from "../../../scripts/judgement/campaign-results";
import type { AgreementReport } from "../../../scripts/judgement/agreement";
import type { Json } from "~/utils/json-type";
import { resultRows } from "../../../scripts/results/rows";
import { Chart } from "~/components/chart";
import { AllFiguresTable } from "~/components/all-figures-table";
import {
  ComparisonSentence,
  LearningCurveTable,
  SubjectNdcgTable,
  SystemResultsTable,
} from "~/components/campaign-tables";

import { formatCi, formatCount, formatNumber } from "~/utils/format";

const num = formatNumber;
const three = (v: unknown) => formatNumber(v as number | null);

/** nDCG@K per system and K with its interval: the chart's points and its data table. */
function ndcgPoints(results: Json<CampaignResults>) {
  return results.systems.flatMap((s) =>
    results.ks.map((k) => ({
      system: s.key,
      k,
      value: s.overall.measures[`nDCG@${k}`].value,
      lower: s.overall.measures[`nDCG@${k}`].ci?.lower,
      upper: s.overall.measures[`nDCG@${k}`].ci?.upper,
    })),
  );
}

/**
 * The tier-2 dashboard drawn from a campaign's results: the live page passes what it computed
 * (with the learning curve), an opened snapshot the stored results and agreement.
 */
export function ExpertDashboard({
  results,
  agreement,
  curve,
}: {
  results: Json<CampaignResults>;
  agreement: Json<AgreementReport> | null;
  curve?: { raters: number; labelAgreement: number; kendallTau: number | null }[];
}) {
  return (
    <>
      <SystemResultsTable results={results} label="nDCG by system" />
      <div className="side-by-side">
        <Chart
          title="nDCG@K with 95% CI"
          caption="nDCG@K per system with its 95% interval as a band, on the experts' aggregated labels."
          deps={[results]}
          table={{
            columns: [
              { key: "system", label: "System" },
              { key: "k", label: "K" },
              { key: "value", label: "nDCG@K", format: three },
              { key: "lower", label: "95% CI lower", format: three },
              { key: "upper", label: "95% CI upper", format: three },
            ],
            rows: ndcgPoints(results),
          }}
          build={(Plot) => {
            const points = ndcgPoints(results);
            return {
              x: { label: "K" },
              y: { label: "nDCG@K (higher is better)", domain: [0, 1], grid: true },
              color: { legend: true },
              marks: [
                Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }),
                Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" }),
              ],
            };
          }}
        />
        {agreement ? (
          <Chart
            title="Agreement per expert"
            table={{
              columns: [
                { key: "rater", label: "Expert" },
                { key: "alpha", label: "α without this expert", format: three },
              ],
              rows: agreement.leaveOneOut,
            }}
            caption={`Agreement without each expert (leave-one-out α); the line is α with everyone, ${num(agreement.alpha)}. An expert whose removal raises α disagrees most with the others.`}
            deps={[agreement]}
            build={(Plot) => ({
              marginLeft: 120,
              x: { label: "Krippendorff's α without this expert", domain: [0, 1], grid: true },
              y: { label: null },
              marks: [
                Plot.barX(agreement.leaveOneOut, { y: "rater", x: "alpha", fill: "#0b5cad" }),
                Plot.ruleX([agreement.alpha ?? 0], { stroke: "#b42318", strokeDasharray: "4 3" }),
              ],
            })}
          />
        ) : null}
      </div>
      {agreement ? (
        <p>
          Krippendorff's α (ordinal) = {num(agreement.alpha)}, 95% CI {formatCi(agreement.ci, formatNumber)};{" "}
          {formatCount(agreement.items)} pairs, {formatCount(agreement.raters)} experts.
        </p>
      ) : null}
      <ComparisonSentence results={results} />
      <h2>By subject (nDCG@10)</h2>
      <SubjectNdcgTable results={results} />
      {curve ? (
        <>
          <h2>Label learning curve</h2>
          <LearningCurveTable curve={curve} />
        </>
      ) : null}
      <h2>Every figure</h2>
      <AllFiguresTable
        rows={resultRows("expert", { results })}
        caption="Every expert figure"
        fileName="expert-figures.csv"
      />
    </>
  );
}
