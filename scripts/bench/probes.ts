import { randomUUID } from "node:crypto";
import type { Db } from "../../db/platform/client";
import { createApiKey, createExperiment, setExperimentStatus } from "../../db/experiments/experiments";
import { experimentSchema } from "../inputs/experiments";
import { assignUnit } from "../assign/assign";

/**
 * What the HTTP benchmarks share: a running experiment to send events to, batches of fresh click
 * events, posting them, and the quantiles they report.
 */

/** A running 50/50 experiment `key` of the systems baseline (A) and challenger (B); its events API key. */
export async function runningExperiment(db: Db, key: string): Promise<string> {
  const arms = [
    { key: "A", system: "baseline", weight: 0.5 },
    { key: "B", system: "challenger", weight: 0.5 },
  ];
  await createExperiment(db, "cli", experimentSchema.parse({ key, name: key, arms, control: "A" }));
  await setExperimentStatus(db, "cli", key, "running");
  return (await createApiKey(db, "cli", key)).key;
}

/** `units` unit ids and, for each, the arm `runningExperiment`'s assignment gives it. */
export function unitsOf(experiment: string, count: number): { unit: string; arm: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const unit = `${experiment}-unit-${i}`;
    return { unit, arm: ["A", "B"][assignUnit(experiment, unit, [0.5, 0.5]).arm] };
  });
}

/** `size` fresh click events, each from a random one of `units` on its own arm, dated now. */
export function clickBatch(experiment: string, units: { unit: string; arm: string }[], size: number) {
  return Array.from({ length: size }, (_, i) => {
    const { unit, arm } = units[Math.floor(Math.random() * units.length)];
    return {
      eventId: randomUUID(),
      type: "click",
      at: new Date().toISOString(),
      experiment,
      arm,
      unitId: unit,
      sessionId: `${unit}-s`,
      proposalId: "p-1",
      candidateId: `c-${i}`,
    };
  });
}

/** POST /api/events with the experiment's key. */
export function postEvents(base: string, apiKey: string, events: unknown[]): Promise<Response> {
  return fetch(`${base}/api/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ events }),
  });
}

/** The q-quantile as the benches report it: the value at ⌊q·n⌋ of the sorted values; NaN for none. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}
