import { parseFairnessTarget } from "./fairness-targets";

describe("a fairness target attribute=value:share", () => {
  it("reads the attribute, a value that may hold = and :, and the share", () => {
    expect(parseFairnessTarget("gender=f:0.4")).toEqual({
      ok: true,
      value: { attribute: "gender", value: "f", share: 0.4 },
    });
    expect(parseFairnessTarget("institution=A=B: lab:1")).toEqual({
      ok: true,
      value: { attribute: "institution", value: "A=B: lab", share: 1 },
    });
  });

  it("says what is wrong: the form, a share outside 0-1 or not a number, an over-long value", () => {
    expect(parseFairnessTarget("gender:0.4")).toEqual({
      ok: false,
      error: "write attribute=value:share, e.g. gender=f:0.4",
    });
    expect(parseFairnessTarget("gender=f:-0.1")).toEqual({
      ok: false,
      error: 'the share must be a number from 0 to 1, not "-0.1"',
    });
    expect(parseFairnessTarget("gender=f:40%")).toEqual({
      ok: false,
      error: 'the share must be a number from 0 to 1, not "40%"',
    });
    expect(parseFairnessTarget(`gender=${"x".repeat(201)}:0.4`)).toEqual({
      ok: false,
      error: "the value is over 200 characters",
    });
  });
});
