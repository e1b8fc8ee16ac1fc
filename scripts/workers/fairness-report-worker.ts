import { parentPort, workerData } from "node:worker_threads";
import { fairnessReport, type FairnessInput } from "../fairness/report";

/** Some systems' fairness figures, on a thread of their own (fairness-reports.ts shares the systems out). */
try {
  parentPort!.postMessage({ ok: true, report: fairnessReport(workerData as FairnessInput) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message });
}
