import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { seedDemo } from "../../scripts/demo/seed";
import { runInProcess } from "../../scripts/workers/heavy-tasks";
import { fairnessResult } from "./fairness";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { proposals: 40, candidates: 400, seed: "fairness-test" });
}, 300_000);
afterAll(() => t.drop());

const request = { ks: [10, 20], B: 200, seed: "assay" };

describe("the offline tier's fairness figures", () => {
  it("reports every seeded attribute per system, with diversity over the proposals' keywords", async () => {
    const result = await fairnessResult(t.db, request, runInProcess);
    expect(result).not.toBeNull();
    const { report, parameters } = result!;
    expect(parameters.minGroup).toBe(5);
    expect(Object.keys(report).sort()).toEqual(["baseline", "challenger", "hybrid"]);
    const challenger = report.challenger;
    expect(Object.keys(challenger.attributes).sort()).toEqual(["career_stage", "country", "gender"]);
    const women = challenger.attributes.gender.groups.f;
    expect(women.figures["share@10"].lists).toBe(40);
    expect(women.figures["share@10"].ci).not.toBeNull();
    expect(challenger.diversity!["alpha-nDCG@10"].value).toBeGreaterThan(0);
  });

  it("keeps its result until the attributes change, and gives none without attributes", async () => {
    const first = await fairnessResult(t.db, request, runInProcess);
    expect(await fairnessResult(t.db, request, runInProcess)).toBe(first);
    await t.db.execute(
      sql`update candidate_attributes set value = 'm' where attribute = 'gender' and value = 'f'`,
    );
    const changed = await fairnessResult(t.db, request, runInProcess);
    expect(changed).not.toBe(first);
    expect(changed!.report.challenger.attributes.gender.groups.f).toBeUndefined();
    await t.db.execute(sql`delete from candidate_attributes`);
    expect(await fairnessResult(t.db, request, runInProcess)).toBeNull();
  });
});
