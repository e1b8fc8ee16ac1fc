import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import {
  createExperiment,
  deleteExperiment,
  experimentDraftInput,
  getExperiment,
  restartExperiment,
  setExperimentStatus,
  updateExperiment,
} from "./experiments";
import { experimentSchema } from "../../scripts/inputs/experiments";
import { ingestEvents } from "./events";
import { randomUUID } from "node:crypto";

let t: TestDatabase;
let systemKeys: string[] = [];
let proposalIds: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 8, candidates: 100, seed: "experiments-test" });
  systemKeys = (await t.db.execute<{ key: string }>(sql`select key from systems order by key`)).map(
    (s) => s.key,
  );
  proposalIds = (
    await t.db.execute<{ external_id: string }>(
      sql`select external_id from proposals order by external_id limit 3`,
    )
  ).map((p) => p.external_id);
});
afterAll(() => t.drop());

const input = (extra: Record<string, unknown> = {}) =>
  experimentSchema.parse({
    key: "draft",
    name: "Draft",
    arms: [
      { key: "A", system: systemKeys[0], weight: 0.5 },
      { key: "B", system: systemKeys[1], weight: 0.5 },
    ],
    control: "A",
    ...extra,
  });
const actions = async (target: string) =>
  (
    await t.db.execute<{ action: string }>(
      sql`select action from audit_log where target = ${target} order by id`,
    )
  ).map((e) => e.action);

describe("draft experiments", () => {
  it("edits a draft with the create schema: arms, scope and key replaced, logged as experiment.update", async () => {
    await createExperiment(t.db, "cli", input({ key: "to-edit" }));
    const arms = [
      { key: "C", system: systemKeys[0], weight: 0.2 },
      { key: "D", system: systemKeys[1], weight: 0.8 },
    ];
    const edited = await updateExperiment(
      t.db,
      "cli",
      "to-edit",
      input({ key: "edited", name: "Edited", arms, control: "D", scope: "list", proposals: proposalIds }),
    );
    expect(edited).toMatchObject({ key: "edited", name: "Edited", scope: "list" });
    expect(edited.arms.map((a) => [a.key, a.weight, a.isControl])).toEqual([
      ["C", 0.2, false],
      ["D", 0.8, true],
    ]);
    expect((await experimentDraftInput(t.db, edited)).proposals).toEqual(proposalIds);
    expect(await getExperiment(t.db, "to-edit")).toBeNull();
    expect(await actions("experiment edited")).toEqual(["experiment.update"]);
    await expect(
      updateExperiment(
        t.db,
        "cli",
        "edited",
        input({
          key: "edited",
          arms: [
            { key: "A", system: "nope", weight: 0.5 },
            { key: "B", system: systemKeys[0], weight: 0.5 },
          ],
        }),
      ),
    ).rejects.toThrow("Unknown system nope.");
    await createExperiment(t.db, "cli", input({ key: "other" }));
    await expect(updateExperiment(t.db, "cli", "edited", input({ key: "other" }))).rejects.toThrow(
      "An experiment with the key other already exists.",
    );
    expect((await getExperiment(t.db, "edited"))!.name).toBe("Edited");
  });

  it("deletes only a draft, logged as experiment.delete; a running or stopped one is refused and kept", async () => {
    await createExperiment(t.db, "cli", input({ key: "to-delete" }));
    await deleteExperiment(t.db, "cli", "to-delete");
    expect(await getExperiment(t.db, "to-delete")).toBeNull();
    expect(await actions("experiment to-delete")).toEqual(["experiment.create", "experiment.delete"]);

    await createExperiment(t.db, "cli", input({ key: "live" }));
    await setExperimentStatus(t.db, "cli", "live", "running");
    await expect(deleteExperiment(t.db, "cli", "live")).rejects.toThrow(
      "Experiment live is running; only a draft can be deleted.",
    );
    await expect(updateExperiment(t.db, "cli", "live", input({ key: "live" }))).rejects.toThrow(
      "Experiment live is running; only a draft can be edited.",
    );
    expect(await getExperiment(t.db, "live")).not.toBeNull();
    expect(await actions("experiment live")).toEqual(["experiment.create", "experiment.start"]);
    await expect(deleteExperiment(t.db, "cli", "never")).rejects.toThrow("There is no experiment never.");
  });
});

describe("stop and restart", () => {
  it("restarts only a stopped experiment, keeping every unit's arm, accepting events again, logged as experiment.restart", async () => {
    await createExperiment(t.db, "cli", input({ key: "again" }));
    await setExperimentStatus(t.db, "cli", "again", "running");
    await expect(restartExperiment(t.db, "cli", "again")).rejects.toThrow(
      "Experiment again is running; only a stopped experiment can be restarted.",
    );
    const units = Array.from({ length: 40 }, (_, i) => `unit-${i}`);
    const click = (unit: string, arm: string, at: string) => ({
      eventId: randomUUID(),
      type: "click" as const,
      at,
      experiment: "again",
      arm,
      unitId: unit,
      sessionId: `${unit}-s`,
      proposalId: proposalIds[0],
      candidateId: "C-1",
    });
    const arms = async () =>
      t.db.execute<{ unit: string; arm: string }>(
        sql`select x.unit, a.key as arm from exposures x join arms a on a.id = x.arm_id
            join experiments e on e.id = x.experiment_id where e.key = 'again' order by x.unit`,
      );
    // Each unit logs under both arms; only its hashed arm is kept, which stores its exposure.
    const live = (await getExperiment(t.db, "again"))!;
    const now = new Date().toISOString();
    await ingestEvents(
      t.db,
      live,
      units.flatMap((u) => [click(u, "A", now), click(u, "B", now)]),
      {
        checkArm: true,
      },
    );
    const before = await arms();
    expect(before).toHaveLength(units.length);
    await setExperimentStatus(t.db, "cli", "again", "stopped");
    await restartExperiment(t.db, "cli", "again");
    expect(await arms()).toEqual(before);
    const later = new Date(Date.now() + 1000).toISOString();
    const result = await ingestEvents(
      t.db,
      (await getExperiment(t.db, "again"))!,
      [click(before[0].unit, before[0].arm, later)],
      { checkArm: true },
    );
    expect(result.accepted).toBe(1);
    expect((await getExperiment(t.db, "again"))!.status).toBe("running");
    expect(await actions("experiment again")).toEqual([
      "experiment.create",
      "experiment.start",
      "experiment.stop",
      "experiment.restart",
    ]);
  });
});
