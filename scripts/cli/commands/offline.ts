import type { Command } from "commander";
import { loadOfflineInput } from "../../../db/catalog/offline-input";
import { createBaselines } from "../../../db/catalog/baselines";
import { DEFAULT_KS, offlineReport, type Estimate } from "../../offline/report";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import { offlineResult } from "../../../db/results/offline";
import { ResultError } from "../../../db/results/parameters";
import { runInProcessReporting } from "../../workers/heavy-tasks";
import { withDatabase } from "../database";
import { CliError } from "../errors";
import {
  ciText,
  csv,
  fmt,
  formatOf,
  setTableStyle,
  signedCiText,
  signedText,
  table,
  type Cell,
} from "../output";
import { cutoffList, pairedTest, readText, recordId, wholeNumber } from "../options";
import { GradesFileError, parseGradesFile, type KnownIds } from "../../offline/grades-file";
import { progressBar } from "../progress";
import { bandList, printScoreSections } from "./offline-scores";
import { offlineViewSchema } from "../../offline/view";
import { integrityCsvRows, printIntegrity } from "../offline-integrity";
import { printProtocol, protocolCsvRows } from "../offline-protocol";
import { groundTruthCsvRows, printGroundTruth } from "../offline-ground-truth";
import { isProtocolName, PROTOCOLS } from "../../offline/protocol";
import { fairnessCsvRows, offlineFairness, printFairness } from "../offline-fairness";
import { reportJson } from "../fairness-output";

export function registerOffline(program: Command) {
  registerReport(program);
  registerBaselines(program);
}

function registerReport(program: Command) {
  program
    .command("offline")
    .description("the tier-1 report: every system's lists against the gold committees in the database")
    .option("--k <list>", "cutoffs", cutoffList, DEFAULT_KS)
    .option("--system <keys>", "only these systems, comma-separated")
    .option("--test <test>", "paired test between systems: t, wilcoxon or permutation", "t")
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "bootstrap seed", DEFAULT_SEED)
    .option(
      "--bands <list>",
      "score band thresholds, e.g. 0.9,0.8,0.5 (default: the deciles of each system's scores)",
      bandList,
    )
    .option("--json", "print JSON")
    .option("--csv", "print CSV (one row per system, group and measure)")
    .option(
      "--format <format>",
      `output: ${OFFLINE_FORMATS.join(", ")} (markdown and latex set every table so; --json and --csv are short for two)`,
    )
    .option(
      "--exclude-conflicts",
      "evaluate the lists without candidates conflicted with the proposal (ranks closed up)",
    )
    .option("--stratify <by>", "bootstrap within each subject, its size kept: subject")
    .option("--from <date>", "only proposals dated on or after this day (YYYY-MM-DD)")
    .option("--to <date>", "only proposals dated on or before this day (YYYY-MM-DD)")
    .option(
      "--max-committee <n>",
      "drop proposals whose committee has more members (counted and listed)",
      wholeNumber(1),
    )
    .option("--protocol <name>", `only the systems whose lists answer this protocol: ${PROTOCOLS.join(", ")}`)
    .option(
      "--campaign <id>",
      "the campaign whose expert grades the committees are set against (default: the newest graded one)",
      recordId,
    )
    .option(
      "--grades <file>",
      "expert grades from a file instead of a campaign: the campaign qrels export's format (proposal 0 candidate rel, rel = grade − 1, one aggregated grade per pair)",
    )
    .option(
      "--fairness <attributes>",
      "also the fairness tables of these group attributes, comma-separated (e.g. gender,country)",
    )
    .option("--attributes <file>", "with --fairness: attributes from this CSV (candidate,attribute,value)")
    .action(offline);
}

interface OfflineOptions {
  k: number[];
  system?: string;
  test: string;
  bootstrap: number;
  seed: string;
  bands?: number[];
  json?: boolean;
  csv?: boolean;
  excludeConflicts?: boolean;
  stratify?: string;
  from?: string;
  to?: string;
  protocol?: string;
  maxCommittee?: number;
  campaign?: number;
  grades?: string;
  format?: string;
  fairness?: string;
  attributes?: string;
}

const OFFLINE_FORMATS = ["table", "json", "csv", "markdown", "latex"] as const;

