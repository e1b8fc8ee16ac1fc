import { createRng } from "../lib/random";
import { bucketRanges, chooseArm, growthbookHash } from "../assign/assign";
import { teamDraftMultileave } from "../interleaving/multileave";
import type { OnlineEvent } from "../online/events";
import type { DemoData } from "./generate";
import { demoCommitteesAndLists } from "./sessions";
import { sessionEmitter, simulateChoices } from "./interleaving";
import type { Db } from "../../db/platform/client";
import { candidates, exposures, listItems, proposals, rankedLists, systems } from "../../db/schema";
import { createExperiment, getExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { ingestEvents } from "../../db/experiments/events";
import { refreshEventSessions } from "../../db/experiments/event-sessions";
import { experimentSchema } from "../inputs/experiments";
import { dateDemoExperiment } from "./run-dates";

export const DEMO_MULTILEAVE = "reviewer-ranker-multileaved";
export const HYBRID = "hybrid";
/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher, SIGIR 2009). */
const RRF_K = 60;
const SYSTEMS = ["baseline", HYBRID, "challenger"];
/** After the interleaving experiment and before the A/B one, inside the A/B's CUPED pre-period. */
export const DEMO_MULTILEAVE_START = "2026-10-12T08:00:00Z";

/**
 * The demo's third system: reciprocal rank fusion of the baseline's and the challenger's lists (score
 * Σ 1/(60 + rank)), so its quality lies between theirs. Derived, not drawn: the demo's other data and its
 * random stream stay as they were. It answers after both (the slower one's latency plus 4 ms to fuse)
 * and needs both built.
 */
export function hybridLists(data: DemoData) {
  const byProposal = new Map<string, DemoData["lists"]>();
  for (const l of data.lists.filter((l) => l.variant === "default"))
    byProposal.set(l.proposal, [...(byProposal.get(l.proposal) ?? []), l]);
  return [...byProposal].flatMap(([proposal, lists]) => {
    if (lists.length < 2) return [];
    const scores = new Map<string, number>();
    for (const l of lists)
      l.items.forEach((it, i) =>
        scores.set(it.candidate, (scores.get(it.candidate) ?? 0) + 1 / (RRF_K + i + 1)),
      );
    const length = Math.max(...lists.map((l) => l.items.length));
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, length);
    return [
      {
        proposal,
        latencyMs: Math.round((Math.max(...lists.map((l) => l.latencyMs)) + 4) * 10) / 10,
        items: ranked.map(([candidate, score], i) => ({ rank: i + 1, candidate, score })),
      },
    ];
  });
}

/**
 * Simulated sessions of the demo's multileaving experiment: the demo's conveners, each session shown the
 * team-draft multileave of the baseline's, the hybrid's and the challenger's top 20 (seeded by the
 * session, as the app does), read with the interleaving demo's behaviour; over eight days from
 * 12 October 2026 (DEMO_MULTILEAVE_START).
 */
export function simulateMultileavedSessions(
  data: DemoData,
  hybrid: ReturnType<typeof hybridLists>,
  options: { seed?: string; conveners?: number; sessions?: number } = {},
): OnlineEvent[] {
  const rng = createRng(`${options.seed ?? "assay-demo"}:multileaving`);
  const conveners = options.conveners ?? 60;
  const count = options.sessions ?? 300;
  const { gold, lists } = demoCommitteesAndLists(data);
  for (const h of hybrid)
    lists.set(
      `${HYBRID}\u0000${h.proposal}`,
      h.items.map((i) => i.candidate),
    );
  const proposalsWithLists = data.proposals.filter((p) =>
    SYSTEMS.every((s) => lists.has(`${s}\u0000${p.externalId}`)),
  );
  const ranges = bucketRanges([1 / 3, 1 / 3, 1 / 3], 1);
  const events: OnlineEvent[] = [];
  const start = Date.parse(DEMO_MULTILEAVE_START);
  const span = 8 * 86_400_000;
  for (let n = 0; n < count; n++) {
    const unit = `demo-convener-${rng.int(conveners)}`;
    // The arm only splits the logging; everyone sees the multileave.
    const arm = ["A", "B", "C"][chooseArm(growthbookHash(DEMO_MULTILEAVE, unit), ranges)];
    const proposal = proposalsWithLists[rng.int(proposalsWithLists.length)].externalId;
    const session = `${unit}-m${n}`;
    const merged = teamDraftMultileave(
      SYSTEMS.map((system) => ({ system, list: lists.get(`${system}\u0000${proposal}`)!.slice(0, 20) })),
      { depth: 20, seed: DEMO_MULTILEAVE, sessionId: session },
    );
    const emit = sessionEmitter(rng, events, start + Math.floor((n / count) * span), {
      experiment: DEMO_MULTILEAVE,
      arm,
      unitId: unit,
      sessionId: session,
      proposalId: proposal,
    });
    emit("impression", { items: merged.items, teams: merged.teams });
    simulateChoices(rng, merged.items, gold.get(proposal)!, emit);
  }
  return events;
}

