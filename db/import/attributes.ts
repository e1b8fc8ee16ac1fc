import { inArray } from "drizzle-orm";
import type { RowError } from "./parse";
import type { Row, Writer } from "./index";
import { upsertCounted } from "./upsert";
import { candidateAttributes, candidates } from "../schema";

type Prepared = { candidateId: number; attribute: string; value: string }[];
const CHUNK = 5000;

/**
 * Import entity `attributes` (candidate, attribute, value): group attributes of candidates for the
 * fairness figures. A candidate has one value per attribute (a file may not give two); a later import
 * replaces the value. Each row must name a known candidate.
 */
export const attributesWriter: Writer<Prepared> = {
  async resolve(db, rows: Row<"attributes">[], errors: RowError[], state) {
    const first = state.seen("attributes");
    for (const r of rows) {
      const key = `${r.candidate}\u0000${r.attribute}`;
      const seen = first.get(key);
      if (seen !== undefined)
        errors.push({ line: r.line, message: `${r.attribute} of ${r.candidate} repeats line ${seen}` });
      else first.set(key, r.line);
    }
    const ids = new Map<string, number>();
    const unique = [...new Set(rows.map((r) => r.candidate))];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const found = await db
        .select({ id: candidates.id, externalId: candidates.externalId })
        .from(candidates)
        .where(inArray(candidates.externalId, unique.slice(i, i + CHUNK)));
      for (const c of found) ids.set(c.externalId, c.id);
    }
    const out: Prepared = [];
    for (const r of rows) {
      const candidateId = ids.get(r.candidate);
      if (candidateId === undefined)
        errors.push({ line: r.line, message: `unknown candidate ${r.candidate} (import candidates first)` });
      else out.push({ candidateId, attribute: r.attribute, value: r.value });
    }
    return out;
  },
  write: (tx, rows) =>
    upsertCounted(
      tx,
      candidateAttributes,
      rows,
      [candidateAttributes.candidateId, candidateAttributes.attribute],
      {
        value: candidateAttributes.value,
      },
    ),
};
