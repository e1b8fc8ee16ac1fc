import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/**
 * The CLI users run is the build in dist/ (scripts/build-cli.mjs, run by `npm install` and `npm run
 * build`), not the TypeScript the other CLI tests run through tsx: the two must print the same. Built
 * here again, so a stale dist/ cannot hide a difference.
 */
const exec = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const F = path.join(root, "test/fixtures");
const built = (args: string[]) =>
  exec(process.execPath, [path.join(root, "scripts/assay-bin.mjs"), ...args], { cwd: root });
const source = (args: string[]) =>
  exec(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/cli/assay.ts"), ...args],
    { cwd: root },
  );

beforeAll(async () => {
  await exec(process.execPath, [path.join(root, "scripts/build-cli.mjs")], { cwd: root });
}, 120_000);

it.each([
  ["eval", ["eval", "--qrels", `${F}/trec-small/qrels.txt`, "--run", `${F}/trec-small/run.txt`, "--json"]],
  ["online", ["online", "--events", `${F}/online-small/events.jsonl`, "--json"]],
  ["agreement", ["agreement", "--ratings", `${F}/agreement-krippendorff/ratings.csv`, "--json"]],
  [
    "trec_eval",
    [
      "trec_eval",
      "-m",
      "all_trec",
      "-q",
      "-c",
      `${F}/trec_eval-suite/qrels.test`,
      `${F}/trec_eval-suite/results.trunc`,
    ],
  ],
])("the built %s prints what the sources print", async (_name, args) => {
  const [fromBuild, fromSource] = await Promise.all([built(args), source(args)]);
  expect(fromBuild.stdout.length).toBeGreaterThan(50);
  expect(fromBuild.stdout).toBe(fromSource.stdout);
});

it("answers a bad flag as the sources do, exit code included", async () => {
  const failure = await built(["eval", "--qrels", `${F}/trec-small/qrels.txt`]).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure).toMatchObject({ code: 2 });
  expect((failure as { stderr: string }).stderr).toMatch(/--run/);
});
