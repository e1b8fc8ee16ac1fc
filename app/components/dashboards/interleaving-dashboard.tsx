import type { InterleavingFigures } from "../../../scripts/interleaving/figures";
import type { InterleavingResult } from "../../../scripts/interleaving/results";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { formatCi, formatCount, formatP, formatRate, verdict, type Verdict } from "~/utils/format";
import { VerdictLabel } from "./verdict";
import { TableScroll } from "~/components/table-scroll";

const CREDITS = [
  { key: "click", label: "Click credit", noun: "clicks" },
  { key: "adopt", label: "Adoption credit", noun: "adoptions" },
] as const;

/** better / worse / inconclusive for the challenger: its win rate's 95% interval clear of 0.5, or not. */
export function winRateVerdict(r: Pick<Json<InterleavingResult>, "winRate" | "ci">): Verdict {
  if (r.winRate === null || !r.ci) return "inconclusive";
  return verdict(r.winRate - 0.5, { lower: r.ci[0] - 0.5, upper: r.ci[1] - 0.5 }, "higher");
}

const ci = (c: readonly number[] | null | undefined) =>
  formatCi(c ? { lower: c[0], upper: c[1] } : null, formatRate);

/** One sentence saying what the click credit (and the adoption credit beside it) lets the analyst conclude. */
export function interleavingVerdictSentence(
  figures: Json<InterleavingFigures>,
  control: string,
  challenger: string,
): string {
  const read = (r: Json<InterleavingResult>) => {
    const v = winRateVerdict(r);
    const figures = `win rate ${formatRate(r.winRate)}, 95% CI ${ci(r.ci)}, sign test p ${formatP(r.pValue).startsWith("<") ? "" : "= "}${formatP(r.pValue)}`;
    if (v === "better") return `conveners prefer ${challenger} to ${control} (${figures})`;
    if (v === "worse") return `conveners prefer ${control} to ${challenger} (${figures})`;
    return `no preference between ${challenger} and ${control} is established yet (${figures})`;
  };
  return `By click credit, ${read(figures.click)}; by adoption credit, ${read(figures.adopt)}.`;
}

/**
 * The results of an interleaving experiment: sessions, wins of each system, ties and sessions without
 * preference, the challenger's win rate with its bootstrap interval over conveners and the sign-test p,
 * by click and by adoption credit; the cumulative win rate day by day with its interval as a band.
 */
export function InterleavingDashboard({
  figures,
  control,
  challenger,
}: {
  figures: Json<InterleavingFigures>;
  control: string;
  challenger: string;
}) {
  return (
    <>
      <p className="notice" role="status" id="interleaving-verdict">
        {interleavingVerdictSentence(figures, control, challenger)}
      </p>
      <TableScroll label="Interleaving results">
        <table aria-label="Interleaving results">
          <thead>
            <tr>
              <th>Credit</th>
              <th className="num">Sessions</th>
              <th className="num">Wins of {control} (control)</th>
              <th className="num">Wins of {challenger}</th>
              <th className="num">Ties</th>
              <th className="num">No preference</th>
              <th className="num">Win rate of {challenger} (95% CI)</th>
              <th className="num">p (sign test)</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            {CREDITS.map(({ key, label }) => {
              const r = figures[key];
              return (
                <tr key={key} data-credit={key}>
                  <th scope="row">{label}</th>
                  <td className="num">{formatCount(r.sessions)}</td>
                  <td className="num">{formatCount(r.wins[control] ?? 0)}</td>
                  <td className="num">{formatCount(r.wins[challenger] ?? 0)}</td>
                  <td className="num">{formatCount(r.ties)}</td>
                  <td className="num">{formatCount(r.noPreference)}</td>
                  <td className="num">
                    {formatRate(r.winRate)}
                    <div className="muted">{ci(r.ci)}</div>
                  </td>
                  <td className="num">{formatP(r.pValue)}</td>
                  <td>
                    <VerdictLabel verdict={winRateVerdict(r)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        Win rate = (wins of {challenger} + ties / 2) / (wins + ties); sessions with no preference are counted
        but not in the rate. A win rate above 50% favours {challenger}. Interval: 95% percentile bootstrap
        over conveners; p: two-sided exact binomial test of {challenger}&apos;s wins among all wins (ties left
        out).
      </p>
      {figures.daily.length ? (
        <>
          <h2>Day by day</h2>
          <div className="side-by-side">
            {CREDITS.map(({ key, label, noun }) => (
              <div key={key}>
                <Chart
                  caption={`${challenger}'s win rate by ${noun} against ${control} as it stood at the end of each day (every session up to that day), with its 95% interval as a band; the line at 50% is no preference.`}
                  deps={[figures.daily]}
                  build={(Plot) => {
                    const points = figures.daily.map((d) => ({
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
                        {figures.daily.map((d) => (
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
            ))}
          </div>
        </>
      ) : null}
    </>
  );
}
