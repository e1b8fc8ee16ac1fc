import Papa from "papaparse";
import type { Command } from "commander";
import { aggregationMethods, type AggregationMethod, type GradedRating } from "../../judgement/aggregate";
import { agreementReport, alphaLevels, type AlphaLevel, type Rating } from "../../judgement/agreement";
import { DEFAULT_B, DEFAULT_SEED } from "../../stats/bootstrap";
import {
  curveOptions,
  goldReport,
  type GoldReport,
  type GoldReportOptions,
} from "../../judgement/gold-report";
import { learningCurvesOnThreads } from "../../workers/learning-curves";
import { DEFAULT_DRAWS } from "../../judgement/learning-curve";
import { CliError } from "../errors";
import { ciText, emit, fmt, formatOf, signedCiText, table, type Format } from "../output";
import { progressBar } from "../progress";
import { readText, unitInterval, wholeNumber } from "../options";
import { DEFAULT_SIMILARITY } from "../../judgement/text-report";
import { textEstimators, type TextEstimator } from "../../judgement/text-estimates";
import type { TextReport } from "../../judgement/text-report";
import {
  clusteringHeaders,
  clusteringRows,
  isTextEstimator,
  printTextTables,
  textsOf,
} from "./agreement-texts";

/** "Can't judge" in a ratings file: the rating is left out of every statistic. */
const CANT = /^(cant|can't)$/i;

function parseCsv(text: string, file: string, columns: string[]) {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), {
    header: true,
    skipEmptyLines: "greedy",
  });
  const missing = columns.filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length)
    throw new CliError(`${file} needs the columns ${columns.join(",")}; missing ${missing.join(", ")}.`, 2);
  return parsed.data;
}

/** Ratings `item,rater,grade`; a grade of `cant` (can't judge) is left out. */
export function parseRatingsCsv(text: string, file: string): Rating[] {
  return parseCsv(text, file, ["item", "rater", "grade"]).flatMap((row, i) => {
    if (!row.item || !row.rater)
      throw new CliError(`${file} line ${i + 2}: item and rater must not be empty.`, 2);
    if (CANT.test(row.grade?.trim() ?? "")) return [];
    const value = Number(row.grade);
    if (row.grade === undefined || row.grade.trim() === "" || !Number.isFinite(value))
      throw new CliError(`${file} line ${i + 2}: the grade "${row.grade ?? ""}" is not a number.`, 2);
    return [{ item: row.item, rater: row.rater, value }];
  });
}

const isGrade = (value: number) => Number.isInteger(value) && value >= 1 && value <= 4;

/** Truth grades `item,grade` (1–4), one per item, each an item of the ratings. */
export function parseTruthCsv(
  text: string,
  file: string,
  ratedItems: ReadonlySet<string>,
): Map<string, number> {
  const truth = new Map<string, number>();
  parseCsv(text, file, ["item", "grade"]).forEach((row, i) => {
    const value = Number(row.grade);
    if (!row.item) throw new CliError(`${file} line ${i + 2}: the item must not be empty.`, 2);
    if (row.grade?.trim() === "" || !isGrade(value))
      throw new CliError(
        `${file} line ${i + 2}: the grade "${row.grade ?? ""}" is not a grade from 1 to 4.`,
        2,
      );
    if (truth.has(row.item))
      throw new CliError(`${file} line ${i + 2}: ${row.item} has a truth grade already.`, 2);
    if (!ratedItems.has(row.item))
      throw new CliError(`${file} line ${i + 2}: the item ${row.item} is not in the ratings.`, 2);
    truth.set(row.item, value);
  });
  if (truth.size === 0) throw new CliError(`${file} has no truth grades.`, 2);
  return truth;
}

/** --aggregate's list, split into the plain aggregations and the text-aware estimates (which need --texts). */
function methodList(value: string, texts: boolean): { plain: AggregationMethod[]; text: TextEstimator[] } {
  const parts = [...new Set(value.split(",").map((s) => s.trim()))];
  const known = [...aggregationMethods, ...(texts ? textEstimators : [])];
  const bad = parts.filter((p) => !known.includes(p as AggregationMethod));
  if (bad.length)
    throw new CliError(
      `--aggregate takes ${known.join(", ")} (comma-separated), not "${bad.join(", ")}"` +
        (bad.some(isTextEstimator) ? ": the text-aware estimates need --texts." : "."),
      2,
    );
  return {
    plain: parts.filter((p) => !isTextEstimator(p)) as AggregationMethod[],
    text: parts.filter(isTextEstimator),
  };
}

