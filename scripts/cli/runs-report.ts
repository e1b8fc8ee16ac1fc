import { toCsv } from "../lib/csv";
import type { RunsComparison } from "../eval/compare-runs";
import { fmt, latexText } from "./output";

/** Superscript forms of a to z, for the marks (q has only the modifier letter outside the BMP). */
const SUPERSCRIPT = Array.from("ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ𐞥ʳˢᵗᵘᵛʷˣʸᶻ");
const TEST_NAMES = {
  t: "paired Student's t-test",
  wilcoxon: "Wilcoxon signed-rank test",
  permutation: "paired sign-flip permutation test",
} as const;
const DIGITS = 4;

/** The letters of the runs `run` is significantly better than on `measure`, in run order. */
function letters(report: RunsComparison, run: number, measure: string): string {
  const letterOf = new Map(report.runs.map((r) => [r.name, r.letter]));
  return report.runs[run].better[measure].map((name) => letterOf.get(name)!).join("");
}

const superscript = (plain: string) => Array.from(plain, (c) => SUPERSCRIPT[c.charCodeAt(0) - 97]).join("");
/** As ranx prints scores: a fixed number of decimals, whole numbers included. */
const value = (v: number | null) => (v === null ? fmt(v) : v.toFixed(DIGITS));

/** One sentence on what the marks mean, and one on the query sets when they differ. */
export function reportNotes(report: RunsComparison): string[] {
  const notes: string[] = [];
  const pairsPerMeasure = (report.runs.length * (report.runs.length - 1)) / 2;
  if (report.runs.length > 1) {
    // Two runs make one pair per measure: nothing to adjust.
    const adjusted =
      pairsPerMeasure > 1 ? `, Holm-adjusted over the ${pairsPerMeasure} pairs of each measure` : "";
    notes.push(
      `A superscript letter names a run this value is significantly better than: ${TEST_NAMES[report.test]} over queries${adjusted}, p ≤ ${report.alpha}.`,
    );
  }
  if (!report.sameQueries) {
    notes.push(
      `The runs were evaluated on different queries (${report.runs.map((r) => `${r.name}: ${r.queries}`).join(", ")}): each mean is over the run's own queries, and each pair is tested on the queries both runs have.`,
    );
  }
  if (report.untested.length && report.runs.length > 1)
    notes.push(`Not tested (no per-query values to pair): ${report.untested.join(", ")}.`);
  return notes;
}

/** A plain-text table as ranx prints a report: #, run, one column per measure, marks as superscripts. */
export function runsTable(report: RunsComparison): string {
  const headers = ["#", "run", ...report.measures];
  const rows = report.runs.map((r, i) => [
    r.letter,
    r.name,
    ...report.measures.map((m) => value(r.means[m]) + superscript(letters(report, i, m))),
  ]);
  const width = (s: string) => Array.from(s).length;
  const widths = headers.map((h, c) => Math.max(width(h), ...rows.map((row) => width(row[c]))));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell + " ".repeat(widths[c] - width(cell)))
      .join("  ")
      .trimEnd();
  return [
    ...reportNotes(report),
    "",
    line(headers),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
  ]
    .join("\n")
    .replace(/^\n/, "");
}

/** A Markdown (GitHub) table of the same cells, notes below it. */
export function runsMarkdown(report: RunsComparison): string {
  const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
  const head = `| # | run | ${report.measures.map(cell).join(" | ")} |`;
  const rule = `|:-:|:--|${report.measures.map(() => "--:").join("|")}|`;
  const rows = report.runs.map(
    (r, i) =>
      `| ${r.letter} | ${cell(r.name)} | ${report.measures.map((m) => value(r.means[m]) + superscript(letters(report, i, m))).join(" | ")} |`,
  );
  const notes = reportNotes(report);
  return [head, rule, ...rows, ...(notes.length ? ["", ...notes] : [])].join("\n");
}

/**
 * A LaTeX table laid out as ranx's `Report.to_latex`: booktabs rules, the best value of each measure
 * in bold, marks as superscript letters and the letters a value is not marked with as \hphantom, so
 * that the numbers stay aligned.
 */
export function runsLatex(report: RunsComparison): string {
  const best = new Map(
    report.measures.map((m) => {
      let bestRun = -1;
      report.runs.forEach((r, i) => {
        const v = r.means[m];
        if (v === null) return;
        const current = bestRun < 0 ? null : report.runs[bestRun].means[m]!;
        if (current === null || (report.lowerIsBetter.includes(m) ? v < current : v > current)) bestRun = i;
      });
      return [m, bestRun];
    }),
  );
  const caption = [
    "Overall effectiveness of the runs. The best results are highlighted in boldface.",
    ...(report.runs.length > 1
      ? [
          `Superscripts denote significant differences in ${TEST_NAMES[report.test]}${report.runs.length > 2 ? " (Holm-adjusted)" : ""} with $p \\le ${report.alpha}$.`,
        ]
      : []),
    ...(report.sameQueries
      ? []
      : ["Runs evaluated on different queries are compared on the queries both have."]),
  ];
  const rows = report.runs.map((r, i) => {
    const cells = report.measures.map((m) => {
      const number = best.get(m) === i ? `\\textbf{${value(r.means[m])}}` : value(r.means[m]);
      const marks = letters(report, i, m);
      const phantoms = report.runs
        .filter((o, j) => j !== i && !marks.includes(o.letter))
        .map((o) => o.letter)
        .join("");
      return `${number}${marks ? `$^{${marks}}$` : ""}${phantoms ? `\\hphantom{$^{${phantoms}}$}` : ""}`;
    });
    return `${r.letter} &\n${latexText(r.name)} &\n${cells.join(" &\n")} \\\\`;
  });
  return [
    "% Add in preamble: \\usepackage{graphicx} \\usepackage{booktabs}",
    "% To change the table size, act on the resizebox argument `0.8`.",
    "\\begin{table*}[ht]",
    "\\centering",
    `\\caption{${caption.join(" ")}}`,
    "\\resizebox{0.8\\textwidth}{!}{",
    `\\begin{tabular}{c|l${"|c".repeat(report.measures.length)}}`,
    "\\toprule",
    `\\textbf{\\#} & \\textbf{Run} & ${report.measures.map((m) => `\\textbf{${latexText(m)}}`).join(" & ")} \\\\`,
    "\\midrule",
    ...rows,
    "\\bottomrule",
    "\\end{tabular}",
    "}",
    "\\label{tab:results}",
    "\\end{table*}",
  ].join("\n");
}

/**
 * CSV through toCsv: one row per run, each measure's value (a number) and, beside it, the letters of
 * the runs it is significantly better than.
 */
export function runsCsv(report: RunsComparison): string {
  const headers = ["#", "run", "queries", ...report.measures.flatMap((m) => [m, `${m} better than`])];
  const rows = report.runs.map((r, i) => [
    r.letter,
    r.name,
    r.queries,
    ...report.measures.flatMap((m) => [r.means[m], letters(report, i, m)]),
  ]);
  return toCsv(headers, rows);
}
