import { describe, expect, it } from "vitest";
import { createRng, normal } from "../lib/random";
import {
  guardrailStanding,
  evaluateGuardrails,
  guardrailState,
  parseGuardrail,
  type Guardrail,
  type GuardrailUnit,
} from "./guardrails";

/** Conveners whose sessions take about `minutes` each; `lift` scales treatment B's minutes. */
function conveners(seed: string, n: number, lift: number): GuardrailUnit[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => {
    const arm = i % 2 === 0 ? "A" : "B";
    const sessions = 1 + rng.int(5);
    let minutes = 0;
    for (let s = 0; s < sessions; s++)
      minutes += Math.max(1, 20 + 6 * normal(rng)) * (arm === "B" ? lift : 1);
    return { unit: `c${i}`, arm, sums: { minutesToFinish: { m: minutes, d: sessions } } };
  });
}

const slower: Guardrail = { metric: "minutesToFinish", direction: "increase", tolerance: 0.05 };

describe("guardrail states from a seeded experiment", () => {
  it("fails when B makes finishing 30% slower, beyond the 5% tolerated", () => {
    const [r] = evaluateGuardrails(conveners("slow", 400, 1.3), "A", [slower]);
    expect(r.state).toBe("failing");
    expect("ci" in r && r.ci[0]).toBeGreaterThan(0.05);
    expect(r.arm).toBe("B");
    expect(guardrailStanding([r]).failing).toBe(1);
  });

  it("is ok when B changes nothing and the interval rules out 5% harm", () => {
    const [r] = evaluateGuardrails(conveners("same", 2000, 1), "A", [slower]);
    expect(r.state).toBe("ok");
    expect("ci" in r && r.ci[1]).toBeLessThanOrEqual(0.05);
    expect(guardrailStanding([r]).failing).toBe(0);
  });

  it("is at risk when too few conveners leave the interval across the tolerance", () => {
    const [r] = evaluateGuardrails(conveners("few", 12, 1.05), "A", [slower]);
    expect(r.state).toBe("at risk");
    expect("ci" in r && r.ci[0] < 0.05 && r.ci[1] > 0.05).toBe(true);
  });

  it("says why when an arm has no convener with the metric", () => {
    const units = conveners("none", 20, 1);
    const [r] = evaluateGuardrails(units, "A", [{ ...slower, metric: "coiShare" }]);
    expect(r).toMatchObject({ state: "at risk", reason: expect.stringContaining("too few") });
  });
});

describe("guardrailState", () => {
  const lessCoi: Guardrail = { metric: "coiShare", direction: "increase", tolerance: 0 };
  const fewerOpens: Guardrail = { metric: "profileOpensPerAdoption", direction: "decrease", tolerance: 0.1 };
  it("reads the harmful side for each direction", () => {
    expect(guardrailState([0.01, 0.2], lessCoi)).toBe("failing");
    expect(guardrailState([-0.2, -0.01], lessCoi)).toBe("ok");
    expect(guardrailState([-0.3, -0.15], fewerOpens)).toBe("failing");
    expect(guardrailState([-0.15, 0.3], fewerOpens)).toBe("at risk");
    expect(guardrailState([-0.05, 0.3], fewerOpens)).toBe("ok");
  });
});

describe("parseGuardrail", () => {
  it("reads metric:direction:tolerance, the tolerance as a fraction or a percentage", () => {
    expect(parseGuardrail("minutesToFinish:increase:5%")).toEqual({ ok: true, value: slower });
    expect(parseGuardrail("coiShare:increase:0")).toMatchObject({ ok: true });
  });
  it("refuses an unknown metric by name, a bad direction and a bad tolerance", () => {
    expect(parseGuardrail("bounceRate:increase:5%")).toMatchObject({
      ok: false,
      error: expect.stringContaining('"bounceRate" is unknown'),
    });
    expect(parseGuardrail("coiShare:up:5%")).toMatchObject({
      ok: false,
      error: expect.stringContaining("up"),
    });
    expect(parseGuardrail("coiShare:increase:-1")).toMatchObject({ ok: false });
    expect(parseGuardrail("coiShare:increase:")).toMatchObject({ ok: false });
    expect(parseGuardrail("coiShare")).toMatchObject({ ok: false });
  });
});
