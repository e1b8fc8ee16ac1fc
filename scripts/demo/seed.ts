import type { Db } from "../../db/platform/client";
import { hashPassword } from "../../db/accounts/password";
import {
  candidates,
  exposures,
  goldMembers,
  listItems,
  proposals,
  rankedLists,
  ratings,
  subjects,
  systems,
  userSubjects,
  users,
  type Role,
} from "../../db/schema";
import { generateDemo, type DemoData, type DemoOptions } from "./generate";
import { DEMO_AB_START, simulateFinishes, simulateSessions } from "./sessions";
import { dateDemoExperiment } from "./run-dates";
import { experimentSchema } from "../inputs/experiments";
import { createExperiment, getExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { ingestEvents } from "../../db/experiments/events";
import { refreshEventSessions } from "../../db/experiments/event-sessions";
import { updateAnalysisSettings } from "../../db/experiments/analysis-settings";
import type { CompositionGuardrail, Guardrail } from "../inputs/guardrails";
import { assignProposals } from "../../db/experiments/convener";
import { eq, sql } from "drizzle-orm";
import { campaignSchema } from "../inputs/campaigns";
import { createCampaign, launchCampaign } from "../../db/campaigns/campaigns";
import { simulatedGrade } from "./ratings";
import { seedDemoInterleaving } from "./interleaving";
import { seedDemoDatesAndConflicts } from "./dates-and-conflicts";
import { seedDemoGold } from "./gold-items";
import { seedDemoAttributes, seedDemoConvenerAttributes } from "./attributes";
import { seedDemoMultileave } from "./multileave";

export const DEMO_PASSWORD = "assay-demo";
export const demoUsers: { email: string; name: string; roles: Role[]; subjects?: string[] }[] = [
  { email: "admin@assay.local", name: "Alex Admin", roles: ["admin"] },
  { email: "analyst@assay.local", name: "Ana Analyst", roles: ["analyst"] },
  { email: "expert@assay.local", name: "Erin Expert", roles: ["expert"], subjects: ["ml", "neuro"] },
  { email: "expert2@assay.local", name: "Emil Expert", roles: ["expert"], subjects: ["climate", "ecology"] },
  { email: "expert3@assay.local", name: "Esra Expert", roles: ["expert"], subjects: ["health", "econ"] },
  { email: "convener@assay.local", name: "Cora Convener", roles: ["convener"] },
];

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.execute<{ n: number }>(
    sql`select (select count(*) from users) + (select count(*) from proposals) as n`,
  );
  return Number(row.n) === 0;
}

