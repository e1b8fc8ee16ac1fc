import type { MeasureEntry } from "./types";

/**
 * Coverage@K (catalog coverage): distinct candidates in all top-K lists / catalog size. The catalog
 * is given explicitly; a listed candidate outside it is an error, not a silently larger numerator,
 * unless `outsiders: "counted"` (the offline report, whose lists come from the database's candidates)
 * asks to count them as they come.
 */
export function coverage(
  lists: readonly { qid: string; items?: readonly string[] }[],
  k: number,
  catalog: ReadonlySet<string> | undefined,
  options: { outsiders?: "error" | "counted" } = {},
): number {
  if (!catalog) throw new Error(`Coverage@${k} needs the catalog of candidates`);
  if (catalog.size === 0) throw new Error(`Coverage@${k} needs a non-empty catalog`);
  const strict = options.outsiders !== "counted";
  const seen = new Set<string>();
  for (const q of lists) {
    if (!q.items) throw new Error(`Coverage@${k} needs the candidate ids of every list`);
    for (let i = 0; i < Math.min(k, q.items.length); i++) {
      const id = q.items[i];
      if (strict && !catalog.has(id))
        throw new Error(`candidate ${id} in the list of ${q.qid} is not in the catalog`);
      seen.add(id);
    }
  }
  return seen.size / catalog.size;
}

export const Coverage: MeasureEntry = {
  kind: "Coverage",
  definition:
    "distinct candidates in all top-K lists / catalog size (a listed candidate outside the catalog is an error)",
  syntax: { params: [], cutoff: "required", describe: "Coverage@K" },
  aggregation: "corpus",
  perQuery: () => null,
  corpus: (m, lists, catalog) => coverage(lists, m.k!, catalog),
  display: [
    {
      pattern: /^Coverage(?:@(\d+))?$/i,
      show: (m) => ({ label: `Coverage${m[1] ? `@${m[1]}` : ""}`, kind: "rate", direction: "higher" }),
    },
  ],
  reference: {
    test: "scripts/eval/registry/hand-worked.test.ts",
    source:
      "DESIGN.md's definition, worked by hand; the offline report's Coverage@2 in scripts/offline/report.test.ts",
  },
};
