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

/** An aligned plain-text table; numbers right-aligned. */
export function table(headers: string[], rows: Cell[][], digits = 4): string {
  const text = rows.map((r) => r.map((c) => fmt(c, digits)));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const numeric = headers.map(
    (_, i) =>
      rows.length > 0 && rows.every((r) => typeof r[i] === "number" || r[i] === null || r[i] === undefined),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...text.map(line)].join("\n");
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
