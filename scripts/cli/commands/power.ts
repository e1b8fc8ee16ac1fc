import { InvalidArgumentError, type Command } from "commander";
import { parseEventsJsonl } from "../../online/events";
import { unitTotals } from "../../online/report";
import {
  abSampleSize,
  adjustedAlpha,
  cupedVarianceFactor,
  designEffect,
  interleavingSessions,
  minimumDetectableEffect,
} from "../../online/power";
import { powerHistory } from "../../online/power-history";
import { CliError } from "../errors";
import { readText, wholeNumber } from "../options";

const METRICS = ["adoption", "click"] as const;
type PowerMetric = (typeof METRICS)[number];

function openUnit(what: string) {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !(n > 0 && n < 1))
      throw new InvalidArgumentError(`${what} must be a number strictly between 0 and 1.`);
    return n;
  };
}

function finite(value: string) {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n === 0)
    throw new InvalidArgumentError("must be a number other than 0.");
  return n;
}

function atLeastOne(value: string) {
  const n = Number(value);
  if (value.trim() === "" || !(n >= 1)) throw new InvalidArgumentError("must be a number of at least 1.");
  return n;
}

function correlation(value: string) {
  const n = Number(value);
  if (value.trim() === "" || !(n >= 0 && n <= 1))
    throw new InvalidArgumentError("must be a number between 0 and 1.");
  return n;
}

/** CUPED's ρ as the CLI takes it: a pre-period correlation in [0, 1) (1 would leave no variance to plan for). */
function rhoOption(value: string) {
  const n = Number(value);
  if (value.trim() === "" || !(n >= 0 && n < 1))
    throw new InvalidArgumentError(
      "must be a number from 0 up to (not including) 1, CUPED's pre-period correlation.",
    );
  return n;
}

