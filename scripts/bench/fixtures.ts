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
        lines.push(`${qid} Q0 c${String(d).padStart(5, "0")} ${rank} ${(1 - rank / (depth + 1)).toFixed(6)} bench`);
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
