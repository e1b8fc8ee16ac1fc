import { loadFairnessInput } from "../../db/catalog/fairness-input";
import { loadGold } from "../../db/catalog/offline-input";
import { DEFAULT_MIN_GROUP, type SystemFairness } from "../fairness/report";
import { fairnessReportOnThreads } from "../workers/fairness-reports";
import { parseAttributes } from "./commands/fairness-files";
import { withDatabase } from "./database";
import { CliError } from "./errors";
import { FAIRNESS_HEADERS, rowsOf } from "./fairness-output";
import { readText } from "./options";
import { table, type Cell } from "./output";

export interface OfflineFairnessOptions {
  fairness?: string;
  attributes?: string;
  k: number[];
  bootstrap: number;
  seed: string;
}

/** The attributes `--fairness` names, from `--attributes FILE` or else the database; unknown ones refused. */
function chosen(
  names: string[],
  attributes: Map<string, Map<string, string>>,
  source: string,
): Map<string, Map<string, string>> {
  const unknown = names.filter((n) => !attributes.has(n));
  if (unknown.length)
    throw new CliError(
      `--fairness: no attribute ${unknown.join(", ")} in ${source}; known: ${[...attributes.keys()].join(", ") || "none"}.`,
      2,
    );
  return new Map(names.map((n) => [n, attributes.get(n)!]));
}

/**
 * `assay offline --fairness gender,country`: the fairness figures of every system's default-variant lists
 * for those attributes, against the gold committees, with the report's K grid, B and seed. Null when
 * not asked; checked before the report is computed, so a wrong name costs no bootstrap.
 */
export async function offlineFairness(
  o: OfflineFairnessOptions,
  systems: string[] | undefined,
): Promise<Record<string, SystemFairness> | null> {
  if (o.fairness === undefined) {
    if (o.attributes) throw new CliError("--attributes needs --fairness <attributes>: which to report.", 2);
    return null;
  }
  const names = [...new Set(o.fairness.split(",").map((s) => s.trim()))].filter(Boolean);
  if (!names.length) throw new CliError("--fairness needs attribute names, e.g. gender,country.", 2);
  const file = o.attributes
    ? parseAttributes(await readText(o.attributes, "--attributes"), o.attributes, null)
    : null;
  const { input, gold } = await withDatabase(async (db) => ({
    input: await loadFairnessInput(db, { systems }),
    gold: await loadGold(db),
  }));
  const attributes = chosen(names, file ?? input.attributes, file ? o.attributes! : "the database");
  const listed = new Set([...input.lists.values()].flatMap((m) => [...m.keys()]));
  return fairnessReportOnThreads({
    ...input,
    attributes,
    committees: new Map([...gold].filter(([p]) => listed.has(p)).map(([p, members]) => [p, [...members]])),
    ks: o.k,
    minGroup: DEFAULT_MIN_GROUP,
    bootstrap: { B: o.bootstrap, seed: o.seed },
  });
}

export function printFairness(report: Record<string, SystemFairness>, attributes: string) {
  console.log(
    `\n== Fairness and diversity (${attributes}): each group's share of the pool, the committees and the top K; ` +
      `exposure per unit of merit (committee membership); groups under ${DEFAULT_MIN_GROUP} in the pool hidden.`,
  );
  console.log(table(FAIRNESS_HEADERS, rowsOf(report), 4));
}

/** CSV rows in the offline report's columns: the group as `fairness:attribute=value`, its lists as proposals. */
export function fairnessCsvRows(report: Record<string, SystemFairness>): Cell[][] {
  return rowsOf(report).map(([system, attribute, group, measure, value, lower, upper, lists]) => [
    system,
    attribute ? `fairness:${attribute}${group ? `=${group}` : ""}` : "diversity",
    lists,
    measure,
    value,
    lower ?? null,
    upper ?? null,
    null,
    null,
  ]);
}
