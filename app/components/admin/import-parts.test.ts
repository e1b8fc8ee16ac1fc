import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { acceptedColumns, importEntities, requiredColumns } from "../../../scripts/inputs/import-rows";
import { ImportColumns } from "./import-parts";

/** The Columns table's cells by entity: [required, optional] as the page shows them. */
function shownColumns(): Map<string, [string, string]> {
  const html = renderToStaticMarkup(createElement(ImportColumns));
  const rows = [...html.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)];
  return new Map(rows.map((m) => [m[1], [m[2], m[3]]]));
}

describe("the import page's Columns table", () => {
  it("lists every column the importer accepts, for every entity, the required ones as required", () => {
    const shown = shownColumns();
    expect([...shown.keys()]).toEqual(importEntities);
    for (const entity of importEntities) {
      const [required, optional] = shown.get(entity)!;
      expect(required.split(", "), entity).toEqual(requiredColumns[entity]);
      const named = new Set(optional.match(/[a-z_]+/g));
      for (const column of acceptedColumns(entity).filter((c) => !requiredColumns[entity].includes(c)))
        expect(named.has(column), `${entity}: ${column}`).toBe(true);
    }
  });

  it("shows the prediction-time and build columns the docs list (systems, lists)", () => {
    const shown = shownColumns();
    expect(shown.get("systems")![1]).toMatch(/build_seconds.*memory_mb/);
    expect(shown.get("lists")![1]).toMatch(/latency_ms/);
  });
});
