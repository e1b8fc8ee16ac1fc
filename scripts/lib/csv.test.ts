import Papa from "papaparse";
import { toCsv } from "./csv";

describe("toCsv", () => {
  it("prefixes every text cell that could start a formula, including one followed by a line break", () => {
    const attacks = [
      '=HYPERLINK("http://evil.example","x")',
      "=cmd|' /C calc'!A0",
      "+1+1",
      "-2+3",
      "@SUM(A1)",
      "\tx",
      "\rx",
      "=a\nb",
    ];
    const parsed = Papa.parse<string[]>(
      toCsv(
        ["v"],
        attacks.map((a) => [a]),
      ),
      { skipEmptyLines: true },
    ).data.slice(1);
    expect(parsed.map((r) => r[0])).toEqual(attacks.map((a) => `'${a}`));
  });

  it("keeps numbers, safe text and empty cells as they are", () => {
    expect(toCsv(["a", "b", "c", "d"], [[-1.5, "plain", null, "a=b"]])).toBe("a,b,c,d\r\n-1.5,plain,,a=b");
  });
});
