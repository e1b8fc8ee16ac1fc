import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEventsJsonl } from "./events";
import { DEFAULT_DECISION_SETTINGS, splitExperiments, type TestOutcome } from "./decide";
import { decideSlices, sliceByProposal } from "./slices";
import { unitTotals, type UnitTotals } from "./report";
import { adjustPValues } from "../stats/multiple-testing";

// Slices of cuped-small's ranker-v3 by a convener attribute made up for the test (whether the
// convener id's last digit is odd or even), each slice read as an experiment of its own.
const { events } = parseEventsJsonl(
  fs.readFileSync(path.join(__dirname, "../../test/fixtures/cuped-small/events.jsonl"), "utf8"),
);
const units = unitTotals(splitExperiments(events).analysed).units;
const parity = (u: UnitTotals) => (Number(u.unit.replace(/\D/g, "").slice(-1)) % 2 === 0 ? "even" : "odd");
const bySlice = new Map<string, UnitTotals[]>();
for (const u of units) bySlice.set(parity(u), [...(bySlice.get(parity(u)) ?? []), u]);
const pOf = (o: TestOutcome) => (o.kind === "frequentist" ? o.pValue : null);

describe("slices", () => {
  it("adjusts every slice's and metric's p together (Holm), and counts the comparisons", () => {
    const r = decideSlices(bySlice, "A", DEFAULT_DECISION_SETTINGS);
    expect(r.slices.map((s) => s.slice)).toEqual(["even", "odd"]);
    expect(r.comparisons).toBe(8);
    const decisions = r.slices.flatMap((s) => (s.tooFew ? [] : s.decisions));
    const raw = decisions.map((d) => pOf(d.unadjusted.relative));
    expect(decisions.map((d) => d.adjustedP)).toEqual(adjustPValues(raw, "holm"));
    for (const d of decisions) expect(d.adjustedP!).toBeGreaterThanOrEqual(pOf(d.unadjusted.relative)!);
  });

  it("a slice with too few conveners in an arm says so instead of a number", () => {
    const r = decideSlices(bySlice, "A", DEFAULT_DECISION_SETTINGS, { minUnits: 100, correction: "bh" });
    expect(r.slices.every((s) => s.tooFew)).toBe(true);
    expect(r.slices[0]).toMatchObject({
      reason: expect.stringMatching(/^too few conveners: \d+ in an arm, at least 100/),
    });
    expect(r.comparisons).toBe(0);
  });
});

describe("sliceByProposal", () => {
  it("splits each convener's sessions by their proposal's subject, unknown proposals kept apart", () => {
    const analysed = splitExperiments(events).analysed;
    const proposals = [...new Set(analysed.map((e) => e.proposalId))].sort();
    const half = Math.ceil(proposals.length / 2);
    // The last proposal is left out of the map on purpose: its sessions must land in "(unknown)".
    const subject = new Map(proposals.slice(0, -1).map((p, i) => [p, i < half ? "biology" : "physics"]));
    const slices = sliceByProposal(analysed, subject);
    expect([...slices.keys()].sort()).toEqual(["(unknown)", "biology", "physics"]);
    const sessions = (us: UnitTotals[]) => us.reduce((n, u) => n + u.sessions, 0);
    const total = [...slices.values()].reduce((n, us) => n + sessions(us), 0);
    expect(total).toBe(sessions(unitTotals(analysed).units));
    expect(decideSlices(slices, "A", DEFAULT_DECISION_SETTINGS).slices).toHaveLength(3);
  });
});
