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

  it("credits a probabilistic log by the marginalised outcome given --lists, and refuses lists without a system", async () => {
    // The hand-worked case of probabilistic.test.ts: A ranks d1 d2 d3, B d2 d3 d1; shown d2 d1 d3 with
    // d2 and d1 clicked: P(B wins) = 256/1503 > P(A wins) = 135/1503, so B wins the session, although
    // the teams logged say one click each.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probabilistic-"));
    const base = { experiment: "pi", arm: "I", unitId: "u1", sessionId: "s1", proposalId: "P1" };
    const at = (m: number) => `2026-11-01T10:0${m}:00Z`;
    const events = [
      {
        ...base,
        eventId: "1",
        at: at(0),
        type: "impression",
        items: ["d2", "d1", "d3"],
        teams: ["B", "A", "A"],
      },
      { ...base, eventId: "2", at: at(1), type: "click", candidateId: "d2" },
      { ...base, eventId: "3", at: at(2), type: "click", candidateId: "d1" },
    ];
    const file = path.join(dir, "events.jsonl");
    fs.writeFileSync(file, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const rows = [
      ["A", "d1", "d2", "d3"],
      ["B", "d2", "d3", "d1"],
    ].flatMap(([system, ...list]) => list.map((c, i) => `${system},P1,${i + 1},${c},,`));
    const lists = path.join(dir, "lists.csv");
    fs.writeFileSync(lists, ["system,proposal,rank,candidate,score,variant", ...rows].join("\n") + "\n");
    const run = await assay("interleave", "--events", file, "--lists", lists, "--bootstrap", "50", "--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      control: "A",
      challenger: "B",
      wins: { A: 0, B: 1 },
      ties: 0,
    });
    // Without --lists the logged teams decide: one click each, a tie.
    const plain = await assay("interleave", "--events", file, "--bootstrap", "50", "--json");
    expect(JSON.parse(plain.stdout)).toMatchObject({ wins: { A: 0, B: 0 }, ties: 1 });
    const onlyA = path.join(dir, "only-a.csv");
    fs.writeFileSync(
      onlyA,
      ["system,proposal,rank,candidate,score,variant", ...rows.slice(0, 3)].join("\n") + "\n",
    );
    const refused = await assay("interleave", "--events", file, "--lists", onlyA);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("The lists need both systems' lists (A and B); they hold A.");
    const badRank = path.join(dir, "bad-rank.csv");
    fs.writeFileSync(badRank, "system,proposal,rank,candidate\nA,P1,first,d1\n");
    const bad = await assay("interleave", "--events", file, "--lists", badRank);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${badRank}:2: rank must be a whole number of at least 1, not first.`);
  });
});
