import { performance } from "node:perf_hooks";
import { onlineFromFile } from "../io/online-files";
import { onlineDecisions } from "../cli/commands/online-decide";
import { DEFAULT_N_STAR } from "../online/sequential";

// `assay online` on a file of about 1,000,000 events: read, validate each event, compute per-arm metrics with CIs.
// Mode "decisions": `assay online --cuped --engine bayesian --slice subject` on a file whose first third is
// an earlier experiment, with the subjects file given after the mode.
const [file, mode, subjects] = process.argv.slice(2);
const options = { intervals: true, B: 2000, seed: 1 };
const start = performance.now();
const decided =
  mode === "decisions"
    ? await onlineDecisions(
        {
          events: file,
          cuped: true,
          engine: "bayesian",
          slice: "subject",
          subjects,
          prePeriodDays: 9,
          intervals: "fixed",
          nStar: DEFAULT_N_STAR,
        },
        options,
      )
    : null;
const report = decided ?? (await fromFile());
const seconds = (performance.now() - start) / 1000;

async function fromFile() {
  const result = await onlineFromFile(file, { ...options, threads: mode === "one-thread" ? 1 : 2 });
  if (!result.ok) throw new Error(`${result.errors.length} bad lines`);
  return result.report;
}

const ctr = decided?.decisions.find((d) => d.metric === "ctr")?.cuped;
console.log(
  JSON.stringify({
    mode: "online",
    seconds,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    detail:
      `${report.events} events, ${report.uniqueEvents} unique, ${Object.values(report.arms).reduce((n, a) => n + a.units, 0)} units; adoption A ${report.arms.A.adoptionRate!.toFixed(4)} B ${report.arms.B.adoptionRate!.toFixed(4)}` +
      (ctr ? `; CUPED ctr interval narrowed ${(100 * ctr.intervalNarrowing!).toFixed(1)}%` : "") +
      (decided?.slices
        ? `; ${decided.slices.slices.length} subject slices (${decided.slices.slices.filter((x) => !x.tooFew).length} read; the Bayesian engine gives no p to adjust)`
        : ""),
  }),
);
