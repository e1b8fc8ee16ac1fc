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
});
