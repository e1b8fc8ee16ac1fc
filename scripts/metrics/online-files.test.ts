import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { linesOfPart, onlineFromFile } from "./online-files";
import { onlineReport } from "./online";
import { parseEventsJsonl } from "./events";

const reference = path.join(__dirname, "../../test/fixtures/online-small/events.jsonl");

describe("linesOfPart", () => {
  it("gives every non-blank line to exactly one part, a unit's lines to one part, and bad lines to part 0", () => {
    const lines = [
      '{"unitId":"u1","x":1}',
      '{"unitId": "u2","x":2}',
      "",
      '{"unitId":"\\u0075\\u0031","x":3}', // "u1" written with escapes
      "not json at all",
      '{"unitId": 5}',
    ];
    const bytes = Buffer.from(lines.join("\n"));
    const seen = [0, 1].map((part) => {
      const got: number[] = [];
      linesOfPart(bytes, part, 2, (_raw, line) => got.push(line));
      return got;
    });
    expect([...seen[0], ...seen[1]].sort()).toEqual([1, 2, 4, 5, 6]);
    const partOf = (line: number) => (seen[0].includes(line) ? 0 : 1);
    expect(partOf(4)).toBe(partOf(1));
    expect(partOf(5)).toBe(0);
    expect(partOf(6)).toBe(0);
  });
});

describe("onlineFromFile", () => {
  it("gives the same report on two threads as on one", async () => {
    const options = { weights: { A: 0.5, B: 0.5 }, intervals: true, B: 200, seed: 4 };
    const one = await onlineFromFile(reference, { ...options, threads: 1 });
    const two = await onlineFromFile(reference, { ...options, threads: 2, parallelBytes: 0 });
    expect(two).toEqual(one);
    const { events } = parseEventsJsonl(fs.readFileSync(reference, "utf8"));
    expect(one).toEqual({ ok: true, report: onlineReport(events, options) });
  });

  it("reports bad lines with their numbers from either thread", async () => {
    const file = path.join(os.tmpdir(), `events-bad-${process.pid}.jsonl`);
    const good = fs.readFileSync(reference, "utf8").split("\n").slice(0, 20);
    good.splice(3, 0, "{oops");
    good.splice(7, 0, '{"unitId":"convener-0001","type":"click"}');
    fs.writeFileSync(file, good.join("\n"));
    const result = await onlineFromFile(file, { threads: 2, parallelBytes: 0 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.line)).toEqual([4, 8]);
    fs.rmSync(file);
  });
});