/** The hybrid system and its lists in the database (build figures: both systems built, then fused). */
async function seedHybrid(db: Db, data: DemoData, hybrid: ReturnType<typeof hybridLists>) {
  const [base, challenger] = ["baseline", "challenger"].map((k) => data.systems.find((s) => s.key === k)!);
  const [system] = await db
    .insert(systems)
    .values({
      key: HYBRID,
      name: "Hybrid (rank fusion of keyword and embedding)",
      version: "1.0",
      buildSeconds: base.buildSeconds + challenger.buildSeconds,
      memoryMb: base.memoryMb + challenger.memoryMb,
    })
    .returning({ id: systems.id });
  const proposalId = new Map(
    (await db.select({ id: proposals.id, key: proposals.externalId }).from(proposals)).map((p) => [
      p.key,
      p.id,
    ]),
  );
  const candidateId = new Map(
    (await db.select({ id: candidates.id, key: candidates.externalId }).from(candidates)).map((c) => [
      c.key,
      c.id,
    ]),
  );
  const listRows = await db
    .insert(rankedLists)
    .values(
      hybrid.map((h) => ({
        systemId: system.id,
        proposalId: proposalId.get(h.proposal)!,
        latencyMs: h.latencyMs,
      })),
    )
    .returning({ id: rankedLists.id });
  const items = hybrid.flatMap((h, i) =>
    h.items.map((it) => ({
      listId: listRows[i].id,
      rank: it.rank,
      candidateId: candidateId.get(it.candidate)!,
      score: it.score,
    })),
  );
  for (let i = 0; i < items.length; i += 5000) await db.insert(listItems).values(items.slice(i, i + 5000));
}

/**
 * The demo's multileaving experiment: baseline (control), hybrid and challenger, the sessions above
 * stored as events, then stopped, a finished comparison whose preference matrix and Copeland ranking the
 * analyst's list opens.
 */
export async function seedDemoMultileave(db: Db, data: DemoData) {
  const hybrid = hybridLists(data);
  await seedHybrid(db, data, hybrid);
  await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: DEMO_MULTILEAVE,
      name: "Multileaved: keyword baseline, rank-fusion hybrid and embedding ranker",
      kind: "interleaving",
      method: "multileaving",
      arms: SYSTEMS.map((system, i) => ({ key: "ABC"[i], system, weight: 1 / 3 })),
      control: "A",
    }),
  );
  await setExperimentStatus(db, "cli", DEMO_MULTILEAVE, "running");
  const running = (await getExperiment(db, DEMO_MULTILEAVE))!;
  const simulated = simulateMultileavedSessions(data, hybrid);
  const armOf = new Map(simulated.map((e) => [e.unitId, e.arm]));
  await db.insert(exposures).values(
    [...armOf].map(([unit, arm]) => ({
      experimentId: running.id,
      unit,
      armId: running.arms.find((a) => a.key === arm)!.id,
    })),
  );
  for (let i = 0; i < simulated.length; i += 1000)
    await ingestEvents(db, running, simulated.slice(i, i + 1000), {
      checkArm: false,
      now: Date.parse("2030-01-01T00:00:00Z"),
    });
  await refreshEventSessions(db, running.id);
  await setExperimentStatus(db, "cli", DEMO_MULTILEAVE, "stopped");
  await dateDemoExperiment(db, DEMO_MULTILEAVE, DEMO_MULTILEAVE_START);
}
