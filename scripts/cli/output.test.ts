import { setTableStyle, table } from "./output";

describe("table styles of assay offline --format", () => {
  const headers = ["system", "p50", "ci95"];
  const rows = [
    ["base|line", 40, "[37.0, 43.0]"],
    ["new_sys 100%", 102.5, null],
  ];
  afterEach(() => setTableStyle("table"));

  it("prints aligned plain text by default", () => {
    expect(table(headers, rows, 1).split("\n")[2]).toBe("base|line        40  [37.0, 43.0]");
  });

  it("prints a Markdown table: pipes escaped, number columns right-aligned", () => {
    setTableStyle("markdown");
    expect(table(headers, rows, 1).split("\n")).toEqual([
      "| system | p50 | ci95 |",
      "|:--|--:|:--|",
      "| base\\|line | 40 | [37.0, 43.0] |",
      "| new_sys 100% | 102.5 | — |",
    ]);
  });

  it("prints a LaTeX booktabs tabular with its special characters escaped", () => {
    setTableStyle("latex");
    expect(table(headers, rows, 1).split("\n")).toEqual([
      "\\begin{tabular}{lrl}",
      "\\toprule",
      "system & p50 & ci95 \\\\",
      "\\midrule",
      "base|line & 40 & [37.0, 43.0] \\\\",
      "new\\_sys 100\\% & 102.5 & — \\\\",
      "\\bottomrule",
      "\\end{tabular}",
    ]);
  });
});
