import Papa from "papaparse";

export type FileFormat = "csv" | "jsonl";

/** One record of an import file with the line it starts on (1-based, as an editor shows it). */
export interface SourceRecord {
  line: number;
  values: Record<string, unknown>;
}

export interface RowError {
  line: number;
  message: string;
}

export type ParseResult = { records: SourceRecord[]; errors: RowError[]; columns: string[] };

export function detectFormat(fileName: string, text: string): FileFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return "jsonl";
  return text.trimStart().startsWith("{") ? "jsonl" : "csv";
}

export function parseImportFile(text: string, format: FileFormat): ParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // spreadsheet exports often start with a BOM
  return format === "csv" ? parseCsv(body) : parseJsonl(body);
}

function parseCsv(text: string): ParseResult {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  let header: string[] | null = null;
  let line = 1;
  let previousCursor = 0;
  // Step mode gives the cursor after each row, so a quoted field with line breaks still yields the
  // right line number for the rows after it.
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    step: (result) => {
      const rowLine = line;
      const cursor = result.meta.cursor;
      line += countNewlines(text, previousCursor, cursor);
      previousCursor = cursor;
      const cells = result.data;
      if (cells.length === 1 && cells[0].trim() === "") return; // blank line
      if (!header) {
        header = cells.map((c) => c.trim());
        return;
      }
      for (const e of result.errors) errors.push({ line: rowLine, message: e.message });
      if (cells.length !== header.length) {
        errors.push({ line: rowLine, message: `has ${cells.length} fields, the header has ${header.length}` });
        return;
      }
      const values: Record<string, unknown> = {};
      header.forEach((column, i) => (values[column] = cells[i]));
      records.push({ line: rowLine, values });
    },
  });
  return { records, errors, columns: header ?? [] };
}

function countNewlines(text: string, from: number, to: number) {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function parseJsonl(text: string): ParseResult {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  const columns = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ line: i + 1, message: `is not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push({ line: i + 1, message: "is not a JSON object" });
      continue;
    }
    for (const key of Object.keys(value)) columns.add(key);
    records.push({ line: i + 1, values: value as Record<string, unknown> });
  }
  return { records, errors, columns: [...columns] };
}
