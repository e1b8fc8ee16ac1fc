import Papa from "papaparse";

export type CsvCell = string | number | boolean | null | undefined;

/**
 * A text cell that a spreadsheet would run as a formula: it begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return (OWASP's list). papaparse's own default pattern ends in `.*$` and so misses a formula
 * followed by a line break; this one looks at the first character only.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The one way Assay writes CSV (pages, API, CLI): RFC 4180 quoting by papaparse, and every text cell
 * that could start a formula prefixed with `'` so that Excel, LibreOffice and Sheets show it as text.
 * Numbers stay numbers (a negative number is not text and is not prefixed); null and undefined are empty.
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return Papa.unparse(
    {
      fields: [...headers],
      data: rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? "" : cell))),
    },
    { escapeFormulae: FORMULA_START },
  );
}
