#!/usr/bin/env node
// `npx assay`: runs the TypeScript CLI through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("./assay.ts");
