import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAssay } from "../../../test/run-cli";
import { groupSessions, interleavingSlices } from "../../interleaving/slices";
import { creditOfText } from "../../interleaving/index";
import { multileavingSlices } from "../../interleaving/multileave-slices";
import { teamDraftMultileave } from "../../interleaving/multileave";

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
  const read = creditOfText(text);
  if (!read.ok) throw new Error("the fixture reads");
  const { sessions } = read.totals;
  const map = JSON.parse(fs.readFileSync(subjects, "utf8"));
  const options = { control: "baseline", challenger: "challenger", B: 200, seed: "5" };
  const expected = interleavingSlices(
    groupSessions(sessions, (s) => map[s.proposal] ?? "(unknown)"),
    options,
  ).holm;
  expect(out.slices).toEqual(JSON.parse(JSON.stringify(expected.slices)));
  expect(out.slices.map((s: { slice: string }) => s.slice)).toEqual(["(unknown)", "even", "odd"]);
  expect(out.comparisons).toBe(expected.comparisons);
  expect(out.correction).toBe("holm");
  const all = out.slices.reduce((n: number, s: { sessions: number }) => n + s.sessions, 0);
  expect(all).toBe(sessions.length);

  expect(bySeniority.code).toBe(0);
  const senior = JSON.parse(bySeniority.stdout);
  expect(senior.correction).toBe("bh");
  expect(senior.slices.map((s: { slice: string }) => s.slice)).toEqual(["(no value)", "junior", "senior"]);
  expect(table.code).toBe(0);
  expect(table.stdout).toContain(`by subject: ${expected.comparisons} comparisons, p adjusted by Holm`);
}, 180_000);

it("refuses an unknown attribute, --slice subject without --subjects and --adjust alone, exit 2", async () => {
  const [unknown, noFile, noSubjects, adjustAlone] = await Promise.all([
    runAssay([...base, "--slice", "institution", "--convener-attributes", attributes]),
    runAssay([...base, "--slice", "institution"]),
    runAssay([...base, "--slice", "subject"]),
    runAssay([...base, "--adjust", "bh"]),
  ]);
  for (const r of [unknown, noFile, noSubjects, adjustAlone]) expect(r.code).toBe(2);
  expect(unknown.stderr).toContain(
    '--slice: unknown slice attribute "institution"; known: subject, seniority.',
  );
  expect(noFile.stderr).toContain(
    '--slice: unknown slice attribute "institution"; known: subject, or a convener',
  );
  expect(noSubjects.stderr).toContain("--slice subject needs --subjects");
  expect(adjustAlone.stderr).toContain("--adjust corrects the p-values of slices; give --slice too.");
}, 180_000);

/**
 * A multileaved log of three systems: 24 conveners × 3 sessions over proposals m1 (subject "ml") and n1
 * ("nlp"); the convener clicks the first candidate "good" placed, and in every other session also the
 * first "fair" placed. Conveners u0–u11 are "early", u12–u23 "senior".
 */
function multileavedLog() {
  const lists = [
    { system: "poor", list: ["c9", "c8", "c7", "c6"] },
    { system: "good", list: ["c1", "c2", "c3", "c4"] },
    { system: "fair", list: ["c5", "c1", "c6", "c2"] },
  ];
  const lines: string[] = [];
  let n = 0;
  for (let u = 0; u < 24; u++)
    for (let k = 0; k < 3; k++) {
      const sessionId = `u${u}s${k}`;
      const at = `2026-11-0${k + 1}T10:00:00Z`;
      const proposalId = (u + k) % 2 ? "n1" : "m1";
      const event = { experiment: "ml", arm: "I", unitId: `u${u}`, sessionId, proposalId, at };
      const { items, teams } = teamDraftMultileave(lists, { depth: 6, seed: "ml", sessionId });
      lines.push(JSON.stringify({ ...event, eventId: `e${++n}`, type: "impression", items, teams }));
      const clicked = [items[teams.indexOf("good")]];
      if ((u + k) % 3 === 0) clicked.push(items[teams.indexOf("fair")]);
      for (const c of clicked)
        lines.push(JSON.stringify({ ...event, eventId: `e${++n}`, type: "click", candidateId: c }));
    }
  const file = path.join(dir, "multileaved.jsonl");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  const subjectsFile = path.join(dir, "ml-subjects.json");
  fs.writeFileSync(subjectsFile, JSON.stringify({ m1: "ml", n1: "nlp" }));
  const conveners = path.join(dir, "ml-conveners.csv");
  const rows = Array.from({ length: 24 }, (_, u) => `u${u},seniority,${u < 12 ? "early" : "senior"}`);
  fs.writeFileSync(conveners, `convener,attribute,value\n${rows.join("\n")}\n`);
  return { file, text: lines.join("\n"), subjectsFile, conveners };
}

