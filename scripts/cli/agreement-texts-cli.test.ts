import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../test/run-cli";

const root = path.resolve(__dirname, "../..");
const T = path.join(root, "test/fixtures/text-small");
const expected = JSON.parse(fs.readFileSync(path.join(T, "expected.json"), "utf8")).proposals;
const base = ["agreement", "--ratings", `${T}/ratings.csv`, "--truth", `${T}/truth.csv`, "--bootstrap", "50"];

function tempFile(name: string, content: string | Buffer) {
  const file = path.join(os.tmpdir(), `${name}-${process.pid}.csv`);
  fs.writeFileSync(file, content);
  return file;
}

describe("assay agreement --texts", () => {
  it("adds the clustering hypothesis (numpy/scipy values of text-small) and the text-aware curves", async () => {
    const args = [
      ...base,
      "--texts",
      `${T}/texts.csv`,
      "--aggregate",
      "majority,nn",
      "--draws",
      "30",
      "--json",
    ];
    const { stdout, stderr, code } = await runAssay(args);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const { texts } = JSON.parse(stdout);
    expect(texts.clustering.map((c: { flagged: boolean }) => c.flagged)).toEqual([false, false, true]);
    expect(texts.clustering[2].pValue).toBeCloseTo(expected["prop-2"].pValue, 10);
    expect(texts.curves.map((c: { method: string }) => c.method)).toEqual([
      "majority",
      "nn s=0.3",
      "nn adaptive",
    ]);
    expect(texts.curves[0].points.map((p: { n: number }) => p.n)).toEqual([1, 2, 3, 4]);
    expect(texts.grades).toBe(68); // every row of ratings.csv

    const csv = await runAssay([
      ...base,
      "--texts",
      `${T}/texts.csv`,
      "--draws",
      "5",
      "--similarity",
      "0.5",
      "--csv",
    ]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^proposal,items,relevant,inner pairs,inner mean/);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["prop-0", "prop-1", "prop-2"]);
  });

  const good = fs.readFileSync(`${T}/texts.csv`, "utf8").trim().split("\n");
  it.each([
    [
      "an unknown item",
      [...good, "prop-9:cand-1,ghost"].join("\n"),
      "line 26: the item prop-9:cand-1 is not in the ratings",
    ],
    [
      "an empty text",
      [good[0], good[1], "prop-0:cand-1,  "].join("\n"),
      "line 3: the text of prop-0:cand-1 is empty",
    ],
    [
      "Latin-1 bytes",
      Buffer.concat([
        Buffer.from(`${good[0]}\n${good[1]}\nprop-0:cand-1,J`),
        Buffer.from([0xfc]),
        Buffer.from("rgen\n"),
      ]),
      "line 3: is not valid UTF-8 text",
    ],
  ])("refuses a texts file with %s: the line named, exit 2, nothing printed", async (_, content, message) => {
    const file = tempFile(`texts-${_.replace(/\W/g, "")}`, content);
    const { stdout, stderr, code } = await runAssay([...base, "--texts", file, "--draws", "5"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file} ${message}`);
    expect(stdout).toBe("");
  });

  it("asks for --texts (and --truth) where they are needed", async () => {
    const noTexts = await runAssay([...base, "--aggregate", "median,join-until-n"]);
    expect(noTexts.code).toBe(2);
    expect(noTexts.stderr).toContain("the text-aware estimates need --texts");
    const noTruth = await runAssay([
      "agreement",
      "--ratings",
      `${T}/ratings.csv`,
      "--texts",
      `${T}/texts.csv`,
    ]);
    expect(noTruth.code).toBe(2);
    expect(noTruth.stderr).toContain("--texts needs --truth");
  });
});
