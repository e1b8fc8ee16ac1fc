import type { AbPowerPlan, AfterLaunch, PowerAnswer, PowerQuery } from "~/results/power.server";
import { AbPowerForm, InterleavingPowerForm } from "~/components/power-forms";
import type { PowerHistory, PrePeriodRho } from "../../scripts/online/power-history";
import type { Json } from "~/utils/json-type";
import { formatCount, formatNumber, formatPp, formatRate, plural } from "~/utils/format";

const from = (source: string) =>
  source === "history" ? " (from the history)" : source === "default" ? " (default)" : "";

/** What a successful calculation found, in one sentence. */
function answerSentence(answer: Json<PowerAnswer>) {
  if (answer.kind === "interleaving" && answer.plan && "sessions" in answer.plan)
    return `Interleaving: ${formatCount(answer.plan.sessions)} sessions with a preference detect a win rate of ${formatRate(answer.plan.winRate)} against 50% (α ${answer.plan.alpha}, power ${answer.plan.power}); sessions without a preference do not count.`;
  if (answer.plan && "perArm" in answer.plan) return abPlanSentence(answer.plan);
  return null;
}

function abPlanSentence(plan: Json<AbPowerPlan>) {
  const measured =
    plan.rhoFrom === "history" && plan.rhoHistory
      ? ` (from the history: ${plural(plan.rhoHistory.conveners, "convener")} of ${plural(plan.rhoHistory.experiments, "experiment")} against their own pre-period; enter 0 for no CUPED)`
      : "";
  const cuped =
    plan.rho === null
      ? ""
      : ` With CUPED at ρ ${formatNumber(plan.rho)}${measured}, the variance is ${formatRate(plan.varianceFactor)} of the unadjusted (1 − ρ²).`;
  const slices =
    plan.slices === 1
      ? ""
      : ` Each of ${formatCount(plan.slices)} slices is read at α ${formatNumber(plan.alphaPerSlice)} (α / ${formatCount(plan.slices)}, Bonferroni, Holm's first step): the figures are per slice.`;
  return `${abPlanCore(plan)}${cuped}${slices}`;
}

function abPlanCore(plan: Json<AbPowerPlan>) {
  return `A/B test on the share of sessions with ${plan.metric === "adoption" ? "an adoption" : "a click"}, ${formatRate(plan.baseline)}${from(plan.baselineFrom)} → ${formatRate(plan.target)} (${formatPp(plan.target - plan.baseline)}), α ${plan.alpha}, power ${plan.power}: ${formatCount(Math.ceil(plan.effectiveSessionsPerArm))} independent sessions per arm; design effect ${formatNumber(plan.designEffect)} (${formatNumber(plan.sessionsPerConvener)} sessions per convener${from(plan.sessionsPerConvenerFrom)}, ICC ${formatNumber(plan.icc)}${from(plan.iccFrom)}): ${formatCount(plan.perArm.sessions)} sessions from ${formatCount(plan.perArm.conveners)} conveners per arm, ${formatCount(plan.total.conveners)} conveners in all.`;
}

/**
 * "Power before launch" beside the experiment form: a GET form (nothing is stored) that sizes an A/B
 * test (conveners and sessions per arm, with the design effect of several sessions per convener) or
 * an interleaving experiment (sessions with a preference), as `assay power` does.
 */
export function PowerPanel({
  query,
  answer,
  history,
  rhoHistory = null,
}: {
  query: Json<PowerQuery>;
  answer: Json<PowerAnswer> | null;
  history: Json<PowerHistory> | null;
  rhoHistory?: Json<PrePeriodRho> | null;
}) {
  return (
    <section className="panel admin-form-panel" aria-labelledby="power-heading">
      <h2 id="power-heading">Power before launch</h2>
      <p className="muted">
        {history
          ? `History (control arms of started A/B experiments): ${formatCount(history.sessions)} sessions of ${formatCount(history.conveners)} conveners, ${formatRate(history.baseline)} of sessions with an adoption, ${formatNumber(history.sessionsPerConvener)} sessions per convener, ICC ${formatNumber(history.icc)}. Leave a field empty to use it.`
          : "No history yet: enter the baseline, sessions per convener and ICC."}{" "}
        {rhoHistory
          ? `CUPED's ρ measured on ${plural(rhoHistory.conveners, "convener")} of ${plural(rhoHistory.experiments, "experiment")} against their own 28-day pre-period: ${formatNumber(rhoHistory.rho)}, used when ρ is left empty (0 turns CUPED off).`
          : "No convener has a pre-period in an earlier experiment yet: enter ρ for CUPED, or leave it empty for none."}
      </p>
      <div className="side-by-side">
        <AbPowerForm query={query} history={history} rhoHistory={rhoHistory} />
        <InterleavingPowerForm query={query} />
      </div>
      {answer ? (
        <div role="status" id="power-answer" className={answer.error ? "notice error" : "notice success"}>
          {answer.error ?? answerSentence(answer)}
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
        {power.cuped
          ? ` With CUPED (variance ${formatRate(power.cuped.varianceFactor)} of the unadjusted on this metric, 1 − ρ² as measured on the pre-period): ${mdeText(power.cuped)}.`
          : ""}
        {power.slices
          ? ` In one of ${formatCount(power.slices.count)} equal slices read at α ${formatNumber(power.slices.alphaPerSlice)} (α / ${formatCount(power.slices.count)}): ${mdeText(power.slices)}.`
          : ""}
      </p>
    </>
  );
}

function mdeText(m: { absolute: number | null; relative: number | null }) {
  return m.absolute === null
    ? "no rise up to 100% is detectable"
    : `${formatPp(m.absolute)} (${formatRate(m.relative)} relative)`;
}
