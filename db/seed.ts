import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { hashPassword } from "./password";
import { candidates, exposures, goldMembers, listItems, proposals, rankedLists, subjects, systems, userSubjects, users, type Role } from "./schema";
import { generateDemo, type DemoData, type DemoOptions } from "../scripts/demo/generate";
import { simulateSessions } from "../scripts/demo/sessions";
import { experimentSchema } from "../app/schemas/experiments";
import { createExperiment, getExperiment, setExperimentStatus } from "./experiments";
import { ingestEvents } from "./events";
import { assignProposals } from "./convener";
import { eq } from "drizzle-orm";

export const DEMO_PASSWORD = "assay-demo";
export const demoUsers: { email: string; name: string; role: Role; subjects?: string[] }[] = [
  { email: "admin@assay.local", name: "Alex Admin", role: "admin" },
  { email: "analyst@assay.local", name: "Ana Analyst", role: "analyst" },
  { email: "expert@assay.local", name: "Erin Expert", role: "expert", subjects: ["ml", "neuro"] },
  { email: "expert2@assay.local", name: "Emil Expert", role: "expert", subjects: ["climate", "ecology"] },
  { email: "expert3@assay.local", name: "Esra Expert", role: "expert", subjects: ["health", "econ"] },
  { email: "convener@assay.local", name: "Cora Convener", role: "convener" },
];

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.execute<{ n: number }>(sql`select (select count(*) from users) + (select count(*) from proposals) as n`);
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
      .values(data.systems.map(({ key, name, version }) => ({ key, name, version })))
      .returning();
    const systemId = new Map(systemRows.map((s) => [s.key, s.id]));
    const listRows = await tx
      .insert(rankedLists)
      .values(data.lists.map((l) => ({ systemId: systemId.get(l.system)!, proposalId: proposalId.get(l.proposal)!, variant: l.variant })))
      .returning({ id: rankedLists.id });
    const items = data.lists.flatMap((l, i) => l.items.map((it) => ({ listId: listRows[i].id, rank: it.rank, candidateId: candidateId.get(it.candidate)!, score: it.score })));
    for (let i = 0; i < items.length; i += 5000) await tx.insert(listItems).values(items.slice(i, i + 5000));
    await tx.insert(goldMembers).values(data.gold.map((g) => ({ proposalId: proposalId.get(g.proposal)!, candidateId: candidateId.get(g.candidate)! })));
    for (const u of demoUsers) {
      const [user] = await tx.insert(users).values({ email: u.email, name: u.name, role: u.role, passwordHash }).onConflictDoNothing().returning({ id: users.id });
      if (user && u.subjects) await tx.insert(userSubjects).values(u.subjects.map((key) => ({ userId: user.id, subjectId: subjectId.get(key)! })));
    }
  });
  await seedDemoExperiment(db, data);
  return data;
}

export const DEMO_EXPERIMENT = "reviewer-ranker-v2";

/**
 * A running experiment (baseline vs challenger) with about 20,000 simulated convener events, exposures
 * for the simulated conveners, and ten proposals assigned to the demo convener.
 */
async function seedDemoExperiment(db: Db, data: DemoData) {
  const experiment = await createExperiment(
    db,
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
  await setExperimentStatus(db, DEMO_EXPERIMENT, "running");
  const running = (await getExperiment(db, DEMO_EXPERIMENT))!;
  const simulated = simulateSessions(data, { experiment: DEMO_EXPERIMENT, seed: "assay-demo" });
  const units = [...new Set(simulated.map((e) => e.unitId))];
  await db.insert(exposures).values(units.map((unit) => ({ experimentId: experiment.id, unit, armId: running.arms.find((a) => a.key === simulated.find((e) => e.unitId === unit)!.arm)!.id })));
  for (let i = 0; i < simulated.length; i += 1000) {
    await ingestEvents(db, running, simulated.slice(i, i + 1000), { checkArm: false, now: Date.parse("2030-01-01T00:00:00Z") });
  }
  const [convener] = await db.select({ id: users.id }).from(users).where(eq(users.email, "convener@assay.local"));
  const firstProposals = await db.select({ id: proposals.id }).from(proposals).orderBy(proposals.externalId).limit(10);
  if (convener) await assignProposals(db, firstProposals.map((p) => ({ userId: convener.id, proposalId: p.id })));
}
