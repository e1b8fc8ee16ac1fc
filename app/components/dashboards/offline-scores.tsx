import { useState } from "react";
import type { OfflineReport } from "../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatRate } from "~/utils/format";

type System = Json<OfflineReport>["systems"][number];

/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});
const bandLabel = (lower: number | null, upper: number | null) =>
  lower === null
    ? `below ${formatNumber(upper)}`
    : upper === null
      ? `${formatNumber(lower)} and above`
      : `${formatNumber(lower)} to ${formatNumber(upper)}`;

/**
 * The score statistics, score bands (reliability diagram) and diversity-and-exposure sections of the
 * offline report (definitions: scripts/offline/score-stats.ts, score-bands.ts, exposure.ts).
 */
export function OfflineScoreSections({ report }: { report: Json<OfflineReport> }) {
  const systems = report.systems.filter((s) => s.scoreStats && s.exposure);
  if (systems.length === 0) return null;
  return (
    <>
      <ScoreStatistics systems={systems} />
      <ScoreBandsSection systems={systems} />
      <Exposure systems={systems} />
    </>
  );
}

function ScoreStatistics({ systems }: { systems: System[] }) {
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
                header: {
                  mean: "Mean",
                  sd: "SD",
                  min: "Min",
                  q1: "Q1",
                  median: "Median",
                  q3: "Q3",
                  max: "Max",
                }[id],
                ...cellAs(formatNumber),
              })),
            ]}
          />
          <div className="toolbar">
            <div>
              <label htmlFor="score-system">System shown in the score charts</label>
              <select
                id="score-system"
                value={Math.min(chosen, scored.length - 1)}
                onChange={(e) => setChosen(Number(e.target.value))}
              >
                {scored.map(({ s }, i) => (
                  <option key={s.key} value={i}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
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
        </>
      )}
    </>
  );
}

function ScoreBandsSection({ systems }: { systems: System[] }) {
  const banded = systems.flatMap((s) => (s.scoreBands ? [{ s, bands: s.scoreBands }] : []));
  if (banded.length === 0) return null;
  const rows = banded.flatMap(({ s, bands }) =>
    bands.bands.map((b, i) => ({
      system: s.name,
      // 1 = the lowest band: systems score on different scales, so the chart places bands by order.
      band: bands.bands.length - i,
      range: bandLabel(b.lower, b.upper),
      candidates: b.candidates,
      members: b.members,
      share: b.share,
      lower: b.ci?.lower ?? null,
      upper: b.ci?.upper ?? null,
      meanScore: b.meanScore,
    })),
  );
  const given = banded[0].bands.method === "given";
  return (
    <>
      <h2>Score bands</h2>
      <p className="muted">
        Every candidate of every evaluated list, grouped by score into{" "}
        {given ? "the bands given to the report" : "the deciles of the system's scores"}: the share who sat on
        the proposal's committee. A share that rises with the score means a higher score is a likelier
        committee member. Intervals are Wilson 95% score intervals, which treat candidates as independent
        (candidates of one list are not), so read them as the least uncertainty there is.
      </p>
      <Chart
        caption="Reliability diagram: in each score band, from the lowest scores (1) to the highest, the share of candidates who were committee members, per system, with Wilson 95% intervals."
        deps={[rows]}
        build={(Plot) => ({
          title: "Committee share by score band",
          x: { label: "score band (1 = lowest scores)", ticks: [...new Set(rows.map((r) => r.band))] },
          y: { label: "share that are committee members", tickFormat: "%", grid: true },
          color: { legend: true },
          marks: [
            Plot.ruleX(rows, { x: "band", y1: "lower", y2: "upper", stroke: "system", strokeOpacity: 0.5 }),
            Plot.lineY(rows, { x: "band", y: "share", stroke: "system", marker: "dot" }),
            Plot.ruleY([0]),
          ],
        })}
      />
      <ClientTable
        caption="Score bands"
        fileName="offline-score-bands.csv"
        groupable={["system"]}
        pageSize={10}
        data={rows}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "band", accessorKey: "band", header: "Band" },
          { id: "range", accessorKey: "range", header: "Scores" },
          { id: "candidates", accessorKey: "candidates", header: "Candidates", ...cellAs(formatCount) },
          { id: "members", accessorKey: "members", header: "Committee members", ...cellAs(formatCount) },
          { id: "share", accessorKey: "share", header: "Share", ...cellAs(formatRate) },
          {
            id: "ci",
            accessorFn: (r) => r.lower,
            header: "Wilson 95% CI",
            cell: (c) =>
              formatCi(
                c.row.original.lower === null
                  ? null
                  : { lower: c.row.original.lower, upper: c.row.original.upper! },
                formatRate,
              ),
            aggregatedCell: () => null,
          },
          { id: "meanScore", accessorKey: "meanScore", header: "Mean score", ...cellAs(formatNumber) },
        ]}
      />
    </>
  );
}