function metric(value: string): PowerMetric {
  if (!(METRICS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be ${METRICS.join(" or ")}.`);
  return value as PowerMetric;
}

interface Options {
  metric: PowerMetric;
  baseline?: number;
  lift?: number;
  relative?: boolean;
  alpha: number;
  power: number;
  sessionsPerConvener?: number;
  icc?: number;
  events?: string;
  conveners?: number;
  interleaving?: boolean;
  winRate?: number;
  rho?: number;
  slices: number;
  json?: boolean;
}

async function readHistory(file: string) {
  const { events, errors } = parseEventsJsonl(await readText(file, "events"));
  if (errors.length)
    throw new CliError(`${file}:${errors[0].line}: ${errors[0].message}; the history was not used.`, 2);
  return powerHistory(unitTotals(events).units);
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const points = (x: number) => `${x > 0 ? "+" : ""}${(100 * x).toFixed(2)} points`;

export function registerPower(program: Command) {
  program
    .command("power")
    .description(
      "sample size before launch (conveners and sessions per arm; interleaving sessions) and the minimum detectable effect after",
    )
    .option(
      "--metric <metric>",
      "the rate: adoption (sessions with an adoption) or click",
      metric,
      "adoption",
    )
    .option("--baseline <p>", "the control's rate (default: estimated from --events)", openUnit("--baseline"))
    .option(
      "--lift <d>",
      "the smallest change worth detecting: absolute (0.03 = 3 points) or, with --relative, a fraction of the baseline",
      finite,
    )
    .option("--relative", "read --lift as relative to the baseline")
    .option("--alpha <a>", "two-sided significance level", openUnit("--alpha"), 0.05)
    .option("--power <p>", "power (1 − β)", openUnit("--power"), 0.8)
    .option(
      "--sessions-per-convener <m>",
      "sessions per convener during the experiment (default: from --events, else 1)",
      atLeastOne,
    )
    .option(
      "--icc <r>",
      "intra-class correlation of a convener's sessions (default: estimated from --events, else 0)",
      correlation,
    )
    .option(
      "--events <file>",
      "a history of events (JSONL): baseline, sessions per convener and ICC estimated from it; per-arm counts give the MDE so far",
    )
    .option("--conveners <n>", "conveners per arm so far, for the minimum detectable effect", wholeNumber(1))
    .option("--interleaving", "size an interleaving experiment instead of an A/B test")
    .option(
      "--win-rate <w>",
      "with --interleaving: the challenger's win rate worth detecting",
      openUnit("--win-rate"),
    )
    .option(
      "--rho <r>",
      "CUPED: the correlation of a convener's metric with its pre-period value; sessions scale by 1 − ρ²",
      rhoOption,
    )
    .option(
      "--slices <k>",
      "slices read together (e.g. subjects): each is tested at α / k and sized on its own",
      wholeNumber(1),
      1,
    )
    .option("--json", "print JSON")
    .action(power);
}

async function power(o: Options) {
  if (o.interleaving && (o.rho !== undefined || o.slices !== 1))
    throw new CliError(
      "--rho and --slices size an A/B test; an interleaving experiment takes --win-rate.",
      2,
    );
  if (o.interleaving) return sizeInterleaving(o, { alpha: o.alpha, power: o.power });
  // As the power form: each slice read at α / k (Bonferroni, Holm's first step), CUPED's 1 − ρ² on the sessions.
  const varianceFactor = o.rho === undefined ? 1 : cupedVarianceFactor(o.rho);
  const alphaPerSlice = adjustedAlpha(o.alpha, o.slices);
  const settings = { alpha: alphaPerSlice, power: o.power, varianceFactor };
  if (o.winRate !== undefined)
    throw new CliError("--win-rate belongs to --interleaving; an A/B test takes --lift.", 2);
  if (o.events && o.metric !== "adoption")
    throw new CliError(
      "--events estimates the history of --metric adoption only (sessions with an adoption); for clicks give --baseline and --icc.",
      2,
    );
  const past = o.events ? await readHistory(o.events) : null;
  const { baseline, target } = abRates(o, past);
  const m = o.sessionsPerConvener ?? past?.sessionsPerConvener ?? 1;
  const icc = o.icc ?? Math.max(0, past?.icc ?? 0);
  const plan = abSampleSize(baseline, target, m, icc, settings);
  const soFar = detectableSoFar(o, past, baseline, m, icc, settings);
  const report = {
    kind: "ab",
    metric: o.metric,
    alpha: o.alpha,
    power: o.power,
    baseline,
    baselineFrom: o.baseline !== undefined ? "flag" : "events",
    target,
    lift: { absolute: target - baseline, relative: (target - baseline) / baseline },
    sessionsPerConvener: m,
    icc,
    rho: o.rho ?? null,
    varianceFactor,
    slices: o.slices,
    alphaPerSlice,
    designEffect: plan.designEffect,
    effectiveSessionsPerArm: plan.effectiveN,
    perArm: { conveners: plan.convenersPerArm, sessions: plan.sessionsPerArm },
    total: { conveners: 2 * plan.convenersPerArm, sessions: 2 * plan.sessionsPerArm },
    ...(past
      ? {
          history: {
            conveners: past.conveners,
            sessions: past.sessions,
            sessionsPerConvener: past.sessionsPerConvener,
            icc: past.icc,
            arms: past.arms,
          },
        }
      : {}),
    ...(soFar === null ? {} : { minimumDetectableEffect: soFar }),
  };
  if (o.json) return console.log(JSON.stringify(report, null, 2));
  printAbPlan(o, { baseline, target, m, icc, plan }, soFar);
}

type Settings = { alpha: number; power: number; varianceFactor?: number };
type History = Awaited<ReturnType<typeof readHistory>>;

function sizeInterleaving(o: Options, settings: Settings) {
  if (o.winRate === undefined)
    throw new CliError(
      "--interleaving needs --win-rate, the challenger's win rate worth detecting (e.g. 0.55).",
      2,
    );
  if (o.winRate === 0.5)
    throw new CliError("--win-rate 0.5 is no preference; give the win rate worth detecting, e.g. 0.55.", 2);
  const sessions = interleavingSessions(o.winRate, settings);
  const report = { kind: "interleaving", winRate: o.winRate, alpha: o.alpha, power: o.power, sessions };
  if (o.json) console.log(JSON.stringify(report, null, 2));
  else
    console.log(
      `Interleaving: ${sessions} sessions with a preference detect a win rate of ${o.winRate} vs 0.5 (α = ${o.alpha}, power ${o.power}); sessions with no preference do not count.`,
    );
}

/** The control's rate (the flag's, else the history's) and the rate worth detecting; either off: exit 2. */
function abRates(o: Options, past: History | null) {
  const baseline = o.baseline ?? past?.baseline ?? undefined;
  if (baseline === undefined)
    throw new CliError(
      past
        ? `${o.events} has no sessions to take a baseline from; give --baseline.`
        : "Give --baseline (the control's rate) or --events (a history to estimate it from).",
      2,
    );
  if (!(baseline > 0 && baseline < 1))
    throw new CliError(
      `The baseline from ${o.events} is ${baseline}; a rate of 0 or 1 cannot be sized, give --baseline.`,
      2,
    );
  if (o.lift === undefined)
    throw new CliError(
      "Give --lift, the smallest change worth detecting (e.g. --lift 0.03, or --lift 0.1 --relative).",
      2,
    );
  const target = o.relative ? baseline * (1 + o.lift) : baseline + o.lift;
  if (!(target > 0 && target < 1))
    throw new CliError(
      `A lift of ${o.lift}${o.relative ? " (relative)" : ""} on a baseline of ${baseline} gives ${target}, not a rate strictly between 0 and 1.`,
      2,
    );
  return { baseline, target };
}

interface DetectableSoFar {
  convenersPerArm: number;
  absolute: number | null;
  relative: number | null;
}

/** After launch: what the conveners (and their sessions) so far can detect, per arm; null before any. */
function detectableSoFar(
  o: Options,
  past: History | null,
  baseline: number,
  m: number,
  icc: number,
  settings: Settings,
): DetectableSoFar | null {
  const armsSoFar = past ? Object.values(past.arms) : [];
  // --conveners: that many per arm with m sessions each; else the history's smaller arm, its own sessions.
  const smallest =
    armsSoFar.length >= 2 ? armsSoFar.reduce((x, y) => (y.conveners < x.conveners ? y : x)) : null;
  const arm = o.conveners !== undefined ? { conveners: o.conveners, sessions: o.conveners * m } : smallest;
  if (!arm) return null;
  const effectiveSoFar = arm.sessions / designEffect(arm.sessions / arm.conveners, icc);
  const mdeAbsolute = minimumDetectableEffect(baseline, effectiveSoFar, settings);
  return {
    convenersPerArm: arm.conveners,
    absolute: mdeAbsolute,
    relative: mdeAbsolute === null ? null : mdeAbsolute / baseline,
  };
}

interface AbPlan {
  baseline: number;
  target: number;
  m: number;
  icc: number;
  plan: ReturnType<typeof abSampleSize>;
}

function printAbPlan(o: Options, { baseline, target, m, icc, plan }: AbPlan, soFar: DetectableSoFar | null) {
  console.log(
    `A/B test on ${o.metric} rate: ${pct(baseline)} → ${pct(target)} (${points(target - baseline)}, ${pct((target - baseline) / baseline)} relative), α = ${o.alpha}, power ${o.power}.`,
  );
  if (o.slices > 1)
    console.log(
      `${o.slices} slices, each read at α / ${o.slices} = ${+(o.alpha / o.slices).toPrecision(4)}: every figure below is per slice.`,
    );
  if (o.rho !== undefined)
    console.log(
      `CUPED with ρ = ${o.rho}: the sessions needed scale by 1 − ρ² = ${+(1 - o.rho * o.rho).toFixed(4)}.`,
    );
  console.log(
    `Independent sessions per arm: ${plan.effectiveN.toFixed(2)} → ${Math.ceil(plan.effectiveN)} (two-proportion z-test, pooled variance under H0).`,
  );
  console.log(
    `Design effect 1 + (${+m.toFixed(2)} − 1) × ICC ${icc.toFixed(4)} = ${plan.designEffect.toFixed(4)}: ${plan.sessionsPerArm} sessions from ${plan.convenersPerArm} conveners per arm (${plan.convenersPerArm * 2} conveners in all).`,
  );
  if (soFar !== null) {
    const { convenersPerArm, absolute } = soFar;
    console.log(
      absolute === null
        ? `With ${convenersPerArm} conveners per arm so far, no lift up to a rate of 1 is detectable yet.`
        : `With ${convenersPerArm} conveners per arm so far, the minimum detectable effect is ${points(absolute)} (${pct(absolute / baseline)} relative).`,
    );
  }
}
