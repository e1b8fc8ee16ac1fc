import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { firstQidAt, qrelsOffsetOf, splitAtQuery } from "./run-split";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-runsplit-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, lines: string[]) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

// Queries q10..q54 with 20 judgements each, every line 13 bytes: query q's lines start at (q - 10) * 260.
const qrelsLines = Array.from(
  { length: 45 * 20 },
  (_, i) => `q${10 + Math.floor(i / 20)} 0 d${String(i % 20).padStart(3, "0")} 1`,
);
const qrels = write("qrels.txt", qrelsLines);
const at = (q: number) => (q - 10) * 260;

describe("qrelsOffsetOf", () => {
  it("finds where a query's judgements start from a guess near them", () => {
    expect(qrelsLines[0].length + 1).toBe(13);
    expect(qrelsOffsetOf(qrels, "q30", at(30) + 40, 100)).toBe(at(30));
    expect(qrelsOffsetOf(qrels, "q10", 50, 100)).toBe(0);
  });

  it("reads the whole file when the guess is far off or lands inside the query's lines", () => {
    expect(qrelsOffsetOf(qrels, "q30", at(50), 100)).toBe(at(30));
    // The stretch read starts inside q30's lines: the first one it sees is not q30's first.
    expect(qrelsOffsetOf(qrels, "q30", at(30) + 200, 100)).toBe(at(30));
  });

  it("is null for a query with no judgements, and does not take a longer id for it", () => {
    expect(qrelsOffsetOf(qrels, "q3", at(30), 100)).toBeNull();
    expect(qrelsOffsetOf(qrels, "q99", at(30), 100)).toBeNull();
  });
});

describe("splitAtQuery", () => {
  it("splits at the first query that starts after the middle", () => {
    // The middle, 5850, falls in q32's lines (5720 to 5980).
    const split = splitAtQuery(qrels, fs.statSync(qrels).size);
    expect(split).toBe(at(33));
    expect(firstQidAt(qrels, split)).toBe("q33");
  });

  it("gives 0 when one query fills the file from the middle on", () => {
    const file = write("one.txt", ["a 0 x 1", ...Array.from({ length: 100 }, (_, i) => `b 0 d${i} 1`)]);
    expect(splitAtQuery(file, fs.statSync(file).size)).toBe(0);
  });
});
