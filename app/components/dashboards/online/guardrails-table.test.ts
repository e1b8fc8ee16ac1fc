import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { GuardrailsTable } from "./guardrails-table";

/** How the guardrail section reads: its notice, each state's badge, and the share table set apart. */
const finish = {
  metric: "minutesToFinish" as const,
  direction: "increase" as const,
  tolerance: 0.1,
  arm: "B",
  control: 6.5,
  treatment: 8.4,
};
const failing = {
  ...finish,
  state: "failing" as const,
  effect: 0.293,
  ci: [0.273, 0.313] as [number, number],
  pValue: 0,
};
const atRisk = {
  ...finish,
  metric: "coiShare" as const,
  state: "at risk" as const,
  reason: "too few conveners",
};
const share = {
  attribute: "gender",
  value: "f",
  min: 0.35,
  arm: "B",
  control: 0.428,
  share: { value: 0.342, ci: { lower: 0.323, upper: 0.361 }, lists: 0 },
  state: "at risk" as const,
};
const draw = (props: Parameters<typeof GuardrailsTable>[0]) =>
  renderToStaticMarkup(createElement(GuardrailsTable, props));

it("shows a failing guardrail's notice in the error style and each state as its badge tone", () => {
  const html = draw({ guardrails: [failing, atRisk], shares: [share] });
  expect(html).toContain('<p class="notice error">1 guardrail reading is failing');
  expect(html).toContain('<span class="badge badge-failing">failing</span>');
  // "At risk" asks for attention: the risk tone, never the grey of a neutral word.
  expect(html.match(/<span class="badge badge-risk">at risk<\/span>/g)).toHaveLength(2);
  expect(html).not.toContain("verdict-inconclusive");
});

it("gives the share guardrails a heading of their own under the metric guardrails", () => {
  const html = draw({ guardrails: [failing], shares: [share] });
  const metric = html.indexOf("<h3>Metric guardrails</h3>");
  const shares = html.indexOf('<div class="guardrail-part"><h3>Share guardrails</h3>');
  expect(metric).toBeGreaterThan(0);
  expect(shares).toBeGreaterThan(html.indexOf('aria-label="Guardrails"', metric));
  // Alone, the share table needs no "Metric guardrails" heading above nothing.
  expect(draw({ guardrails: [], shares: [share] })).not.toContain("Metric guardrails");
  expect(draw({ guardrails: [], shares: [{ ...share, state: "ok" }] })).toContain(
    '<p class="muted">No guardrail',
  );
});
