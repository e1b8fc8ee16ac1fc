import { CCM } from "./ccm";
import { CM } from "./cm";
import { DCTR, GCTR, RCTR } from "./ctr";
import { DBN } from "./dbn";
import { DCM, SDCM } from "./dcm";
import type { ClickModel, ModelOptions } from "./model";
import { PBM } from "./pbm";
import { SDBN } from "./sdbn";
import { TCM } from "./tcm";
import { UBM } from "./ubm";

/** Every model by name, in the order of the reference table. */
export const modelNames = [
  "GCTR",
  "RCTR",
  "DCTR",
  "PBM",
  "CM",
  "DCM",
  "SDCM",
  "CCM",
  "DBN",
  "SDBN",
  "UBM",
  "TCM",
] as const;
export type ModelName = (typeof modelNames)[number];

const constructors: Record<ModelName, new (options?: ModelOptions) => ClickModel> = {
  GCTR,
  RCTR,
  DCTR,
  PBM,
  CM,
  DCM,
  SDCM,
  CCM,
  DBN,
  SDBN,
  UBM,
  TCM,
};

/** A fresh model by name (case-insensitive); throws naming the known models otherwise. */
export function createModel(name: string, options: ModelOptions = {}): ClickModel {
  const key = modelNames.find((m) => m.toLowerCase() === name.toLowerCase());
  if (!key) throw new Error(`Unknown click model "${name}": choose from ${modelNames.join(", ")}.`);
  return new constructors[key](options);
}
