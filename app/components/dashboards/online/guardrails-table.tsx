import { guardrailStanding, type GuardrailResult } from "../../../../scripts/online/guardrails";
import type { ShareGuardrailResult } from "../../../../scripts/fairness/composition";
import { guardrailMetrics } from "../../../../scripts/inputs/guardrails";
import type { Json } from "~/utils/json-type";
import { Badge, type BadgeTone } from "~/components/badge";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatLift, formatNumber, formatRate } from "~/utils/format";

/** Shares read as percentages, the others (minutes, opens per adoption) as plain numbers. */
const isShare = (metric: GuardrailResult["metric"]) =>
  metric === "coiShare" || metric === "emptyCommitteeShare";

/** "At risk" needs attention as much as a to-do does: the risk tone, not the grey of "nothing to say". */
const stateTone: Record<GuardrailResult["state"], BadgeTone> = {
  ok: "ok",
  "at risk": "risk",
  failing: "failing",
};

/** A guardrail reading's state, as every guardrail table shows it. */
function StateCell({ state }: { state: GuardrailResult["state"] }) {
  return (
    <td>
      <Badge tone={stateTone[state]}>{state}</Badge>
    </td>
  );
}

/** A figure with its 95% interval, or why the guardrail has none (too few conveners, a hidden group). */
function IntervalCell({ reason, value, ci }: { reason?: string; value: string; ci: string }) {
  return (
    <td>
      {reason ? (
        <span className="muted">{reason}</span>
      ) : (
        <>
          {value} <span className="muted">{ci}</span>
        </>
      )}
    </td>
  );
}

/**
 * Each ratio guardrail per treatment arm: the per-arm values, the relative change with its 95% interval,
 * and the state — failing when the interval lies wholly beyond the tolerated change in the harmful
 * direction, ok when it rules that out, at risk otherwise (scripts/online/guardrails.ts).
 */
function RatioGuardrailsTable({ guardrails }: { guardrails: Json<GuardrailResult>[] }) {
  if (guardrails.length === 0) return null;
  return (
    <TableScroll label="Guardrails">
      <table aria-label="Guardrails">
        <thead>
          <tr>
            <th>Guardrail</th>
            <th>Must not</th>
            <th className="num">Control</th>
            <th className="num">Variation</th>
            <th>Change (95% interval)</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {guardrails.map((g) => (
            <tr key={`${g.arm}-${g.metric}`}>
              <td>
                {guardrailMetrics[g.metric]}
                <div className="muted">{g.arm} vs control</div>
              </td>
              <td>
                {g.direction === "increase" ? "rise" : "fall"} by more than {formatRate(g.tolerance)}
              </td>
              <td className="num">{value(g.metric, g.control)}</td>
              <td className="num">{value(g.metric, g.treatment)}</td>
              <IntervalCell
                reason={"reason" in g ? g.reason : undefined}
                value={"effect" in g ? formatLift(g.effect) : ""}
                ci={"ci" in g ? formatCi({ lower: g.ci[0], upper: g.ci[1] }, formatLift) : ""}
              />
              <StateCell state={g.state} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * Each share guardrail per treatment arm (or team): the group's share among the control's and the arm's
 * adopted candidates, the arm's 95% interval, and the state by where that interval lies against the bound.
 */
export function ShareGuardrailsTable({ guardrails }: { guardrails: Json<ShareGuardrailResult>[] }) {
  if (guardrails.length === 0) return null;
  // Its own heading and caption: right under the ratio table, a bare header row read as that table's second.
  return (
    <div className="guardrail-part">
      <h3>Share guardrails</h3>
      <p className="muted">The share of a group among each arm’s adopted candidates, against its bound.</p>
      <ShareGuardrailRows guardrails={guardrails} />
    </div>
  );
}

function ShareGuardrailRows({ guardrails }: { guardrails: Json<ShareGuardrailResult>[] }) {
  return (
    <TableScroll label="Share guardrails">
      <table aria-label="Share guardrails">
        <thead>
          <tr>
            <th>Guardrail</th>
            <th className="num">Control</th>
            <th>Variation (95% interval)</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {guardrails.map((g) => (
            <tr key={`${g.arm}-${g.attribute}-${g.value}-${g.min ?? ""}-${g.max ?? ""}`}>
              <td>
                share of {g.attribute} = {g.value} among adopted{" "}
                {g.min !== undefined ? `≥ ${formatRate(g.min)}` : `≤ ${formatRate(g.max)}`}
                <div className="muted">{g.arm}</div>
              </td>
              <td className="num">{formatRate(g.control)}</td>
              <IntervalCell
                reason={g.reason}
                value={formatRate(g.share?.value)}
                ci={formatCi(g.share?.ci, formatRate)}
              />
              <StateCell state={g.state} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * The experiment's guardrails, ratio and share, under one notice: "failing" counts every reading that
 * fails, by the same function as the experiment list's flag (guardrailStanding).
 */
export function GuardrailsTable({
  guardrails,
  shares = [],
}: {
  guardrails: Json<GuardrailResult>[];
  shares?: Json<ShareGuardrailResult>[];
}) {
  if (guardrails.length === 0 && shares.length === 0) return null;
  const { failing } = guardrailStanding([...guardrails, ...shares]);
  return (
    <section aria-label="Guardrails">
      <h2>Guardrails</h2>
      {/* A failing guardrail is bad news about the experiment: the error style, not an information box. */}
      <p className={failing > 0 ? "notice error" : "muted"}>
        {failing > 0
          ? `${failing} guardrail ${failing === 1 ? "reading is" : "readings are"} failing: the change is beyond what the experiment tolerates.`
          : "No guardrail is failing. At risk means the interval does not yet rule out the tolerated harm."}
      </p>
      {guardrails.length > 0 && shares.length > 0 ? <h3>Metric guardrails</h3> : null}
      <RatioGuardrailsTable guardrails={guardrails} />
      <ShareGuardrailsTable guardrails={shares} />
    </section>
  );
}

function value(metric: GuardrailResult["metric"], v: number | null) {
  return isShare(metric) ? formatRate(v) : formatNumber(v);
}
