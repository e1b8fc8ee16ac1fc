import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRng } from "../lib/random";

const dir = path.join(os.tmpdir(), "assay-bench");

/**
 * A generated TREC run of `queries` × `depth` lines (scores descending, as systems write them) and
 * qrels judging 20 candidates per query; made once and kept in the temp folder.
 */
export function runFixture(queries = 100_000, depth = 100) {
  fs.mkdirSync(dir, { recursive: true });
  const runFile = path.join(dir, `run-${queries}x${depth}.txt`);
  const qrelsFile = path.join(dir, `qrels-${queries}.txt`);
  if (!fs.existsSync(runFile) || !fs.existsSync(qrelsFile)) {
    const rng = createRng("bench-run");
    const runOut = fs.openSync(runFile + ".tmp", "w");
    const qrelsLines: string[] = [];
    for (let q = 0; q < queries; q++) {
      const qid = `q${String(q).padStart(6, "0")}`;
      const lines: string[] = [];
      const docs = new Set<number>();
      while (docs.size < depth) docs.add(rng.int(50_000));
      let rank = 0;
      for (const d of docs) {
        rank++;
        lines.push(
          `${qid} Q0 c${String(d).padStart(5, "0")} ${rank} ${(1 - rank / (depth + 1)).toFixed(6)} bench`,
        );
      }
      fs.writeSync(runOut, lines.join("\n") + "\n");
      const judged = [...docs].slice(0, 40).filter(() => rng.next() < 0.5);
      for (const d of judged) qrelsLines.push(`${qid} 0 c${String(d).padStart(5, "0")} ${rng.int(4)}`);
    }
    fs.closeSync(runOut);
    fs.renameSync(runFile + ".tmp", runFile);
    fs.writeFileSync(qrelsFile, qrelsLines.join("\n") + "\n");
  }
  return { runFile, qrelsFile, bytes: fs.statSync(runFile).size };
}

/** The bench events' proposals (prop-0 … prop-1999) mapped to 8 subjects, for `--slice subject`. */
export function subjectsFixture() {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "events-subjects.json");
  const subjects = Object.fromEntries(
    Array.from({ length: 2000 }, (_, i) => [`prop-${i}`, `subject-${i % 8}`]),
  );
  fs.writeFileSync(file, JSON.stringify(subjects));
  return file;
}

/**
 * A JSONL file of about `count` convener events over two arms, the challenger modestly better,
 * with 2% retried duplicates; made once and kept in the temp folder. With `history`, the sessions of
 * the first 10 of the 30 days belong to an earlier experiment of the same conveners, the pre-period
 * `assay online --cuped` reads.
 */
export function eventsFixture(count = 1_000_000, history = false) {
  fs.mkdirSync(dir, { recursive: true });
  // "-v2": conveners have a lasting click and adoption propensity (so CUPED's pre-period predicts them).
  const file = path.join(dir, `events-${count}${history ? "-history" : ""}-v2.jsonl`);
  if (fs.existsSync(file)) return { file, bytes: fs.statSync(file).size };
  const rng = createRng("bench-events");
  const out = fs.openSync(file + ".tmp", "w");
  let written = 0;
  let n = 0;
  const base = Date.parse("2026-10-01T00:00:00Z");
  const uuid = () => {
    const h = Array.from({ length: 4 }, () => rng.nextUint32().toString(16).padStart(8, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  };
  const lines: string[] = [];
  while (written < count) {
    const unit = `convener-${rng.int(5000)}`;
    const arm = Number(unit.slice(9)) % 2 === 0 ? "A" : "B";
    const session = `${unit}-s${n++}`;
    const proposal = `prop-${rng.int(2000)}`;
    let t = base + rng.int(30 * 86400) * 1000;
    const experiment = history && t < base + 10 * 86_400_000 ? "bench-earlier" : "bench";
    const event = (type: string, extra: Record<string, unknown>) => {
      const e = {
        eventId: uuid(),
        type,
        at: new Date((t += 1000 + rng.int(20000))).toISOString(),
        experiment,
        arm,
        unitId: unit,
        sessionId: session,
        proposalId: proposal,
        ...extra,
      };
      const line = JSON.stringify(e);
      lines.push(line);
      if (rng.next() < 0.02) lines.push(line);
    };
    const items = Array.from({ length: 20 }, (_, i) => `cand-${rng.int(3000)}-${i}`);
    event("impression", { items });
    // A convener's lasting propensity (0–3 extra clicks, 0–1 extra adoptions), from the unit alone.
    const trait = Math.imul(Number(unit.slice(9)), 0x9e3779b1) >>> 30;
    const clicks = 1 + trait + rng.int(4);
    for (let c = 0; c < clicks; c++) event("click", { candidateId: items[rng.int(20)] });
    const adopts = rng.int(arm === "B" ? 4 : 3) + (trait >= 2 ? 1 : 0);
    for (let a = 0; a < adopts; a++) event("adopt", { candidateId: items[rng.int(20)] });
    if (adopts > 0 && rng.next() < 0.2) event("unadopt", { candidateId: items[rng.int(20)] });
    if (lines.length >= 10_000) {
      written += lines.length;
      fs.writeSync(out, lines.join("\n") + "\n");
      lines.length = 0;
    }
  }
  if (lines.length) fs.writeSync(out, lines.join("\n") + "\n");
  fs.closeSync(out);
  fs.renameSync(file + ".tmp", file);
  return { file, bytes: fs.statSync(file).size };
}
