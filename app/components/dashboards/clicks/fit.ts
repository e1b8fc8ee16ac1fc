import type { ExperimentClicksResult } from "../../../../scripts/clicks/experiment-report";
import type { Json } from "~/utils/json-type";

export type ClicksResult = Json<ExperimentClicksResult>;
/** The click models' fit, once there were sessions enough for one. */
export type ClicksFit = NonNullable<ClicksResult["fit"]>;

/** What the fit's progress counts (scripts/clicks/experiment-report.ts: the models, then B refits of PBM). */
export const CLICK_FIT_UNIT = "fits: the twelve models, then PBM refitted per resample";
