import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../test/run-cli";

const F = path.resolve(__dirname, "../../test/fixtures/fairness-small");
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));

function tempCsv(name: string, text: string) {
  const file = path.join(os.tmpdir(), `${name}-${process.pid}.csv`);
  fs.writeFileSync(file, text);
  return file;
}

/** Rows of a fixture CSV (no quoted commas in these files' used columns). */
function csvRows(file: string) {
  const [head, ...lines] = fs.readFileSync(path.join(F, file), "utf8").trim().split("\n");
  const names = head.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], v])));
}

const args = ["fairness", "--lists", `${F}/lists.csv`, "--attributes", `${F}/attributes.csv`];

describe("assay fairness", () => {
  it("prints the reference values by system, attribute, group and measure, with intervals", async () => {
    const { stdout, code, stderr } = await runAssay([
      ...args,
      "--qrels",
      `${F}/qrels-subtopics.txt`,
      "--bootstrap",
      "100",
      "--json",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout).systems;
    const f = expected.systems.citation.gender.groups.f;
    expect(out.citation.gender.groups.f["share@10"]).toBeCloseTo(f["share@10"], 6);
    expect(out.citation.gender.groups.f.rKL).toBeCloseTo(f.rKL, 6);
    expect(out.citation.gender["AWRF@20"]).toBeCloseTo(expected.systems.citation.gender["AWRF@20"], 6);
    expect(out.semantic.country.groups.DE.rRD).toBeCloseTo(
      expected.systems.semantic.country.groups.DE.rRD,
      6,
    );
    expect(out.semantic.diversity["alpha-nDCG@10"]).toBeCloseTo(
      expected.systems.semantic.diversity["alpha-nDCG@10"],
      6,
    );
    expect(out.citation.gender.groups.f.ci["share@10"].lower).toBeLessThan(f["share@10"]);
  });

  it("refuses an attribute row without a name, a value over 200 characters and an unknown candidate", async () => {
    const empty = tempCsv("attr-empty", "candidate,attribute,value\nC63-0001,,f\n");
    let run = await runAssay(["fairness", "--lists", `${F}/lists.csv`, "--attributes", empty]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("line 2: attribute is empty");
    const long = tempCsv("attr-long", `candidate,attribute,value\nC63-0001,gender,${"x".repeat(201)}\n`);
    run = await runAssay(["fairness", "--lists", `${F}/lists.csv`, "--attributes", long]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("line 2: value is longer than 200 characters");
    const candidates = tempCsv("cands", "external_id,name\nC63-0001,A\n");
    const unknown = tempCsv("attr-unknown", "candidate,attribute,value\nC63-0001,gender,f\nC99,gender,m\n");
    run = await runAssay([...args.slice(0, 3), "--attributes", unknown, "--candidates", candidates]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("line 3: the candidate C99 is not in the candidates");
    expect(run.stdout).toBe("");
  });

  it("sets the committees' share and the analyst's target beside each group's top-K share, per subject too", async () => {
    const { stdout, code, stderr } = await runAssay([
      ...args,
      "--committees",
      `${F}/gold.csv`,
      "--target",
      "gender=f:0.4",
      "--by-subject",
      "--proposals",
      `${F}/proposals.csv`,
      "--k",
      "10",
      "--bootstrap",
      "50",
      "--json",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    const gender = new Map(
      csvRows("attributes.csv")
        .filter((r) => r.attribute === "gender")
        .map((r) => [r.candidate, r.value]),
    );
    // The committees' share of women, a mean over the 60 proposals' committees (gold.csv).
    const committees = new Map<string, string[]>();
    for (const r of csvRows("gold.csv"))
      committees.set(r.proposal, [...(committees.get(r.proposal) ?? []), r.candidate]);
    const shares = [...committees.values()].map(
      (c) => c.filter((x) => gender.get(x) === "f").length / c.length,
    );
    const f = out.systems.citation.gender.groups.f;
    expect(f.committees).toBeCloseTo(shares.reduce((a, b) => a + b, 0) / shares.length, 9);
    expect(f.target).toBe(0.4);
    expect(f.poolShare).toBeCloseTo(0.375, 9);
    expect(out.systems.citation.gender.groups.m.target).toBeUndefined();
    // Exposure per unit of merit: citation gives women well under what men get for the same merit.
    expect(f.exposurePerMeritRatio).toBeLessThan(0.6);
    expect(f.ci.exposurePerMeritRatio.upper).toBeLessThan(1);
    // agronomy has one proposal: its share@10 of women is that list's.
    const proposal = csvRows("proposals.csv").find((r) => r.subject === "agronomy")!.external_id;
    const top = csvRows("lists.csv").filter(
      (r) => r.system === "citation" && r.proposal === proposal && Number(r.rank) <= 10,
    );
    const agronomy = out.subjects.agronomy.citation.gender.groups.f;
    expect(agronomy["share@10"]).toBeCloseTo(
      top.filter((r) => gender.get(r.candidate) === "f").length / 10,
      9,
    );
    expect(agronomy.target).toBe(0.4);
  });

  it("refuses a target share outside 0-1 or for an unknown attribute, naming --target, and prints nothing", async () => {
    let run = await runAssay([...args, "--target", "gender=f:1.5"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--target gender=f:1.5: the share must be a number from 0 to 1");
    expect(run.stdout).toBe("");
    run = await runAssay([...args, "--target", "career=early:0.3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--target career=early:0.3: no attribute career");
    run = await runAssay([...args, "--by-subject"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--by-subject needs --proposals");
  });

  it("takes graded qrels as the merit: committees as grade 1 give the committees' figures", async () => {
    const gold = csvRows("gold.csv");
    const qrels = tempCsv(
      "merit-qrels",
      gold.map((r) => `${r.proposal} 0 ${r.candidate} 1`).join("\n") + "\n",
    );
    const common = [...args, "--k", "10", "--bootstrap", "20", "--json"];
    const byGrade = await runAssay([...common, "--merit-qrels", qrels]);
    const byCommittee = await runAssay([...common, "--committees", `${F}/gold.csv`]);
    expect(byGrade.code).toBe(0);
    const graded = JSON.parse(byGrade.stdout).systems.citation.country.groups.DE;
    const members = JSON.parse(byCommittee.stdout).systems.citation.country.groups.DE;
    expect(graded.exposurePerMerit).toBeCloseTo(members.exposurePerMerit, 12);
    expect(graded.exposurePerMeritRatio).toBeCloseTo(members.exposurePerMeritRatio, 12);
    const bad = tempCsv("merit-bad", "63001 0 C63-0001\n");
    const run = await runAssay([...args, "--merit-qrels", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--merit-qrels");
    expect(run.stdout).toBe("");
  });

  it("keeps the whole pool for each subject, candidates without a value counted as unknown in it", async () => {
    // Drop the gender of the first 40 candidates of the lists: they join the pool as "unknown".
    const listed = [...new Set(csvRows("lists.csv").map((r) => r.candidate))].slice(0, 40);
    const rows = csvRows("attributes.csv").filter(
      (r) => r.attribute === "gender" && !listed.includes(r.candidate),
    );
    const file = tempCsv(
      "attr-some",
      ["candidate,attribute,value", ...rows.map((r) => `${r.candidate},gender,${r.value}`)].join("\n"),
    );
    const run = await runAssay([
      ...["fairness", "--lists", `${F}/lists.csv`, "--attributes", file, "--k", "10", "--bootstrap", "20"],
      ...["--by-subject", "--proposals", `${F}/proposals.csv`, "--json"],
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const whole = out.systems.semantic.gender.groups.unknown;
    // The fixture's own unknowns left, and the 40 dropped.
    expect(whole.poolSize).toBe(rows.filter((r) => r.value === "unknown").length + 40);
    expect(out.subjects.agronomy.semantic.gender.groups.unknown.poolShare).toBe(whole.poolShare);
  });
});
