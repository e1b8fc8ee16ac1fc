import { GradesFileError, parseGradesFile } from "./grades-file";

const known = { proposals: new Set(["P-1", "P-2"]), candidates: new Set(["c1", "c2", "c3"]) };
const refusal = (text: string) => {
  try {
    parseGradesFile(text, "g.qrels", known);
  } catch (error) {
    expect(error).toBeInstanceOf(GradesFileError);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("a grades file (the campaign qrels export's format)", () => {
  it("reads rel as grade − 1, one aggregated grade per pair, skipping blank lines", () => {
    const { labels, source } = parseGradesFile(
      "P-1 0 c1 3\r\n\nP-1 0 c2 0\nP-2\t0\tc1 2\n",
      "g.qrels",
      known,
    );
    expect(source).toBe("grades file g.qrels");
    expect([...labels.get("P-1")!]).toEqual([
      ["c1", 4],
      ["c2", 1],
    ]);
    expect(labels.get("P-2")!.get("c1")).toBe(3);
  });

  it("names the line of every bad row", () => {
    expect(refusal("P-1 0 c1 3\nP-1 0 c2 4\n")).toBe(
      "g.qrels line 2: the relevance 4 is out of range: it is the grade − 1, from 0 (grade 1) to 3 (grade 4).",
    );
    expect(refusal("P-1 0 c1 -1")).toContain("line 1: the relevance -1 is out of range");
    expect(refusal("P-1 0 c1 3\n\nP-1 0 c2 high")).toBe(
      'g.qrels line 3: the relevance "high" is not a whole number (grade − 1, 0 to 3).',
    );
    expect(refusal("P-1 0 c1 2.5")).toContain('line 1: the relevance "2.5" is not a whole number');
    expect(refusal("P-9 0 c1 3")).toBe('g.qrels line 1: unknown proposal "P-9".');
    expect(refusal("P-1 0 c9 3")).toBe('g.qrels line 1: unknown candidate "c9".');
    expect(refusal("P-1 c1 3")).toContain('line 1: expected "proposal 0 candidate rel"');
    expect(refusal("P-1 0 c1 3\nP-1 0 c1 2")).toBe(
      "g.qrels line 2: P-1 c1 is graded again (first on line 1); the file holds one aggregated grade per pair.",
    );
    expect(refusal("\n\n")).toBe("g.qrels holds no grades.");
  });
});
