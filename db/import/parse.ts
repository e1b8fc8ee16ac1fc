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

/** The format from the file name, else from the first character of the content (text or bytes). */
export function detectFormat(fileName: string, content: string | Uint8Array): FileFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return "jsonl";
  const start = typeof content === "string" ? content : new TextDecoder().decode(content.subarray(0, 256));
  return start
    .replace(/^\ufeff/, "")
    .trimStart()
    .startsWith("{")
    ? "jsonl"
    : "csv";
}

/**
 * An import file's bytes as text, or the first line that is not UTF-8. Decoding leniently would store
 * a Latin-1 "Jürgen" as "J\ufffdrgen" for good; a UTF-8 byte-order mark is fine (and dropped).
 */
export function decodeImportBytes(bytes: Uint8Array): { text: string } | { error: RowError } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    // Only on failure: find the line. A newline byte is never part of a multi-byte UTF-8 character.
    const strict = new TextDecoder("utf-8", { fatal: true });
    let line = 1;
    for (let start = 0; start <= bytes.length; line++) {
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      try {
        strict.decode(bytes.subarray(start, end));
      } catch {
        return {
          error: {
            line,
            message:
              "is not valid UTF-8 text (the file is perhaps Latin-1 or Windows-1252): save it as UTF-8 and import it again",
          },
        };
      }
      start = end + 1;
    }
    return {
      error: { line: 1, message: "is not valid UTF-8 text: save the file as UTF-8 and import it again" },
    };
  }
}

export function parseImportFile(text: string, format: FileFormat): ParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // spreadsheet exports often start with a BOM
  if (format === "jsonl") return parseJsonl(body);
  const state: CsvState = { header: null, line: 1 };
  return { ...parseCsvBlock(body, state), columns: state.header ?? [] };
}

/**
 * What a CSV file read block by block carries from one block to the next: the header, the line the next
 * block starts on, and the delimiter and line break Papa detected in the first block (detecting again
 * per block could read a later block differently).
 */
export interface CsvState {
  header: string[] | null;
  line: number;
  delimiter?: string;
  newline?: string;
}

/** The records of `text`, a run of whole CSV rows that starts on line `state.line`; advances `state`. */
export function parseCsvBlock(
  text: string,
  state: CsvState,
): { records: SourceRecord[]; errors: RowError[] } {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  let previousCursor = 0;
  // Step mode gives the cursor after each row, so a quoted field with line breaks still yields the
  // right line number for the rows after it.
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    delimiter: state.delimiter,
    newline: state.newline as Papa.ParseConfig["newline"],
    step: (result) => {
      const rowLine = state.line;
      const cursor = result.meta.cursor;
      state.line += countNewlines(text, previousCursor, cursor);
      previousCursor = cursor;
      state.delimiter ??= result.meta.delimiter;
      state.newline ??= result.meta.linebreak;
      const cells = result.data;
      if (cells.length === 1 && cells[0].trim() === "") return; // blank line
      if (!state.header) {
        state.header = cells.map((c) => c.trim());
        errors.push(...headerErrors(state.header));
        return;
      }
      const row = csvRecord(state.header, cells, rowLine, result.errors);
      errors.push(...row.errors);
      if (row.record) records.push(row.record);
    },
  });
  // The block ends with a line break: the rows after it start on the line after the last counted.
  state.line += countNewlines(text, previousCursor, text.length);
  return { records, errors };
}

/** A row as a record, with its problems (a row Papa could not parse cleanly is still checked, as before). */
function csvRecord(
  header: string[],
  cells: string[],
  line: number,
  parseErrors: { message: string }[],
): { record?: SourceRecord; errors: RowError[] } {
  const errors = parseErrors.map((e) => ({ line, message: e.message }));
  if (cells.length !== header.length) {
    errors.push({ line, message: `has ${cells.length} fields, the header has ${header.length}` });
    return { errors };
  }
  const withNul = header.filter((_, i) => cells[i].includes("\u0000"));
  if (withNul.length) return { errors: [...errors, { line, message: nulMessage(withNul) }] };
  const values: Record<string, unknown> = {};
  header.forEach((column, i) => (values[column] = cells[i]));
  return { record: { line, values }, errors };
}

