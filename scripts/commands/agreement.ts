import Papa from "papaparse";
import type { Command } from "commander";
import { agreementReport, alphaLevels, type AlphaLevel, type Rating } from "../stats/agreement";
import { DEFAULT_B } from "../stats/bootstrap";
import { CliError } from "../cli/errors";
import { ciText, emit, formatOf, table } from "../cli/output";
import { readText, wholeNumber } from "../cli/options";

export function parseRatingsCsv(text: string, file: string): Rating[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), { header: true, skipEmptyLines: "greedy" });
  const missing = ["item", "rater", "grade"].filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length) throw new CliError(`${file} needs the columns item,rater,grade; missing ${missing.join(", ")}.`, 2);
  return parsed.data.map((row, i) => {
    const value = Number(row.grade);
    if (row.grade === undefined || row.grade.trim() === "" || !Number.isFinite(value)) throw new CliError(`${file} line ${i + 2}: the grade "${row.grade ?? ""}" is not a number.`, 2);
    if (!row.item || !row.rater) throw new CliError(`${file} line ${i + 2}: item and rater must not be empty.`, 2);
    return { item: row.item, rater: row.rater, value };
  });
}

export function registerAgreement(program: Command) {
  program
    .command("agreement")
    .description("Krippendorff's alpha of graded ratings, with a bootstrap CI and leave-one-out alpha per rater")
    .requiredOption("--ratings <file>", "CSV with the columns item,rater,grade")
    .option("--level <level>", `${alphaLevels.join(", ")}`, "ordinal")
    .option("--bootstrap <B>", "bootstrap resamples", wholeNumber(1), DEFAULT_B)
    .option("--seed <seed>", "bootstrap seed", "assay")
    .option("--json", "print JSON")
    .option("--csv", "print CSV")
    .action(async (o: { ratings: string; level: string; bootstrap: number; seed: string; json?: boolean; csv?: boolean }) => {
      const format = formatOf(o);
      if (!alphaLevels.includes(o.level as AlphaLevel)) throw new CliError(`--level must be one of ${alphaLevels.join(", ")}, not "${o.level}".`, 2);
      const ratings = parseRatingsCsv(await readText(o.ratings, "ratings"), o.ratings);
      let report;
      try {
        report = agreementReport(ratings, o.level as AlphaLevel, { B: o.bootstrap, seed: o.seed });
      } catch (error) {
        throw new CliError(`${o.ratings}: ${(error as Error).message}.`, 2);
      }
      if (format === "table") {
        console.log(
          table(
            ["level", "alpha", "ci95", "items", "raters", "pairable values"],
            [[report.level, report.alpha, ciText(report.ci), report.items, report.raters, report.pairableValues]],
          ),
        );
        console.log("\nLeave-one-out (alpha without each rater):");
      }
      emit(format, report, ["rater", "ratings", "alpha without rater"], report.leaveOneOut.map((r) => [r.rater, r.ratings, r.alpha]));
    });
}
