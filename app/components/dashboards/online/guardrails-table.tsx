import type { GuardrailResult } from "../../../../scripts/online/guardrails";
import { guardrailMetrics } from "../../../../scripts/inputs/guardrails";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatCi, formatLift, formatNumber, formatRate } from "~/utils/format";

/** Shares read as percentages, the others (minutes, opens per adoption) as plain numbers. */
const isShare = (metric: GuardrailResult["metric"]) =>
  metric === "coiShare" || metric === "emptyCommitteeShare";

const stateClass = { ok: "better", "at risk": "inconclusive", failing: "worse" } as const;

/**
 * Each guardrail per treatment arm: the per-arm values, the relative change with its 95% interval, and
 * the state — failing when the interval lies wholly beyond the tolerated change in the harmful
 * direction, ok when it rules that out, at risk otherwise (scripts/online/guardrails.ts).
 */
export function GuardrailsTable({ guardrails }: { guardrails: Json<GuardrailResult>[] }) {
  if (guardrails.length === 0) return null;
  const failing = guardrails.filter((g) => g.state === "failing").length;
  return (
    <section aria-label="Guardrails">
      <h2>Guardrails</h2>
      <p className={failing > 0 ? "notice" : "muted"}>
        {failing > 0
          ? `${failing} guardrail ${failing === 1 ? "reading is" : "readings are"} failing: the change is beyond what the experiment tolerates.`
          : "No guardrail is failing. At risk means the interval does not yet rule out the tolerated harm."}
      </p>
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
                <td>
                  {"ci" in g ? (
                    <>
                      {formatLift(g.effect)}{" "}
                      <span className="muted">
                        {formatCi({ lower: g.ci[0], upper: g.ci[1] }, formatLift)}
                      </span>
                    </>
                  ) : (
                    <span className="muted">{g.reason}</span>
                  )}
                </td>
                <td>
                  <span className={`verdict verdict-${stateClass[g.state]}`}>{g.state}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function value(metric: GuardrailResult["metric"], v: number | null) {
  return isShare(metric) ? formatRate(v) : formatNumber(v);
}
