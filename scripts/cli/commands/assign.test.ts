import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { assignUnit } from "../../assign/assign";
import { runAssay } from "../../../test/run-cli";

const assay = (...args: string[]) => runAssay(args);

const units = ["1", "2", "3", "4", "user-5", "ünït-6"];
const file = path.join(os.tmpdir(), `assign-units-${process.pid}.txt`);
beforeAll(() => fs.writeFileSync(file, `${units.join("\n")}\n`));
afterAll(() => fs.rmSync(file, { force: true }));

describe("assay assign", () => {
  it("takes weights summing to 0.99, the v1 hash and a namespace, as GrowthBook does", async () => {
    const namespace: [string, number, number] = ["namespace2", 0, 0.4];
    const { code, stdout } = await assay(
      "assign",
      "--seed",
      "exp",
      "--weights",
      "0.33,0.33,0.33",
      "--hash-version",
      "1",
      "--namespace",
      "namespace2:0:0.4",
      "--units",
      file,
    );
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(
      units.map((u) => assignUnit("exp", u, [0.33, 0.33, 0.33], 1, { hashVersion: 1, namespace })),
    );
    expect(lines.filter((l) => l.unit === "1" || l.unit === "2").map((l) => l.arm)).toEqual([-1, -1]); // outside namespace2's [0, 0.4)
  });

  it.each([
    [["--weights", "0.5,0.6"], "arm weights must sum to 1, within GrowthBook's 0.99 to 1.01"],
    [["--weights", "0.5,0.5", "--hash-version", "3"], "--hash-version must be 1 or 2"],
    [["--weights", "0.5,0.5", "--namespace", "ns:0.5:0.2"], "--namespace must be id:start:end"],
  ])("refuses %j with one sentence", async (args, message) => {
    const result = await assay("assign", "--seed", "s", "--units", file, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
