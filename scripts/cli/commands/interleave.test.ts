import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../../test/run-cli";

const root = path.resolve(__dirname, "../../..");
const F = path.join(root, "test/fixtures/interleave-small");

const assay = (...args: string[]) => runAssay(args);

describe("assay interleave", () => {
  it("--json reproduces the interleave-small reference for click and adopt credit, the same CI for the same seed", async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));
    const args = [
      "interleave",
      "--events",
      `${F}/events.jsonl`,
      "--control",
      "baseline",
      "--bootstrap",
      "300",
      "--seed",
      "5",
      "--json",
    ];
    const [click, again, adopt] = await Promise.all([
      assay(...args),
      assay(...args),
      assay(...args, "--credit", "adopt"),
    ]);
    for (const [run, credit] of [
      [click, "click"],
      [adopt, "adopt"],
    ] as const) {
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      const { pValue, ...rest } = expected[credit];
      expect(out).toMatchObject({ ...rest, control: "baseline", challenger: "challenger", credit });
      expect(Math.abs(out.pValue / pValue - 1)).toBeLessThan(1e-9);
      expect(out.ci).toHaveLength(2);
    }
    expect(JSON.parse(again.stdout).ci).toEqual(JSON.parse(click.stdout).ci);
  });

  it("prints a table by default and refuses bad input with exit 2 and one sentence", async () => {
    const table = await assay("interleave", "--events", `${F}/events.jsonl`, "--bootstrap", "100");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/wins baseline\s+wins challenger/);
    expect(table.stdout).toContain("16 duplicate events");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "interleave-"));
    const bad = path.join(dir, "bad.jsonl");
    const line = fs
      .readFileSync(`${F}/events.jsonl`, "utf8")
      .split("\n")
      .find((l) => l.includes('"impression"'))!;
    fs.writeFileSync(bad, `${line}\n${line.replace(/"teams": \["[^"]*"/, '"teams": [1')}\nnot json\n`);
    const r = await assay("interleave", "--events", bad, "--json");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2: team 1 of teams must be a string`);
    expect(r.stderr).toContain(`${bad}:3: is not valid JSON`);
    expect(r.stderr).toContain("assay: 2 bad event lines");
    expect(r.stdout).toBe("");
    const control = await assay("interleave", "--events", `${F}/events.jsonl`, "--control", "nobody");
    expect(control).toMatchObject({
      code: 2,
      stderr: "assay: The control nobody is not one of the teams (baseline, challenger).\n",
    });
    expect((await assay("interleave", "--events", path.join(dir, "missing.jsonl"))).code).toBe(1);
    expect((await assay("interleave", "--events", `${F}/events.jsonl`, "--credit", "view")).code).toBe(2);
  });
});
