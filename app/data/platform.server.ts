export * from "../../db/platform/unavailable";
export { CommitOutcomeUnknown } from "../../db/platform/commit-outcome";
