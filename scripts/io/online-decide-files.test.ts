import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { onlineDecisions, type DecisionFlags } from "../cli/commands/online-decide";
import { parseEventsJsonl } from "../online/events";
import { decisionInputsFromFile } from "./online-decide-files";
import { DEFAULT_N_STAR } from "../online/sequential";

// Reference: test/fixtures/cuped-small (two experiments of the same conveners, gbstats 0.8.0 values).
const events = path.resolve(__dirname, "../../test/fixtures/cuped-small/events.jsonl");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decide-files-"));
const text = fs.readFileSync(events, "utf8");
const lines = text.trim().split("\n");

// Subjects by proposal (two slices), conflicts on a few adopted candidates, finish events added to the
// analysed experiment's sessions so that the guardrails have times to read.
const proposals = [...new Set(lines.map((l) => JSON.parse(l).proposalId as string))].sort();
const subjects = path.join(dir, "subjects.json");
fs.writeFileSync(
  subjects,
  JSON.stringify(Object.fromEntries(proposals.map((p, i) => [p, i % 2 ? "physics" : "biology"]))),
);
const adopts = lines.map((l) => JSON.parse(l)).filter((e) => e.type === "adopt");
const conflicts = path.join(dir, "conflicts.csv");
fs.writeFileSync(
  conflicts,
  ["proposal,candidate", ...adopts.slice(0, 40).map((e) => `${e.proposalId},${e.candidateId}`)].join("\n"),
);
const withFinish = path.join(dir, "events.jsonl");
fs.writeFileSync(
  withFinish,
  lines
    .flatMap((l, i) => {
      const e = JSON.parse(l);
      if (e.type !== "impression") return [l];
      const at = new Date(Date.parse(e.at) + 60_000 * (3 + (i % 17) / 7)).toISOString();
      return [l, JSON.stringify({ ...e, eventId: `${e.eventId}-f`, type: "finish", at, items: undefined })];
    })
    .join("\n") + "\n",
);

const flags: DecisionFlags = {
  events: withFinish,
  cuped: true,
  engine: "bayesian",
  slice: "subject",
  subjects,
  conflicts,
  guardrail: [
    { metric: "minutesToFinish", direction: "increase", tolerance: 0.1 },
    { metric: "coiShare", direction: "increase", tolerance: 0 },
  ],
  prePeriodDays: 28,
  intervals: "fixed",
  nStar: DEFAULT_N_STAR,
};
const options = { intervals: true, B: 200, seed: 3 };

describe("assay online's decisions on two threads", () => {
  it("equal those read on one thread, with CUPED, slices and guardrails", async () => {
    const one = await onlineDecisions(flags, options);
    const two = await onlineDecisions(flags, options, { parallelBytes: 0 });
    expect(one.slices!.slices.length).toBe(2);
    expect(one.guardrails!.length).toBe(2);
    expect(one.decisions[0].cuped!.unitsWithPrePeriod.control).toBeGreaterThan(0);
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    const frequentist = { ...flags, engine: "frequentist" as const, experiment: "ranker-v3" };
    expect(JSON.stringify(await onlineDecisions(frequentist, options, { parallelBytes: 0 }))).toBe(
      JSON.stringify(await onlineDecisions(frequentist, options)),
    );
  });

  it("name bad lines by their number in the file, whichever thread read them", async () => {
    const bad = [...lines];
    bad.splice(2, 0, "{oops");
    bad.splice(bad.length - 3, 0, '{"unitId":"u-late","type":"click"}');
    const file = path.join(dir, "bad.jsonl");
    fs.writeFileSync(file, bad.join("\n"));
    const result = await decisionInputsFromFile(file, { subjects: null, prePeriodDays: 28 });
    expect(result).toEqual({ ok: false, errors: parseEventsJsonl(bad.join("\n")).errors });
    expect(result.ok || result.errors.map((e) => e.line)).toEqual([3, bad.length - 3]);
  });

  it("refuse an unknown experiment and a pre-period longer than the history as one thread does", async () => {
    for (const wrong of [{ experiment: "ranker-v9" }, { prePeriodDays: 400 }]) {
      const o = { ...flags, ...wrong };
      const message = await onlineDecisions(o, options).then(
        () => "computed",
        (e: Error) => e.message,
      );
      expect(message).toMatch(/^--(experiment|pre-period-days): /);
      await expect(onlineDecisions(o, options, { parallelBytes: 0 })).rejects.toThrow(message);
    }
  });
});
