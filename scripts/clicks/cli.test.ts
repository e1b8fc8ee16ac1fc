import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../test/run-cli";

const root = path.resolve(__dirname, "../..");
const F = path.join(root, "test/fixtures/clicks-small");
const expected = JSON.parse(fs.readFileSync(path.join(F, "expected.json"), "utf8"));

const assay = (...args: string[]) => runAssay(args);

describe("assay clicks", () => {
  it("--compat pyclick --json gives PyClick's values on clicks-small (Yandex files)", async () => {
    const { code, stdout, stderr } = await assay(
      "clicks",
      "--train",
      `${F}/train.yandex.tsv`,
      "--test",
      `${F}/test.yandex.tsv`,
      "--qrels",
      `${F}/qrels.txt`,
      "--compat",
      "pyclick",
      "--model",
      "PBM",
      "--model",
      "sdbn",
      "--json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.train).toEqual({ sessions: 1500 });
    expect(out.test).toEqual({ sessions: 490, dropped: 10 });
    expect(Object.keys(out.models)).toEqual(["PBM", "SDBN"]);
    const pbm = out.models.PBM;
    const e = expected.models.PBM;
    expect(Math.abs(pbm.logLikelihood - e.LogLikelihood)).toBeLessThan(1e-6);
    expect(Math.abs(pbm.perplexity - e.Perplexity)).toBeLessThan(1e-6);
    expect(Math.abs(pbm.perplexityByRank[9] - e.PerplexityAtRank[9])).toBeLessThan(1e-6);
    expect(Math.abs(pbm.ctrPredictionRmse - e.CTRPrediction)).toBeLessThan(1e-6);
    expect(Math.abs(pbm.relevanceAuc - e.RelevancePrediction.auc)).toBeLessThan(1e-6);
    expect(Math.abs(pbm.rankingNdcg5 - e.RankingPerformance)).toBeLessThan(1e-6);
    // The intervals around PyClick's figures (over test queries, the default B and seed).
    for (const m of ["logLikelihood", "perplexity", "ctrPredictionRmse", "relevanceAuc", "rankingNdcg5"]) {
      expect(pbm[`${m}Ci`].lower, m).toBeLessThan(pbm[m]);
      expect(pbm[`${m}Ci`].upper, m).toBeGreaterThan(pbm[m]);
    }
    expect(Math.abs(pbm.params.examination[0] - e.params.exam[0])).toBeLessThan(1e-6);
    expect(Math.abs(pbm.params.pairs.q128.d443.attractiveness - e.params.attr.q128.d443)).toBeLessThan(1e-6);
    expect(
      Math.abs(
        out.models.SDBN.params.pairs.q128.d443.satisfaction - expected.models.SDBN.params.sat.q128.d443,
      ),
    ).toBeLessThan(1e-6);
  });

  it("prints the table, one row per model, with — for measures that need labels when there is no --qrels", async () => {
    const { code, stdout } = await assay(
      "clicks",
      "--log",
      `${F}/train.jsonl`,
      "--test-share",
      "0.2",
      "--seed",
      "3",
      "--model",
      "DCTR",
      "--model",
      "DBN",
    );
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^\d+ train sessions, \d+ test sessions/);
    expect(lines[1]).toBe('ci95: 95% percentile bootstrap over test queries, B = 2000, seed "3"');
    expect(lines[2].split(/\s{2,}/)).toEqual([
      "model",
      "logLikelihood",
      "ci95",
      "perplexity",
      "ci95",
      "perplexityCond",
      "ctr@1 RMSE",
      "ci95",
      "relevance AUC",
      "ci95",
      "nDCG@5",
      "ci95",
      "train s",
    ]);
    expect(lines.slice(4).map((l) => l.split(/\s+/)[0])).toEqual(["DCTR", "DBN"]);
    const dctr = lines[4].split(/\s{2,}/);
    expect(dctr[2]).toMatch(/^\[-\d\.\d{4}, -\d\.\d{4}\]$/);
    expect(dctr[7]).toMatch(/^\[0\.\d{4}, 0\.\d{4}\]$/);
    expect(dctr.slice(8, 12)).toEqual(["—", "—", "—", "—"]);
  });

  it("gives log-likelihood and perplexity intervals over test queries, seeded; --bootstrap 0 gives none", async () => {
    const base = ["clicks", "--log", `${F}/train.jsonl`, "--seed", "3", "--model", "PBM", "--json"];
    const run = async (...more: string[]) => JSON.parse((await assay(...base, ...more)).stdout).models.PBM;
    const pbm = await run("--bootstrap", "300");
    expect(pbm.logLikelihoodCi.lower).toBeLessThan(pbm.logLikelihood);
    expect(pbm.logLikelihoodCi.upper).toBeGreaterThan(pbm.logLikelihood);
    expect(pbm.perplexityCi.lower).toBeLessThan(pbm.perplexity);
    expect(pbm.perplexityCi.upper).toBeGreaterThan(pbm.perplexity);
    expect(pbm.perplexityByRankCi).toHaveLength(10);
    expect((await run("--bootstrap", "300")).perplexityCi).toEqual(pbm.perplexityCi);
    const none = await run("--bootstrap", "0");
    expect(none.logLikelihood).toBe(pbm.logLikelihood);
    expect(none.logLikelihoodCi).toBeNull();
    const bad = await assay(...base, "--bootstrap", "many");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("must be a whole number of at least 0");
  });

  it("names the bad line of a log and the unknown model, with exit code 2", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clicks-"));
    const bad = path.join(dir, "bad.jsonl");
    fs.writeFileSync(
      bad,
      `${fs.readFileSync(path.join(F, "train.jsonl"), "utf8").split("\n").slice(0, 3).join("\n")}\n{"session":"x"}\n`,
    );
    const badLine = await assay("clicks", "--log", bad);
    expect(badLine.code).toBe(2);
    expect(badLine.stderr).toContain(`${bad} line 4 has no "query".`);
    const unknown = await assay("clicks", "--log", `${F}/train.jsonl`, "--model", "XYZ");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown click model XYZ");
    const noFormat = await assay("clicks", "--log", path.join(F, "qrels"), "--model", "PBM");
    expect(noFormat.stderr).toContain("give --format jsonl or --format yandex");
  });
});
