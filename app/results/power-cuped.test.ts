import { describe, expect, it } from "vitest";
import { powerAnswer, powerQuerySchema } from "./power.server";

/**
 * The power form with CUPED's ρ and a number of slices, against hand computation (scripts/online/power.test.ts
 * works the same numbers): 30% → 35%, α 0.05, power 0.8 needs 1,376.30 independent sessions per arm.
 */
const plan = (form: Record<string, string>) => {
  const answer = powerAnswer(
    powerQuerySchema.parse({
      power: "ab",
      baseline: "30",
      lift: "5",
      sessionsPerConvener: "1",
      icc: "0",
      ...form,
    }),
    null,
  );
  if (!answer || answer.kind !== "ab" || !answer.plan) throw new Error(answer?.error ?? "no answer");
  return answer.plan;
};

describe("power before launch with CUPED and slices", () => {
  it("without either: 1,377 sessions per arm", () => {
    expect(plan({})).toMatchObject({ rho: null, varianceFactor: 1, slices: 1, alphaPerSlice: 0.05 });
    expect(plan({}).perArm.sessions).toBe(1377);
  });

  it("CUPED at ρ 0.5 scales the sessions by 1 − ρ² = 0.75: 1,032.22 → 1,033", () => {
    const p = plan({ rho: "0.5" });
    expect(p.varianceFactor).toBe(0.75);
    expect(p.effectiveSessionsPerArm).toBeCloseTo(1032.2241512, 4);
    expect(p.perArm.sessions).toBe(1033);
  });

  it("four slices read each at α/4 = 0.0125: 1,955.61 → 1,956 per arm and slice; with ρ 0.5, 1,466.71 → 1,467", () => {
    expect(plan({ slices: "4" })).toMatchObject({ alphaPerSlice: 0.0125, perArm: { sessions: 1956 } });
    expect(plan({ slices: "4", rho: "0.5" }).effectiveSessionsPerArm).toBeCloseTo(0.75 * 1955.6125786, 3);
  });

  it("refuses a ρ outside (−1, 1) and a number of slices that is not a whole number ≥ 1, naming them", () => {
    const problems = (form: Record<string, string>) =>
      powerQuerySchema.safeParse({ power: "ab", ...form }).error?.issues.map((i) => i.message);
    expect(problems({ rho: "1.5" })).toContain("ρ (CUPED's pre-period correlation) must be between −1 and 1");
    expect(problems({ rho: "1" })?.[0]).toMatch(/strictly between −1 and 1/);
    expect(problems({ slices: "0" })).toEqual(["the number of slices must be at least 1"]);
    expect(problems({ slices: "2.5" })).toEqual(["the number of slices must be a whole number"]);
  });
});

describe("ρ from the organisation's history before launch", () => {
  const measured = { rho: 0.5, conveners: 40, experiments: 2 };
  const answer = (form: Record<string, string>, rhoHistory: typeof measured | null) => {
    const a = powerAnswer(
      powerQuerySchema.parse({ power: "ab", baseline: "30", lift: "5", icc: "0", ...form }),
      null,
      rhoHistory,
    );
    if (!a || a.kind !== "ab" || !a.plan) throw new Error(a?.error ?? "no answer");
    return a.plan;
  };

  it("is the default ρ, saying where it came from; an entered ρ wins; no history means no CUPED until entered", () => {
    const fromHistory = answer({}, measured);
    expect(fromHistory).toMatchObject({
      rho: 0.5,
      rhoFrom: "history",
      rhoHistory: measured,
      varianceFactor: 0.75,
    });
    expect(fromHistory.effectiveSessionsPerArm).toBeCloseTo(1032.2241512, 4);
    expect(answer({ rho: "0" }, measured)).toMatchObject({ rho: 0, rhoFrom: "entered", varianceFactor: 1 });
    expect(answer({ rho: "0" }, measured).effectiveSessionsPerArm).toBeCloseTo(1376.2989, 3);
    expect(answer({}, null)).toMatchObject({ rho: null, rhoFrom: null, varianceFactor: 1 });
    // The history measures the adoption metric only, as the baseline's history does.
    expect(answer({ metric: "click" }, measured)).toMatchObject({ rho: null, rhoFrom: null });
  });
});
