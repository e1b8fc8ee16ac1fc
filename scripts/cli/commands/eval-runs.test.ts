import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { runAssay, split, type CliRun } from "../../../test/run-cli";

const root = path.resolve(__dirname, "../../..");
const F = path.join(root, "test/fixtures/trec-small");
const assay = (...args: string[]) => runAssay(args);

/** `assay` from the sources, as runAssay runs it, with `input` on its standard input. */
function assayWithInput(input: Buffer | string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/cli/assay.ts"), ...args],
      { cwd: root, env: { ...process.env, ASSAY_DATA_DIR: os.tmpdir() } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve(split(code ?? 1, stdout, stderr)));
    child.stdin.on("error", () => {}); // a command that refuses before reading closes its input early
    child.stdin.end(input);
  });
}

// Three runs over eight queries, each with one relevant candidate "rel":
//  good lists it first everywhere (RR 1 × 8); mid second, except first on q8 (RR 0.5 × 7, 1: mean 0.5625);
//  bad never lists it (RR 0). Exact sign-flip p-values over 2^8 patterns:
//  good − bad = 8 × 1: 2/256; mid − bad = 7 × 0.5 and 1, all positive: 2/256; good − mid = 7 × 0.5 and a 0: 4/256.
//  Holm: 3 × 2/256 = 0.0234, max(0.0234, 2 × 2/256) = 0.0234, max(0.0234, 4/256) = 0.0234: all below 0.05,
//  so good is better than mid and bad (ᵇᶜ), mid better than bad (ᶜ).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eval-runs-"));
const qids = Array.from({ length: 8 }, (_, i) => `q${i + 1}`);
const file = (name: string, lines: string[]) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, lines.join("\n") + "\n");
  return p;
};
const qrels = file(
  "qrels.txt",
  qids.flatMap((q) => [`${q} 0 rel 1`, `${q} 0 other 0`]),
);
const good = file(
  "good.txt",
  qids.flatMap((q) => [`${q} Q0 rel 1 3 good`, `${q} Q0 other 2 2 good`]),
);
const mid = file(
  "mid.txt",
  qids.flatMap((q) =>
    q === "q8"
      ? [`${q} Q0 rel 1 3 mid`, `${q} Q0 other 2 2 mid`]
      : [`${q} Q0 other 1 3 mid`, `${q} Q0 rel 2 2 mid`],
  ),
);
const bad = file(
  "bad.txt",
  qids.flatMap((q) => [`${q} Q0 other 1 3 bad`, `${q} Q0 x 2 2 bad`]),
);
const three = [
  "eval",
  "--qrels",
  qrels,
  "--run",
  good,
  "--run",
  mid,
  "--run",
  bad,
  "--measure",
  "RR",
  "--measure",
  "P@1",
  "--test",
  "permutation",
];

