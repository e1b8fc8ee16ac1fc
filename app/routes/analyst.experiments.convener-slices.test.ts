import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { sql } from "drizzle-orm";
import type { TestDatabase } from "../../test/database";
import { answered, demoWithUsers, routeArgs } from "../../test/demo-routes";
import { DEMO_EXPERIMENT } from "../../scripts/demo/seed";
import { SlicesTable } from "../components/dashboards/online/slices-table";
import { sliceChoices } from "../components/dashboards/slice-controls";
import { loader } from "./analyst.experiments.$key";

/**
 * The A/B page sliced by a convener attribute: the demo's conveners carry institution and seniority,
 * the page's view offers both beside the subject, each a table of its own with the comparisons counted
 * and conveners without a value apart; a convener or an expert never gets the page (the attributes are
 * sensitive).
 */
let t: TestDatabase;
let cookies: Record<string, string>;

beforeAll(async () => {
  ({ t, cookies } = await demoWithUsers("convener-slices", ["analyst", "expert", "convener"]));
}, 180_000);
afterAll(() => t.drop());

const page = (role: string) =>
  answered(
    loader(routeArgs(`/analyst/experiments/${DEMO_EXPERIMENT}`, cookies[role], { key: DEMO_EXPERIMENT })),
  );

it("offers the imported convener attributes beside the subject, each convener in one slice", async () => {
  const response = await page("analyst");
  expect(response.status).toBe(200);
  const data = await response.json();
  const decisions = data.ab.decisions;
  expect(decisions.convenerSlices.map((s: { attribute: string }) => s.attribute)).toEqual([
    "institution",
    "seniority",
  ]);
  const choices = sliceChoices(decisions.slices, decisions.convenerSlices);
  expect(choices.options).toEqual(["subject", "institution", "seniority"]);
  expect(choices.pick("no-such").attribute).toBe("subject");
  const institution = choices.pick("institution");
  // Every analysed convener of the report is in exactly one institution's slice.
  const units = Object.values(data.ab.report.arms as Record<string, { units: number }>).reduce(
    (n, a) => n + a.units,
    0,
  );
  const sliced = institution.holm.slices.reduce(
    (n: number, s: { units: Record<string, number> }) =>
      n + Object.values(s.units).reduce((a, b) => a + b, 0),
    0,
  );
  expect(sliced).toBe(units);
  const stored = await t.db.execute<{ value: string }>(
    sql`select distinct value from convener_attributes where attribute = 'institution' order by 1`,
  );
  for (const s of institution.holm.slices) expect(stored.map((r) => r.value)).toContain(s.slice);
  const counted = institution.holm.slices.flatMap(
    (s: { tooFew: boolean; decisions?: { adjustedP: number | null }[] }) =>
      s.tooFew ? [] : s.decisions!.filter((d) => d.adjustedP !== null),
  );
  expect(institution.holm.comparisons).toBe(counted.length);

  const html = renderToStaticMarkup(
    createElement(SlicesTable, { slices: decisions.slices, byConvener: decisions.convenerSlices }),
  );
  expect(html).toContain('<option value="institution">institution (convener)</option>');
  expect(html).toContain('<option value="seniority">seniority (convener)</option>');
  expect(html).toContain("Slices by subject");
  // The A/B page joins who counts in a slice to the sentence before it (SliceMembership, afterSemicolon).
  expect(html).toContain("Frequentist figures; each session counts in the subject of its proposal.</p>");
  const none = renderToStaticMarkup(createElement(SlicesTable, { slices: decisions.slices, byConvener: [] }));
  expect(none).toContain("No convener attribute is imported");
}, 180_000);

it("refuses the page to a convener and an expert", async () => {
  for (const role of ["convener", "expert"]) expect((await page(role)).status).toBe(403);
});
