import { createRng, type Rng } from "../lib/random";
import { bucketRanges, chooseArm, growthbookHash } from "../assign/assign";
import { teamDraft } from "../interleaving/team-draft";
import type { OnlineEvent } from "../online/events";
import type { DemoData } from "./generate";
import { demoCommitteesAndLists } from "./sessions";
import type { Db } from "../../db/platform/client";
import { exposures } from "../../db/schema";
import { createExperiment, getExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { ingestEvents } from "../../db/experiments/events";
import { refreshEventSessions } from "../../db/experiments/event-sessions";
import { experimentSchema } from "../inputs/experiments";
import { dateDemoExperiment } from "./run-dates";

export const DEMO_INTERLEAVING = "reviewer-ranker-interleaved";
/**
 * The interleaving experiment ran before the A/B one (DEMO_AB_START, 1 November): 28 days before that is
 * 4 October, so the history reaches back over the A/B's default CUPED pre-period, and the pre-period holds
 * the conveners' interleaved sessions from then on and all their multileaved ones.
 */
export const DEMO_INTERLEAVING_START = "2026-10-03T08:00:00Z";

/**
 * Simulated sessions of the demo's interleaving experiment: the demo conveners (the same 60 as the A/B
 * experiment), each session shown the team-draft merge of the baseline's and the challenger's top 20
 * (seeded by the session, as the app does), with the A/B simulation's click and adoption behaviour:
 * a real committee member is more likely opened and adopted, less so further down. Sessions are spread
 * evenly over eight days from 3 October 2026 (DEMO_INTERLEAVING_START). Far fewer sessions than the A/B
 * experiment has are enough for a verdict, which is the point of interleaving.
 */
export function simulateInterleavedSessions(
  data: DemoData,
  options: { experiment?: string; seed?: string; conveners?: number; sessions?: number } = {},
): OnlineEvent[] {
  const experiment = options.experiment ?? DEMO_INTERLEAVING;
  const seed = options.seed ?? "assay-demo";
  const rng = createRng(`${seed}:interleaving`);
  const conveners = options.conveners ?? 60;
  const count = options.sessions ?? 300;
  const { gold, lists } = demoCommitteesAndLists(data);
  const ranges = bucketRanges([0.5, 0.5], 1);
  const events: OnlineEvent[] = [];
  const start = Date.parse(DEMO_INTERLEAVING_START);
  const span = 8 * 86_400_000;
  for (let n = 0; n < count; n++) {
    const unit = `demo-convener-${rng.int(conveners)}`;
    // The arm only splits the logging (as assignUnit does in the app); everyone sees the merge.
    const arm = chooseArm(growthbookHash(experiment, unit), ranges) === 0 ? "A" : "B";
    const proposal = data.proposals[rng.int(data.proposals.length)].externalId;
    const session = `${unit}-i${n}`;
    const merged = teamDraft(
      lists.get(`baseline\u0000${proposal}`)!.slice(0, 20),
      lists.get(`challenger\u0000${proposal}`)!.slice(0, 20),
      {
        depth: 20,
        seed: experiment,
        sessionId: session,
        systems: ["baseline", "challenger"],
      },
    );
    const emit = sessionEmitter(rng, events, start + Math.floor((n / count) * span), {
      experiment,
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

/**
 * A simulated convener reading a merged list: a real committee member is more likely opened and
 * adopted, less so further down; at most five adoptions. Shared by the demo's interleaving and
 * multileaving sessions, so both read the same behaviour.
 */
export function simulateChoices(
  rng: Rng,
  items: readonly string[],
  relevant: ReadonlySet<string>,
  emit: (type: "click" | "adopt", extra: { candidateId: string }) => void,
) {
  let adopted = 0;
  items.forEach((c, i) => {
    const good = relevant.has(c);
    if (rng.next() < (good ? 0.55 : 0.12) * Math.exp(-i / 12)) emit("click", { candidateId: c });
    if (adopted < 5 && rng.next() < (good ? 0.45 : 0.03) * Math.exp(-i / 15)) {
      adopted++;
      emit("adopt", { candidateId: c });
    }
  });
}

/**
 * Appends one session's events to `events`, each 5–65 s after the one before, starting after `start`;
 * shared by the demo's interleaving and multileaving sessions.
 */
export function sessionEmitter(
  rng: Rng,
  events: OnlineEvent[],
  start: number,
  session: Pick<OnlineEvent, "experiment" | "arm" | "unitId" | "sessionId" | "proposalId">,
) {
  let t = start;
  return (type: OnlineEvent["type"], extra: Partial<OnlineEvent>) => {
    t += 5_000 + rng.int(60_000);
    events.push({ eventId: uuid(rng), type, at: new Date(t).toISOString(), ...session, ...extra });
  };
}

export function uuid(rng: Rng) {
  const h = Array.from({ length: 4 }, () => rng.nextUint32().toString(16).padStart(8, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-b${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The demo's interleaving experiment in the database: baseline (control) vs challenger, the sessions
 * above stored as events, then stopped, so it is a finished comparison to read and never the experiment
 * the demo convener's proposals open in (that is the running A/B experiment).
 */
export async function seedDemoInterleaving(db: Db, data: DemoData) {
  await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: DEMO_INTERLEAVING,
      name: "Interleaved: embedding ranker and keyword baseline",
      kind: "interleaving",
      arms: [
        { key: "A", system: "baseline", weight: 0.5 },
        { key: "B", system: "challenger", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(db, "cli", DEMO_INTERLEAVING, "running");
  const running = (await getExperiment(db, DEMO_INTERLEAVING))!;
  const simulated = simulateInterleavedSessions(data, { sessions: 300 });
  // Each simulated convener's exposure, in the arm the hash gave it (as the app stores it).
  const armOf = new Map(simulated.map((e) => [e.unitId, e.arm]));
  await db.insert(exposures).values(
    [...armOf].map(([unit, arm]) => ({
      experimentId: running.id,
      unit,
      armId: running.arms.find((a) => a.key === arm)!.id,
    })),
  );
  for (let i = 0; i < simulated.length; i += 1000) {
    await ingestEvents(db, running, simulated.slice(i, i + 1000), {
      checkArm: false,
      now: Date.parse("2030-01-01T00:00:00Z"),
    });
  }
  await refreshEventSessions(db, running.id);
  await setExperimentStatus(db, "cli", DEMO_INTERLEAVING, "stopped");
  await dateDemoExperiment(db, DEMO_INTERLEAVING, DEMO_INTERLEAVING_START);
}
