import { experimentFormSchema } from "./experiments";

/** The admin's create form as posted: parallel armKey/armSystem/armWeight fields, the control as a row index. */
const posted = (method: string, systems: string[]) => ({
  key: "ml",
  name: "Three rankers",
  kind: "interleaving",
  method,
  armKey: systems.map((_, i) => String.fromCharCode(65 + i)),
  armSystem: systems,
  armWeight: systems.map(() => String(1 / systems.length)),
  controlIndex: "0",
});
const messages = (value: unknown) => {
  const r = experimentFormSchema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("the experiment form's interleaving method", () => {
  it("reads a multileaving of three systems, with the control first", () => {
    const r = experimentFormSchema.parse(posted("multileaving", ["bm25", "dense", "hybrid"]));
    expect(r).toMatchObject({ kind: "interleaving", method: "multileaving", control: "A" });
    expect(r.arms.map((a) => a.system)).toEqual(["bm25", "dense", "hybrid"]);
  });

  it("names the arms field when a method gets the wrong number of systems or one system twice", () => {
    expect(messages(posted("multileaving", ["bm25", "dense"]))).toEqual([
      "arms: multileaving compares three or more systems, not 2; choose team-draft interleaving for two",
    ]);
    expect(messages(posted("probabilistic", ["bm25", "dense", "hybrid"]))).toEqual([
      "arms: probabilistic interleaving compares exactly two systems, not 3; choose multileaving for three or more",
    ]);
    expect(messages(posted("multileaving", ["bm25", "dense", "bm25"]))).toEqual([
      "arms: an interleaving experiment needs different systems, not bm25 twice",
    ]);
    expect(messages(posted("round-robin", ["bm25", "dense"]))).toEqual([
      "method: method must be one of team-draft, multileaving, probabilistic",
    ]);
  });

  it("leaves an A/B experiment's arms alone whatever method the form still holds", () => {
    expect(messages({ ...posted("multileaving", ["bm25", "dense"]), kind: "ab" })).toEqual([]);
    // A form without the field (an older page, the CLI) is team-draft.
    const { method: _omitted, ...old } = posted("x", ["bm25", "dense"]);
    expect(experimentFormSchema.parse(old).method).toBe("team-draft");
  });
});
