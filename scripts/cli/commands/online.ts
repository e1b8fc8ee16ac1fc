import { InvalidArgumentError, type Command } from "commander";
import { onlineMetrics, type IntervalKind } from "../../online/report";
import { onlineFromFile } from "../../io/online-files";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { DEFAULT_N_STAR } from "../../online/sequential";
import { CliError } from "../errors";
import { ciText, emit, formatOf, table, type Cell } from "../output";
import { assertReadable, refuseBadEventLines, wholeNumber } from "../options";
import { DEFAULT_PRE_PERIOD_DAYS } from "../../online/decide";
import {
  decisionHeaders,
  decisionRows,
  engineOption,
  finiteNumber,
  onlineDecisions,
  positiveVariance,
  printDecisions,
  wantsDecisions,
  guardrailOption,
  type DecisionFlags,
} from "./online-decide";
import { withSliceOptions } from "./slice-options";

export function parseArmWeights(value: string): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const part of value.split(",")) {
    const [arm, w] = part.split("=").map((s) => s.trim());
    const n = Number(w);
    if (!arm || w === undefined || w === "" || !(n > 0))
      throw new CliError(`--weights takes arm=weight pairs such as A=0.5,B=0.5; "${part}" is not one.`, 2);
    if (arm in weights) throw new CliError(`--weights names arm ${arm} twice.`, 2);
    weights[arm] = n;
  }
  return weights;
}

function intervalKind(value: string): IntervalKind {
  if (value !== "fixed" && value !== "sequential")
    throw new InvalidArgumentError("must be fixed or sequential.");
  return value;
}

export function registerOnline(program: Command) {
  const command = program
    .command("online")
    .description(
      "online A/B metrics per arm from convener events (JSONL), with CIs over units, SRM and data quality",
    )
    .requiredOption("--events <file>", "events, one JSON object per line")
    .option(
      "--weights <weights>",
      "configured arm weights for the SRM check, e.g. A=0.5,B=0.5 (default: equal)",
    )
    .option("--control <arm>", "the control arm (default: the first arm by name)")
    .option("--bootstrap <B>", "bootstrap resamples and permutations", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "seed", DEFAULT_SEED)
    .option(
      "--intervals <kind>",
      "intervals of the differences vs control: fixed (bootstrap, one look) or sequential (always valid, for daily looks)",
      intervalKind,
      "fixed",
    )
    .option(
      "--n-star <N>",
      "tuning N* of the sequential intervals, in conveners of both arms",
      wholeNumber(1),
      DEFAULT_N_STAR,
    )
    .option(
      "--experiment <key>",
      "analyse this experiment of the file; the others' events of the same conveners are its history (default: the one that started last)",
    );
  withDecisionOptions(command).option("--json", "print JSON").option("--csv", "print CSV").action(online);
}

/** The decision tools' flags (CUPED, the engine, guardrails, slices), kept apart from the report's own. */
function withDecisionOptions(command: Command): Command {
  const decision = command
    .option("--cuped", "CUPED: adjust each metric by the same metric of the same convener in the pre-period")
    .option(
      "--pre-period-days <N>",
      "length of the CUPED pre-period before the experiment's start, in days",
      wholeNumber(1),
      DEFAULT_PRE_PERIOD_DAYS,
    )
    .option(
      "--engine <engine>",
      "frequentist (t-test or sequential) or bayesian (GrowthBook's)",
      engineOption,
    )
    .option(
      "--prior-mean <x>",
      "mean of the Bayesian engine's normal prior on the relative effect",
      finiteNumber,
    )
    .option(
      "--prior-variance <v>",
      "variance of that prior (positive; makes the prior proper; default: a flat prior)",
      positiveVariance,
    )
    .option(
      "--guardrail <metric:direction:tolerance>",
      "a guardrail, e.g. minutesToFinish:increase:10%, or a group's share of adopted candidates, share:gender=f:min:35% (repeatable)",
      guardrailOption,
    )
    .option("--conflicts <file>", "CSV of declared conflicts (proposal,candidate), for --guardrail coiShare")
    .option(
      "--attributes <file>",
      "CSV of candidate attributes (candidate,attribute,value), for --guardrail share:…",
    );
  return withSliceOptions(
    decision,
    "break the decisions down by subject or by a convener attribute of --convener-attributes",
  );
}

