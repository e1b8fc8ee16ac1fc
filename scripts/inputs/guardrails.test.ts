import { describe, expect, it } from "vitest";
import { guardrailLine, guardrailsSchema, parseCompositionGuardrail } from "./guardrails";

describe("share guardrails (issue 27)", () => {
  it("reads share:attribute=value:min|max:share, the share as a fraction or a percentage", () => {
    expect(parseCompositionGuardrail("share:gender=f:min:35%")).toEqual({
      ok: true,
      value: { metric: "share", attribute: "gender", value: "f", min: 0.35 },
    });
    expect(parseCompositionGuardrail("share:country=DE:max:0.5")).toEqual({
      ok: true,
      value: { metric: "share", attribute: "country", value: "DE", max: 0.5 },
    });
  });

  it.each([
    ["share:gender=f:min:135%", 'guardrail share "135%" must be from 0 to 1 (e.g. 0.35 or 35%)'],
    ["share:gender=f:min:-0.1", 'guardrail share "-0.1" must be from 0 to 1 (e.g. 0.35 or 35%)'],
    [
      "share:gender=f:least:0.3",
      'guardrail "share:gender=f:least:0.3": the bound "least" must be min or max',
    ],
    ["share:=f:min:0.3", 'guardrail "share:=f:min:0.3": the attribute must be 1 to 100 characters'],
    [
      "share:gender:min:0.3",
      'guardrail "share:gender:min:0.3": expected share:attribute=value:min:share (e.g. share:gender=f:min:35%)',
    ],
  ])("refuses %s, naming what is wrong", (text, error) => {
    expect(parseCompositionGuardrail(text)).toEqual({ ok: false, error });
    const parsed = guardrailsSchema.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toContain(error);
  });

  it("takes share lines beside the ratio guardrails in the form's text, and writes them back the same", () => {
    const text = "coiShare:increase:5%\nshare:gender=f:min:35%\nshare:gender=f:max:60%";
    const parsed = guardrailsSchema.parse(text);
    expect(parsed).toHaveLength(3);
    expect(parsed.map(guardrailLine).join("\n")).toBe(text);
    expect(guardrailsSchema.safeParse("share:gender=f:min:35%\nshare:gender=f:min:40%").success).toBe(false);
  });

  it("refuses a stored share guardrail with a share outside 0–1 or without a bound", () => {
    expect(
      guardrailsSchema.safeParse([{ metric: "share", attribute: "gender", value: "f", min: 1.5 }]).success,
    ).toBe(false);
    expect(guardrailsSchema.safeParse([{ metric: "share", attribute: "gender", value: "f" }]).success).toBe(
      false,
    );
  });
});
