import { readFileSync } from "node:fs";
import path from "node:path";
import { runAssay } from "../../test/run-cli";
import { parseTrecEvalArgs } from "./args";
import { trecEval } from "./engine";

/**
 * trec_eval's own test folder (test/fixtures/trec_eval-suite: its inputs, the outputs trec_eval 9.0.8
 * printed and the commands that made them) and trec_eval 10.0's outputs on trec-small: trec_eval mode
 * must print every one byte for byte.
 */
const root = path.resolve(__dirname, "../..");
const suite = path.join(root, "test/fixtures/trec_eval-suite");
const small = path.join(root, "test/fixtures/trec-small");
const small10 = path.join(root, "test/fixtures/trec-small-trec_eval10");
const read = (file: string) => readFileSync(file, "utf8");

const suiteCommands: [string, string][] = [
  ["out.test", "qrels.test results.test"],
  ["out.test.a", "-m all_trec qrels.test results.test"],
  ["out.test.aq", "-m all_trec -q qrels.test results.test"],
  ["out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"],
  ["out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"],
  ["out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"],
  [
    "out.test.meas_params",
    "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test",
  ],
  ["out10.test.aqc", "--v10 -m all_trec -q -c qrels.test results.trunc"],
];

/** Runs trec_eval mode on a command line as a user types it, with files in `dir`. */
function run(commandLine: string, dir: string) {
  const { options, qrels, run } = parseTrecEvalArgs(commandLine.split(" "));
  return trecEval(read(path.join(dir, qrels)), read(path.join(dir, run)), options);
}

describe("trec_eval's own test outputs", () => {
  it.each(suiteCommands)("%s comes out byte for byte", (expected, commandLine) => {
    expect(run(commandLine, suite)).toBe(read(path.join(suite, expected)));
  });

  it("results.trunc's lines of more than six fields are read, the extra fields ignored", () => {
    expect(read(path.join(suite, "results.trunc")).split("\n")[0].split(/\s+/).length).toBeGreaterThan(6);
    expect(run("-m num_ret -q qrels.test results.trunc", suite)).toContain("num_ret               \t301\t");
  });

  it("the 9.0.8 and 10.0 readings differ where 10.0 changed them (doubles, rounded recall cut-offs)", () => {
    const v9 = run("-m iprec_at_recall -q qrels.test results.test", suite);
    const v10 = run("--v10 -m iprec_at_recall -q qrels.test results.test", suite);
    expect(v9).toContain("iprec_at_recall_0.10  \t301\t0.2096");
    expect(v10).toContain("iprec_at_recall_0.10  \t301\t0.2098");
  });
});

describe("every all_trec measure (with rbp, rbp_resid, unj) against trec_eval 10.0 on trec-small", () => {
  it.each([
    ["all_trec.qc.txt", "--v10 -m all_trec -q -c"],
    ["all_trec.qcl2.txt", "--v10 -m all_trec -q -c -l2"],
    ["all_trec.qcJM20.txt", "--v10 -m all_trec -q -c -J -M20"],
    [
      "params.qc.txt",
      "--v10 -q -c -m rbp.p=0.8 -m ndcg.0=0,1=1,2=3,3=7 -m set_F.0.5 -m success.1,3 -m unj.3",
    ],
  ])("%s comes out byte for byte", (expected, flags) => {
    const { options } = parseTrecEvalArgs([...flags.split(" "), "q", "r"]);
    expect(trecEval(read(path.join(small, "qrels.txt")), read(path.join(small, "run.txt")), options)).toBe(
      read(path.join(small10, expected)),
    );
  });
});

describe("negative labels: pooled but unjudged", () => {
  // Query 1: d1 relevant, d2 pooled but unjudged (-1), d3 not in the qrels, d4 judged non-relevant,
  // d5 relevant; d6 relevant and not retrieved. Checked against trec_eval 9.0.8.
  const qrels = "1 0 d1 1\n1 0 d2 -1\n1 0 d4 0\n1 0 d5 1\n1 0 d6 1\n1 0 d7 0\n";
  const runText = ["d1", "d2", "d3", "d4", "d5"].map((d, i) => `1 Q0 ${d} ${i + 1} ${10 - i} tag`).join("\n");
  const values = (measures: string[], extra: object = {}) =>
    Object.fromEntries(
      trecEval(qrels, runText, { measures, ...extra })
        .trim()
        .split("\n")
        .map((line) => line.split("\t"))
        .map(([name, , value]) => [name.trim(), value]),
    );

  it("bpref skips unjudged and unpooled documents; infAP counts the pooled-but-unjudged as judged in proportion", () => {
    // bpref: d1 with no non-relevant above (1), d5 with one above of min(R=3, N=2)=2 → (1 + 0.5)/3.
    // infAP: d1 → 1; d5 at j=4: 1/5 + 4/5 · (1+1+1)/4 · (1+ε)/(1+1+2ε), over R = 3.
    const eps = 0.00001;
    const infAP = (1 + (1 / 5 + (4 / 5) * (3 / 4) * ((1 + eps) / (2 + 2 * eps)))) / 3;
    expect(values(["bpref", "infAP", "num_nonrel_judged_ret"])).toEqual({
      bpref: "0.5000",
      infAP: infAP.toFixed(4),
      num_nonrel_judged_ret: "1",
    });
  });

  it("-J drops unjudged, unpooled and pooled-but-unjudged documents before ranking", () => {
    // Left: d1 (rel), d4 (non-rel), d5 (rel): AP = (1 + 2/3) / 3.
    expect(values(["map", "num_ret"], { judgedOnly: true })).toEqual({
      map: ((1 + 2 / 3) / 3).toFixed(4),
      num_ret: "3",
    });
  });
});

describe("assay trec_eval", () => {
  it("reads trec_eval's command line and prints what trec_eval prints", async () => {
    const result = await runAssay([
      "trec_eval",
      "-m",
      "all_trec",
      "-q",
      "-c",
      "-M100",
      path.join(suite, "qrels.test"),
      path.join(suite, "results.trunc"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(read(path.join(suite, "out.test.aqcM")));
  });

  it("refuses an unknown measure with a sentence naming it, exit code 2", async () => {
    const result = await runAssay([
      "trec_eval",
      "-m",
      "mapp",
      path.join(suite, "qrels.test"),
      path.join(suite, "results.test"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("illegal measure 'mapp'");
    expect(result.stdout).toBe("");
  });
});

describe("trec_eval's command line", () => {
  it("reads options as getopt does: grouped flags, values joined or apart, long names", () => {
    expect(
      parseTrecEvalArgs([
        "-qc",
        "-M100",
        "-l",
        "2",
        "-mP.5",
        "-m",
        "map",
        "--Judged_docs_only",
        "--level_for_rel=3",
        "q.txt",
        "r.txt",
      ]),
    ).toEqual({
      options: {
        perQuery: true,
        complete: true,
        maxRetrieved: 100,
        relevanceLevel: 3,
        measures: ["P.5", "map"],
        judgedOnly: true,
      },
      qrels: "q.txt",
      run: "r.txt",
    });
  });

  it.each([
    [["-M", "ten", "q", "r"], /-M takes a whole number/],
    [["-x", "q", "r"], /unknown option -x/],
    [["q"], /expected the qrels file and the run file, got 1 file/],
    [["-m"], /-m needs a value/],
  ])("refuses %j", (args, reason) => {
    expect(() => parseTrecEvalArgs(args)).toThrow(reason);
  });
});