interface AgreementOptions {
  ratings: string;
  truth?: string;
  texts?: string;
  similarity: number;
  joinUntil?: number;
  aggregate?: string;
  majorityTies: string;
  draws: number;
  level: string;
  bootstrap: number;
  seed: string;
  json?: boolean;
  csv?: boolean;
}

export function registerAgreement(program: Command) {
  program
    .command("agreement")
    .description(
      "Krippendorff's alpha of graded ratings, with a bootstrap CI and leave-one-out alpha per rater; " +
        "with --truth, rater accuracy on gold items, aggregations and learning curves",
    )
    .requiredOption(
      "--ratings <file>",
      "CSV with the columns item,rater,grade (grade 1–4, or cant for can't judge)",
    )
    .option("--truth <file>", "CSV with the columns item,grade: known grades of gold items")
    .option(
      "--texts <file>",
      "with --truth: CSV with the columns item,text (UTF-8; each a rated item, e.g. the candidate's profile): " +
        "adds the clustering hypothesis per proposal (items named proposal:candidate) and the text-aware " +
        `estimates ${textEstimators.join(", ")}; --csv then prints the clustering table`,
    )
    .option(
      "--aggregate <methods>",
      `with --truth: ${aggregationMethods.join(", ")}, and with --texts ${textEstimators.join(", ")} ` +
        "(comma-separated; default all)",
    )
    .option(
      "--similarity <s>",
      "with --texts: the fixed similarity a neighbour needs (each estimate also runs with s(n) = 1 − 1/(n − 1))",
      unitInterval,
      DEFAULT_SIMILARITY,
    )
    .option(
      "--join-until <n>",
      "with --texts: join-until-n's required votes per item (default: the most any item has)",
      wholeNumber(1),
    )
    .option("--majority-ties <how>", "undecided (counts as wrong) or coin (a seeded coin picks)", "undecided")
    .option(
      "--draws <n>",
      "with --truth: random draws of n raters per learning-curve point",
      wholeNumber(1),
      DEFAULT_DRAWS,
    )
    .option("--level <level>", `${alphaLevels.join(", ")}`, "ordinal")
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "seed of the bootstrap, the draws and the coin", DEFAULT_SEED)
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(agreement);
}

async function agreement(o: AgreementOptions) {
  const format = formatOf(o);
  if (!alphaLevels.includes(o.level as AlphaLevel))
    throw new CliError(`--level must be one of ${alphaLevels.join(", ")}, not "${o.level}".`, 2);
  if (!["undecided", "coin"].includes(o.majorityTies))
    throw new CliError(`--majority-ties must be undecided or coin, not "${o.majorityTies}".`, 2);
  if (!o.truth && o.aggregate)
    throw new CliError("--aggregate needs --truth: aggregations are scored against the gold items.", 2);
  if (!o.truth && o.texts)
    throw new CliError(
      "--texts needs --truth: the text-aware estimates are scored against the gold items.",
      2,
    );
  const methods = o.aggregate
    ? methodList(o.aggregate, Boolean(o.texts))
    : { plain: aggregationMethods, text: textEstimators };
  const ratings = parseRatingsCsv(await readText(o.ratings, "ratings"), o.ratings);
  let report;
  try {
    report = agreementReport(ratings, o.level as AlphaLevel, { B: o.bootstrap, seed: o.seed });
  } catch (error) {
    throw new CliError(`${o.ratings}: ${(error as Error).message}.`, 2);
  }
  const gold = o.truth ? await goldOf(o, o.truth, ratings, methods.plain) : undefined;
  const texts =
    gold && o.texts
      ? await textsOf({ ...o, texts: o.texts }, gold.graded, gold.truth, methods.text)
      : undefined;
  printAgreement(format, report, gold?.report, texts);
}

