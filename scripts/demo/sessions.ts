import { createRng, type Rng } from "../lib/random";
import { growthbookHash, bucketRanges, chooseArm } from "../assign/assign";
import type { OnlineEvent } from "../online/events";
import type { DemoData } from "./generate";

/**
 * When the demo's A/B experiment starts: its first simulated event follows by 5–65 s, so the experiment's
 * recorded start precedes every event it has, and the interleaving and multileaving experiments the same
 * conveners took part in during October are its CUPED pre-period (scripts/demo/seed.ts).
 */
export const DEMO_AB_START = "2026-11-01T08:00:00Z";

/**
 * Simulated convener sessions for the demo experiment: conveners are split between the baseline (A)
 * and the challenger (B) by GrowthBook's hash, look at the top 20 of their arm's list, open a few
 * profiles and adopt committee members. A candidate is more likely picked when they are a real
 * committee member, so the challenger's better lists give it a truly, modestly better adoption rate.
 */
export function simulateSessions(
  data: DemoData,
  options: { experiment: string; seed: string; conveners?: number; targetEvents?: number },
): OnlineEvent[] {
  const rng = createRng(`${options.seed}:sessions`);
  const conveners = options.conveners ?? 60;
  const target = options.targetEvents ?? 20_000;
  const { gold, lists } = demoCommitteesAndLists(data);
  const ranges = bucketRanges([0.5, 0.5], 1);
  const armSystem = ["baseline", "challenger"];
  const events: OnlineEvent[] = [];
  let t = Date.parse(DEMO_AB_START);
  let n = 0;
  while (events.length < target) {
    const unit = `demo-convener-${rng.int(conveners)}`;
    const arm = chooseArm(growthbookHash(options.experiment, unit), ranges);
    const proposal = data.proposals[rng.int(data.proposals.length)].externalId;
    const shown = lists.get(`${armSystem[arm]}\u0000${proposal}`)!.slice(0, 20);
    const session = `${unit}-s${n++}`;
    const emit = (type: OnlineEvent["type"], extra: Partial<OnlineEvent>) => {
      t += 5_000 + rng.int(60_000);
      events.push({
        eventId: uuid(rng),
        type,
        at: new Date(t).toISOString(),
        experiment: options.experiment,
        arm: arm === 0 ? "A" : "B",
        unitId: unit,
        sessionId: session,
        proposalId: proposal,
        ...extra,
      });
    };
    emit("impression", { items: shown });
    const relevant = gold.get(proposal)!;
    const adopted = new Set<string>();
    shown.forEach((c, i) => {
      const good = relevant.has(c);
      if (rng.next() < (good ? 0.55 : 0.12) * Math.exp(-i / 12)) emit("click", { candidateId: c });
      if (adopted.size < 5 && rng.next() < (good ? 0.45 : 0.03) * Math.exp(-i / 15)) {
        adopted.add(c);
        emit("adopt", { candidateId: c });
      }
    });
    const first = [...adopted][0];
    if (first && rng.next() < 0.1) emit("unadopt", { candidateId: first });
  }
  return events;
}

function uuid(rng: Rng) {
  const h = Array.from({ length: 4 }, () => rng.nextUint32().toString(16).padStart(8, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The demo's committees by proposal, and each system's list of a proposal by `system\0proposal`: what simulated conveners read. */
export function demoCommitteesAndLists(data: DemoData): {
  gold: Map<string, Set<string>>;
  lists: Map<string, string[]>;
} {
  const gold = new Map<string, Set<string>>();
  for (const g of data.gold) {
    if (!gold.has(g.proposal)) gold.set(g.proposal, new Set());
    gold.get(g.proposal)!.add(g.candidate);
  }
  const lists = new Map(
    data.lists.map((l) => [`${l.system}\u0000${l.proposal}`, l.items.map((i) => i.candidate)]),
  );
  return { gold, lists };
}

/**
 * A `finish` for most simulated sessions (a separate stream, so the sessions themselves are unchanged),
 * some minutes after the session's last event: the guardrails' time to finish and empty committees.
 * The challenger's conveners take about a third longer to decide (they read more of a better list), so
 * the demo's time-to-finish guardrail fails while the others stay ok or at risk.
 */
export function simulateFinishes(sessions: readonly OnlineEvent[], seed: string): OnlineEvent[] {
  const rng = createRng(`${seed}:finishes`);
  const last = new Map<string, OnlineEvent>();
  for (const e of sessions) last.set(`${e.unitId}\u0000${e.sessionId}`, e);
  const finishes: OnlineEvent[] = [];
  for (const e of last.values()) {
    if (rng.next() >= 0.9) continue;
    const minutes = (2 + 6 * rng.next()) * (e.arm === "B" ? 1.35 : 1);
    finishes.push({
      eventId: uuid(rng),
      type: "finish",
      at: new Date(Date.parse(e.at) + Math.round(minutes * 60_000)).toISOString(),
      experiment: e.experiment,
      arm: e.arm,
      unitId: e.unitId,
      sessionId: e.sessionId,
      proposalId: e.proposalId,
    });
  }
  return finishes;
}
