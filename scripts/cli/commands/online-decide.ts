import { InvalidArgumentError } from "commander";
import { readSliceFlags, type SliceFlags } from "./slice-options";
import { parseEventsJsonl } from "../../online/events";
import {
  decide,
  DEFAULT_DECISION_SETTINGS,
  type DecisionSettings,
  type Engine,
  type MetricDecision,
  type TestOutcome,
} from "../../online/decide";
import { decideSlices, sliceByUnit } from "../../online/slices";
import {
  reportFromTotals,
  type IntervalKind,
  type OnlineOptions,
  type SessionSums,
} from "../../online/report";
import {
  decisionInputs,
  decisionPlan,
  eventTimes,
  type DecisionInputOptions,
  type DecisionInputs,
  type DecisionPlan,
} from "../../online/decision-inputs";
import { decisionInputsFromFile, readsOnTwoThreads } from "../../io/online-decide-files";
import { evaluateGuardrails, guardrailUnits, parseGuardrail, type Guardrail } from "../../online/guardrails";
import {
  guardrailLine,
  isCompositionGuardrail,
  parseCompositionGuardrail,
  type AnyGuardrail,
} from "../../inputs/guardrails";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { readShareAttributes, shareGuardrailReadings } from "./online-shares";
import { conflictKey } from "../../online/guardrail-sessions";
import { parseImportFile } from "../../../db/import/parse";
import { CliError } from "../errors";
import { fmt, table, type Cell } from "../output";
import { readText, refuseBadEventLines } from "../options";

export function engineOption(value: string): Engine {
  if (value !== "frequentist" && value !== "bayesian")
    throw new InvalidArgumentError("must be frequentist or bayesian.");
  return value;
}

/** A finite number (the prior's mean). */
export function finiteNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("must be a number.");
  return n;
}

/** The prior's variance: a proper prior needs a positive one. */
export function positiveVariance(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !(n > 0) || !Number.isFinite(n))
    throw new InvalidArgumentError(
      "must be a positive number (the prior's variance, on the relative scale).",
    );
  return n;
}

/** `--guardrail metric:direction:tolerance` or `share:attribute=value:min|max:share`, repeatable. */
export function guardrailOption(value: string, previous: AnyGuardrail[] = []): AnyGuardrail[] {
  const parsed = value.trim().startsWith("share:") ? parseCompositionGuardrail(value) : parseGuardrail(value);
  if (!parsed.ok) throw new InvalidArgumentError(`${parsed.error}.`);
  const line = guardrailLine(parsed.value);
  const same = (g: AnyGuardrail) =>
    isCompositionGuardrail(g) && isCompositionGuardrail(parsed.value)
      ? g.attribute === parsed.value.attribute &&
        g.value === parsed.value.value &&
        (g.min === undefined) === (parsed.value.min === undefined)
      : g.metric === parsed.value.metric;
  if (previous.some(same))
    throw new InvalidArgumentError(
      isCompositionGuardrail(parsed.value)
        ? `guardrail "${line}": this group's ${parsed.value.min === undefined ? "max" : "min"} is named twice.`
        : `guardrail metric "${parsed.value.metric}" is named twice.`,
    );
  return [...previous, parsed.value];
}

/** `--conflicts`: a CSV with proposal and candidate columns (the conflicts import's), as `conflictKey` pairs. */
async function readConflicts(file: string): Promise<Set<string>> {
  const { records, errors, columns } = parseImportFile(await readText(file, "conflicts"), "csv");
  if (errors.length) throw new CliError(`--conflicts: line ${errors[0].line} ${errors[0].message}.`, 2);
  if (!columns.includes("proposal") || !columns.includes("candidate"))
    throw new CliError(`--conflicts: ${file} needs the columns proposal and candidate.`, 2);
  const out = new Set<string>();
  for (const r of records) {
    const { proposal, candidate } = r.values;
    if (typeof proposal !== "string" || proposal === "" || typeof candidate !== "string" || candidate === "")
      throw new CliError(`--conflicts: line ${r.line} needs a proposal and a candidate.`, 2);
    out.add(conflictKey(proposal, candidate));
  }
  return out;
}