/** Loads the demo data set and the demo users in one transaction. */
export async function seedDemo(db: Db, options: DemoOptions = {}): Promise<DemoData> {
  const data = generateDemo(options);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const subjectRows = await tx.insert(subjects).values(data.subjects).onConflictDoNothing().returning();
    const subjectId = new Map(subjectRows.map((s) => [s.key, s.id]));
    const candidateId = new Map<string, number>();
    for (let i = 0; i < data.candidates.length; i += 2000) {
      const rows = await tx
        .insert(candidates)
        .values(data.candidates.slice(i, i + 2000).map(({ subject: _subject, ...c }) => c))
        .returning({ id: candidates.id, externalId: candidates.externalId });
      for (const r of rows) candidateId.set(r.externalId, r.id);
    }
    const proposalRows = await tx
      .insert(proposals)
      .values(data.proposals.map(({ subject, ...p }) => ({ ...p, subjectId: subjectId.get(subject)! })))
      .returning({ id: proposals.id, externalId: proposals.externalId });
    const proposalId = new Map(proposalRows.map((r) => [r.externalId, r.id]));
    const systemRows = await tx
      .insert(systems)
      .values(
        data.systems.map(({ key, name, version, buildSeconds, memoryMb }) => ({
          key,
          name,
          version,
          buildSeconds,
          memoryMb,
        })),
      )
      .returning();
    const systemId = new Map(systemRows.map((s) => [s.key, s.id]));
    const listRows = await tx
      .insert(rankedLists)
      .values(
        data.lists.map((l) => ({
          systemId: systemId.get(l.system)!,
          proposalId: proposalId.get(l.proposal)!,
          variant: l.variant,
          latencyMs: l.latencyMs,
        })),
      )
      .returning({ id: rankedLists.id });
    const items = data.lists.flatMap((l, i) =>
      l.items.map((it) => ({
        listId: listRows[i].id,
        rank: it.rank,
        candidateId: candidateId.get(it.candidate)!,
        score: it.score,
      })),
    );
    for (let i = 0; i < items.length; i += 5000) await tx.insert(listItems).values(items.slice(i, i + 5000));
    await tx.insert(goldMembers).values(
      data.gold.map((g) => ({
        proposalId: proposalId.get(g.proposal)!,
        candidateId: candidateId.get(g.candidate)!,
      })),
    );
    for (const u of demoUsers) {
      const [user] = await tx
        .insert(users)
        .values({ email: u.email, name: u.name, roles: u.roles, passwordHash })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (user && u.subjects)
        await tx
          .insert(userSubjects)
          .values(u.subjects.map((key) => ({ userId: user.id, subjectId: subjectId.get(key)! })));
    }
  });
  await seedDemoDatesAndConflicts(db, data);
  await seedDemoAttributes(db, data);
  await seedDemoExperiment(db, data);
  await seedDemoInterleaving(db, data);
  await seedDemoMultileave(db, data);
  await seedDemoConvenerAttributes(db);
  await seedDemoCampaign(db);
  return data;
}

/**
 * A running rating campaign over 40 proposals with the three demo experts on every proposal and
 * simulated grades, except three assignments of expert@assay.local left to do.
 */
async function seedDemoCampaign(db: Db) {
  const forty = (
    await db
      .select({ externalId: proposals.externalId })
      .from(proposals)
      .orderBy(proposals.externalId)
      .limit(40)
  ).map((p) => p.externalId);
  const experts = demoUsers.filter((u) => u.roles.includes("expert")).map((u) => u.email);
  // The demo is loaded by `assay demo` (or a test), so its writes are the CLI's in the audit log.
  const campaign = await createCampaign(
    db,
    "cli",
    campaignSchema.parse({
      name: "Reviewer relevance, autumn round",
      instructions:
        'Grade how well each candidate could review this proposal: 1 irrelevant, 2 far-fetched, 3 relevant, 4 highly relevant. Use "Can\'t judge" when the profile does not tell.',
      systems: ["baseline", "challenger"],
      depth: 10,
      raters: 3,
      experts,
      proposals: forty,
    }),
  );
  await launchCampaign(db, "cli", campaign.id);
  const rows = await db.execute<{
    assignment_id: number;
    item_id: number;
    expert_id: number;
    email: string;
    proposal_id: number;
    candidate_id: number;
    gold: boolean;
    overlap: number;
  }>(sql`
    select a.id as assignment_id, i.id as item_id, a.expert_id, u.email, a.proposal_id, i.candidate_id,
      exists (select 1 from gold_members g where g.proposal_id = i.proposal_id and g.candidate_id = i.candidate_id) as gold,
      (select count(*)::int from unnest(p.keywords) k where k = any(c.keywords)) as overlap
    from campaign_assignments a join users u on u.id = a.expert_id
    join campaign_items i on i.campaign_id = a.campaign_id and i.proposal_id = a.proposal_id
    join proposals p on p.id = i.proposal_id join candidates c on c.id = i.candidate_id
    where a.campaign_id = ${campaign.id} order by a.id, i.id`);
  const leftToDo = new Set(
    [...new Set(rows.filter((r) => r.email === "expert@assay.local").map((r) => r.assignment_id))].slice(
      0,
      3,
    ),
  );
  const values = rows
    .filter((r) => !leftToDo.has(r.assignment_id))
    .map((r, i) => ({
      assignmentId: r.assignment_id,
      itemId: r.item_id,
      grade: simulatedGrade(
        "assay-demo",
        r.expert_id,
        { gold: r.gold, overlap: r.overlap },
        `${r.proposal_id}:${r.candidate_id}`,
      ),
      position: 1 + (i % 20),
      timeSpentMs: 4000 + ((r.item_id * 7919) % 20000),
    }));
  for (let i = 0; i < values.length; i += 2000) await db.insert(ratings).values(values.slice(i, i + 2000));
  await seedDemoGold(db, campaign.id, "assay-demo");
}

