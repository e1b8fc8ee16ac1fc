import { ingestEvents as ingest } from "../../db/experiments/events";
import { countEvents } from "../utils/metrics.server";

export * from "../../db/experiments/convener";
export * from "../../db/experiments/events";
export * from "../../db/experiments/experiment-clicks";
export * from "../../db/experiments/experiments";
export * from "../../db/experiments/experiment-stats";
export * from "../../db/experiments/analysis-settings";

// The events API's batches are counted for /metrics (accepted, duplicated, rejected) on their way out.
export const ingestEvents: typeof ingest = async (...args) => {
  const result = await ingest(...args);
  countEvents(result);
  return result;
};
