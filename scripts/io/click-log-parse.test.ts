import { gzipSync } from "node:zlib";
import { ClickFormatError, parseGrades, parseJsonl, parseLog, parseYandex } from "./click-log-parse";
import { buildLog, Vocabulary } from "../clicks/log";
import { keepKnownQueries, splitLog, splitSessions } from "../clicks/split";

const line = (o: unknown) => JSON.stringify(o);
const good = line({ session: "s1", query: "q1", results: ["d1", "d2"], clicks: [0, 1] });

describe("JSONL click logs", () => {
  it("reads one result page per line, skipping blank lines", () => {
    expect(
      parseJsonl(`${good}\n\n${line({ session: 2, query: 7, results: ["d3"], clicks: [true] })}\n`),
    ).toEqual([
      { id: "s1", query: "q1", results: ["d1", "d2"], clicks: [0, 1] },
      { id: "2", query: "7", results: ["d3"], clicks: [1] },
    ]);
  });

  it.each([
    ["{not json", "log line 2 is not JSON."],
    ["[1, 2]", "log line 2 is not a JSON object."],
    [line({ query: "q", results: ["d"], clicks: [0] }), 'log line 2 has no "session" id.'],
    [line({ session: "s", results: ["d"], clicks: [0] }), 'log line 2 has no "query".'],
    [
      line({ session: "s", query: "q", results: [], clicks: [] }),
      'log line 2: "results" must be a non-empty list of document ids.',
    ],
    [
      line({ session: "s", query: "q", results: ["d"], clicks: [2] }),
      'log line 2: "clicks" must be a list of 0 and 1.',
    ],
    [
      line({ session: "s", query: "q", results: ["d", "e"], clicks: [1] }),
      "log line 2: 1 clicks for 2 results (one 0 or 1 per result).",
    ],
  ])("rejects the whole file for a bad line: %s", (bad, message) => {
    expect(() => parseJsonl(`${good}\n${bad}\n${good}`)).toThrow(new ClickFormatError(message));
  });
});

describe("Yandex relevance-prediction logs", () => {
  const log = [
    "7\t0\tQ\t42\t1\tu1\tu2\tu3",
    "7\t5\tC\tu3",
    "7\t9\tC\tu9",
    "8\t0\tQ\t43\t1\tu4\tu5",
    "7\t12\tC\tu4",
  ].join("\n");

  it("marks a click on the most recent query line of the same session", () => {
    expect(parseYandex(log)).toEqual([
      { id: "7", query: "42", results: ["u1", "u2", "u3"], clicks: [0, 0, 1] },
      // A click of session 7 after session 8's query line marks nothing (as PyClick's parser).
      { id: "8", query: "43", results: ["u4", "u5"], clicks: [0, 0] },
    ]);
  });

  it("reads gzip-compressed files", () => {
    expect(parseLog(gzipSync(Buffer.from(log)), "yandex", "log.tsv.gz")).toEqual(parseYandex(log));
  });

  it.each([
    [
      "7\t0\tQ\t42\t1",
      "log line 2: a query line needs SessionID, TimePassed, Q, QueryID, RegionID and at least one URL.",
    ],
    [
      "7\t5\tC\tu3\textra",
      "log line 2: a click line has exactly 4 fields (SessionID, TimePassed, C, URLID).",
    ],
    ["7\t5\tX\tu3", 'log line 2: the third field must be Q (query) or C (click), not "X".'],
  ])("names the bad line: %s", (bad, message) => {
    expect(() => parseYandex(`7\t0\tQ\t42\t1\tu1\n${bad}`)).toThrow(new ClickFormatError(message));
  });

  it("rejects a click before any query line", () => {
    expect(() => parseYandex("7\t5\tC\tu3")).toThrow("log line 1: a click before any query line.");
  });
});

describe("qrels, splits and the test filter", () => {
  it("reads graded qrels and names a bad line", () => {
    expect(parseGrades("q1 0 d1 2\nq1 0 d2 0\n").get("q1")).toEqual(
      new Map([
        ["d1", 2],
        ["d2", 0],
      ]),
    );
    expect(() => parseGrades("q1 0 d1 2\nq1 0 d2\n")).toThrow(
      'qrels line 2: expected "qid iter docid grade" with a whole-number grade.',
    );
  });

  it("splits by session with a seed: the same seed gives the same split", () => {
    const sessions = Array.from({ length: 1000 }, (_, i) => ({
      id: `s${i}`,
      query: "q",
      results: ["d"],
      clicks: [0],
    }));
    const a = splitSessions(sessions, 0.25, "7");
    expect(splitSessions(sessions, 0.25, "7")).toEqual(a);
    expect(a.test.length).toBeGreaterThan(200);
    expect(a.test.length).toBeLessThan(300);
    expect(a.train.length + a.test.length).toBe(1000);
    expect(splitSessions(sessions, 0.25, "8").test).not.toEqual(a.test);
    // The CLI splits the log it has read with the same draws.
    const split = splitLog(buildLog(sessions, new Vocabulary()), 0.25, "7");
    expect(split.test.ids).toEqual(a.test.map((s) => s.id));
    // Without a seed: the last quarter in file order, as PyClick's example.
    expect(splitLog(buildLog(sessions, new Vocabulary()), 0.25).test.ids[0]).toBe("s750");
  });

  it("drops test sessions whose query never occurs in train", () => {
    const s = (id: string, query: string) => ({ id, query, results: ["d"], clicks: [0] });
    expect(keepKnownQueries([s("1", "a")], [s("2", "a"), s("3", "b")])).toEqual({
      kept: [s("2", "a")],
      dropped: 1,
    });
  });
});
