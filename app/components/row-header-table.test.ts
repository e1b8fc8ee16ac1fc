import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RowHeaderTable } from "./row-header-table";

/** The shared frame of the ground-truth, integrity and multileaving grids, as the pages had it written out. */
describe("RowHeaderTable", () => {
  it("names the table, heads each row with its name and each number column with its key, in the scroll box", () => {
    const html = renderToStaticMarkup(
      createElement(RowHeaderTable<{ key: string; name: string; share: string }>, {
        label: "COI@K by system",
        className: "preference-matrix",
        corner: "System",
        columns: [
          { key: "5", header: "COI@5" },
          { key: "10", header: "COI@10" },
        ],
        rows: [
          { key: "a", name: "Baseline", share: "1.0%" },
          { key: "b", name: "Challenger", share: "0%" },
        ],
        rowKey: (r) => r.key,
        rowHeader: (r) => r.name,
        rowData: (r) => ({ "data-system": r.key }),
        cells: (r) => [
          createElement("td", { key: "5", className: "num" }, r.share),
          createElement("td", { key: "10", className: "num" }, r.share),
        ],
      }),
    );
    expect(html).toBe(
      '<div class="table-frame"><div class="table-scroll">' +
        '<table aria-label="COI@K by system" class="preference-matrix"><thead><tr><th>System</th>' +
        '<th class="num">COI@5</th><th class="num">COI@10</th></tr></thead><tbody>' +
        '<tr data-system="a"><th scope="row">Baseline</th><td class="num">1.0%</td><td class="num">1.0%</td></tr>' +
        '<tr data-system="b"><th scope="row">Challenger</th><td class="num">0%</td><td class="num">0%</td></tr>' +
        "</tbody></table></div></div>",
    );
  });
});
