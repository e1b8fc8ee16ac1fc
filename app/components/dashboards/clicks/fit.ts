import type { ExperimentClicksResult } from "../../../../scripts/clicks/experiment-report";
import type { Json } from "~/utils/json-type";

export type ClicksResult = Json<ExperimentClicksResult>;
/** The click models' fit, once there were sessions enough for one. */
export type ClicksFit = NonNullable<ClicksResult["fit"]>;
