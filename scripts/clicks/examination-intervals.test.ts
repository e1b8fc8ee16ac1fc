import fs from "node:fs";
import path from "node:path";
import { createRng } from "../lib/random";
import { examinationCells, examinationIntervals, fitExamination } from "./examination-intervals";
import { clusterIndex } from "./intervals";
import { buildLog, emptyLog, Vocabulary, type ClickLog } from "./log";
import { PBM } from "./pbm";
import { parseJsonl } from "../io/click-log-parse";

const F = path.resolve(__dirname, "../../test/fixtures/clicks-small");
const small = buildLog(parseJsonl(fs.readFileSync(path.join(F, "train.jsonl"), "utf8")), new Vocabulary());
/** clicks-small's sessions in clusters of their query (the CLI's clusters). */
const byQuery = (log: ClickLog) => clusterIndex(Array.from(log.query, (q) => String(q)).slice(0, log.size));

/** Each cluster drawn once: the cells' own counts. */
function fullCounts(cells: ReturnType<typeof examinationCells>) {
  const clicks = new Float64Array(cells.pair.length);
  const skips = new Float64Array(cells.pair.length);
  cells.entryCell.forEach((c, e) => {
    clicks[c] += cells.entryClicks[e];
    skips[c] += cells.entrySkips[e];
  });
  return { clicks, skips };
}

/**
 * Sessions from a PBM with a known examination curve: `conveners` clusters, each with its own
 * propensity to click (so sessions of one convener are alike, as the page assumes).
 */
function simulatePbm(gamma: number[], sessions: number, seed: string) {
  const R = gamma.length;
  const rng = createRng(seed);
  const vocabulary = new Vocabulary();
  const log = emptyLog(vocabulary, sessions, R);
  const attr = Array.from({ length: 40 * 14 }, () => 0.05 + 0.6 * rng.next());
  const lift = Array.from({ length: 60 }, () => 0.7 + 0.6 * rng.next());
  const units: string[] = [];
  for (let s = 0; s < sessions; s++) {
    const q = rng.int(40);
    const unit = rng.int(60);
    units.push(`c${unit}`);
    log.ids.push(`s${s}`);
    log.query[s] = vocabulary.query(`q${q}`);
    log.length[s] = R;
    // A shuffled page of 14 candidates: every candidate is seen at every rank, so α and γ separate.
    const page = Array.from({ length: 14 }, (_, i) => i);
    for (let i = 13; i > 0; i--) {
      const j = rng.int(i + 1);
      [page[i], page[j]] = [page[j], page[i]];
    }
    for (let r = 0; r < R; r++) {
      const d = page[r];
      log.pair[s * R + r] = vocabulary.pair(log.query[s], `d${d}`);
      log.click[s * R + r] = rng.next() < Math.min(1, attr[q * 14 + d] * lift[unit]) * gamma[r] ? 1 : 0;
    }
  }
  log.size = sessions;
  return { log, clusters: clusterIndex(units) };
}

describe("PBM's examination curve refitted on weighted cells", () => {
  it("is the page's own PBM fit when every cluster is drawn once", () => {
    const model = new PBM({ iterations: 50 });
    model.train(small);
    const cells = examinationCells(small, byQuery(small).of);
    const { clicks, skips } = fullCounts(cells);
    const exam = fitExamination(cells, clicks, skips, 50);
    expect(exam.length).toBe(10);
    exam.forEach((g, r) => expect(g).toBeCloseTo(model.exam.value[r], 12));
  });

  it("gives rank 1 the point interval [1, 1] and is reproducible from its seed", () => {
    const clusters = byQuery(small);
    const cells = examinationCells(small, clusters.of);
    const run = (seed: string) => examinationIntervals(cells, clusters.count, 50, { B: 60, seed });
    const a = run("assay");
    expect(a[0]).toEqual({ lower: 1, upper: 1 });
    expect(run("assay")).toEqual(a);
    expect(run("other")).not.toEqual(a);
    for (const ci of a.slice(1)) expect(ci!.lower).toBeLessThan(ci!.upper);
  });

  it("covers the examination curve that generated the clicks, and narrows with more conveners' sessions", () => {
    const gamma = [1, 0.85, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25, 0.2];
    const width = (sessions: number) => {
      const { log, clusters } = simulatePbm(gamma, sessions, `pbm:${sessions}`);
      const cells = examinationCells(log, clusters.of);
      const cis = examinationIntervals(cells, clusters.count, 50, { B: 200, seed: "assay" });
      const covered = cis.slice(1).filter((ci, r) => ci!.lower <= gamma[r + 1] && gamma[r + 1] <= ci!.upper);
      expect(covered.length).toBeGreaterThanOrEqual(7);
      return cis.slice(1).reduce((sum, ci) => sum + ci!.upper - ci!.lower, 0);
    };
    expect(width(4000)).toBeLessThan(width(1000));
  });

  it("reports each refit as it finishes", () => {
    const clusters = byQuery(small);
    const cells = examinationCells(small, clusters.of);
    const seen: number[] = [];
    examinationIntervals(cells, clusters.count, 5, { B: 4, seed: "assay" }, (done, total) => {
      expect(total).toBe(4);
      seen.push(done);
    });
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