export const DEMO_EXPERIMENT = "reviewer-ranker-v2";

/** The demo experiment's guardrails: finishing must not slow by over 10%, nor the rest worsen beyond their tolerance. */
export const DEMO_GUARDRAILS: Guardrail[] = [
  { metric: "minutesToFinish", direction: "increase", tolerance: 0.1 },
  { metric: "emptyCommitteeShare", direction: "increase", tolerance: 0.1 },
  { metric: "profileOpensPerAdoption", direction: "increase", tolerance: 0.1 },
  { metric: "coiShare", direction: "increase", tolerance: 0.05 },
];

/**
 * The demo experiment's share guardrail (issue 27): women at least 35% of each arm's adopted candidates.
 * The challenger adopts fewer women (scripts/demo/attributes.ts), so the page has a share state to show.
 */
export const DEMO_SHARE_GUARDRAIL: CompositionGuardrail = {
  metric: "share",
  attribute: "gender",
  value: "f",
  min: 0.35,
};

/**
 * A running experiment (baseline vs challenger) with about 20,000 simulated convener events, exposures
 * for the simulated conveners, and ten proposals assigned to the demo convener.
 */
async function seedDemoExperiment(db: Db, data: DemoData) {
  const experiment = await createExperiment(
    db,
    "cli",
    experimentSchema.parse({
      key: DEMO_EXPERIMENT,
      name: "Embedding ranker vs keyword baseline",
      arms: [
        { key: "A", system: "baseline", weight: 0.5 },
        { key: "B", system: "challenger", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(db, "cli", DEMO_EXPERIMENT, "running");
  const running = (await getExperiment(db, DEMO_EXPERIMENT))!;
  const sessions = simulateSessions(data, { experiment: DEMO_EXPERIMENT, seed: "assay-demo" });
  const simulated = [...sessions, ...simulateFinishes(sessions, "assay-demo")];
  const units = [...new Set(simulated.map((e) => e.unitId))];
  await db.insert(exposures).values(
    units.map((unit) => ({
      experimentId: experiment.id,
      unit,
      armId: running.arms.find((a) => a.key === simulated.find((e) => e.unitId === unit)!.arm)!.id,
    })),
  );
  for (let i = 0; i < simulated.length; i += 1000) {
    await ingestEvents(db, running, simulated.slice(i, i + 1000), {
      checkArm: false,
      now: Date.parse("2030-01-01T00:00:00Z"),
    });
  }
  await refreshEventSessions(db, running.id);
  await dateDemoExperiment(db, DEMO_EXPERIMENT, DEMO_AB_START);
  // Guardrails that show each state on the demo (docs/online-experiments.md, Guardrails).
  await updateAnalysisSettings(db, "cli", DEMO_EXPERIMENT, {
    engine: running.engine,
    cuped: running.cuped,
    prePeriodDays: running.prePeriodDays,
    priorMean: running.priorMean,
    priorVariance: running.priorVariance ?? undefined,
    guardrails: [...DEMO_GUARDRAILS, DEMO_SHARE_GUARDRAIL],
  });
  const [convener] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, "convener@assay.local"));
  const firstProposals = await db
    .select({ id: proposals.id })
    .from(proposals)
    .orderBy(proposals.externalId)
    .limit(10);
  if (convener)
    await assignProposals(
      db,
      firstProposals.map((p) => ({ userId: convener.id, proposalId: p.id })),
    );
}
