import { sql } from "drizzle-orm";
import type { Db } from "../../db/platform/client";
import { createRng } from "../lib/random";
import type { DemoData } from "./generate";

export interface DemoAttribute {
  candidate: string;
  attribute: string;
  value: string;
}

const COUNTRIES = ["DE", "FR", "NL", "IT", "ES", "PL", "SE"];
const STAGES = ["early", "mid", "senior"];

/** Mean rank of each candidate over one system's lists. */
function meanRanks(data: DemoData, system: string | undefined) {
  const sums = new Map<string, { total: number; n: number }>();
  for (const list of data.lists.filter((l) => l.system === system))
    list.items.forEach((item, i) => {
      const s = sums.get(item.candidate) ?? { total: 0, n: 0 };
      s.total += i + 1;
      s.n++;
      sums.set(item.candidate, s);
    });
  return new Map([...sums].map(([c, s]) => [c, s.total / s.n]));
}

/**
 * Group attributes for the demo's candidates (gender, country, career stage), with a deliberate skew so
 * that the fairness figures show something to find: candidates the last system (the challenger) ranks
 * lower than the first system does are more often women, so the challenger gives women less exposure at
 * the top. Country and career stage carry no skew. About 7% of genders are "unknown". Deterministic; the
 * lists themselves are unchanged.
 */
export function demoAttributes(data: DemoData, seed = "assay-demo-attributes"): DemoAttribute[] {
  const rng = createRng(seed);
  const first = meanRanks(data, data.systems[0]?.key);
  const last = meanRanks(data, data.systems[data.systems.length - 1]?.key);
  const drift = data.candidates.map((c) => {
    const a = first.get(c.externalId);
    const b = last.get(c.externalId);
    return a !== undefined && b !== undefined ? b - a : 0;
  });
  const order = [...drift.keys()].sort((i, j) => drift[i] - drift[j]);
  const quantile = new Map(order.map((i, q) => [i, q / Math.max(order.length - 1, 1)]));
  return data.candidates.flatMap((c, i) => {
    const u = rng.next();
    const women = 0.2 + 0.4 * quantile.get(i)!;
    const gender = u < 0.07 ? "unknown" : u < 0.07 + women ? "f" : "m";
    return [
      { candidate: c.externalId, attribute: "gender", value: gender },
      { candidate: c.externalId, attribute: "country", value: COUNTRIES[rng.int(COUNTRIES.length)] },
      { candidate: c.externalId, attribute: "career_stage", value: STAGES[rng.int(STAGES.length)] },
    ];
  });
}

/** Writes the demo's candidate attributes into a freshly seeded demo database. */
export async function seedDemoAttributes(db: Db, data: DemoData) {
  const rows = demoAttributes(data);
  await db.execute(sql`insert into candidate_attributes (candidate_id, attribute, value)
    select c.id, v.attribute, v.value from json_to_recordset(${JSON.stringify(rows)}::json)
      as v(candidate text, attribute text, value text)
    join candidates c on c.external_id = v.candidate`);
  return rows;
}

/** The demo conveners' institutions (the third small enough to show a "too few conveners" slice). */
const INSTITUTIONS: [string, number][] = [
  ["Uni North", 0.45],
  ["Tech South", 0.4],
  ["Institute East", 0.15],
];

function weighted(u: number, choices: [string, number][]) {
  let total = 0;
  for (const [value, weight] of choices) if (u < (total += weight)) return value;
  return choices[choices.length - 1][0];
}

/**
 * Attributes of the demo's simulated conveners (institution, seniority; about 5% of seniorities
 * "unknown"), by unit, for the A/B page's slices by convener. No skew: the slices should agree.
 */
export function demoConvenerAttributes(units: readonly string[], seed = "assay-demo-conveners") {
  const rng = createRng(seed);
  return [...units].sort().flatMap((unit) => {
    const institution = weighted(rng.next(), INSTITUTIONS);
    const u = rng.next();
    const seniority = u < 0.05 ? "unknown" : u < 0.5 ? "early career" : "senior";
    return [
      { unit, attribute: "institution", value: institution },
      { unit, attribute: "seniority", value: seniority },
    ];
  });
}

/** Writes the attributes of every convener the demo's experiments exposed. */
export async function seedDemoConvenerAttributes(db: Db) {
  const units = await db.execute<{ unit: string }>(sql`select distinct unit from exposures`);
  const rows = demoConvenerAttributes(units.map((u) => u.unit));
  await db.execute(sql`insert into convener_attributes (unit, attribute, value)
    select v.unit, v.attribute, v.value from json_to_recordset(${JSON.stringify(rows)}::json)
      as v(unit text, attribute text, value text)`);
  return rows;
}