/** --format, or --json / --csv as before; two different ones are refused. */
function offlineFormat(o: OfflineOptions): (typeof OFFLINE_FORMATS)[number] {
  const legacy = formatOf(o);
  if (o.format === undefined) return legacy;
  if (!(OFFLINE_FORMATS as readonly string[]).includes(o.format))
    throw new CliError(`--format must be ${OFFLINE_FORMATS.join(", ")}, not "${o.format}".`, 2);
  if (legacy !== "table" && legacy !== o.format)
    throw new CliError(`--format ${o.format} and --${legacy} ask for two formats: choose one.`, 2);
  return o.format as (typeof OFFLINE_FORMATS)[number];
}

async function offline(o: OfflineOptions) {
  const format = offlineFormat(o);
  if (format === "markdown" || format === "latex") setTableStyle(format);
  const test = pairedTest(o.test);
  const view = offlineViewSchema.safeParse({
    excludeConflicts: o.excludeConflicts ?? false,
    stratify: o.stratify ?? null,
    from: o.from ?? null,
    to: o.to ?? null,
    ...(o.maxCommittee ? { maxCommittee: o.maxCommittee } : {}),
  });
  if (!view.success)
    throw new CliError(view.error.issues[0].message.replace(/^Stratify/, "--stratify: stratify"), 2);
  if (o.grades && o.campaign)
    throw new CliError("--grades and --campaign both name the expert grades: give one.", 2);
  const { keys: systems, known } = await reportSystems(o.system, o.protocol);
  const grades = o.grades ? await gradesFile(o.grades, known) : undefined;
  const fairness = await offlineFairness(o, systems);
  const bar = progressBar("Bootstrapping");
  // The result service, as the offline page and a snapshot compute it; here on this thread, with a bar.
  const { result: report } = await withDatabase((db) =>
    offlineResult(
      db,
      {
        ks: o.k,
        B: o.bootstrap,
        seed: o.seed,
        test,
        bands: o.bands,
        view: view.data,
        systems,
        campaign: o.campaign,
      },
      runInProcessReporting((d, t) => bar.update(d, t)),
      { grades },
    ).catch((error: unknown) => {
      if (error instanceof ResultError) throw new CliError(`--campaign: ${error.message}`, 2);
      throw error;
    }),
  );
  bar.stop();
  if (!report) throw new Error("unreachable: the lists and gold checked above are gone");
  if (format === "json")
    return console.log(
      JSON.stringify(fairness ? { ...report, fairness: reportJson(fairness) } : report, null, 2),
    );
  if (format === "csv")
    return console.log(
      csv(
        ["system", "group", "proposals", "measure", "value", "ci_lower", "ci_upper", "sd", "variance"],
        [...csvRows(report), ...(fairness ? fairnessCsvRows(fairness) : [])],
      ),
    );
  printReport(report);
  if (fairness) printFairness(fairness, o.fairness!);
}

/**
 * The systems asked for (`--system`, else all), once their lists and gold are checked: an unknown one, or
 * none, is refused with a sentence before anything is computed. With the proposals and candidates known,
 * which a grades file may name.
 */
async function reportSystems(systems: string | undefined, protocol: string | undefined) {
  if (protocol !== undefined && !isProtocolName(protocol))
    throw new CliError(`--protocol ${protocol} is not one of ${PROTOCOLS.join(", ")}.`, 2);
  let keys = systems
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const input = await withDatabase((db) => loadOfflineInput(db, { systems: keys }));
  if (protocol) {
    const answering = input.systems.filter((s) => s.protocol?.split(":")[0] === protocol);
    if (!answering.length)
      throw new CliError(
        `No system's lists answer ${protocol}: import lists with the protocol column ${protocol}:SEED (assay protocol split writes it).`,
        2,
      );
    keys = answering.map((s) => s.key);
    input.systems = answering;
  }
  if (keys) {
    const missing = keys.filter((k) => !input.systems.some((s) => s.key === k));
    if (missing.length)
      throw new CliError(
        `Unknown system${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; known: ${input.systems.map((s) => s.key).join(", ") || "none"}.`,
        2,
      );
  }
  if (input.systems.length === 0)
    throw new CliError("There are no systems with lists yet: import lists, or run `assay baselines`.");
  if (input.gold.size === 0)
    throw new CliError(
      "There are no gold committee members yet: import them with `assay import gold <file>`.",
    );
  return { keys, known: { proposals: new Set(input.proposals.map((p) => p.id)), candidates: input.catalog } };
}

