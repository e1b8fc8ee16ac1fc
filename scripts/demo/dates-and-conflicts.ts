import { sql } from "drizzle-orm";
import type { Db } from "../../db/platform/client";
import { createRng, shuffled } from "../lib/random";
import type { DemoData } from "./generate";

export interface DemoDatesAndConflicts {
  proposalDates: { proposal: string; date: string }[];
  profileDates: { candidate: string; date: string }[];
  conflicts: { proposal: string; candidate: string; reason: string }[];
}

const DAY = 86_400_000;
const START = Date.parse("2023-01-01T00:00:00Z");
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const reasons = [
  "co-author in the last three years",
  "same department",
  "former doctoral supervisor",
  "declared competitor",
  "collaborator on a current grant",
];

/**
 * Dates and conflicts for the demo, so the offline report's window, leakage and COI@K show something
 * real: proposals spread over two years (2023–2024), most profiles dated before 2023 (a third
 * undated), a dozen profiles dated after a proposal whose top 10 lists them (possible leakage), and
 * about twenty conflicts, most in a system's top 10 (two at rank 1 of a failure case, and rank 2 of
 * the first proposal, which the demo convener opens). Deterministic.
 */
export function demoDatesAndConflicts(data: DemoData, seed = "assay-demo-dates"): DemoDatesAndConflicts {
  const rng = createRng(seed);
  const n = data.proposals.length;
  const proposalDates = data.proposals.map((p, i) => ({
    proposal: p.externalId,
    date: isoDay(START + Math.floor(((i + rng.next()) * 730) / Math.max(n, 1)) * DAY),
  }));
  const dateOf = new Map(proposalDates.map((d) => [d.proposal, d.date]));
  const profile = new Map<string, string>();
  for (const c of data.candidates) {
    if (rng.next() < 1 / 3) continue;
    profile.set(c.externalId, isoDay(Date.parse("2019-01-01T00:00:00Z") + rng.int(4 * 365) * DAY));
  }
  // Top-10 slots of the challenger's lists, to plant leakage and recommended conflicts where they show.
  const topSlots = data.lists
    .filter((l) => l.system === data.systems[data.systems.length - 1]?.key)
    .flatMap((l) => l.items.slice(0, 10).map((it) => ({ proposal: l.proposal, candidate: it.candidate })));
  const picked = shuffled(topSlots, rng);
  const leaks = Math.min(12, Math.floor(picked.length / 4));
  for (const slot of picked.slice(0, leaks)) {
    const after = Date.parse(`${dateOf.get(slot.proposal)}T00:00:00Z`) + (30 + rng.int(170)) * DAY;
    profile.set(slot.candidate, isoDay(after));
  }
  const conflicts = new Map<string, { proposal: string; candidate: string; reason: string }>();
  const add = (proposal: string, candidate: string) =>
    conflicts.set(`${proposal}\u0000${candidate}`, {
      proposal,
      candidate,
      reason: reasons[rng.int(reasons.length)],
    });
  for (const slot of picked.slice(leaks, leaks + Math.min(10, Math.floor(picked.length / 4))))
    add(slot.proposal, slot.candidate);
  // Two of the first system's failure cases (no committee member in its top 30) list a conflicted candidate first.
  const first = data.systems[0]?.key;
  const goldOf = new Map<string, Set<string>>();
  for (const g of data.gold) goldOf.set(g.proposal, (goldOf.get(g.proposal) ?? new Set()).add(g.candidate));
  const failing = data.lists.filter(
    (l) =>
      l.system === first && !l.items.slice(0, 30).some((it) => goldOf.get(l.proposal)?.has(it.candidate)),
  );
  for (const l of failing.slice(0, 2)) if (l.items.length) add(l.proposal, l.items[0].candidate);
  // The demo convener's first proposal shows a conflicted candidate (with its warning) whichever arm they get.
  for (const l of data.lists.filter((x) => x.proposal === data.proposals[0]?.externalId))
    if (l.items.length > 1) add(l.proposal, l.items[1].candidate);
  for (let i = 0; i < Math.min(5, n); i++)
    add(data.proposals[rng.int(n)].externalId, data.candidates[rng.int(data.candidates.length)].externalId);
  return {
    proposalDates,
    profileDates: [...profile].map(([candidate, date]) => ({ candidate, date })),
    conflicts: [...conflicts.values()],
  };
}

/** Writes the demo's dates and conflicts into a freshly seeded demo database, in one transaction. */
export async function seedDemoDatesAndConflicts(db: Db, data: DemoData) {
  const extra = demoDatesAndConflicts(data);
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update proposals p set date = v.date from json_to_recordset(${JSON.stringify(extra.proposalDates)}::json) as v(proposal text, date date) where p.external_id = v.proposal`,
    );
    await tx.execute(
      sql`update candidates c set profile_date = v.date from json_to_recordset(${JSON.stringify(extra.profileDates)}::json) as v(candidate text, date date) where c.external_id = v.candidate`,
    );
    await tx.execute(sql`insert into conflicts (proposal_id, candidate_id, reason)
      select p.id, c.id, v.reason from json_to_recordset(${JSON.stringify(extra.conflicts)}::json) as v(proposal text, candidate text, reason text)
      join proposals p on p.external_id = v.proposal join candidates c on c.external_id = v.candidate`);
  });
  return extra;
}
