import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../../test/run-cli";
import { teamDraftMultileave } from "../../interleaving/multileave";
import { interleaveText } from "../../interleaving/index";

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

  it("reads a multileaved log (three teams) into the preference matrix and ranking, the same as in-process", async () => {
    // 12 conveners × 3 sessions; the convener clicks the first candidate that "good" placed, and in
    // every other session also the first that "fair" placed: good > fair > poor by construction.
    const lines: string[] = [];
    const lists = [
      { system: "poor", list: ["c9", "c8", "c7", "c6"] },
      { system: "good", list: ["c1", "c2", "c3", "c4"] },
      { system: "fair", list: ["c5", "c1", "c6", "c2"] },
    ];
    let n = 0;
    for (let u = 0; u < 12; u++)
      for (let s = 0; s < 3; s++) {
        const sessionId = `u${u}s${s}`;
        const at = `2026-11-0${s + 1}T10:00:00Z`;
        const base = { experiment: "ml", arm: "I", unitId: `u${u}`, sessionId, proposalId: "p", at };
        const { items, teams } = teamDraftMultileave(lists, { depth: 6, seed: "ml", sessionId });
        lines.push(JSON.stringify({ ...base, eventId: `e${++n}`, type: "impression", items, teams }));
        const clicked = [items[teams.indexOf("good")]];
        if ((u + s) % 2 === 0) clicked.push(items[teams.indexOf("fair")]);
        for (const c of clicked)
          lines.push(JSON.stringify({ ...base, eventId: `e${++n}`, type: "click", candidateId: c }));
      }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "multileave-"));
    const file = path.join(dir, "events.jsonl");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const run = await assay(
      "interleave",
      "--events",
      file,
      "--control",
      "poor",
      "--bootstrap",
      "200",
      "--json",
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const inProcess = interleaveText(lines.join("\n"), { control: "poor", B: 200 });
    expect(inProcess.ok && "multileaving" in inProcess && inProcess.multileaving).toEqual(out);
    expect(out.systems).toEqual(["poor", "fair", "good"]);
    expect(out.ranking.map((s: { system: string }) => s.system)).toEqual(["good", "fair", "poor"]);
    const goodOverPoor = out.pairs.find(
      (p: { system: string; other: string }) => p.system === "good" && p.other === "poor",
    );
    expect(goodOverPoor).toMatchObject({ wins: 36, losses: 0, share: 1 });
    const table = await assay("interleave", "--events", file, "--bootstrap", "50");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("team-draft multileaving of fair, good, poor; 36 sessions");
    expect(table.stdout).toContain(
      "Ranking (Copeland score, then mean share): 1. good (+2), 2. fair (0), 3. poor (-2)",
    );
  });
});