/** `--grades FILE`: its grades, every line checked against the database's proposals and candidates. */
async function gradesFile(file: string, known: KnownIds) {
  try {
    return parseGradesFile(await readText(file, "--grades"), file, known);
  } catch (error) {
    if (error instanceof GradesFileError) throw new CliError(`--grades: ${error.message}`, 2);
    throw error;
  }
}

type OfflineReport = ReturnType<typeof offlineReport>;
type SystemReport = OfflineReport["systems"][number];

/**
 * One CSV row per system, group and measure (with its SD and variance across proposals), a group's
 * weight share and K_hit rows, the overall Rank(g) estimates, then each system's integrity and protocol
 * rows (no spread there).
 */
function csvRows(report: OfflineReport): Cell[][] {
  const rows: Cell[][] = [];
  for (const s of report.systems) {
    for (const [group, g] of [["overall", s.overall] as const, ...Object.entries(s.subjects)]) {
      const row = (measure: string, e: Estimate): Cell[] => [
        ...[s.key, group, g.proposals, measure, e.value, e.ci?.lower ?? null, e.ci?.upper ?? null],
        ...[e.sd ?? null, e.variance ?? null],
      ];
      for (const [measure, e] of Object.entries(g.measures)) rows.push(row(measure, e));
      if (g.weightShare !== undefined) rows.push(row("weight share", { value: g.weightShare, ci: null }));
      // The overall K_hit is the system's own (its groups' kHit are per subject).
      const kHit = group === "overall" ? s.kHit : g.kHit;
      if (kHit) rows.push(row("K_hit median", kHit.median), row("K_hit p90", kHit.p90));
      if (group === "overall") for (const r of rankEstimates(s)) rows.push(row(r.measure, r));
    }
    const r = s.resources;
    const resourceRow = (
      measure: string,
      e: { value: number | null; ci: { lower: number; upper: number } | null },
    ) => [
      s.key,
      "resources",
      r.timed,
      measure,
      e.value,
      e.ci?.lower ?? null,
      e.ci?.upper ?? null,
      null,
      null,
    ];
    rows.push(
      resourceRow("latency_ms p50", r.p50),
      resourceRow("latency_ms p95", r.p95),
      resourceRow("latency_ms max", r.max),
      resourceRow("build_seconds", { value: r.buildSeconds, ci: null }),
      resourceRow("memory_mb", { value: r.memoryMb, ci: null }),
    );
    rows.push(...[...integrityCsvRows(s), ...protocolCsvRows(s)].map((r) => [...r, null, null]));
  }
  rows.push(...groundTruthCsvRows(report).map((r) => [...r, null, null]));
  // Each pairwise comparison as system B against A: the mean difference B − A and its paired interval.
  for (const c of report.comparisons)
    rows.push([
      ...[c.b, `vs ${c.a}`, c.proposals, `${c.measure} difference`, c.difference],
      ...[c.ci?.lower ?? null, c.ci?.upper ?? null, null, null],
    ]);
  return rows;
}

function registerBaselines(program: Command) {
  program
    .command("baselines")
    .description(
      "add reference systems (random, popular, subject-match, pagerank) so every report has a floor to beat",
    )
    .option("--seed <seed>", "seed of the random baseline", "assay-baselines")
    .option("--depth <n>", "list length", wholeNumber(1), 50)
    .action(async (o: { seed: string; depth: number }) => {
      const summary = await withDatabase((db) =>
        createBaselines(db, { seed: o.seed, depth: o.depth }).catch((error: Error) => {
          throw new CliError(`${error.message}.`);
        }),
      );
      for (const s of summary) console.log(`${s.key}: ${s.lists} lists, ${s.items} items`);
    });
}

function printReport(report: OfflineReport) {
  console.log(
    `Tier 1 (offline): lists vs gold committees. 95% bootstrap CIs, B = ${report.parameters.B}, seed ${report.parameters.seed}.`,
  );
  printIntegrity(report);
  if (report.committeeCap) {
    const { max, dropped } = report.committeeCap;
    console.log(
      `Committees larger than ${max}: ${dropped.length} proposals dropped${
        dropped.length
          ? ` (${dropped
              .slice(0, 20)
              .map((d) => `${d.proposal}: ${d.members}`)
              .join(", ")}${dropped.length > 20 ? ", …" : ""})`
          : ""
      }.`,
    );
  }
  for (const s of report.systems) printSystem(report, s);
  printResources(report);
  if (report.comparisons.length) printComparisons(report);
  printGroundTruth(report);
}

