export * from "../../db/experiments/convener";
export * from "../../db/experiments/events";
export * from "../../db/experiments/experiment-clicks";
export * from "../../db/experiments/experiments";
export * from "../../db/experiments/experiment-stats";
export * from "../../db/experiments/analysis-settings";