export interface DecisionFlags extends SliceFlags {
  guardrail?: AnyGuardrail[];
  /** Candidate attributes (candidate,attribute,value), for share guardrails. */
  attributes?: string;
  conflicts?: string;
  events: string;
  experiment?: string;
  cuped?: boolean;
  prePeriodDays: number;
  engine?: Engine;
  priorMean?: number;
  priorVariance?: number;
  intervals: IntervalKind;
  nStar: number;
}

/** The flags that ask for GrowthBook-style decision figures (and so for the one-thread reading). */
export const wantsDecisions = (o: DecisionFlags) =>
  o.cuped === true ||
  o.adjust !== undefined ||
  o.engine !== undefined ||
  o.experiment !== undefined ||
  o.slice !== undefined ||
  (o.guardrail?.length ?? 0) > 0;

/** Turns a pure module's "field: message" into a refusal that names the flag (exit 2). */
function refuse(error: unknown, flags: Record<string, string>): never {
  const message = (error as Error).message;
  const field = Object.keys(flags).find((f) => message.startsWith(`${f}: `));
  if (field) throw new CliError(`${flags[field]}: ${message.slice(field.length + 2)}.`, 2);
  throw new CliError(`${message}.`, 2);
}

/**
 * The analysed experiment's plan and inputs: a large plain file on two threads (split by unit), anything
 * else (standard input, .gz, a small file) parsed here. Bad lines, an unknown experiment or a pre-period
 * longer than the history refuse with exit 2, naming the line or the flag.
 */
async function readDecisionInputs(
  o: DecisionFlags,
  options: DecisionInputOptions & { parallelBytes?: number },
): Promise<{ plan: DecisionPlan; inputs: DecisionInputs & { preSums: Map<string, SessionSums> | null } }> {
  const wanted = { experiment: o.experiment, prePeriodDays: o.cuped ? o.prePeriodDays : null };
  const flags = { experiment: "--experiment", "pre-period days": "--pre-period-days", events: "--events" };
  if (readsOnTwoThreads(o.events, options.parallelBytes)) {
    let result;
    try {
      result = await decisionInputsFromFile(o.events, { ...options, ...wanted });
    } catch (error) {
      refuse(error, flags);
    }
    if (!result.ok) refuseBadEventLines(o.events, result.errors);
    return result;
  }
  const { events, errors } = parseEventsJsonl(await readText(o.events, "events"));
  if (errors.length) refuseBadEventLines(o.events, errors);
  const { times, starts, earliest } = eventTimes(events);
  let plan;
  try {
    plan = decisionPlan(starts, earliest, wanted);
  } catch (error) {
    refuse(error, flags);
  }
  const inputs = decisionInputs(events, times, plan, options);
  return { plan, inputs: { ...inputs, preSums: inputs.pre && new Map(inputs.pre.map((u) => [u.unit, u])) } };
}

/** The ratio guardrails' readings and the share guardrails' (with `--attributes`), each null when none is asked for. */
function guardrailReadings(
  sessions: DecisionInputs["guardrailSessions"],
  o: DecisionFlags,
  attributes: Awaited<ReturnType<typeof readShareAttributes>> | null,
  arms: { control: string; arms: string[]; B: number; seed: string | number },
) {
  const rates = (o.guardrail ?? []).filter((g): g is Guardrail => !isCompositionGuardrail(g));
  const shares = (o.guardrail ?? []).filter(isCompositionGuardrail);
  return {
    guardrails:
      sessions && rates.length ? evaluateGuardrails(guardrailUnits(sessions), arms.control, rates) : null,
    shareGuardrails:
      sessions && attributes ? shareGuardrailReadings(shares, attributes, sessions, arms) : null,
  };
}

/**
 * The report and decisions of the analysed experiment of an events file, the others read as history
 * for CUPED. The file is read on one thread: experiments must be told apart before sessions are built.
 */