describe("assay eval: inputs", () => {
  const single = ["--measure", "AP", "--measure", "nDCG@10", "--json"];

  it("reads qrels or a run from standard input (`-`) and gzipped files, with the values of the plain files", async () => {
    const gz = path.join(dir, "run.txt.gz");
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(`${F}/run.txt`)));
    const [plain, qrelsIn, runIn, gzipped, gzIn] = await Promise.all([
      assay("eval", "--qrels", `${F}/qrels.txt`, "--run", `${F}/run.txt`, ...single),
      assayWithInput(
        fs.readFileSync(`${F}/qrels.txt`),
        "eval",
        "--qrels",
        "-",
        "--run",
        `${F}/run.txt`,
        ...single,
      ),
      assayWithInput(
        fs.readFileSync(`${F}/run.txt`),
        "eval",
        "--qrels",
        `${F}/qrels.txt`,
        "--run",
        "-",
        ...single,
      ),
      assay("eval", "--qrels", `${F}/qrels.txt`, "--run", gz, ...single),
      assayWithInput(fs.readFileSync(gz), "eval", "--qrels", `${F}/qrels.txt`, "--run", "-", ...single),
    ]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).queries).toBe(44);
    for (const r of [qrelsIn, runIn, gzipped, gzIn])
      expect({ code: r.code, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: plain.stdout, err: "" });
  });

  it("names the file that is not gzip or is cut short, and refuses standard input for two inputs", async () => {
    const notGzip = path.join(dir, "run.gz");
    fs.copyFileSync(`${F}/run.txt`, notGzip);
    const cut = path.join(dir, "cut.gz");
    const whole = zlib.gzipSync(fs.readFileSync(`${F}/run.txt`));
    fs.writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    const [r1, r2, r3, r4] = await Promise.all([
      assay("eval", "--qrels", `${F}/qrels.txt`, "--run", notGzip),
      assay("eval", "--qrels", `${F}/qrels.txt`, "--run", cut),
      assayWithInput("", "eval", "--qrels", "-", "--run", "-"),
      assayWithInput("", "eval", "--qrels", qrels, "--run", "-", "--run", good, "--run", "-"),
    ]);
    expect([r1.code, r1.stderr.trim()]).toEqual([
      1,
      `assay: ${notGzip} is not a gzip file (the run file ends in .gz but its bytes are not gzip's).`,
    ]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain(`${cut} is a truncated gzip file`);
    expect([r3.code, r3.stderr.trim()]).toEqual([
      2,
      "assay: Cannot read both qrels and run from standard input: give `-` for one of them only.",
    ]);
    expect([r4.code, r4.stderr.trim()]).toEqual([
      2,
      "assay: Cannot read more than one run from standard input: give `-` once.",
    ]);
  });
});

