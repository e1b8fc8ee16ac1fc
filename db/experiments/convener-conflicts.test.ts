import fs from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { importFile } from "../import";
import { createExperiment, setExperimentStatus } from "./experiments";
import { createUser } from "../accounts/users";
import { openProfile, openProposal } from "./convener";
import { experimentSchema } from "../../scripts/inputs/experiments";

/** A convener never sees a conflicted candidate without its warning: the list and the profile carry the conflict. */
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8");
let t: TestDatabase;
let convener = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  for (const entity of ["subjects", "proposals", "candidates", "systems", "lists", "conveners"] as const) {
    if (entity === "conveners")
      convener = (
        await createUser(t.db, "cli", {
          email: "convener@assay.local",
          name: "Cora",
          roles: ["convener"],
          password: "long-enough-1",
        })
      ).id;
    expect(await importFile(t.db, "cli", entity, fixture(`${entity}.csv`), "csv")).toMatchObject({
      ok: true,
    });
  }
  expect(
    await importFile(
      t.db,
      "cli",
      "conflicts",
      "proposal,candidate,reason\nP-100,C-1,co-author\nP-100,C-4,\nP-101,C-2,colleague\n",
      "csv",
    ),
  ).toMatchObject({ ok: true });
  await createExperiment(
    t.db,
    "cli",
    experimentSchema.parse({
      key: "live",
      name: "Live",
      arms: [
        { key: "A", system: "bm25", weight: 0.5 },
        { key: "B", system: "dense", weight: 0.5 },
      ],
      control: "A",
    }),
  );
  await setExperimentStatus(t.db, "cli", "live", "running");
});
afterAll(() => t.drop());

it("marks each conflicted candidate of the proposal's list with its reason, and only those", async () => {
  const view = await openProposal(t.db, convener, "P-100");
  // C-1 and C-4 are conflicted with P-100 (C-4 without a reason); C-2's conflict is with P-101, not here.
  const declared: Record<string, string> = { "C-1": "co-author", "C-4": "" };
  expect(view.list.map((c) => c.externalId)).toContain("C-1"); // in both arms' lists
  for (const c of view.list) expect(c.conflict, c.externalId).toBe(declared[c.externalId] ?? null);
  const profile = await openProfile(t.db, convener, "P-100", "C-1");
  expect(profile.candidate.conflict).toBe("co-author");
});
