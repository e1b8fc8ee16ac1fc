import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../../test/run-cli";
import { groupSessions, interleavingSlices, proposalCreditsOfText } from "../../interleaving/slices";

/**
 * `assay interleave --slice`: the interleave-small log split by a made-up subject (odd and even proposal
 * numbers) and by a made-up convener attribute, read as the app's slices table; the flags and messages of
 * `assay online --slice`, an unknown attribute refused with exit 2.
 */
const root = path.resolve(__dirname, "../../..");
const events = path.join(root, "test/fixtures/interleave-small/events.jsonl");
const text = fs.readFileSync(events, "utf8");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "interleave-slices-"));
const subjects = path.join(dir, "subjects.json");
const attributes = path.join(dir, "conveners.csv");
const number = (id: string) => Number(id.replace(/\D/g, ""));
const proposals = [...new Set([...text.matchAll(/"proposalId": "([^"]+)"/g)].map((m) => m[1]))];
// One proposal left out: its sessions form the "(unknown)" slice.
fs.writeFileSync(
  subjects,
  JSON.stringify(Object.fromEntries(proposals.slice(1).map((p) => [p, number(p) % 2 ? "odd" : "even"]))),
);
// Conveners 1–39 junior, 40 and above senior; convener-0 … none given, so "(no value)" may appear.
const units = [...new Set([...text.matchAll(/"unitId": "([^"]+)"/g)].map((m) => m[1]))];
fs.writeFileSync(
  attributes,
  `convener,attribute,value\n${units
    .filter((u) => number(u) >= 5)
    .map((u) => `${u},seniority,${number(u) < 40 ? "junior" : "senior"}`)
    .join("\n")}\n`,
);
const base = ["interleave", "--events", events, "--control", "baseline", "--bootstrap", "200", "--seed", "5"];

it("gives the app's slice table by subject and by a convener attribute, p adjusted by Holm or BH", async () => {
  const [bySubject, bySeniority, table] = await Promise.all([
    runAssay([...base, "--slice", "subject", "--subjects", subjects, "--json"]),
    runAssay([
      ...base,
      "--slice",
      "seniority",
      "--convener-attributes",
      attributes,
      "--adjust",
      "bh",
      "--json",
    ]),
    runAssay([...base, "--slice", "subject", "--subjects", subjects]),
  ]);
  expect(bySubject.code).toBe(0);
  const out = JSON.parse(bySubject.stdout);
  const read = proposalCreditsOfText(text);
  if (!read.ok) throw new Error("the fixture reads");
  const map = JSON.parse(fs.readFileSync(subjects, "utf8"));
  const options = { control: "baseline", challenger: "challenger", B: 200, seed: "5" };
  const expected = interleavingSlices(
    groupSessions(read.sessions, (s) => map[s.proposal] ?? "(unknown)"),
    options,
  ).holm;
  expect(out.slices).toEqual(JSON.parse(JSON.stringify(expected.slices)));
  expect(out.slices.map((s: { slice: string }) => s.slice)).toEqual(["(unknown)", "even", "odd"]);
  expect(out.comparisons).toBe(expected.comparisons);
  expect(out.correction).toBe("holm");
  const all = out.slices.reduce((n: number, s: { sessions: number }) => n + s.sessions, 0);
  expect(all).toBe(read.sessions.length);

  expect(bySeniority.code).toBe(0);
  const senior = JSON.parse(bySeniority.stdout);
  expect(senior.correction).toBe("bh");
  expect(senior.slices.map((s: { slice: string }) => s.slice)).toEqual(["(no value)", "junior", "senior"]);
  expect(table.code).toBe(0);
  expect(table.stdout).toContain(`by subject: ${expected.comparisons} comparisons, p adjusted by Holm`);
}, 180_000);

it("refuses an unknown attribute, --slice subject without --subjects, --adjust alone and a multileave, exit 2", async () => {
  // Three teams in the impressions: a multileaved log, which has no two-system slices.
  const base3 = {
    experiment: "ml",
    arm: "I",
    unitId: "u1",
    sessionId: "s1",
    proposalId: "p",
    at: "2026-11-01T10:00:00Z",
  };
  const multileaved = path.join(dir, "multileaved.jsonl");
  const impression = {
    ...base3,
    eventId: "e1",
    type: "impression",
    items: ["a", "b", "c"],
    teams: ["x", "y", "z"],
  };
  fs.writeFileSync(multileaved, `${JSON.stringify(impression)}\n`);
  const [unknown, noFile, noSubjects, adjustAlone, multileave] = await Promise.all([
    runAssay([...base, "--slice", "institution", "--convener-attributes", attributes]),
    runAssay([...base, "--slice", "institution"]),
    runAssay([...base, "--slice", "subject"]),
    runAssay([...base, "--adjust", "bh"]),
    runAssay(["interleave", "--events", multileaved, "--slice", "subject", "--subjects", subjects]),
  ]);
  for (const r of [unknown, noFile, noSubjects, adjustAlone, multileave]) expect(r.code).toBe(2);
  expect(multileave.stderr).toContain("--slice reads two systems' interleaving; this log is multileaved.");
  expect(unknown.stderr).toContain(
    '--slice: unknown slice attribute "institution"; known: subject, seniority.',
  );
  expect(noFile.stderr).toContain(
    '--slice: unknown slice attribute "institution"; known: subject, or a convener',
  );
  expect(noSubjects.stderr).toContain("--slice subject needs --subjects");
  expect(adjustAlone.stderr).toContain("--adjust corrects the p-values of slices; give --slice too.");
}, 180_000);