describe("assay eval with several runs", () => {
  it("prints ranx's table: a letter per run, each value marked with the letters of the runs it is significantly better than", async () => {
    const r = await assay(...three);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toContain(
      "paired sign-flip permutation test over queries, Holm-adjusted over the 3 pairs of each measure, p ≤ 0.05",
    );
    const rows = lines.slice(-3).map((l) => l.split(/\s{2,}/));
    expect(rows).toEqual([
      ["a", "good.txt", "1.0000ᵇᶜ", "1.0000ᵇᶜ"],
      ["b", "mid.txt", "0.5625ᶜ", "0.1250"],
      ["c", "bad.txt", "0.0000", "0.0000"],
    ]);
    // P@1: good − mid = 7 × 1 and a 0 (4/256), good − bad = 8 × 1 (2/256), mid − bad = one 1 and seven 0 (p = 1):
    // Holm 3 × 2/256 = 0.0234, 2 × 4/256 = 0.0313, 1: good over both, mid over neither.
  });

  it("--format json gives each run's means and marks and each pair's raw and Holm-adjusted p-values", async () => {
    const r = await assay(...three, "--format", "json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      test: "permutation",
      alpha: 0.05,
      adjustment: "holm",
      sameQueries: true,
      measures: ["RR", "P@1"],
    });
    expect(
      out.runs.map((x: { letter: string; name: string; queries: number }) => [x.letter, x.name, x.queries]),
    ).toEqual([
      ["a", "good.txt", 8],
      ["b", "mid.txt", 8],
      ["c", "bad.txt", 8],
    ]);
    expect(out.runs[1].means).toEqual({ RR: 0.5625, "P@1": 0.125 });
    expect(out.runs[0].betterThan).toEqual({ RR: ["mid.txt", "bad.txt"], "P@1": ["mid.txt", "bad.txt"] });
    const rr = out.pairs.filter((p: { measure: string }) => p.measure === "RR");
    expect(
      rr.map((p: { a: string; b: string; pValue: number; pAdjusted: number }) => [
        p.a,
        p.b,
        p.pValue,
        p.pAdjusted,
      ]),
    ).toEqual([
      ["good.txt", "mid.txt", 4 / 256, 6 / 256],
      ["good.txt", "bad.txt", 2 / 256, 6 / 256],
      ["mid.txt", "bad.txt", 2 / 256, 6 / 256],
    ]);
  });

  it("reads the qrels once from standard input for every run", async () => {
    const args = [
      "--run",
      good,
      "--run",
      mid,
      "--run",
      bad,
      "--measure",
      "RR",
      "--test",
      "permutation",
      "--format",
      "csv",
    ];
    const [fromFile, fromStdin] = await Promise.all([
      assay("eval", "--qrels", qrels, ...args),
      assayWithInput(fs.readFileSync(qrels), "eval", "--qrels", "-", ...args),
    ]);
    expect(fromFile.stdout).toContain("a,good.txt,8,1,bc");
    expect(fromStdin).toEqual(fromFile);
  });

  it("--format csv, markdown and latex give the same cells in their own shapes", async () => {
    const [csv, md, tex] = await Promise.all([
      assay(...three, "--format", "csv"),
      assay(...three, "--format", "markdown"),
      assay(...three, "--format", "latex"),
    ]);
    expect(csv.stdout.trim().split(/\r?\n/)).toEqual([
      "#,run,queries,RR,RR better than,P@1,P@1 better than",
      "a,good.txt,8,1,bc,1,bc",
      "b,mid.txt,8,0.5625,c,0.125,",
      "c,bad.txt,8,0,,0,",
    ]);
    const mdLines = md.stdout.split("\n");
    expect(mdLines.slice(0, 5)).toEqual([
      "| # | run | RR | P@1 |",
      "|:-:|:--|--:|--:|",
      "| a | good.txt | 1.0000ᵇᶜ | 1.0000ᵇᶜ |",
      "| b | mid.txt | 0.5625ᶜ | 0.1250 |",
      "| c | bad.txt | 0.0000 | 0.0000 |",
    ]);
    expect(md.stdout).toContain("Holm-adjusted over the 3 pairs");
    expect(tex.stdout).toContain("\\begin{tabular}{c|l|c|c}");
    expect(tex.stdout).toContain("\\textbf{\\#} & \\textbf{Run} & \\textbf{RR} & \\textbf{P@1} \\\\");
    expect(tex.stdout).toContain("a &\ngood.txt &\n\\textbf{1.0000}$^{bc}$ &\n\\textbf{1.0000}$^{bc}$ \\\\");
    expect(tex.stdout).toContain(
      "b &\nmid.txt &\n0.5625$^{c}$\\hphantom{$^{a}$} &\n0.1250\\hphantom{$^{ac}$} \\\\",
    );
    expect(tex.stdout).toContain("Holm-adjusted) with $p \\le 0.05$");
  });

  it("says so when runs cover different queries, and tests each pair on the queries both have", async () => {
    const partial = file(
      "partial.txt",
      qids.slice(0, 6).flatMap((q) => [`${q} Q0 rel 1 3 partial`]),
    );
    const r = await assay(
      "eval",
      "--qrels",
      qrels,
      "--run",
      partial,
      "--run",
      bad,
      "--measure",
      "RR",
      "--test",
      "permutation",
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.sameQueries).toBe(false);
    expect(out.pairs[0]).toMatchObject({ queries: 6, pValue: 2 / 64 });
    const table = await assay(
      "eval",
      "--qrels",
      qrels,
      "--run",
      partial,
      "--run",
      bad,
      "--measure",
      "RR",
      "--test",
      "permutation",
    );
    expect(table.stdout).toContain(
      "The runs were evaluated on different queries (partial.txt: 6, bad.txt: 8)",
    );
    expect(table.stdout).toContain("each pair is tested on the queries both runs have");
  });

  it("keeps a single run's output, and refuses options that need one run or several", async () => {
    const [one, perQuery, testOne, badFormat] = await Promise.all([
      assay("eval", "--qrels", qrels, "--run", good, "--measure", "RR"),
      assay(...three, "--per-query"),
      assay("eval", "--qrels", qrels, "--run", good, "--test", "t"),
      assay(...three, "--format", "html"),
    ]);
    expect(one.stdout).toBe(
      "8 queries\nmeasure  query  value\n-------  -----  -----\nRR       all        1\n",
    );
    expect([perQuery.code, perQuery.stderr.trim()]).toEqual([
      2,
      "assay: --per-query prints one run's values: give a single --run.",
    ]);
    expect([testOne.code, testOne.stderr.trim()]).toEqual([
      2,
      "assay: --test and --alpha compare several runs: give two or more --run.",
    ]);
    expect([badFormat.code, badFormat.stderr.trim()]).toEqual([
      2,
      'assay: --format must be table, json, csv, markdown, latex, not "html".',
    ]);
  });
});
