import type { ExpertLabels } from "./ground-truth";

/** A grades file that cannot be read as asked; the message names the file and line. */
export class GradesFileError extends Error {}

/** The proposals and candidates a grades file may name (those of the database). */
export interface KnownIds {
  proposals: ReadonlySet<string>;
  candidates: ReadonlySet<string>;
}

/** A value quoted in a message, cut: a long one is data, not something to echo whole. */
const quoted = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * Expert grades from a file in the campaign qrels export's format, so an export feeds straight back in:
 * `proposal 0 candidate rel`, whitespace-separated, one aggregated grade per pair (the export's median,
 * adjudicated grades kept), rel = grade − 1 from 0 (grade 1, irrelevant) to 3 (grade 4, highly relevant).
 * The second field is TREC's unused iteration column. Blank lines are skipped; anything else that is
 * not such a line, an unknown proposal or candidate, or a pair given twice is refused, naming the line.
 */
export function parseGradesFile(text: string, file: string, known: KnownIds): ExpertLabels {
  const labels = new Map<string, Map<string, number>>();
  const lineOf = new Map<string, number>();
  text
    .replace(/^\ufeff/, "")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === "") return;
      const at = `${file} line ${i + 1}`;
      const fields = line.split(/\s+/);
      if (fields.length !== 4)
        throw new GradesFileError(
          `${at}: expected "proposal 0 candidate rel" (4 fields, as the campaign's qrels export writes), found ${fields.length}.`,
        );
      const [proposal, , candidate, rel] = fields;
      if (!/^-?\d+$/.test(rel))
        throw new GradesFileError(
          `${at}: the relevance ${quoted(rel)} is not a whole number (grade − 1, 0 to 3).`,
        );
      const grade = Number(rel) + 1;
      if (grade < 1 || grade > 4)
        throw new GradesFileError(
          `${at}: the relevance ${rel} is out of range: it is the grade − 1, from 0 (grade 1) to 3 (grade 4).`,
        );
      if (!known.proposals.has(proposal))
        throw new GradesFileError(`${at}: unknown proposal ${quoted(proposal)}.`);
      if (!known.candidates.has(candidate))
        throw new GradesFileError(`${at}: unknown candidate ${quoted(candidate)}.`);
      const pair = `${proposal}\u0000${candidate}`;
      const earlier = lineOf.get(pair);
      if (earlier !== undefined)
        throw new GradesFileError(
          `${at}: ${proposal} ${candidate} is graded again (first on line ${earlier}); the file holds one aggregated grade per pair.`,
        );
      lineOf.set(pair, i + 1);
      if (!labels.has(proposal)) labels.set(proposal, new Map());
      labels.get(proposal)!.set(candidate, grade);
    });
  if (lineOf.size === 0) throw new GradesFileError(`${file} holds no grades.`);
  return { source: `grades file ${file}`, labels };
}