function printSystem(report: OfflineReport, s: SystemReport) {
  const u = s.userCoverage;
  console.log(
    `== ${s.name} (${s.key}): ${s.proposals} proposals; user coverage ${fmt(u.share)} (lists for ${u.withList} of ${u.proposals} proposals)`,
  );
  printCutoffs(s, report.parameters.ks);
  printRanks(s);
  printProtocol(s);
  printHints(report, s);
  printIntegrity(report, s);
  console.log(
    table(
      ["subject", "proposals", "weight", "HR@10", "ci95", "SD", "MRR@10", "AP", "K_hit median", "K_hit p90"],
      Object.entries(s.subjects).map(([name, g]) => [
        name,
        g.proposals,
        g.weightShare ?? null,
        g.measures["Success@10"]?.value ?? null,
        ciText(g.measures["Success@10"]?.ci),
        g.measures["Success@10"]?.sd ?? null,
        g.measures["RR@10"]?.value ?? null,
        g.measures.AP.value,
        kHitText(g.kHit?.median),
        kHitText(g.kHit?.p90),
      ]),
    ),
  );
  printScoreSections(s);
  console.log("");
}

/** The source's three criteria side by side: accuracy, prediction time and what building took. */
function printResources(report: OfflineReport) {
  if (
    !report.systems.some(
      (s) => s.resources.timed > 0 || s.resources.buildSeconds !== null || s.resources.memoryMb !== null,
    )
  )
    return console.log(
      "Prediction time: no system's lists carry latency_ms (lists import), nor build_seconds / memory_mb (systems import).\n",
    );
  console.log("Accuracy, prediction time (ms per list, 95% CIs resampling lists) and build:");
  console.log(
    table(
      [
        "system",
        "HR@10",
        "MRR@10",
        "timed lists",
        "p50",
        "ci95",
        "p95",
        "ci95 ",
        "max",
        "build s",
        "memory MB",
      ],
      report.systems.map((s) => {
        const r = s.resources;
        return [
          s.key,
          s.overall.measures["Success@10"]?.value ?? null,
          s.overall.measures["RR@10"]?.value ?? null,
          `${r.timed} of ${r.lists}`,
          r.p50.value,
          ciText(r.p50.ci, 1),
          r.p95.value,
          ciText(r.p95.ci, 1),
          r.max.value,
          r.buildSeconds,
          r.memoryMb,
        ];
      }),
      3,
    ),
  );
  console.log("");
}

/** The measures at each cutoff K, with the failures at K split into recall and ranking. */
function printCutoffs(s: SystemReport, ks: number[]) {
  const m = s.overall.measures;
  console.log(
    table(
      [
        "K",
        "HR@K",
        "ci95",
        "SD(HR)",
        "MRR@K",
        "SD(MRR)",
        "Success(g=2)@K",
        "Success(g=3)@K",
        "Coverage@K",
        "nDCG@K",
        "recall failures",
        "ranking failures",
      ],
      ks.map((k) => {
        const f = s.failureBreakdown.find((x) => x.k === k)!;
        return [
          k,
          m[`Success@${k}`].value,
          ciText(m[`Success@${k}`].ci),
          m[`Success@${k}`].sd ?? null,
          m[`RR@${k}`].value,
          m[`RR@${k}`].sd ?? null,
          m[`Success(g=2)@${k}`].value,
          m[`Success(g=3)@${k}`].value,
          m[`Coverage@${k}`].value,
          m[`nDCG@${k}`].value,
          f.recallFailures,
          f.rankingFailures,
        ];
      }),
    ),
  );
}

/** The Rank(g) distribution's estimates with their CIs: the mean for every g, median and p90 for g ≥ 2 (g = 1's are K_hit). */
function rankEstimates(s: SystemReport): (Estimate & { measure: string })[] {
  return s.rankDistribution.flatMap((r) => [
    { measure: `Rank(g=${r.g}) mean`, value: r.mean, ci: r.meanCi ?? null },
    ...(r.g === 1
      ? []
      : [
          { measure: `Rank(g=${r.g}) median`, value: r.median, ci: r.medianCi ?? null },
          { measure: `Rank(g=${r.g}) p90`, value: r.p90, ci: r.p90Ci ?? null },
        ]),
  ]);
}

