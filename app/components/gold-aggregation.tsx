import type { CampaignGold } from "~/data/campaigns.server";
import type { Json } from "~/utils/json-type";
import { formatCi, formatCount, formatRate } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";

/** An aggregation method of the gold figures (median, majority, mean, Dawid–Skene). */
export type GoldMethod = keyof Json<CampaignGold>["aggregation"];

/** How the page names each aggregation method. */
const methodNames: Record<string, string> = {
  median: "Median",
  majority: "Majority vote",
  mean: "Mean (rounded)",
  "dawid-skene": "Dawid–Skene",
};
export const methodName = (m: string) => methodNames[m] ?? m;

/** The methods the gold figures hold, in their order. */
export const goldMethods = (gold: Json<CampaignGold>) => Object.keys(gold.aggregation) as GoldMethod[];

/** Each aggregation method's accuracy on the gold items, with its CI and the raters per pair suggested. */
export function AggregationAccuracyTable({ gold }: { gold: Json<CampaignGold> }) {
  return (
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
          {goldMethods(gold).map((m) => (
            <tr key={m}>
              <td>{methodName(m)}</td>
              <td className="num">{formatRate(gold.aggregation[m]?.accuracy)}</td>
              <td className="num">{formatCi(gold.aggregation[m]?.ci, formatRate)}</td>
              <td className="num">{formatCount(gold.enoughRaters[m]?.suggestedN)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
