import { z } from "zod";
import { intentSchema } from "./forms";

/** The Recompute button beside a kept result: no field but its intent (the page's settings are in its URL). */
export const recomputeSchema = intentSchema(z.object({ intent: z.literal("recompute") }));
