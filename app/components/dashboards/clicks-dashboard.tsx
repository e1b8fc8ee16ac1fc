import type { ExperimentClicksResult } from "../../../scripts/clicks/experiment-report";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { formatCount, formatNumber, formatValue } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import { TableScroll } from "~/components/table-scroll";

/** The model table's columns, in the reference table's order; labels and units from the one registry. */
const MODEL_COLUMNS = [
  "logLikelihood",
  "perplexity",
  "ctrPredictionRmse",
  "relevanceAuc",
  "rankingNdcg5",
  "trainSeconds",
] as const;
const fmt = (v: number | null | undefined, code: string) => formatValue(v, metricDisplay(code).kind);
const label = (code: string) => metricDisplay(code).label;

/**
 * An experiment's click models, drawn from `experimentClicks`'s result: the live page passes the result
 * it just computed, an opened `clicks` snapshot the stored one. Headings start at h2.
 */
export function ClicksDashboard({ result }: { result: Json<ExperimentClicksResult> }) {
  const { fit, settings } = result;
  if (!fit) {
    return (
      <div className="empty">
        Too few convener sessions to fit click models: {formatCount(result.sessions)} so far; the models need
        at least {formatCount(result.minSessions)} (a quarter is held out to test them).
      </div>
    );
  }
  const ranks = fit.examination.map((e) => e.rank);
  const depths = fit.displayDepth.filter((d) => d.depth !== null);
  return (
    <>
      <p className="muted">
        {formatCount(result.sessions)} sessions: {formatCount(fit.train)} to fit, {formatCount(fit.test)} to
        test (seed “{settings.seed}”, {formatValue(settings.testShare, "rate")} held out
        {fit.dropped
          ? `; ${formatCount(fit.dropped)} test sessions dropped, their proposal never shown in training`
          : ""}
        ). Textbook EM, {settings.iterations} iterations, ranks 1–{settings.maxRank} of each session’s first
        impression.{" "}
        {fit.labels
          ? `Relevance labels: the historical committees of ${formatCount(fit.labels.proposals)} proposals (members relevant, other candidates shown not).`
          : "No relevance labels: no proposal shown has a historical committee."}
      </p>
      <h2>Models</h2>
      <TableScroll label="Click models on held-out sessions">
        <table aria-label="Click models on held-out sessions">
          <thead>
            <tr>
              <th>Model</th>
              {MODEL_COLUMNS.map((c) => (
                <th key={c} className="num" title={metricDisplay(c).description}>
                  {label(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {fit.models.map((m) => (
              <tr key={m.name}>
                <th scope="row">{m.name}</th>
                {MODEL_COLUMNS.map((c) => (
                  <td key={c} className="num">
                    {fmt(m[c], c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        Higher log-likelihood and lower perplexity fit the held-out clicks better; a dash is a measure without
        labels.
      </p>

      <h2>Fit at each rank</h2>
      <Chart
        caption={`Perplexity of each model's click predictions at ranks 1 to ${settings.maxRank} on the held-out sessions; lower is better.`}
        deps={[fit]}
        build={(Plot) => {
          const points = fit.models.flatMap((m) =>
            m.perplexityByRank.map((p, i) => ({ model: m.name, rank: i + 1, perplexity: p })),
          );
          return {
            title: "Perplexity by rank",
            x: { label: "rank", ticks: ranks },
            y: { label: "perplexity (lower is better)", grid: true },
            color: { legend: true },
            marks: [
              Plot.lineY(points, { x: "rank", y: "perplexity", stroke: "model" }),
              Plot.dot(points, { x: "rank", y: "perplexity", stroke: "model", r: 2 }),
            ],
          };
        }}
      />
      <TableScroll label="Perplexity by rank">
        <table aria-label="Perplexity by rank">
          <thead>
            <tr>
              <th>Model</th>
              {ranks.map((r) => (
                <th key={r} className="num">
                  Rank {r}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {fit.models.map((m) => (
              <tr key={m.name}>
                <th scope="row">{m.name}</th>
                {m.perplexityByRank.map((p, i) => (
                  <td key={i} className="num">
                    {formatNumber(p)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      <h2>How far down conveners look</h2>
      <Chart
        caption={`PBM's probability that a convener looks at each rank, relative to rank 1 (black line)${depths.length ? `, with each arm's suggested display depth (K_hit's 90th percentile) as a dashed line: ${depths.map((d) => `${d.arm} ${formatCount(d.depth)}`).join(", ")}` : ""}.`}
        deps={[fit]}
        build={(Plot) => {
          const right = Math.max(settings.maxRank, ...depths.map((d) => d.depth!));
          return {
            title: "Examination by rank (PBM)",
            x: { label: "rank", domain: [1, right], ticks: Math.min(right, 20) },
            y: {
              label: "probability of looking (rank 1 = 100%)",
              domain: [0, 1],
              tickFormat: "%",
              grid: true,
            },
            color: { legend: depths.length > 0 },
            marks: [
              Plot.lineY(fit.examination, { x: "rank", y: "relative", stroke: "#1f2328" }),
              Plot.dot(fit.examination, { x: "rank", y: "relative", fill: "#1f2328", r: 3 }),
              Plot.ruleX(depths, { x: "depth", stroke: "arm", strokeDasharray: "4 3" }),
              Plot.text(depths, {
                x: "depth",
                y: 1,
                text: (d: { arm: string; depth: number }) => `${d.arm}: ${formatCount(d.depth)}`,
                dy: -6,
                fill: "arm",
              }),
            ],
          };
        }}
      />
      <details>
        <summary>Show the examination curve as a table</summary>
        <TableScroll label="Examination by rank">
          <table aria-label="Examination by rank">
            <thead>
              <tr>
                <th className="num">Rank</th>
                <th className="num">Examination (rank 1 = 100%)</th>
                <th className="num">PBM’s γ as fitted</th>
              </tr>
            </thead>
            <tbody>
              {fit.examination.map((e) => (
                <tr key={e.rank}>
                  <td className="num">{formatCount(e.rank)}</td>
                  <td className="num">{fmt(e.relative, "examination")}</td>
                  <td className="num">{formatNumber(e.fitted)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
      <p className="muted">
        PBM fits click = attractiveness × examination, which fixes examination only up to a common factor; the
        curve takes rank 1 as always looked at. Suggested display depth:{" "}
        {fit.displayDepth
          .map(
            (d) =>
              `${d.arm} (${d.system}) ${d.depth === null ? "— (no lists with committees)" : formatCount(d.depth)}`,
          )
          .join("; ")}
        .
      </p>

      <h2>CTR corrected for position</h2>
      <TableScroll label="CTR per arm, raw and corrected for position bias">
        <table aria-label="CTR per arm, raw and corrected for position bias">
          <thead>
            <tr>
              <th>Arm</th>
              <th>System</th>
              <th className="num">Sessions</th>
              <th className="num">Shown</th>
              <th className="num">Clicks</th>
              <th className="num" title={metricDisplay("ctrTop10").description}>
                {label("ctrTop10")}
              </th>
              <th className="num" title={metricDisplay("correctedCtr").description}>
                {label("correctedCtr")}
              </th>
            </tr>
          </thead>
          <tbody>
            {fit.arms.map((a) => (
              <tr key={a.arm}>
                <th scope="row">{a.arm}</th>
                <td>{fit.displayDepth.find((d) => d.arm === a.arm)?.system ?? "—"}</td>
                <td className="num">{formatCount(a.sessions)}</td>
                <td className="num">{formatCount(a.shown)}</td>
                <td className="num">{formatCount(a.clicks)}</td>
                <td className="num">{fmt(a.ctr, "ctrTop10")}</td>
                <td className="num">{fmt(a.correctedCtr, "correctedCtr")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        Each click counts 1 / examination at its rank (inverse propensity weighting): the CTR had every result
        been looked at as often as rank 1. Both columns count the first {settings.maxRank} results of each
        session’s first impression, so the raw CTR can differ from the experiment page’s, which counts every
        candidate shown.
      </p>
    </>
  );
}