function Exposure({ systems }: { systems: System[] }) {
  const headShare = systems[0].exposure.headShare;
  const rows = systems.flatMap((s) =>
    [["overall", s.exposure.overall] as const, ...Object.entries(s.exposure.subjects)].flatMap(([group, g]) =>
      g.byK.map((x) => ({
        system: s.name,
        group,
        k: x.k,
        proposals: g.proposals,
        predictionCoverage: g.predictionCoverage,
        longTailShare: x.longTailShare,
        gini: x.gini,
        subjectEntropy: x.subjectEntropy,
        otherSubjectShare: x.otherSubjectShare,
        unknownSubjectShare: x.unknownSubjectShare,
      })),
    ),
  );
  return (
    <>
      <h2>Diversity and exposure</h2>
      <p className="muted">
        Beside Coverage@K. Prediction coverage: proposals with a non-empty list. Long-tail share@K: top-K
        places given to candidates outside the {formatRate(headShare)} of the catalog the system recommends
        most (Abdollahpouri et al.). Gini: how unequally top-K places spread over the whole catalog (0 equal,
        near 1 a few take all). Subject entropy (bits): the mix of subjects in each top K, averaged over
        proposals; a candidate's subject is the one of most of the committees they sat on.
      </p>
      <ClientTable
        caption="Diversity and exposure by system, subject and K"
        fileName="offline-exposure.csv"
        groupable={["system", "group", "k"]}
        pageSize={15}
        data={rows}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "group", accessorKey: "group", header: "Subject" },
          { id: "k", accessorKey: "k", header: "K" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
          {
            id: "predictionCoverage",
            accessorKey: "predictionCoverage",
            header: "Prediction coverage",
            ...cellAs(formatRate),
          },
          {
            id: "longTailShare",
            accessorKey: "longTailShare",
            header: "Long-tail share@K",
            ...cellAs(formatRate),
          },
          { id: "gini", accessorKey: "gini", header: "Gini of exposure", ...cellAs(formatNumber) },
          {
            id: "subjectEntropy",
            accessorKey: "subjectEntropy",
            header: "Subject entropy (bits)",
            ...cellAs(formatNumber),
          },
          {
            id: "otherSubjectShare",
            accessorKey: "otherSubjectShare",
            header: "Other-subject share",
            ...cellAs(formatRate),
          },
          {
            id: "unknownSubjectShare",
            accessorKey: "unknownSubjectShare",
            header: "No subject",
            ...cellAs(formatRate),
          },
        ]}
      />
      <Chart
        caption="Long-tail share and Gini of exposure against the depth K, per system (overall): more long tail and a lower Gini spread the work over more people."
        deps={[rows]}
        build={(Plot) => {
          const overall = rows.filter((r) => r.group === "overall");
          const points = overall.flatMap((r) => [
            { system: r.system, k: r.k, measure: "Long-tail share@K", value: r.longTailShare },
            { system: r.system, k: r.k, measure: "Gini of exposure", value: r.gini },
          ]);
          return {
            title: "Exposure against K",
            height: 260,
            fx: { label: null },
            x: { label: "K (candidates shown)" },
            y: { label: "value", domain: [0, 1], grid: true },
            color: { legend: true },
            marks: [
              Plot.frame({ strokeOpacity: 0.2 }),
              Plot.lineY(points, { fx: "measure", x: "k", y: "value", stroke: "system", marker: "dot" }),
            ],
          };
        }}
      />
    </>
  );
}
