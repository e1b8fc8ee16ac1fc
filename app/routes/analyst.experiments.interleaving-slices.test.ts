import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { TestDatabase } from "../../test/database";
import { answered, demoWithUsers, routeArgs } from "../../test/demo-routes";
import { DEMO_INTERLEAVING } from "../../scripts/demo/interleaving";
import type { InterleavingSlice } from "../../scripts/interleaving/slices";
import { InterleavingSlicesSection } from "../components/dashboards/interleaving/slices-table";
import { MultileavingSlicesSection } from "../components/dashboards/interleaving/multileave-slices-table";
import { DEMO_MULTILEAVE } from "../../scripts/demo/multileave";
import type { MultileavingSlice } from "../../scripts/interleaving/multileave-slices";
import { loader } from "./analyst.experiments.$key";

/**
 * The interleaving page sliced by subject and by the conveners' attributes: every session in exactly
 * one slice of each table, the whole experiment's figures unchanged beside them, the comparisons
 * counted; a convener or an expert never gets the page (the attributes are sensitive).
 */
let t: TestDatabase;
let cookies: Record<string, string>;

beforeAll(async () => {
  ({ t, cookies } = await demoWithUsers("interleaving-slices", ["analyst", "expert", "convener"]));
}, 180_000);
afterAll(() => t.drop());

const page = (role: string, key = DEMO_INTERLEAVING) =>
  answered(loader(routeArgs(`/analyst/experiments/${key}`, cookies[role], { key })));

const total = (slices: InterleavingSlice[]) => slices.reduce((n, s) => n + s.sessions, 0);

it("slices the interleaving result by subject and by each convener attribute, p adjusted per table", async () => {
  const response = await page("analyst");
  expect(response.status).toBe(200);
  const { interleaving } = await response.json();
  const { subject, byConvener } = interleaving.slices;
  const sessions = interleaving.figures.click.sessions;
  expect(sessions).toBeGreaterThan(0);
  expect(byConvener.map((s: { attribute: string }) => s.attribute)).toEqual(["institution", "seniority"]);
  for (const table of [subject, ...byConvener]) {
    // Each session is in exactly one slice of a table.
    expect(total(table.holm.slices)).toBe(sessions);
    const decided = table.holm.slices.filter((s: InterleavingSlice) => !s.tooFew);
    const counted = decided.flatMap((s: Extract<InterleavingSlice, { tooFew: false }>) =>
      s.credits.filter((c) => c.adjustedP !== null),
    );
    expect(table.holm.comparisons).toBe(counted.length);
    expect(table.bh.comparisons).toBe(counted.length);
    for (const s of decided)
      for (const c of s.credits) {
        expect(c.withPreference).toBe(c.result.sessions - c.result.noPreference);
        if (c.result.pValue !== null) expect(c.adjustedP).toBeGreaterThanOrEqual(c.result.pValue);
      }
    for (const s of table.holm.slices.filter((x: InterleavingSlice) => x.tooFew))
      expect(s.conveners).toBeLessThan(10);
  }
  const seniority = byConvener[1];
  expect(seniority.holm.slices.some((s: InterleavingSlice) => !s.tooFew)).toBe(true);

  const render = (convener: unknown[]) =>
    renderToStaticMarkup(
      createElement(InterleavingSlicesSection, {
        slices: { subject, byConvener: convener as typeof byConvener },
        control: interleaving.control,
        challenger: interleaving.challenger,
      }),
    );
  const html = render(byConvener);
  expect(html).toContain("Slices by subject");
  expect(html).toContain('<option value="seniority">seniority (convener)</option>');
  expect(html).toContain(`${subject.holm.comparisons} comparisons`);
  expect(html).toContain("adjusted by Holm");
  expect(html).toContain("slice&#x27;s conveners. Each session counts in the subject of its proposal.</p>");
  expect(render([])).toContain("No convener attribute is imported");
  // A multileaved experiment (three systems or more) has no slices: nothing is drawn.
  expect(
    renderToStaticMarkup(
      createElement(InterleavingSlicesSection, { slices: null, control: "a", challenger: "b" }),
    ),
  ).toBe("");
}, 180_000);

it("slices the multileaved experiment's preference matrix, p adjusted across slices, pairs and credits", async () => {
  const response = await page("analyst", DEMO_MULTILEAVE);
  expect(response.status).toBe(200);
  const { interleaving } = await response.json();
  expect(interleaving.slices).toBeNull();
  const { subject, byConvener } = interleaving.multileavingSlices;
  const sessions = interleaving.multileaving.click.sessions;
  expect(sessions).toBeGreaterThan(0);
  expect(byConvener.map((s: { attribute: string }) => s.attribute)).toEqual(["institution", "seniority"]);
  type Decided = Extract<MultileavingSlice, { tooFew: false }>;
  for (const table of [subject, ...byConvener]) {
    // Each session is in exactly one slice of a table.
    expect(table.holm.slices.reduce((n: number, s: MultileavingSlice) => n + s.sessions, 0)).toBe(sessions);
    const decided: Decided[] = table.holm.slices.filter((s: MultileavingSlice) => !s.tooFew);
    // Three systems: three unordered pairs, each counted once with a p, in each credit.
    const counted = decided.flatMap((s) =>
      s.credits.flatMap((c) =>
        c.result.pairs.filter((p, i) => p.system < p.other && c.adjustedP[i] !== null),
      ),
    );
    expect(table.holm.comparisons).toBe(counted.length);
    expect(table.bh.comparisons).toBe(counted.length);
    for (const s of decided)
      for (const c of s.credits) {
        expect(c.result.systems).toEqual(interleaving.systems);
        c.result.pairs.forEach((p, i) => {
          if (p.pValue !== null) expect(c.adjustedP[i]).toBeGreaterThanOrEqual(p.pValue - 1e-12);
        });
      }
    for (const s of table.holm.slices.filter((x: MultileavingSlice) => x.tooFew))
      expect(s.conveners).toBeLessThan(10);
  }
  expect(byConvener[1].holm.slices.some((s: MultileavingSlice) => !s.tooFew)).toBe(true);
  const html = renderToStaticMarkup(
    createElement(MultileavingSlicesSection, { multileavingSlices: { subject, byConvener } }),
  );
  expect(html).toContain("Slices by subject");
  expect(html).toContain('<option value="institution">institution (convener)</option>');
  expect(html).toContain(`${subject.holm.comparisons} comparisons`);
  expect(html).toContain("3 pairs of systems × 2 credits");
  expect(html).toContain(`${interleaving.systems[0]} over ${interleaving.systems[1]}`);
  // A two-system experiment has no multileave slices: nothing is drawn.
  expect(renderToStaticMarkup(createElement(MultileavingSlicesSection, { multileavingSlices: null }))).toBe(
    "",
  );
}, 180_000);

it("refuses the page to a convener and an expert", async () => {
  for (const role of ["convener", "expert"]) {
    expect((await page(role)).status).toBe(403);
    expect((await page(role, DEMO_MULTILEAVE)).status).toBe(403);
  }
});
