import Papa from "papaparse";
import { decodeImportBytes } from "../../../db/import/parse";
import type { GradedRating } from "../../judgement/aggregate";
import type { ItemText } from "../../judgement/clustering";
import { textEstimators, type TextEstimator } from "../../judgement/text-estimates";
import { textReport, type TextReport } from "../../judgement/text-report";
import { CliError } from "../errors";
import { ciText, fmt, table, type Cell } from "../output";
import { readBytes } from "../options";
import { progressBar } from "../progress";

export const isTextEstimator = (name: string): name is TextEstimator =>
  textEstimators.includes(name as TextEstimator);

/**
 * A texts file `item,text`: each item once, each a rated item, each text non-empty, the file UTF-8.
 * Items named `proposal:candidate` are compared within their proposal; otherwise all with all.
 */
export function parseTextsCsv(bytes: Uint8Array, file: string, ratedItems: ReadonlySet<string>): ItemText[] {
  const decoded = decodeImportBytes(bytes);
  if ("error" in decoded)
    throw new CliError(`${file} line ${decoded.error.line}: ${decoded.error.message}.`, 2);
  const parsed = Papa.parse<Record<string, string>>(decoded.text.replace(/^\ufeff/, ""), {
    header: true,
    skipEmptyLines: "greedy",
  });
  const missing = ["item", "text"].filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length)
    throw new CliError(`${file} needs the columns item,text; missing ${missing.join(", ")}.`, 2);
  const seen = new Set<string>();
  const texts = parsed.data.map((row, i) => {
    const where = `${file} line ${i + 2}`;
    if (!row.item) throw new CliError(`${where}: the item must not be empty.`, 2);
    if (!ratedItems.has(row.item))
      throw new CliError(`${where}: the item ${row.item} is not in the ratings.`, 2);
    if (seen.has(row.item)) throw new CliError(`${where}: ${row.item} has a text already.`, 2);
    if (!row.text?.trim()) throw new CliError(`${where}: the text of ${row.item} is empty.`, 2);
    seen.add(row.item);
    return { item: row.item, text: row.text, proposal: "" };
  });
  if (texts.length === 0) throw new CliError(`${file} has no texts.`, 2);
  const byProposal = texts.every((t) => t.item.includes(":"));
  return texts.map((t) => ({ ...t, proposal: byProposal ? t.item.slice(0, t.item.indexOf(":")) : "all" }));
}

export interface TextsOptions {
  texts: string;
  similarity: number;
  joinUntil?: number;
  draws: number;
  seed: string;
  majorityTies: string;
}

/** With --texts: the clustering hypothesis and the text-aware learning curves against the gold items. */
export async function textsOf(
  o: TextsOptions,
  graded: readonly GradedRating[],
  truth: ReadonlyMap<string, number>,
  estimators: readonly TextEstimator[],
): Promise<TextReport> {
  const texts = parseTextsCsv(await readBytes(o.texts, "texts"), o.texts, new Set(graded.map((r) => r.item)));
  const bar = progressBar("text-aware learning curves");
  const report = textReport(texts, graded, truth, {
    estimators,
    similarity: o.similarity,
    target: o.joinUntil,
    draws: o.draws,
    seed: `${o.seed}:texts`,
    coinTies: o.majorityTies === "coin",
    onProgress: bar.update,
  });
  bar.stop();
  return report;
}

const pText = (p: number | null) => (p !== null && p < 1e-4 ? p.toExponential(2) : p);

export const clusteringHeaders = [
  "proposal",
  "items",
  "relevant",
  "inner pairs",
  "inner mean",
  "inner sd",
  "outer pairs",
  "outer mean",
  "outer sd",
  "t",
  "df",
  "p",
  "flagged",
  "pooled variance",
  "mean grades",
  "min grades",
  "gold",
  "mean − truth",
  "lower",
  "upper",
  "truth t",
  "truth p",
];

export function clusteringRows(report: TextReport, forTable = false): Cell[][] {
  const p = forTable ? pText : (x: number | null) => x;
  return report.clustering.map((c) => [
    c.proposal,
    c.items,
    c.relevant,
    c.inner.pairs,
    c.inner.mean,
    c.inner.sd,
    c.outer.pairs,
    c.outer.mean,
    c.outer.sd,
    c.tStatistic,
    c.df,
    p(c.pValue),
    c.flagged ? "yes" : "no",
    c.pooledVariance,
    c.meanGrades,
    c.minGrades,
    c.gold,
    c.truthDifference,
    c.truthDifferenceCi?.lower ?? null,
    c.truthDifferenceCi?.upper ?? null,
    c.truthT,
    p(c.truthP),
  ]);
}

export function printTextTables(report: TextReport) {
  console.log(
    `\nClustering hypothesis per proposal (TF-IDF cosine of the items' texts; inner: both relevant, ` +
      `outer: one relevant; flagged when the inner mean is not above the outer):`,
  );
  console.log(table(clusteringHeaders, clusteringRows(report, true)));
  const ns = report.curves[0]?.points.map((p) => p.n) ?? [];
  console.log(
    `\nText-aware learning curves (accuracy on the gold items with n votes per item; band: 2.5–97.5% ` +
      `of the vote orders; majority ties ${report.majorityTies === "coin" ? "broken by a seeded coin" : "count as wrong"}; ` +
      `fixed s = ${report.similarity}):`,
  );
  console.log(
    table(
      ["method", ...ns.map((n) => `n=${n}`), "all votes", "saved"],
      report.curves.map((c) => [
        c.method,
        ...c.points.map((p) => `${fmt(p.accuracy, 3)} ${ciText(p.ci, 3)}`),
        c.allVotes,
        c.saving ? `${c.saving.gradesSaved} of ${report.grades} (n=${c.saving.n})` : "—",
      ]),
    ),
  );
  console.log(
    "\nAgainst majority vote (difference in accuracy; paired t-test over gold items, p Holm-adjusted across n):",
  );
  console.log(
    table(
      ["method", ...ns.map((n) => `n=${n}`)],
      report.curves
        .slice(1)
        .map((c) => [
          c.method,
          ...c.points.map((p) => `${fmt(p.difference, 3)} (p ${fmt(pText(p.pHolm), 3)})`),
        ]),
    ),
  );
}
