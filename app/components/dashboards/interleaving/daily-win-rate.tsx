import type { InterleavingFigures } from "../../../../scripts/interleaving/figures";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { TableScroll } from "~/components/table-scroll";
import { formatCount, formatRate } from "~/utils/format";
import { ci, type CREDITS } from "./verdict";

type Credit = (typeof CREDITS)[number];
type Daily = Json<InterleavingFigures>["daily"];

/** The challenger's cumulative win rate by one credit, day by day: a chart, and its table folded away. */
export function DailyWinRate({
  daily,
  credit,
  control,
  challenger,
}: {
  daily: Daily;
  credit: Credit;
  control: string;
  challenger: string;
}) {
  const { key, label } = credit;
  return (
    <div>
      <DailyWinRateChart daily={daily} credit={credit} control={control} challenger={challenger} />
      <details>
        <summary>Data table: {label.toLowerCase()} by day</summary>
        <TableScroll label={`Cumulative win rate by day, ${label.toLowerCase()}`}>
          <table aria-label={`Cumulative win rate by day, ${label.toLowerCase()}`}>
            <thead>
              <tr>
                <th>Day</th>
                <th className="num">Sessions</th>
                <th className="num">Win rate</th>
                <th className="num">95% CI</th>
              </tr>
            </thead>
            <tbody>
              {daily.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{d.day}</th>
                  <td className="num">{formatCount(d.sessions)}</td>
                  <td className="num">{formatRate(d[key].winRate)}</td>
                  <td className="num">{ci(d[key].ci)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </div>
  );
}

function DailyWinRateChart({
  daily,
  credit: { key, label, noun },
  control,
  challenger,
}: {
  daily: Daily;
  credit: Credit;
  control: string;
  challenger: string;
}) {
  return (
    <Chart
      caption={`${challenger}'s win rate by ${noun} against ${control} as it stood at the end of each day (every session up to that day), with its 95% interval as a band; the line at 50% is no preference.`}
      deps={[daily]}
      build={(Plot) => {
        const points = daily.map((d) => ({
          day: new Date(d.day),
          rate: d[key].winRate,
          lower: d[key].ci?.[0],
          upper: d[key].ci?.[1],
        }));
        return {
          title: `Cumulative win rate of ${challenger}, ${label.toLowerCase()}`,
          x: { label: "day", type: "utc" },
          y: {
            label: `win rate of ${challenger} (higher favours ${challenger})`,
            tickFormat: "%",
            domain: [0, 1],
            grid: true,
          },
          marks: [
            Plot.areaY(points, {
              x: "day",
              y1: "lower",
              y2: "upper",
              fill: "#2563eb",
              fillOpacity: 0.15,
            }),
            Plot.ruleY([0.5], { strokeDasharray: "4,3" }),
            Plot.lineY(points, { x: "day", y: "rate", stroke: "#2563eb", marker: "dot" }),
          ],
        };
      }}
    />
  );
}