/** A header that repeats a column (the last would silently win), leaves one unnamed, or holds a NUL. */
function headerErrors(header: string[]): RowError[] {
  const errors: RowError[] = [];
  const repeated = [...new Set(header.filter((c, i) => c !== "" && header.indexOf(c) !== i))];
  if (repeated.length)
    errors.push({
      line: 1,
      message: `the header repeats the column${repeated.length > 1 ? "s" : ""} ${repeated.join(", ")}`,
    });
  const unnamed = header.flatMap((c, i) => (c === "" ? [i + 1] : []));
  if (unnamed.length && header.length > 1)
    errors.push({ line: 1, message: `the header has no name for column ${unnamed.join(", ")}` });
  if (header.some((c) => c.includes("\u0000")))
    errors.push({ line: 1, message: "the header has a NUL character" });
  return errors;
}

const nulMessage = (fields: string[]) =>
  `has a NUL character in ${fields.join(", ")} (PostgreSQL cannot store it; remove it from the file)`;

/** The fields of a JSONL record that hold a NUL anywhere in their value (or name). */
function fieldsWithNul(values: Record<string, unknown>): string[] {
  const hasNul = (v: unknown): boolean =>
    typeof v === "string"
      ? v.includes("\u0000")
      : Array.isArray(v)
        ? v.some(hasNul)
        : typeof v === "object" && v !== null
          ? Object.entries(v).some(([k, x]) => k.includes("\u0000") || hasNul(x))
          : false;
  return Object.entries(values)
    .filter(([k, v]) => k.includes("\u0000") || hasNul(v))
    .map(([k]) => JSON.stringify(k).slice(1, -1));
}

/**
 * The keys of a JSON object's top level, in order and with repeats (JSON.parse keeps only the last of
 * a repeated key). `raw` is already known to be one valid JSON object.
 */
function topLevelKeys(raw: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') {
      let j = i + 1;
      while (raw[j] !== '"') j += raw[j] === "\\" ? 2 : 1;
      if (depth === 1 && expectKey) keys.push(JSON.parse(raw.slice(i, j + 1)) as string);
      expectKey = false;
      i = j;
    } else if (c === "{" || c === "[") {
      depth++;
      expectKey = depth === 1;
    } else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 1) expectKey = true;
  }
  return keys;
}

function countNewlines(text: string, from: number, to: number) {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function parseJsonl(text: string): ParseResult {
  const columns = new Set<string>();
  return { ...parseJsonlBlock(text, 1, columns), columns: [...columns] };
}

/** The records of `text`, whole JSONL lines from line `firstLine` on; their keys are added to `columns`. */
export function parseJsonlBlock(
  text: string,
  firstLine: number,
  columns: Set<string>,
): { records: SourceRecord[]; errors: RowError[] } {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === "") continue;
    const line = firstLine + i;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ line, message: `is not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push({ line, message: "is not a JSON object" });
      continue;
    }
    const keys = topLevelKeys(raw);
    const repeated = [...new Set(keys.filter((k, n) => keys.indexOf(k) !== n))];
    if (repeated.length) {
      errors.push({
        line,
        message: `repeats the key${repeated.length > 1 ? "s" : ""} ${repeated.join(", ")}`,
      });
      continue;
    }
    const withNul = fieldsWithNul(value as Record<string, unknown>);
    if (withNul.length) {
      errors.push({ line, message: nulMessage(withNul) });
      continue;
    }
    for (const key of keys) columns.add(key);
    records.push({ line, values: value as Record<string, unknown> });
  }
  return { records, errors };
}
