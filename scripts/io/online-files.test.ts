import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { onlineFromFile } from "./online-files";
import { linesByOwner } from "./online-lines";
import { onlineReport } from "../online/report";
import { parseEventsJsonl } from "../online/events";

const reference = path.join(__dirname, "../../test/fixtures/online-small/events.jsonl");

describe("linesByOwner", () => {
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
    const owners = new Map<number, number>();
    const count = linesByOwner(bytes, 0, bytes.length, 2, (start, end, line, owner) => {
      expect(bytes.toString("utf8", start, end)).toBe(lines[line - 1]);
      owners.set(line, owner);
    });
    expect(count).toBe(6);
    expect([...owners.keys()]).toEqual([1, 2, 4, 5, 6]);
    expect(owners.get(4)).toBe(owners.get(1));
    expect(owners.get(5)).toBe(0);
    expect(owners.get(6)).toBe(0);
    // Counted from where a range starts: the same lines from the fourth on.
    const fourth = lines.slice(0, 3).join("\n").length + 1;
    const later: number[] = [];
    linesByOwner(bytes, fourth, bytes.length, 2, (_start, _end, line) => later.push(line));
    expect(later).toEqual([1, 2, 3]);
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
    // Bad lines in the second half too, where that thread counts lines from its own start, of units
    // either thread owns.
    good.splice(17, 0, "{oops again");
    good.splice(
      19,
      0,
      '{"unitId":"convener-0002","type":"adopt"}',
      '{"unitId":"convener-0003","type":"adopt"}',
    );
    fs.writeFileSync(file, good.join("\n"));
    const result = await onlineFromFile(file, { threads: 2, parallelBytes: 0 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.line)).toEqual([4, 8, 18, 20, 21]);
    const single = await onlineFromFile(file, { threads: 1 });
    expect(single).toEqual(result);
    fs.rmSync(file);
  });
});