interface OnlineOptions extends DecisionFlags {
  events: string;
  weights?: string;
  control?: string;
  bootstrap: number;
  seed: string;
  intervals: IntervalKind;
  nStar: number;
  json?: boolean;
  csv?: boolean;
}

type OnlineReport = Extract<Awaited<ReturnType<typeof onlineFromFile>>, { ok: true }>["report"];

async function online(o: OnlineOptions) {
  const format = formatOf(o);
  if (wantsDecisions(o)) return decisionsOnline(o, format);
  const report = await onlineReport(o);
  if (format === "table") printArms(report, o);
  const rows: Cell[][] = report.comparisons.map((c) => [
    c.arm,
    c.control,
    c.metric,
    c.difference,
    ciText(c.ci),
    c.relativeLift,
    ciText(c.liftCi),
    c.pValue,
  ]);
  emit(
    format,
    report,
    [
      "arm",
      "control",
      "metric",
      "difference",
      o.intervals === "sequential" ? "sequential ci95" : "ci95",
      "relative lift",
      o.intervals === "sequential" ? "sequential lift ci95" : "lift ci95",
      "p (permutation)",
    ],
    rows,
  );
}

/** `assay online` with --cuped, --engine or --experiment: GrowthBook-style figures of one experiment. */
async function decisionsOnline(o: OnlineOptions, format: ReturnType<typeof formatOf>) {
  const result = await onlineDecisions(o, reportOptions(o));
  if (format === "table") {
    printArms(result, o);
    printDecisions(result);
    return;
  }
  emit(
    format,
    result,
    decisionHeaders(result.analysis.cuped),
    decisionRows(result.decisions, result.analysis.alpha),
  );
}

function reportOptions(o: OnlineOptions) {
  return {
    weights: o.weights ? parseArmWeights(o.weights) : undefined,
    control: o.control,
    intervals: true,
    intervalKind: o.intervals,
    nStar: o.nStar,
    B: o.bootstrap,
    seed: o.seed,
  };
}

/** The report of the events file; a bad flag or any bad line computes nothing (exit 2). */
async function onlineReport(o: OnlineOptions): Promise<OnlineReport> {
  const weights = o.weights ? parseArmWeights(o.weights) : undefined;
  await assertReadable(o.events, "events");
  let result;
  try {
    result = await onlineFromFile(o.events, {
      weights,
      control: o.control,
      intervals: true,
      intervalKind: o.intervals,
      nStar: o.nStar,
      B: o.bootstrap,
      seed: o.seed,
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}.`, 2);
  }
  if (!result.ok) refuseBadEventLines(o.events, result.errors);
  return result.report;
}

/** The table format's preamble: the events, each arm's counts and rates, SRM, data quality, intervals. */
function printArms(report: OnlineReport, o: OnlineOptions) {
  console.log(
    `${report.events} events, ${report.uniqueEvents} unique; ${report.excludedUnits} unit(s) seen in more than one arm excluded${report.multipleExposureWarning ? " (WARNING: over 1% of units)" : ""}.`,
  );
  console.log(
    table(
      [
        "arm",
        "units",
        "sessions",
        "shown",
        "clicked",
        "adopted",
        ...onlineMetrics.flatMap((m) => [m, `${m} ci95`]),
      ],
      Object.entries(report.arms).map(([arm, a]) => [
        arm,
        a.units,
        a.sessions,
        a.shown,
        a.clicked,
        a.adopted,
        ...onlineMetrics.flatMap((m) => [a[m], ciText(a.ci?.[m])]),
      ]),
    ),
  );
  if (report.srm)
    console.log(
      `\nSRM: chi2 = ${report.srm.chi2.toFixed(4)}, p = ${report.srm.pValue.toPrecision(4)}${report.srm.mismatch ? "  MISMATCH (p < 0.001): the split is not what was configured" : ""}`,
    );
  const q = report.dataQuality;
  console.log(
    `Data quality: ${q.duplicateEvents} duplicate events, ${q.sessionsWithoutImpression} sessions without an impression, ${q.eventsAboutUnshownCandidates} events about candidates never shown in their session.\n`,
  );
  console.log(
    o.intervals === "sequential"
      ? `Intervals vs control: sequential (always valid at every look; GrowthBook's confidence sequences, N* = ${o.nStar}).`
      : "Intervals vs control: fixed (bootstrap over conveners; valid for one look at the end, not for daily peeking).",
  );
}
