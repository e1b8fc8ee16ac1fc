import { InvalidArgumentError, type Command } from "commander";
import { convenerAttributeRow } from "../../inputs/import-rows";
import type { Correction } from "../../stats/multiple-testing";
import { parseImportFile } from "../../../db/import/parse";
import { CliError } from "../errors";
import { readText } from "../options";

/** The slice flags `assay online` and `assay interleave` share. */
export interface SliceFlags {
  slice?: string;
  subjects?: string;
  convenerAttributes?: string;
  adjust?: Correction;
}

/**
 * `--slice`, `--subjects`, `--convener-attributes` and `--adjust`, with the same words in both commands;
 * `slice` says what a slice of this command's result is.
 */
export function withSliceOptions(command: Command, slice: string): Command {
  return command
    .option("--slice <attribute>", slice, sliceOption)
    .option("--subjects <file>", "JSON object of proposal id to subject, for --slice subject")
    .option(
      "--convener-attributes <file>",
      "CSV of convener (the events' unit), attribute, value: --slice by any of its attributes",
    )
    .option(
      "--adjust <method>",
      "how the slices' p-values are adjusted together: holm (default) or bh (Benjamini–Hochberg)",
      adjustOption,
    );
}

/**
 * The slice flags checked together and their files read, before any events (a bad flag costs no pass
 * over them): the subject of each proposal with `--slice subject`, the sliced attribute's value of each
 * convener with `--slice ATTRIBUTE`; both null without `--slice`.
 */
export async function readSliceFlags(
  o: SliceFlags,
): Promise<{ subjects: Map<string, string> | null; convenerValues: Map<string, string> | null }> {
  if (o.adjust && !o.slice)
    throw new CliError("--adjust corrects the p-values of slices; give --slice too.", 2);
  if (o.slice === "subject" && !o.subjects)
    throw new CliError("--slice subject needs --subjects (a JSON object of proposal id to subject).", 2);
  const convenerValues = await convenerSliceValues(o);
  const subjects = o.subjects && o.slice === "subject" ? await readSubjects(o.subjects) : null;
  return { subjects, convenerValues };
}

/**
 * `--slice`: the proposal's subject (mapped by `--subjects`) or a convener attribute of
 * `--convener-attributes`; which attributes that file has is checked once it is read.
 */
function sliceOption(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError("must name an attribute: subject or one of --convener-attributes.");
  return value.trim();
}

/** `--adjust`: the slices' multiple-comparison correction, as the app offers it. */
function adjustOption(value: string): Correction {
  if (value !== "holm" && value !== "bh")
    throw new InvalidArgumentError("must be holm or bh (Benjamini–Hochberg).");
  return value;
}

/** `--subjects`: a JSON object mapping each proposal id to its subject. */
async function readSubjects(file: string): Promise<Map<string, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readText(file, "subjects"));
  } catch {
    throw new CliError(`--subjects: ${file} is not JSON (an object of proposal id to subject).`, 2);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new CliError(`--subjects: ${file} must be a JSON object of proposal id to subject.`, 2);
  const entries = Object.entries(parsed);
  const bad = entries.find(([, v]) => typeof v !== "string");
  if (bad) throw new CliError(`--subjects: the subject of proposal "${bad[0]}" must be a string.`, 2);
  return new Map(entries as [string, string][]);
}

/**
 * `--convener-attributes`: a CSV of convener (the unit as the events name it), attribute, value, as the
 * import's convener-attributes file (values as given, one per convener and attribute), as attribute →
 * unit → value. A bad row refuses the file, naming its line.
 */
async function readConvenerAttributes(file: string): Promise<Map<string, Map<string, string>>> {
  const { records, errors, columns } = parseImportFile(await readText(file, "convener attributes"), "csv");
  if (errors.length)
    throw new CliError(`--convener-attributes: line ${errors[0].line} ${errors[0].message}.`, 2);
  const missing = ["convener", "attribute", "value"].filter((c) => !columns.includes(c));
  if (missing.length)
    throw new CliError(`--convener-attributes: ${file} needs the columns convener, attribute and value.`, 2);
  const out = new Map<string, Map<string, string>>();
  for (const r of records) {
    const row = convenerAttributeRow.safeParse(r.values);
    if (!row.success)
      throw new CliError(`--convener-attributes: line ${r.line}: ${row.error.issues[0].message}.`, 2);
    const { convener, attribute, value } = row.data;
    const values = out.get(attribute) ?? new Map<string, string>();
    if (values.has(convener))
      throw new CliError(
        `--convener-attributes: line ${r.line}: ${attribute} of ${convener} is given twice.`,
        2,
      );
    out.set(attribute, values.set(convener, value));
  }
  return out;
}

/**
 * The convener attribute `--slice` names, from `--convener-attributes`: refused (exit 2) without the
 * file or when the file has no such attribute, the known ones listed.
 */
async function convenerSliceValues(
  o: Pick<SliceFlags, "slice" | "convenerAttributes">,
): Promise<Map<string, string> | null> {
  if (!o.slice || o.slice === "subject") return null;
  if (!o.convenerAttributes)
    throw new CliError(
      `--slice: unknown slice attribute "${o.slice}"; known: subject, or a convener attribute of --convener-attributes FILE.`,
      2,
    );
  const attributes = await readConvenerAttributes(o.convenerAttributes);
  const values = attributes.get(o.slice);
  if (!values)
    throw new CliError(
      `--slice: unknown slice attribute "${o.slice}"; known: ${["subject", ...[...attributes.keys()].sort()].join(", ")}.`,
      2,
    );
  return values;
}