/** With --truth: each rater's accuracy on the gold items, the aggregations and their learning curves. */
async function goldOf(
  o: AgreementOptions,
  truthFile: string,
  ratings: Rating[],
  methods: readonly AggregationMethod[],
): Promise<{ report: GoldReport; graded: GradedRating[]; truth: Map<string, number> }> {
  const bad = ratings.find((r) => !isGrade(r.value));
  if (bad)
    throw new CliError(
      `${o.ratings}: the grade ${bad.value} of ${bad.rater} for ${bad.item} is not a grade from 1 to 4 (or cant).`,
      2,
    );
  const truth = parseTruthCsv(
    await readText(truthFile, "truth"),
    truthFile,
    new Set(ratings.map((r) => r.item)),
  );
  const graded: GradedRating[] = ratings.map((r) => ({ item: r.item, rater: r.rater, grade: r.value }));
  const bar = progressBar("learning curves");
  const options: GoldReportOptions = {
    methods,
    coinTies: o.majorityTies === "coin",
    draws: o.draws,
    B: o.bootstrap,
    seed: o.seed,
    onProgress: bar.update,
  };
  // The curves are most of the work: their points shared between two threads.
  const curves = await learningCurvesOnThreads(graded, methods, truth, curveOptions(options));
  bar.stop();
  return { report: goldReport(graded, truth, { ...options, curves }), graded, truth };
}

function printAgreement(
  format: Format,
  report: ReturnType<typeof agreementReport>,
  gold: GoldReport | undefined,
  texts?: TextReport,
) {
  if (format === "json") return emit(format, { ...report, ...gold, ...(texts ? { texts } : {}) }, [], []);
  if (format === "csv" && texts) return emit(format, texts, clusteringHeaders, clusteringRows(texts));
  if (format === "table") {
    console.log(
      table(
        ["level", "alpha", "ci95", "items", "raters", "pairable values"],
        [[report.level, report.alpha, ciText(report.ci), report.items, report.raters, report.pairableValues]],
      ),
    );
    console.log("\nLeave-one-out (alpha without each rater):");
  }
  if (!gold)
    return emit(
      format,
      report,
      ["rater", "ratings", "alpha without rater"],
      report.leaveOneOut.map((r) => [r.rater, r.ratings, r.alpha]),
    );
  if (format === "table") {
    console.log(
      table(
        ["rater", "ratings", "alpha without rater"],
        report.leaveOneOut.map((r) => [r.rater, r.ratings, r.alpha]),
      ),
    );
    printGoldTables(gold);
    if (texts) printTextTables(texts);
  } else {
    emit(
      format,
      gold,
      ["rater", "gold", "exact", "within one", "mean difference", "lower", "upper", "t", "p", "flagged"],
      raterRows(gold),
    );
  }
}

/**
 * Rows of the per-rater table. `asText` is for the terminal: the 95% interval of the mean difference in
 * one column, small p-values in exponent form (not 0.0000); otherwise its bounds are two number columns.
 */
function raterRows(gold: GoldReport, asText = false) {
  const p = (value: number | null) =>
    asText && value !== null && value < 1e-4 ? value.toExponential(2) : value;
  return Object.entries(gold.raters).map(([rater, g]) => [
    rater,
    g.gold,
    g.exact,
    g.withinOne,
    g.meanDifference,
    ...(asText
      ? [signedCiText(g.meanDifferenceCi)]
      : [g.meanDifferenceCi?.lower ?? null, g.meanDifferenceCi?.upper ?? null]),
    g.tStatistic,
    p(g.pValue),
    g.flagged ? "yes" : "no",
  ]);
}

function printGoldTables(gold: GoldReport) {
  console.log(`\nGold items: ${gold.goldItems}. Per rater (grade − truth; flagged when p < 0.01):`);
  console.log(
    table(
      ["rater", "gold", "exact", "within one", "mean difference", "ci95", "t", "p", "flagged"],
      raterRows(gold, true),
    ),
  );
  console.log("\nAggregations, accuracy on the gold items (undecided counts as wrong):");
  console.log(
    table(
      ["method", "accuracy", "ci95"],
      Object.entries(gold.aggregation).map(([m, a]) => [m, a.accuracy, ciText(a.ci)]),
    ),
  );
  console.log("\nLearning curves (accuracy with n raters per item; band: 2.5–97.5% of the draws):");
  const curves = Object.entries(gold.learningCurve);
  const ns = curves[0]?.[1].map((p) => p.n) ?? [];
  console.log(
    table(
      ["method", ...ns.map((n) => `n=${n}`), "all raters", "enough"],
      curves.map(([m, points]) => [
        m,
        ...points.map((p) => `${fmt(p.accuracy, 3)} ${ciText(p.ci, 3)}`),
        gold.enoughRaters[m as AggregationMethod]!.allRaters,
        gold.enoughRaters[m as AggregationMethod]!.suggestedN,
      ]),
    ),
  );
}
