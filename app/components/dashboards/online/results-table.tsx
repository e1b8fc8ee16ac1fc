import { useState } from "react";
import type { MetricDecision, TestOutcome } from "../../../../scripts/online/decide";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatLift, formatNumber, formatP, formatRate, verdict } from "~/utils/format";
import { directionText, metricDisplay } from "~/utils/metrics-display";
import { fmt } from "./labels";
import { VerdictLabel } from "../verdict";

export interface Decisions {
  analysis: { engine: "frequentist" | "bayesian"; cuped: boolean; prePeriodDays: number };
  prePeriod: { from: string; to: string } | null;
  cupedProblem: string | null;
  frequentist: MetricDecision[];
  bayesian: MetricDecision[];
}

type Engine = "frequentist" | "bayesian";

/**
 * GrowthBook's results table: metric, baseline, variation, relative change with its interval drawn as a
 * bar, and p (frequentist) or chance to win (Bayesian). The engine and CUPED toggles switch between
 * figures the loader already holds, so the unadjusted reading is one click away.
 */
export function ResultsTable({ decisions }: { decisions: Json<Decisions> }) {
  const [engine, setEngine] = useState<Engine>(decisions.analysis.engine);
  const hasCuped = decisions.prePeriod !== null;
  const [cuped, setCuped] = useState(hasCuped);
  const rows = decisions[engine] as Json<MetricDecision>[];
  const shown = (d: Json<MetricDecision>) => (cuped && d.cuped ? d.cuped.result : d.unadjusted).relative;
  const scale = Math.max(
    0.01,
    ...rows.flatMap((d) => {
      const o = shown(d);
      return o.kind === "none" ? [] : [Math.abs(o.ci[0]), Math.abs(o.ci[1])];
    }),
  );
  return (
    <section aria-label="Results">
      <h2>Results</h2>
      <div className="toolbar" role="group" aria-label="How the results are read">
        <label>
          Engine{" "}
          <select value={engine} onChange={(e) => setEngine(e.target.value as Engine)}>
            <option value="frequentist">Frequentist (p-value)</option>
            <option value="bayesian">Bayesian (chance to win)</option>
          </select>
        </label>{" "}
        <label>
          <input
            type="checkbox"
            checked={cuped}
            disabled={!hasCuped}
            onChange={(e) => setCuped(e.target.checked)}
          />{" "}
          CUPED
        </label>
      </div>
      <CupedNote decisions={decisions} cuped={cuped} />
      <TableScroll label="Results">
        <table aria-label="Results">
          <thead>
            <tr>
              <th>Metric</th>
              <th className="num">Baseline</th>
              <th className="num">Variation</th>
              <th>Change (95% {engine === "bayesian" ? "credible" : "confidence"} interval)</th>
              <th className="num">{engine === "bayesian" ? "Chance to win" : "p"}</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <ResultRow
                key={`${d.arm}-${d.metric}`}
                decision={d}
                outcome={shown(d)}
                scale={scale}
                cuped={cuped}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function CupedNote({ decisions, cuped }: { decisions: Json<Decisions>; cuped: boolean }) {
  if (decisions.cupedProblem)
    return <p className="notice">CUPED is on for this experiment but cannot run: {decisions.cupedProblem}</p>;
  if (!decisions.prePeriod)
    return (
      <p className="muted">CUPED is off for this experiment (an admin can turn it on in its settings).</p>
    );
  const from = decisions.prePeriod.from.slice(0, 10);
  const to = decisions.prePeriod.to.slice(0, 10);
  return (
    <p className="muted">
      {cuped
        ? `CUPED: each metric adjusted by the same metric of the same convener from ${from} to ${to} (${decisions.analysis.prePeriodDays} days before the start; conveners without sessions then count with 0).`
        : "Unadjusted figures (CUPED off)."}
    </p>
  );
}

function outcomeVerdict(o: Json<TestOutcome>, lowerIsBetter: boolean) {
  if (o.kind === "none") return "inconclusive" as const;
  return verdict(o.effect, { lower: o.ci[0], upper: o.ci[1] }, lowerIsBetter ? "lower" : "higher");
}

function ResultRow({
  decision: d,
  outcome: o,
  scale,
  cuped,
}: {
  decision: Json<MetricDecision>;
  outcome: Json<TestOutcome>;
  scale: number;
  cuped: boolean;
}) {
  const display = metricDisplay(d.metric);
  const v = outcomeVerdict(o, d.inverse);
  const narrowing = cuped && d.cuped ? d.cuped.intervalNarrowing : null;
  return (
    <tr>
      <td>
        {display.label}
        <div className="muted">
          {d.arm} vs {d.control}
          {d.inverse ? `, ${directionText("lower")}` : ""}
        </div>
      </td>
      <td className="num">{fmt(d.baseline, d.metric)}</td>
      <td className="num">{fmt(d.variation, d.metric)}</td>
      <td>
        {o.kind === "none" ? (
          <span className="muted">{o.reason}</span>
        ) : (
          <>
            <span className={`verdict verdict-${v}`}>{formatLift(o.effect)}</span>{" "}
            <span className="muted">{formatCi({ lower: o.ci[0], upper: o.ci[1] }, formatLift)}</span>
            <CiBar lower={o.ci[0]} upper={o.ci[1]} effect={o.effect} scale={scale} verdict={v} />
            {narrowing !== null && narrowing !== undefined ? (
              <div className="muted">
                {/* A covariate that predicts nothing can widen the interval a little: say so, not "narrowed by −". */}
                CUPED {narrowing < 0 ? "widened" : "narrowed"} the interval by{" "}
                {formatRate(Math.abs(narrowing))} (θ = {formatNumber(d.cuped!.theta)})
              </div>
            ) : null}
          </>
        )}
      </td>
      <td className="num">
        {o.kind === "bayesian" ? formatRate(o.chanceToWin) : o.kind === "none" ? "—" : formatP(o.pValue)}
      </td>
      <td>
        <VerdictLabel verdict={v} />
      </td>
    </tr>
  );
}

/** The interval as a bar on a scale symmetric around 0 (the line), the estimate as a tick. */
function CiBar(props: { lower: number; upper: number; effect: number; scale: number; verdict: string }) {
  const x = (value: number) => 50 + Math.max(-1, Math.min(1, value / props.scale)) * 50;
  return (
    <svg className="ci-bar" viewBox="0 0 100 10" width="160" height="12" role="img" aria-label="interval">
      <line x1="50" x2="50" y1="0" y2="10" stroke="currentColor" strokeWidth="0.6" />
      <rect
        className={`verdict-${props.verdict}`}
        x={x(props.lower)}
        width={Math.max(0.5, x(props.upper) - x(props.lower))}
        y="3"
        height="4"
        fill="currentColor"
        opacity="0.5"
      />
      <line x1={x(props.effect)} x2={x(props.effect)} y1="1" y2="9" stroke="currentColor" strokeWidth="1" />
    </svg>
  );
}
