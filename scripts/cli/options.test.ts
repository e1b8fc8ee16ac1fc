import { InvalidArgumentError } from "commander";
import { CliError } from "./errors";
import { pairedTest, recordId, refuseBadEventLines } from "./options";

describe("recordId", () => {
  it("reads ids the way the pages do: a positive 32-bit integer in digits", () => {
    expect(recordId("7")).toBe(7);
    expect(recordId("2147483647")).toBe(2147483647);
    for (const bad of ["99999999999", "2147483648", "0", "-1", "1e3", "0x10", " 7", "seven", ""]) {
      expect(() => recordId(bad), bad).toThrow(InvalidArgumentError);
    }
  });
});

describe("pairedTest", () => {
  it("takes t, wilcoxon or permutation and refuses any other name as bad usage", () => {
    for (const test of ["t", "wilcoxon", "permutation"]) expect(pairedTest(test)).toBe(test);
    for (const bad of ["z", "T", "", "sign"]) {
      expect(() => pairedTest(bad)).toThrow(
        new CliError(`--test must be t, wilcoxon or permutation, not "${bad}".`, 2),
      );
    }
  });
});

describe("refuseBadEventLines", () => {
  it("names the first 20 bad lines on standard error, then refuses the file with their count (exit 2)", () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const errors = Array.from({ length: 25 }, (_, i) => ({ line: i + 3, message: `bad ${i}` }));
    try {
      expect(() => refuseBadEventLines("events.jsonl", errors)).toThrow(
        expect.objectContaining({
          message: "25 bad event lines in events.jsonl; nothing was computed.",
          exitCode: 2,
        }),
      );
      expect(printed.mock.calls.map(([line]) => line)).toEqual(
        errors.slice(0, 20).map((e) => `events.jsonl:${e.line}: ${e.message}`),
      );
      expect(() => refuseBadEventLines("e.jsonl", errors.slice(0, 1))).toThrow(
        "1 bad event line in e.jsonl; nothing was computed.",
      );
    } finally {
      printed.mockRestore();
    }
  });
});
