import Papa from "papaparse";
import type { z } from "zod";
import { attributeRow, goldRow, listItemRow, proposalRow } from "../../inputs/import-rows";
import { parseQrels } from "../../eval/trec";
import { FormatError } from "../../eval/trec-reader";
import { parseFairnessTarget } from "../../inputs/fairness-targets";
import { CliError } from "../errors";

function rowsOf<T extends z.ZodTypeAny>(text: string, file: string, schema: T, columns: string[]) {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), {
    header: true,
    skipEmptyLines: "greedy",
  });
  const missing = columns.filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length)
    throw new CliError(`${file} needs the columns ${columns.join(",")}; missing ${missing.join(", ")}.`, 2);
  return parsed.data.map((row, i) => {
    const result = schema.safeParse(row);
    if (!result.success)
      throw new CliError(
        `${file} line ${i + 2}: ${result.error.issues.map((x) => x.message).join("; ")}.`,
        2,
      );
    return result.data as z.infer<T>;
  });
}

/** Lists in the import format (system,proposal,rank,candidate[,score,variant]): one variant's lists. */
export function parseLists(text: string, file: string, variant: string) {
  const lists = new Map<string, Map<string, string[]>>();
  const seen = new Set<string>();
  rowsOf(text, file, listItemRow, ["system", "proposal", "rank", "candidate"]).forEach((row, i) => {
    if (row.variant !== variant) return;
    const key = `${row.system}\u0000${row.proposal}\u0000${row.rank}`;
    if (seen.has(key))
      throw new CliError(
        `${file} line ${i + 2}: ${row.system} has rank ${row.rank} twice for ${row.proposal}.`,
        2,
      );
    seen.add(key);
    const bySystem = lists.get(row.system) ?? new Map<string, string[]>();
    const list = bySystem.get(row.proposal) ?? [];
    list[row.rank - 1] = row.candidate;
    bySystem.set(row.proposal, list);
    lists.set(row.system, bySystem);
  });
  if (lists.size === 0) throw new CliError(`${file} has no lists of the variant "${variant}".`, 2);
  // Ranks need not be consecutive: the order is what counts.
  for (const bySystem of lists.values())
    for (const [proposal, list] of bySystem)
      bySystem.set(
        proposal,
        list.filter((c) => c !== undefined),
      );
  return lists;
}

/** Attributes `candidate,attribute,value`: one value per candidate and attribute. */
export function parseAttributes(text: string, file: string, known: ReadonlySet<string> | null) {
  const attributes = new Map<string, Map<string, string>>();
  rowsOf(text, file, attributeRow, ["candidate", "attribute", "value"]).forEach((row, i) => {
    if (known && !known.has(row.candidate))
      throw new CliError(
        `${file} line ${i + 2}: the candidate ${row.candidate} is not in the candidates.`,
        2,
      );
    const values = attributes.get(row.attribute) ?? new Map<string, string>();
    if (values.has(row.candidate))
      throw new CliError(`${file} line ${i + 2}: ${row.candidate} has a ${row.attribute} already.`, 2);
    values.set(row.candidate, row.value);
    attributes.set(row.attribute, values);
  });
  if (attributes.size === 0) throw new CliError(`${file} has no attributes.`, 2);
  return attributes;
}

/** Candidate ids of a candidates import file (external_id,…). */
export function parseCandidateIds(text: string, file: string): Set<string> {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), {
    header: true,
    skipEmptyLines: "greedy",
  });
  if (!parsed.meta.fields?.includes("external_id"))
    throw new CliError(`${file} needs the column external_id.`, 2);
  return new Set(parsed.data.map((r) => r.external_id?.trim()).filter(Boolean));
}

/** Subtopic qrels `topic subtopic candidate judgment` (the TREC diversity format); judgment > 0 counts. */
export function parseSubtopicQrels(text: string, file: string) {
  const aspects = new Map<string, Map<string, Set<string>>>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const parts = line.trim().split(/\s+/);
    const judgment = Number(parts[3]);
    if (parts.length !== 4 || !Number.isFinite(judgment))
      throw new CliError(`${file} line ${i + 1}: expected "topic subtopic candidate judgment".`, 2);
    if (judgment <= 0) return;
    const [topic, subtopic, candidate] = parts;
    const judged = aspects.get(topic) ?? new Map<string, Set<string>>();
    judged.set(candidate, (judged.get(candidate) ?? new Set()).add(subtopic));
    aspects.set(topic, judged);
  });
  return aspects;
}

/** Committees in the gold import format (proposal,candidate): proposal → its members. */
export function parseCommittees(text: string, file: string) {
  const committees = new Map<string, string[]>();
  for (const row of rowsOf(text, file, goldRow, ["proposal", "candidate"]))
    committees.set(row.proposal, [...(committees.get(row.proposal) ?? []), row.candidate]);
  if (committees.size === 0) throw new CliError(`${file} has no committee members.`, 2);
  return committees;
}

/** Each proposal's subject, from a proposals import file (external_id,…,subject). */
export function parseSubjects(text: string, file: string) {
  const rows = rowsOf(text, file, proposalRow, ["external_id", "subject"]);
  return new Map(rows.map((row) => [row.external_id, row.subject ?? ""]));
}

/**
 * `--target attribute=value:share` (repeatable): the share the analyst expects of a group, 0–1, for an
 * attribute and value the attributes file has.
 */
export function parseTargets(
  specs: readonly string[],
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>,
) {
  const targets = new Map<string, Map<string, number>>();
  for (const spec of specs) {
    const parsed = parseFairnessTarget(spec);
    if (!parsed.ok) throw new CliError(`--target ${spec}: ${parsed.error}.`, 2);
    const { attribute, value, share } = parsed.value;
    const values = attributes.get(attribute);
    if (!values)
      throw new CliError(
        `--target ${spec}: no attribute ${attribute} in --attributes (${[...attributes.keys()].join(", ")}).`,
        2,
      );
    if (![...values.values()].includes(value))
      throw new CliError(`--target ${spec}: no candidate has ${attribute} ${value}.`, 2);
    targets.set(attribute, (targets.get(attribute) ?? new Map()).set(value, share));
  }
  return targets;
}

/** Graded qrels (`topic iteration candidate grade`, trec_eval's format): the merit of each candidate. */
export function parseMeritQrels(text: string, file: string) {
  try {
    return parseQrels(text, file);
  } catch (error) {
    if (error instanceof FormatError) throw new CliError(`--merit-qrels: ${error.message}`, 2);
    throw error;
  }
}
