import type { CampaignResults } from "../../../../scripts/judgement/campaign-results";
import type { Json } from "~/utils/json-type";
import { plottedSeries, seriesScale } from "~/utils/chart-series";
import { Chart } from "~/components/chart";
import { formatNumber } from "~/utils/format";

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

/** nDCG@K against K per system on the experts' labels, its interval as a band. */
export function NdcgChart({ results }: { results: Json<CampaignResults> }) {
  const points = ndcgPoints(results);
  const series = plottedSeries(points, (p) => p.system, { hasValue: (p) => p.value != null });
  return (
    <Chart
      legend={series}
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
        return {
          x: { label: "K" },
          y: { label: "nDCG@K (higher is better)", domain: [0, 1], grid: true },
          color: seriesScale(series),
          marks: [
            Plot.areaY(points, { x: "k", y1: "lower", y2: "upper", fill: "system", fillOpacity: 0.15 }),
            Plot.lineY(points, { x: "k", y: "value", stroke: "system", marker: "dot" }),
          ],
        };
      }}
    />
  );
}
