import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { creditFromFile } from "../io/interleaving-file";
import { resultFromCredit } from "../interleaving/index";
import { groupSessions, interleavingSlices } from "../interleaving/slices";
import { teamDraft } from "../interleaving/team-draft";
import { createRng } from "../lib/random";

/**
 * A JSONL file of about `count` events of an interleaved experiment, made once in the temp folder
 * like the online fixture: per session one team-draft impression of two rankings (depth 10), clicks
 * and adopts leaning towards the challenger's picks, 2% retried duplicates.
 */
function interleavedFixture(count = 1_000_000): string {
  const dir = path.join(os.tmpdir(), "assay-bench");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `interleaved-${count}.jsonl`);
  if (fs.existsSync(file)) return file;
  const rng = createRng("bench-interleaved");
  const out = fs.openSync(file + ".tmp", "w");
  const base = Date.parse("2026-10-01T00:00:00Z");
  const lines: string[] = [];
  let written = 0;
  let n = 0;
  while (written + lines.length < count) {
    const unit = `convener-${rng.int(5000)}`;
    const session = `${unit}-s${n++}`;
    const proposal = `prop-${rng.int(2000)}`;
    let t = base + rng.int(30 * 86400) * 1000;
    const event = (type: string, extra: Record<string, unknown>) => {
      const id = `${n}-${lines.length}-${rng.nextUint32().toString(16)}`;
      const line = JSON.stringify({
        eventId: id,
        type,
        at: new Date((t += 1000 + rng.int(20000))).toISOString(),
        experiment: "bench",
        arm: "I",
        unitId: unit,
        sessionId: session,
        proposalId: proposal,
        ...extra,
      });
      lines.push(line);
      if (rng.next() < 0.02) lines.push(line);
    };
    const pool = Array.from({ length: 30 }, (_, i) => `cand-${rng.int(3000)}-${i}`);
    const ranking = () =>
      pool
        .slice()
        .sort(() => rng.next() - 0.5)
        .slice(0, 15);
    const { items, teams } = teamDraft(ranking(), ranking(), {
      depth: 10,
      seed: "bench",
      sessionId: session,
      systems: ["baseline", "challenger"],
    });
    event("impression", { items, teams });
    const pick = () => {
      const i = rng.int(items.length);
      // The challenger's picks are taken a little more often.
      return teams[i] === "challenger" || rng.next() < 0.8 ? items[i] : items[rng.int(items.length)];
    };
    for (let c = 2 + rng.int(6); c > 0; c--) event("click", { candidateId: pick() });
    const adopts = rng.int(4);
    for (let a = 0; a < adopts; a++) event("adopt", { candidateId: pick() });
    if (adopts > 0 && rng.next() < 0.2) event("unadopt", { candidateId: pick() });
    if (lines.length >= 10_000) {
      written += lines.length;
      fs.writeSync(out, lines.join("\n") + "\n");
      lines.length = 0;
    }
  }
  if (lines.length) fs.writeSync(out, lines.join("\n") + "\n");
  fs.closeSync(out);
  fs.renameSync(file + ".tmp", file);
  return file;
}

// `assay interleave` on about 1,000,000 events (two threads; `one-thread` for comparison): read, validate each event, credit sessions, win rate with a CI (B = 2000).
// `slice`: `assay interleave --slice subject` as the CLI runs it: the file read once, the whole result, then
// each of 8 subjects' win rate by both credits (B = 2000 each) with Holm-adjusted p.
const mode = process.argv[2];
const file = interleavedFixture();
const start = performance.now();
const cpuStart = process.cpuUsage();
const options = { B: 2000, seed: 1, threads: mode === "one-thread" ? 1 : 2 };
const credit = await creditFromFile(file, options);
if (!credit.ok) throw new Error("errors" in credit ? `${credit.errors.length} bad lines` : credit.problem);
const outcome = resultFromCredit(credit.totals, options);
if (!outcome.ok) throw new Error(outcome.problem);
if (!("result" in outcome)) throw new Error("the benchmark's log is not a two-system one");
const r = outcome.result;
// The fixture's 2,000 proposals in 8 subjects, as the online bench's subjects.
const subjectOf = (s: { proposal: string }) => `subject-${Number(s.proposal.slice(5)) % 8}`;
const slices =
  mode === "slice"
    ? interleavingSlices(groupSessions(credit.totals.sessions, subjectOf), {
        control: r.control,
        challenger: r.challenger,
        B: 2000,
        seed: "1",
      }).holm
    : null;
const seconds = (performance.now() - start) / 1000;
// CPU time of all threads beside the wall time: on a shared machine the two can differ by 2×.
const cpu = process.cpuUsage(cpuStart);
const sliced = slices ? `; ${slices.slices.length} slices, ${slices.comparisons} comparisons` : "";
console.log(
  JSON.stringify({
    mode: slices ? "interleave --slice subject" : "interleave",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `${outcome.quality.events} events, ${r.sessions} sessions; win rate of ${r.challenger} ${r.winRate?.toFixed(4)}, p ${r.pValue?.toPrecision(3)}${sliced}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
  }),
);
