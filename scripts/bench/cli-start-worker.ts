import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/**
 * Start-up of the built CLI: `assay eval` on trec-small (600 judgements, 1,500 lines) against
 * `node -e 0`, 21 runs each, alternating so that the machine's moods fall on both; medians.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
execFileSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], { cwd: root });
const fixture = path.join(root, "test/fixtures/trec-small");
const commands = {
  node: ["-e", "0"],
  eval: [
    path.join(root, "scripts/assay-bin.mjs"),
    "eval",
    "--qrels",
    `${fixture}/qrels.txt`,
    "--run",
    `${fixture}/run.txt`,
  ],
};
const times: Record<keyof typeof commands, number[]> = { node: [], eval: [] };
for (let i = 0; i < 21; i++) {
  for (const name of ["node", "eval"] as const) {
    const start = performance.now();
    execFileSync(process.execPath, commands[name], { cwd: root, stdio: "ignore" });
    times[name].push(performance.now() - start);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const [node, evalMs] = [median(times.node), median(times.eval)];
const detail = `assay eval ${evalMs.toFixed(0)} ms, node -e 0 ${node.toFixed(0)} ms, ratio ${(evalMs / node).toFixed(2)} (medians of 21)`;
console.log(
  JSON.stringify({ mode: "cli-start", seconds: evalMs / 1000, ratio: evalMs / node, maxRssMiB: 0, detail }),
);