/** A subject's K_hit quantile with its CI, as one cell. */
function kHitText(e: Estimate | undefined): string {
  return e ? `${fmt(e.value, 1)} ${ciText(e.ci, 1)}` : "";
}

/** AP, HLU (as published and as a ratio of sums) and pool recall; the distribution of the gold members' ranks by grade; K_hit. */
function printRanks(s: SystemReport) {
  const m = s.overall.measures;
  console.log(
    `AP ${fmt(m.AP.value)} ${ciText(m.AP.ci)} · HLU(a=5) ${fmt(m["HLU(a=5)"].value, 2)} · HLU-ratio(a=5) ${fmt(m["HLU-ratio(a=5)"].value, 2)} · pool recall ${fmt(m.PoolRecall.value)} ${ciText(m.PoolRecall.ci)}`,
  );
  console.log(
    table(
      ["Rank(g)", "mean", "ci95", "median", "ci95 ", "p90", "ci95  ", "variance", "missing", "share missing"],
      s.rankDistribution.map((r) => [
        `g=${r.g}`,
        r.mean,
        ciText(r.meanCi, 2),
        r.median,
        ciText(r.medianCi, 2),
        r.p90,
        ciText(r.p90Ci, 2),
        r.variance,
        r.missing,
        r.missingShare,
      ]),
      2,
    ),
  );
  console.log(
    `K_hit median ${fmt(s.kHit.median.value, 1)} ${ciText(s.kHit.median.ci, 1)}, p90 ${fmt(s.kHit.p90.value, 1)} ${ciText(s.kHit.p90.ci, 1)}`,
  );
}

/** The display-depth and weak-subject hints, the query variants' spread and the failure cases. */
function printHints(report: OfflineReport, s: SystemReport) {
  if (s.hints.displayDepth !== null)
    console.log(
      `Hint: show at least ${s.hints.displayDepth} candidates by default (90% of proposals have their first gold member by then).`,
    );
  if (s.hints.weakSubjects.length)
    console.log(`Hint: significantly below the overall HR: ${s.hints.weakSubjects.join(", ")}.`);
  if (s.variants)
    console.log(
      `Query variants: ${s.variants.proposalsWithSeveral} proposals have several; mean spread of HR@10 ${fmt(s.variants.spread["Success@10"])}.`,
    );
  if (s.variants?.tests.length)
    console.log(
      table(
        ["variant", "measure", "proposals", "default", "variant mean", "difference", "p", "p (Holm)", "test"],
        s.variants.tests.map((t) => [
          t.variant,
          t.measure,
          t.proposals,
          t.meanDefault,
          t.meanVariant,
          t.difference,
          t.pValue,
          t.pAdjusted,
          t.method,
        ]),
      ),
    );
  if (s.variants?.friedman.length)
    console.log(
      table(
        ["measure", "variants", "proposals with all", "Friedman χ²", "p", "test"],
        s.variants.friedman.map((f) => [f.measure, f.variants, f.proposals, f.statistic, f.pValue, f.method]),
      ),
    );
  console.log(
    `Failure cases (Success@${report.parameters.failureK} = 0): ${s.failures.length}${
      s.failures.length
        ? `, e.g. ${s.failures
            .slice(0, 3)
            .map((f) => f.proposal)
            .join(", ")}`
        : ""
    }\n`,
  );
}

function printComparisons(report: OfflineReport) {
  console.log(
    `Pairwise comparison (${report.parameters.test}-test, Holm-adjusted over all ${report.comparisons.length} tests):`,
  );
  console.log(
    table(
      ["measure", "a", "b", "proposals", "mean a", "mean b", "b − a", "95% CI of b − a", "p", "p (Holm)"],
      report.comparisons.map((c) => [
        c.measure,
        c.a,
        c.b,
        c.proposals,
        c.meanA,
        c.meanB,
        signedText(c.difference),
        signedCiText(c.ci),
        c.pValue,
        c.pAdjusted,
      ]),
    ),
  );
}