export async function onlineDecisions(
  o: DecisionFlags,
  options: OnlineOptions,
  read: { parallelBytes?: number } = {},
) {
  if (o.priorMean !== undefined && o.priorVariance === undefined)
    throw new CliError("--prior-mean needs --prior-variance (a prior without a variance is flat).", 2);
  const { subjects, convenerValues } = await readSliceFlags(o);
  const all = o.guardrail ?? [];
  if (all.some((g) => g.metric === "coiShare") && !o.conflicts)
    throw new CliError("--guardrail coiShare needs --conflicts (a CSV of proposal,candidate).", 2);
  const conflicts = o.conflicts ? await readConflicts(o.conflicts) : null;
  const shares = all.filter(isCompositionGuardrail);
  const attributes = shares.length ? await readShareAttributes(shares, o.attributes) : null;
  const { plan, inputs } = await readDecisionInputs(o, {
    subjects,
    ...(all.length ? { guardrails: { conflicts } } : {}),
    parallelBytes: read.parallelBytes,
  });
  const { totals, preSums } = inputs;
  const pre = preSums ?? undefined;
  let report;
  try {
    report = reportFromTotals(totals, options);
  } catch (error) {
    refuse(error, {});
  }
  const settings: DecisionSettings = {
    ...DEFAULT_DECISION_SETTINGS,
    engine: o.engine ?? "frequentist",
    intervals: o.intervals,
    nStar: o.nStar,
    cuped: o.cuped === true,
    prior:
      o.priorVariance === undefined
        ? DEFAULT_DECISION_SETTINGS.prior
        : { mean: o.priorMean ?? 0, variance: o.priorVariance, proper: true, type: "relative" },
  };
  const control = options.control ?? Object.keys(report.arms)[0];
  const decisions = decide(totals.units, control, settings, pre);
  const analysis = {
    experiment: plan.experiment,
    experiments: plan.experiments,
    start: new Date(plan.start).toISOString(),
    ...settings,
    ...(o.cuped
      ? {
          prePeriod: {
            days: o.prePeriodDays,
            from: new Date(plan.start - o.prePeriodDays * 86_400_000).toISOString(),
            to: new Date(plan.start).toISOString(),
          },
        }
      : {}),
  };
  // A convener attribute slices whole conveners, so their totals (not sessions) are split.
  const sliced = convenerValues ? sliceByUnit(totals.units, convenerValues) : inputs.slices;
  const slices = sliced
    ? {
        attribute: o.slice,
        ...decideSlices(sliced, control, settings, { pre, correction: o.adjust ?? "holm" }),
      }
    : null;
  const readings = guardrailReadings(inputs.guardrailSessions, o, attributes, {
    control,
    arms: Object.keys(report.arms).sort(),
    B: options.B ?? DEFAULT_B,
    seed: options.seed ?? DEFAULT_SEED,
  });
  return { ...report, analysis, decisions, slices, ...readings };
}

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `${(x * 100).toFixed(1)}%`;

function changeText(o: TestOutcome): string {
  if (o.kind === "none") return `— (${o.reason})`;
  return `${pct(o.effect)} [${pct(o.ci[0])}, ${pct(o.ci[1])}]`;
}

function verdictText(o: TestOutcome, alpha: number): string {
  if (o.kind === "none") return "—";
  if (o.kind === "bayesian") return `chance to win ${pct(o.chanceToWin)}, risk ${fmt(o.riskTreatment, 4)}`;
  return `p ${fmt(o.pValue, 4)}${o.pValue < alpha ? " significant" : ""}`;
}

/** Rows of the results table, GrowthBook's columns: metric, baseline, variation, change with CI, p or chance to win. */
export function decisionRows(decisions: readonly MetricDecision[], alpha: number): Cell[][] {
  return decisions.map((d) => {
    const shown = d.cuped ? d.cuped.result.relative : d.unadjusted.relative;
    return [
      d.arm,
      d.metric + (d.inverse ? " (lower is better)" : ""),
      d.baseline,
      d.variation,
      changeText(shown),
      verdictText(shown, alpha),
      ...(d.cuped
        ? [
            d.cuped.intervalNarrowing === null ? "—" : `narrowed ${pct(d.cuped.intervalNarrowing)}`,
            changeText(d.unadjusted.relative),
          ]
        : []),
    ];
  });
}

