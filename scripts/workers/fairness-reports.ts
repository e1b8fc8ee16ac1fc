import { fairnessReport, pooled, type FairnessInput, type SystemFairness } from "../fairness/report";
import { runWorker } from "./run-worker";

/**
 * fairnessReport with the systems shared between `threads` threads. Each system's figures depend on
 * its own lists and the pool only: every thread gets the whole input's pool (so a thread with one
 * system sees the same groups in the same order) and bootstraps from the same seed, so the report is
 * the same, value for value, as on one thread. With one system or one thread, it runs here.
 */
export async function fairnessReportOnThreads(
  input: FairnessInput,
  threads = 2,
): Promise<Record<string, SystemFairness>> {
  const systems = [...input.lists.keys()];
  if (threads < 2 || systems.length < 2) return fairnessReport(input);
  const attributes = pooled(input);
  const shares = Array.from({ length: Math.min(threads, systems.length) }, (_, t) =>
    systems.filter((_, i) => i % threads === t),
  );
  const parts = await Promise.all(
    shares.map(async (share) => {
      const answer = await runWorker<
        { ok: true; report: Record<string, SystemFairness> } | { ok: false; message: string }
      >(new URL("./fairness-report-worker.ts", import.meta.url), {
        ...input,
        attributes,
        lists: new Map(share.map((system) => [system, input.lists.get(system)!])),
      } satisfies FairnessInput);
      if (!answer.ok) throw new Error(answer.message);
      return answer.report;
    }),
  );
  const bySystem = Object.assign({}, ...parts) as Record<string, SystemFairness>;
  return Object.fromEntries(systems.map((system) => [system, bySystem[system]]));
}
