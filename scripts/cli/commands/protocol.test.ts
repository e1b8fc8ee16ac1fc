import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../../../test/database";
import { importFile } from "../../../db/import";
import { listSystems } from "../../../db/catalog/catalog";
import { runAssay } from "../../../test/run-cli";

/**
 * `assay protocol split` → a system answers the inputs → its lists import with `protocol` → `assay
 * offline` measures them against the measurement sets only. Committees: p1 has 1 member (dropped by
 * given-2), p2 3, p3 5, p4 6; candidates c00..c19.
 */
let t: TestDatabase;
let dir = "";
const committees: Record<string, string[]> = {
  p1: ["c00"],
  p2: ["c01", "c02", "c03"],
  p3: ["c04", "c05", "c06", "c07", "c08"],
  p4: ["c09", "c10", "c11", "c12", "c13", "c14"],
};
const candidates = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, "0")}`);

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-protocol-"));
  const load = async (entity: "proposals" | "candidates" | "gold" | "systems", text: string) => {
    const result = await importFile(t.db, "cli", entity, text, "csv");
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
  };
  await load(
    "proposals",
    ["external_id,title", ...Object.keys(committees).map((p) => `${p},${p}`)].join("\n"),
  );
  await load("candidates", ["external_id,name", ...candidates.map((c) => `${c},${c}`)].join("\n"));
  await load(
    "gold",
    [
      "proposal,candidate",
      ...Object.entries(committees).flatMap(([p, cs]) => cs.map((c) => `${p},${c}`)),
    ].join("\n"),
  );
  await load("systems", "key,name\nrecs,Recommender");
});
afterAll(async () => {
  await t.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const assay = (...args: string[]) => runAssay(args, { DATABASE_URL: t.url, ASSAY_DATA_DIR: dir });
const readLines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("assay protocol split and a protocol system's report", () => {
  it("writes inputs and measurement sets per proposal and fold, dropping and listing small committees", async () => {
    const out = path.join(dir, "given-2");
    const run = await assay(
      "protocol",
      "split",
      "--protocol",
      "given-2",
      "--seed",
      "7",
      "--folds",
      "2",
      "--out",
      out,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("3 proposals × 2 folds = 6 inputs");
    expect(run.stdout).toContain("Dropped 1 proposal whose committee is too small: p1 (1)");
    const inputs = readLines(path.join(out, "inputs.jsonl"));
    const measured = readLines(path.join(out, "measurement.jsonl"));
    expect(inputs).toHaveLength(6);
    for (const [i, line] of inputs.entries()) {
      expect(line.protocol).toBe("given-2:7");
      expect(line.given).toHaveLength(2);
      expect(new Set([...line.given, ...measured[i].measured])).toEqual(new Set(committees[line.proposal]));
    }
  });

  it("refuses a protocol larger than any committee, and an unknown one, writing nothing", async () => {
    const out = path.join(dir, "given-10");
    const ten = await assay("protocol", "split", "--protocol", "given-10", "--out", out);
    expect(ten.code).toBe(2);
    expect(ten.stderr).toContain("given-10 needs committees of at least 11 members; the largest has 6");
    expect(fs.existsSync(out)).toBe(false);
    const bad = await assay("protocol", "split", "--protocol", "given-3");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--protocol given-3 is not one of given-2, given-5, given-10, all-but-1");
  });

  it("imports lists with a protocol (the systems table shows it) and refuses a bad protocol cell by its row", async () => {
    const inputs = readLines(path.join(dir, "given-2", "inputs.jsonl"));
    const measured = readLines(path.join(dir, "given-2", "measurement.jsonl"));
    // A system that returns the given members first (they must not count), then the measured ones.
    const rows = inputs.flatMap((line, i) =>
      [...line.given, "c19", ...measured[i].measured].map(
        (c: string, r: number) => `recs,${line.proposal},${line.variant},${r + 1},${c},${line.protocol}`,
      ),
    );
    const header = "system,proposal,variant,rank,candidate,protocol";
    const bad = await importFile(t.db, "cli", "lists", `${header}\nrecs,p2,fold-1,1,c01,given-3:7`, "csv");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors[0]).toMatchObject({
      line: 2,
      message: expect.stringContaining("protocol must be"),
    });
    const mixed = await importFile(
      t.db,
      "cli",
      "lists",
      `${header}\nrecs,p2,fold-1,1,c01,given-2:7\nrecs,p3,fold-1,1,c04,given-2:8`,
      "csv",
    );
    expect(!mixed.ok && mixed.errors[0]).toMatchObject({
      line: 3,
      message: expect.stringContaining("one protocol per system"),
    });
    const good = await importFile(t.db, "cli", "lists", [header, ...rows].join("\n"), "csv");
    expect(good.ok).toBe(true);
    expect((await listSystems(t.db)).find((s) => s.key === "recs")?.protocol).toBe("given-2:7");
  });

  it("measures each list against its measurement set, given members removed and counted", async () => {
    const run = await assay("offline", "--json", "--bootstrap", "50", "--k", "1,2,10");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const recs = report.systems.find((s: { key: string }) => s.key === "recs");
    // After the 2 given members are removed, c19 is rank 1 and the measured members follow.
    expect(recs.overall.measures["Success@1"].value).toBe(0);
    expect(recs.overall.measures["Success@2"].value).toBe(1);
    expect(recs.overall.measures.PoolRecall.value).toBe(1);
    expect(recs.protocol).toMatchObject({
      protocol: "given-2",
      seed: "7",
      folds: [1, 2],
      givenReturned: { lists: 6, slots: 12 },
    });
    expect(recs.protocol.perFold.map((f: { proposals: number }) => f.proposals)).toEqual([3, 3]);
    expect(recs.protocol.spread["RR@10"]).toMatchObject({ mean: 0.5, sd: 0 });
    const text = await assay("offline", "--bootstrap", "50", "--k", "1,2,10");
    expect(text.stdout).toContain("Protocol given-2 (seed 7)");
    expect(text.stdout).toContain("6 lists returned given members (12 slots): removed before measuring");
  });

  it("exports a system's lists as a TREC run (1/rank without scores) that assay eval reads", async () => {
    const run = await assay("lists", "export", "--system", "recs", "--variant", "fold-1", "--format", "trec");
    expect(run.stderr).toBe("");
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(4 + 6 + 7); // p2: 2 given + c19 + 1; p3: 2 + 1 + 3; p4: 2 + 1 + 4
    expect(lines[0]).toMatch(/^p2 Q0 c\d\d 1 1 recs$/);
    expect(lines[1]).toMatch(/^p2 Q0 c\d\d 2 0\.5 recs$/);
    const file = path.join(dir, "run.txt");
    fs.writeFileSync(file, run.stdout);
    const qrels = path.join(dir, "qrels.txt");
    fs.writeFileSync(
      qrels,
      Object.entries(committees)
        .flatMap(([p, cs]) => cs.map((c) => `${p} 0 ${c} 1`))
        .join("\n") + "\n",
    );
    // The run lists every member of p2, p3, p4 (given ones first), so R@10 is 1 on each.
    const evaluated = await runAssay(["eval", "--qrels", qrels, "--run", file, "-m", "R@10", "--json"]);
    expect(JSON.parse(evaluated.stdout).aggregate["R@10"]).toBe(1);
    const missing = await assay("lists", "export", "--system", "recs", "--variant", "default");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "System recs has no lists under variant default; its variants: fold-1, fold-2.",
    );
  });

  it("drops committees larger than --max-committee and lists them", async () => {
    const run = await assay("offline", "--json", "--bootstrap", "20", "--max-committee", "5");
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout).committeeCap).toEqual({
      max: 5,
      dropped: [{ proposal: "p4", members: 6 }],
    });
    const text = await assay("offline", "--bootstrap", "20", "--max-committee", "5");
    expect(text.stdout).toContain("Committees larger than 5: 1 proposals dropped (p4: 6).");
    const bad = await assay("offline", "--max-committee", "0");
    expect(bad.code).toBe(2);
  });
});