it("slices a multileaved log: the page's preference matrices per slice, p adjusted across slices, pairs and credits", async () => {
  const log = multileavedLog();
  const ml = ["interleave", "--events", log.file, "--control", "poor", "--bootstrap", "200", "--seed", "5"];
  const [bySubject, bySeniority, table, unknown] = await Promise.all([
    runAssay([...ml, "--slice", "subject", "--subjects", log.subjectsFile, "--json"]),
    runAssay([
      ...ml,
      "--slice",
      "seniority",
      "--convener-attributes",
      log.conveners,
      "--adjust",
      "bh",
      "--csv",
    ]),
    runAssay([...ml, "--slice", "subject", "--subjects", log.subjectsFile]),
    runAssay([...ml, "--slice", "institution", "--convener-attributes", log.conveners]),
  ]);
  expect(bySubject.code).toBe(0);
  const out = JSON.parse(bySubject.stdout);
  const read = creditOfText(log.text);
  if (!read.ok) throw new Error("the log reads");
  const subjectOf = new Map([
    ["m1", "ml"],
    ["n1", "nlp"],
  ]);
  const expected = multileavingSlices(
    groupSessions(read.totals.sessions, (s) => subjectOf.get(s.proposal)!),
    { systems: ["poor", "fair", "good"], B: 200, seed: "5" },
  ).holm;
  expect(out).toEqual(
    JSON.parse(JSON.stringify({ systems: ["poor", "fair", "good"], attribute: "subject", ...expected })),
  );
  expect(out.slices.map((s: { slice: string; tooFew: boolean }) => [s.slice, s.tooFew])).toEqual([
    ["ml", false],
    ["nlp", false],
  ]);
  // 2 slices × 3 pairs × click credit (no adoption in the log): 6 comparisons.
  expect(out.comparisons).toBe(6);
  const [mlClick] = out.slices[0].credits;
  const goodOverPoor = mlClick.result.pairs.findIndex(
    (p: { system: string; other: string }) => p.system === "poor" && p.other === "good",
  );
  expect(mlClick.result.pairs[goodOverPoor]).toMatchObject({ wins: 0, share: 0 });
  expect(mlClick.adjustedP[goodOverPoor]).toBeGreaterThanOrEqual(mlClick.result.pairs[goodOverPoor].pValue);

  expect(bySeniority.code).toBe(0);
  const csv = bySeniority.stdout.trimEnd().split("\r\n");
  expect(csv[0]).toBe("slice,credit,sessions,system,over,wins,losses,ties,share,ci95,p,adjusted p");
  // Two values × two credits × three pairs, each unordered pair once.
  expect(csv).toHaveLength(1 + 2 * 2 * 3);
  expect(csv.filter((l) => l.startsWith("early,click,36,poor,fair,"))).toHaveLength(1);

  expect(table.code).toBe(0);
  expect(table.stdout).toContain(
    "Team-draft multileaving of poor, fair, good by subject: 6 comparisons, p adjusted by Holm across slices, pairs of systems and both credits",
  );
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(
    '--slice: unknown slice attribute "institution"; known: subject, seniority.',
  );
}, 180_000);
