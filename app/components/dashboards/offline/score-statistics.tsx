import { useState } from "react";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { formatCount, formatNumber } from "~/utils/format";
import { cellAs, type System } from "./cells";

/** A system that gave scores, with its statistics. */
type Scored = { s: System; stats: Extract<System["scoreStats"], { scored: true }> };

/** The scores each system gave: a table over systems and subjects, and the charts of one chosen system. */
export function ScoreStatistics({ systems }: { systems: System[] }) {
  const scored = systems.flatMap((s) => (s.scoreStats.scored ? [{ s, stats: s.scoreStats }] : []));
  const unscored = systems.filter((s) => !s.scoreStats.scored);
  const depth = systems[0].scoreStats.depth;
  // Each system scores on its own scale, so the charts show one system at a time.
  const [chosen, setChosen] = useState(0);
  const shown = scored[Math.min(chosen, scored.length - 1)];
  return (
    <>
      <h2>Scores</h2>
      <p className="muted">
        The scores each system gave at ranks 1 to {depth} (the deepest K), overall and per subject. Quartiles
        interpolate linearly between order statistics (type 7, as numpy and R); SD is the sample standard
        deviation. Scores are each system's own scale: compare ranks and subjects within a system, not systems
        with each other.
      </p>
      {unscored.length > 0 && (
        <p>
          {unscored.map((s) => s.name).join(", ")}: no scores in the lists, so no score statistics or bands.
        </p>
      )}
      {scored.length > 0 && (
        <>
          <ScoreStatisticsTable scored={scored} />
          <ScoredSystemPicker
            scored={scored}
            chosen={Math.min(chosen, scored.length - 1)}
            onChoose={setChosen}
          />
          <ScoreCharts shown={shown} depth={depth} />
        </>
      )}
    </>
  );
}

const STATISTIC_HEADERS = {
  mean: "Mean",
  sd: "SD",
  min: "Min",
  q1: "Q1",
  median: "Median",
  q3: "Q3",
  max: "Max",
} as const;

/** Count, mean, SD and quartiles of the scores per system, overall and per subject. */
function ScoreStatisticsTable({ scored }: { scored: Scored[] }) {
  return (
    <ClientTable
      caption="Score statistics by system and subject"
      fileName="offline-scores.csv"
      groupable={["system", "group"]}
      pageSize={12}
      data={scored.flatMap(({ s, stats }) =>
        [["overall", stats.overall] as const, ...Object.entries(stats.subjects)].map(([group, g]) => ({
          system: s.name,
          group,
          count: g.count,
          mean: g.mean,
          sd: g.sd,
          min: g.min,
          q1: g.q1,
          median: g.median,
          q3: g.q3,
          max: g.max,
        })),
      )}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "group", accessorKey: "group", header: "Subject" },
        { id: "count", accessorKey: "count", header: "Scores", ...cellAs(formatCount) },
        ...(["mean", "sd", "min", "q1", "median", "q3", "max"] as const).map((id) => ({
          id,
          accessorKey: id,
          header: STATISTIC_HEADERS[id],
          ...cellAs(formatNumber),
        })),
      ]}
    />
  );
}

/** The select that chooses which system the score charts draw. */
function ScoredSystemPicker({
  scored,
  chosen,
  onChoose,
}: {
  scored: Scored[];
  chosen: number;
  onChoose: (index: number) => void;
}) {
  return (
    <div className="toolbar">
      <div>
        <label htmlFor="score-system">System shown in the score charts</label>
        <select id="score-system" value={chosen} onChange={(e) => onChoose(Number(e.target.value))}>
          {scored.map(({ s }, i) => (
            <option key={s.key} value={i}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The chosen system's mean score by rank and its score histogram. */
function ScoreCharts({ shown, depth }: { shown: Scored; depth: number }) {
  return (
    <div className="side-by-side">
      <Chart
        caption={`Mean score of ${shown.s.name} at each rank from 1 to ${depth}: how fast its scores fall down the list.`}
        deps={[shown]}
        build={(Plot) => ({
          title: `Mean score by rank: ${shown.s.name}`,
          x: { label: "rank" },
          y: { label: "mean score", grid: true },
          marks: [
            Plot.lineY(
              shown.stats.overall.meanByRank.map((mean, r) => ({ rank: r + 1, mean })),
              { x: "rank", y: "mean", marker: "dot" },
            ),
          ],
        })}
      />
      <Chart
        caption={`Histogram of the scores ${shown.s.name} gave at ranks 1 to ${depth}, in ten equal-width bins.`}
        deps={[shown]}
        build={(Plot) => ({
          title: `Score histogram: ${shown.s.name}`,
          x: { label: "score" },
          y: { label: "list items", grid: true },
          marks: [
            Plot.rectY(shown.stats.overall.histogram, {
              x1: "lower",
              x2: "upper",
              y: "count",
              inset: 0.5,
            }),
            Plot.ruleY([0]),
          ],
        })}
      />
    </div>
  );
}
