import { Form } from "@remix-run/react";
import type { AfterLaunch, PowerAnswer, PowerQuery } from "~/utils/power.server";
import type { PowerHistory } from "../../scripts/online/power-history";
import type { Json } from "~/utils/json-type";
import { formatCount, formatNumber, formatPp, formatRate } from "~/utils/format";

const from = (source: string) =>
  source === "history" ? " (from the history)" : source === "default" ? " (default)" : "";

/**
 * "Power before launch" beside the experiment form: a GET form (nothing is stored) that sizes an A/B
 * test (conveners and sessions per arm, with the design effect of several sessions per convener) or
 * an interleaving experiment (sessions with a preference), as `assay power` does.
 */
export function PowerPanel({
  query,
  answer,
  history,
}: {
  query: Json<PowerQuery>;
  answer: Json<PowerAnswer> | null;
  history: Json<PowerHistory> | null;
}) {
  return (
    <section className="panel admin-form-panel" aria-labelledby="power-heading">
      <h2 id="power-heading">Power before launch</h2>
      <p className="muted">
        {history
          ? `History (control arms of started A/B experiments): ${formatCount(history.sessions)} sessions of ${formatCount(history.conveners)} conveners, ${formatRate(history.baseline)} of sessions with an adoption, ${formatNumber(history.sessionsPerConvener)} sessions per convener, ICC ${formatNumber(history.icc)}. Leave a field empty to use it.`
          : "No history yet: enter the baseline, sessions per convener and ICC."}
      </p>
      <div className="side-by-side">
        <Form method="get" aria-labelledby="power-ab-heading">
          <h3 id="power-ab-heading">A/B test</h3>
          <input type="hidden" name="power" value="ab" />
          <div className="form-grid">
            <div>
              <label htmlFor="power-metric">Metric</label>
              <select id="power-metric" name="metric" defaultValue={query.metric}>
                <option value="adoption">Sessions with an adoption</option>
                <option value="click">Sessions with a click</option>
              </select>
            </div>
            <div>
              <label htmlFor="power-baseline">Baseline (%)</label>
              <input
                id="power-baseline"
                name="baseline"
                type="number"
                step="any"
                min={0}
                max={100}
                defaultValue={query.baseline ?? ""}
                placeholder={history?.baseline != null ? formatRate(history.baseline) : ""}
              />
            </div>
            <div>
              <label htmlFor="power-lift">Smallest lift (points)</label>
              <input id="power-lift" name="lift" type="number" step="any" defaultValue={query.lift ?? 5} />
            </div>
            <div>
              <label htmlFor="power-alpha">α</label>
              <input
                id="power-alpha"
                name="alpha"
                type="number"
                step="any"
                min={0}
                max={1}
                defaultValue={query.alpha}
              />
            </div>
            <div>
              <label htmlFor="power-power">Power</label>
              <input
                id="power-power"
                name="power1"
                type="number"
                step="any"
                min={0}
                max={1}
                defaultValue={query.power1}
              />
            </div>
            <div>
              <label htmlFor="power-m">Sessions per convener</label>
              <input
                id="power-m"
                name="sessionsPerConvener"
                type="number"
                step="any"
                min={1}
                defaultValue={query.sessionsPerConvener ?? ""}
              />
            </div>
            <div>
              <label htmlFor="power-icc">ICC</label>
              <input
                id="power-icc"
                name="icc"
                type="number"
                step="any"
                min={0}
                max={1}
                defaultValue={query.icc ?? ""}
              />
            </div>
          </div>
          <button type="submit" className="button-secondary">
            Size the A/B test
          </button>
        </Form>
        <Form method="get" aria-labelledby="power-il-heading">
          <h3 id="power-il-heading">Interleaving</h3>
          <input type="hidden" name="power" value="interleaving" />
          <div className="form-grid">
            <div>
              <label htmlFor="power-winrate">Challenger&apos;s win rate (%)</label>
              <input
                id="power-winrate"
                name="winRate"
                type="number"
                step="any"
                min={0}
                max={100}
                defaultValue={query.winRate ?? 55}
              />
            </div>
            <div>
              <label htmlFor="power-il-alpha">α</label>
              <input
                id="power-il-alpha"
                name="alpha"
                type="number"
                step="any"
                min={0}
                max={1}
                defaultValue={query.alpha}
              />
            </div>
            <div>
              <label htmlFor="power-il-power">Power</label>
              <input
                id="power-il-power"
                name="power1"
                type="number"
                step="any"
                min={0}
                max={1}
                defaultValue={query.power1}
              />
            </div>
          </div>
          <button type="submit" className="button-secondary">
            Size the interleaving experiment
          </button>
        </Form>
      </div>
      {answer ? (
        <div role="status" id="power-answer" className={answer.error ? "notice error" : "notice success"}>
          {answer.error ??
            (answer.kind === "interleaving" && answer.plan && "sessions" in answer.plan
              ? `Interleaving: ${formatCount(answer.plan.sessions)} sessions with a preference detect a win rate of ${formatRate(answer.plan.winRate)} against 50% (α ${answer.plan.alpha}, power ${answer.plan.power}); sessions without a preference do not count.`
              : answer.plan && "perArm" in answer.plan
                ? `A/B test on the share of sessions with ${answer.plan.metric === "adoption" ? "an adoption" : "a click"}, ${formatRate(answer.plan.baseline)}${from(answer.plan.baselineFrom)} → ${formatRate(answer.plan.target)} (${formatPp(answer.plan.target - answer.plan.baseline)}), α ${answer.plan.alpha}, power ${answer.plan.power}: ${formatCount(Math.ceil(answer.plan.effectiveSessionsPerArm))} independent sessions per arm; design effect ${formatNumber(answer.plan.designEffect)} (${formatNumber(answer.plan.sessionsPerConvener)} sessions per convener${from(answer.plan.sessionsPerConvenerFrom)}, ICC ${formatNumber(answer.plan.icc)}${from(answer.plan.iccFrom)}): ${formatCount(answer.plan.perArm.sessions)} sessions from ${formatCount(answer.plan.perArm.conveners)} conveners per arm, ${formatCount(answer.plan.total.conveners)} conveners in all.`
                : null)}
        </div>
      ) : null}
    </section>
  );
}

/** The minimum detectable effect the experiment's data so far support, in one paragraph. */
export function AfterLaunchPower({ power }: { power: Json<AfterLaunch> }) {
  return (
    <>
      <h2>What the data so far can detect</h2>
      <p id="after-launch-power">
        {power.absolute === null
          ? `With ${formatCount(power.convenersPerArm)} conveners (${formatCount(power.sessionsPerArm)} sessions) in the smaller arm, no rise of the share of sessions with an adoption up to 100% is detectable yet.`
          : `With ${formatCount(power.convenersPerArm)} conveners (${formatCount(power.sessionsPerArm)} sessions) in the smaller arm, ${formatRate(power.baseline)} of sessions with an adoption so far and ICC ${formatNumber(power.icc)}, the smallest rise of that share this experiment detects with power 0.8 at α 0.05 is ${formatPp(power.absolute)} (${formatRate(power.relative)} relative).`}
      </p>
    </>
  );
}
