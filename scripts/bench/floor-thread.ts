import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The least any evaluator must do with its part of a run: read the bytes, in the pieces `eval`
 * reads them in, and find where every field ends (every byte ≤ 32). Nothing is parsed or kept.
 */
const { file, start, end } = workerData as { file: string; start: number; end: number };
const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
const fd = fs.openSync(file, "r");
let boundaries = 0;
for (let position = start; position < end;) {
  const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
  if (read === 0) break;
  for (let i = 0; i < read; i++) if (buffer[i] <= 32) boundaries++;
  position += read;
}
fs.closeSync(fd);
parentPort!.postMessage(boundaries);
