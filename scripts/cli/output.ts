import { toCsv } from "../lib/csv";

export type Cell = string | number | null | undefined;
export type Format = "table" | "json" | "csv";

export function formatOf(options: { json?: boolean; csv?: boolean }): Format {
  if (options.json && options.csv) throw new Error("choose one of --json and --csv");
  return options.json ? "json" : options.csv ? "csv" : "table";
}

export function fmt(value: Cell, digits = 4): string {
  if (value === null || value === undefined || (typeof value === "number" && Number.isNaN(value))) return "—";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  return value;
}

export type TableStyle = "table" | "markdown" | "latex";

let tableStyle: TableStyle = "table";

/**
 * The style every `table()` prints in from now on. A command whose tables come from several modules
 * (`assay offline --format markdown`) sets it once instead of passing it through each of them; one
 * process runs one command, so it never changes under another command's feet.
 */
export function setTableStyle(style: TableStyle) {
  tableStyle = style;
}

/** Whether each column holds only numbers (or nothing): such columns align right. */
function numericColumns(headers: string[], rows: Cell[][]): boolean[] {
  return headers.map(
    (_, i) =>
      rows.length > 0 && rows.every((r) => typeof r[i] === "number" || r[i] === null || r[i] === undefined),
  );
}

/** A table in the style set by setTableStyle: aligned plain text (numbers right-aligned), Markdown or LaTeX. */
export function table(headers: string[], rows: Cell[][], digits = 4): string {
  if (tableStyle === "markdown") return markdownTable(headers, rows, digits);
  if (tableStyle === "latex") return latexTable(headers, rows, digits);
  const text = rows.map((r) => r.map((c) => fmt(c, digits)));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const numeric = numericColumns(headers, rows);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...text.map(line)].join("\n");
}

/** A GitHub Markdown table of the same cells: pipes escaped, number columns right-aligned. */
function markdownTable(headers: string[], rows: Cell[][], digits: number): string {
  const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
  const numeric = numericColumns(headers, rows);
  return [
    `| ${headers.map(cell).join(" | ")} |`,
    `|${numeric.map((n) => (n ? "--:" : ":--")).join("|")}|`,
    ...rows.map((r) => `| ${r.map((c) => cell(fmt(c, digits))).join(" | ")} |`),
  ].join("\n");
}

/** A LaTeX (booktabs) tabular of the same cells: special characters escaped, number columns right-aligned. */
function latexTable(headers: string[], rows: Cell[][], digits: number): string {
  const numeric = numericColumns(headers, rows);
  const line = (cells: string[]) => `${cells.map(latexText).join(" & ")} \\\\`;
  return [
    `\\begin{tabular}{${numeric.map((n) => (n ? "r" : "l")).join("")}}`,
    "\\toprule",
    line(headers),
    "\\midrule",
    ...rows.map((r) => line(r.map((c) => fmt(c, digits)))),
    "\\bottomrule",
    "\\end{tabular}",
  ].join("\n");
}

/** Text set in LaTeX as it reads: its special characters escaped. */
export function latexText(text: string): string {
  return text.replace(/[\\{}$&#^_%~]/g, (c) =>
    c === "\\" ? "\\textbackslash{}" : c === "^" ? "\\^{}" : c === "~" ? "\\~{}" : `\\${c}`,
  );
}

/** CLI `--csv` output, through the one formula-safe CSV writer. */
export function csv(headers: string[], rows: Cell[][]): string {
  return toCsv(headers, rows);
}

export function emit(format: Format, json: unknown, headers: string[], rows: Cell[][], digits = 4) {
  if (format === "json") console.log(JSON.stringify(json, null, 2));
  else if (format === "csv") console.log(csv(headers, rows));
  else console.log(table(headers, rows, digits));
}

export const ciText = (ci: { lower: number; upper: number } | null | undefined, digits = 4) =>
  ci ? `[${ci.lower.toFixed(digits)}, ${ci.upper.toFixed(digits)}]` : "—";

/** A difference with its sign, "+0.0480" or "-0.0120", so its direction reads without a column of context. */
export const signedText = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined || Number.isNaN(v) ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(digits)}`;

/** The interval of a difference, each bound signed: "[+0.0310, +0.0660]". */
export const signedCiText = (ci: { lower: number; upper: number } | null | undefined, digits = 4) =>
  ci ? `[${signedText(ci.lower, digits)}, ${signedText(ci.upper, digits)}]` : "—";