export function decisionHeaders(cuped: boolean): string[] {
  return [
    "arm",
    "metric",
    "baseline",
    "variation",
    cuped ? "change (CUPED) [CI]" : "change [CI]",
    "p / chance to win",
    ...(cuped ? ["CUPED interval", "unadjusted change [CI]"] : []),
  ];
}

export function printDecisions(result: Awaited<ReturnType<typeof onlineDecisions>>) {
  const a = result.analysis;
  console.log(
    `Experiment ${a.experiment} (started ${a.start}; ${a.experiments.length} experiment(s) in the file). Engine: ${a.engine}` +
      (a.engine === "bayesian"
        ? `, prior ${a.prior.proper ? `N(${a.prior.mean}, ${a.prior.variance}) relative` : "flat"}`
        : `, ${a.intervals} intervals`) +
      (a.prePeriod ? `; CUPED on the pre-period ${a.prePeriod.from} to ${a.prePeriod.to}.` : "; no CUPED."),
  );
  console.log(table(decisionHeaders(a.cuped), decisionRows(result.decisions, a.alpha)));
  if (result.slices) printSlices(result.slices, a.alpha);
  if (result.guardrails) printGuardrails(result.guardrails);
  if (result.shareGuardrails) printShareGuardrails(result.shareGuardrails);
  for (const d of result.decisions)
    if (d.cuped && d.cuped.intervalNarrowing !== null)
      console.log(
        `${d.metric}: CUPED ${d.cuped.intervalNarrowing < 0 ? "widened" : "narrowed"} the interval by ${pct(Math.abs(d.cuped.intervalNarrowing))} (θ = ${fmt(d.cuped.theta, 4)}; units with pre-period data ${d.cuped.unitsWithPrePeriod.control} of control, ${d.cuped.unitsWithPrePeriod.treatment} of ${d.arm}).`,
      );
}

function printSlices(r: NonNullable<Awaited<ReturnType<typeof onlineDecisions>>["slices"]>, alpha: number) {
  console.log(
    `Slices by ${r.attribute}: ${r.comparisons} comparisons, p adjusted by ${r.correction === "holm" ? "Holm" : "Benjamini–Hochberg"}.`,
  );
  for (const s of r.slices) {
    if (s.tooFew) {
      console.log(`${s.slice}: ${s.reason}`);
      continue;
    }
    const rows = decisionRows(s.decisions, alpha).map((row, i) => [
      s.slice,
      ...row.slice(0, 6),
      fmt(s.decisions[i].adjustedP, 4),
    ]);
    console.log(table(["slice", ...decisionHeaders(false), "adjusted p"], rows));
  }
}

function printGuardrails(results: NonNullable<Awaited<ReturnType<typeof onlineDecisions>>["guardrails"]>) {
  console.log(
    "Guardrails (state: failing = harm beyond the tolerance shown, ok = ruled out, at risk = neither):",
  );
  console.log(
    table(
      ["arm", "guardrail", "must not", "control", "variation", "change [CI]", "state"],
      results.map((g) => [
        g.arm,
        g.metric,
        `${g.direction === "increase" ? "rise" : "fall"} by more than ${pct(g.tolerance)}`,
        g.control,
        g.treatment,
        "ci" in g ? `${pct(g.effect)} [${pct(g.ci[0])}, ${pct(g.ci[1])}]` : `— (${g.reason})`,
        g.state,
      ]),
    ),
  );
}

function printShareGuardrails(
  results: NonNullable<Awaited<ReturnType<typeof onlineDecisions>>["shareGuardrails"]>,
) {
  console.log(
    "Share guardrails (a group's share of adopted candidates; failing = the arm's interval lies beyond the bound, ok = within it, at risk = neither):",
  );
  console.log(
    table(
      ["arm", "guardrail", "control", "variation [CI]", "state"],
      results.map((g) => [
        g.arm,
        guardrailLine({ ...g, metric: "share" }),
        pct(g.control),
        g.reason
          ? `— (${g.reason})`
          : `${pct(g.share?.value)} [${pct(g.share?.ci?.lower)}, ${pct(g.share?.ci?.upper)}]`,
        g.state,
      ]),
    ),
  );
}
