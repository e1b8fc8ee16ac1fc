import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../../db/import";
import type { ImportEntity } from "../inputs/import-rows";
import { runAssay } from "../../test/run-cli";

// The fairness-small fixture imported as a user would (its README's order): `assay offline --fairness`.
const F = path.resolve(__dirname, "../../test/fixtures/fairness-small");
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));
let t: TestDatabase;
let dir = "";

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-offline-fairness-"));
  const files: [ImportEntity, string][] = [
    ["subjects", "subjects.csv"],
    ["proposals", "proposals.csv"],
    ["candidates", "candidates.csv"],
    ["systems", "systems.csv"],
    ["lists", "lists.csv"],
    ["gold", "gold.csv"],
    ["attributes", "attributes.csv"],
  ];
  for (const [entity, file] of files) {
    const result = await importFile(t.db, "cli", entity, fs.readFileSync(path.join(F, file)), "csv");
    if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  }
}, 300_000);
afterAll(async () => {
  await t.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const assay = (...args: string[]) => runAssay(args, { DATABASE_URL: t.url, ASSAY_DATA_DIR: dir });
const common = ["offline", "--k", "10,20", "--bootstrap", "50"];

describe("assay offline --fairness", () => {
  it("adds the fairness figures of the named attributes, the reference values among them", async () => {
    const run = await assay(...common, "--fairness", "gender", "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const fairness = JSON.parse(run.stdout).fairness.systems;
    expect(Object.keys(fairness.citation).sort()).toEqual(["diversity", "gender", "proposals"]);
    const f = fairness.citation.gender.groups.f;
    const want = expected.systems.citation.gender.groups.f;
    expect(f["share@10"]).toBeCloseTo(want["share@10"], 6);
    expect(f.rKL).toBeCloseTo(want.rKL, 6);
    expect(fairness.semantic.gender["AWRF@20"]).toBeCloseTo(expected.systems.semantic.gender["AWRF@20"], 6);
    // The committees come from the gold members: the same share for both systems.
    expect(f.committees).toBeCloseTo(fairness.semantic.gender.groups.f.committees, 12);
    expect(f.exposurePerMeritRatio).toBeLessThan(1);
  });

  it("prints the table after the report, and reads the attributes from --attributes FILE when given", async () => {
    const file = path.join(dir, "career.csv");
    const rows = fs
      .readFileSync(path.join(F, "candidates.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line, i) => `${line.split(",")[0]},career_stage,${i % 3 === 0 ? "early" : "senior"}`);
    fs.writeFileSync(file, ["candidate,attribute,value", ...rows].join("\n"));
    const run = await assay(...common, "--fairness", "career_stage", "--attributes", file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("== Fairness and diversity (career_stage)");
    expect(run.stdout).toMatch(/citation\s+career_stage\s+early\s+share@10/);
    expect(run.stdout).not.toMatch(/\bgender\b/);
  });

  it("refuses an attribute it does not know, naming it, before computing anything", async () => {
    const run = await assay(...common, "--fairness", "gender,career");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--fairness: no attribute career in the database; known: country, gender.");
    expect(run.stdout).toBe("");
  });
});
