import { z } from "zod";

/** The guardrail metrics an experiment may name (docs/online-experiments.md), each a ratio per convener. */
export const guardrailMetrics = {
  coiShare: "conflict-of-interest share of adopted candidates",
  minutesToFinish: "minutes from opening a proposal to finishing it",
  emptyCommitteeShare: "share of finished sessions with an empty committee",
  profileOpensPerAdoption: "profile opens per adoption",
} as const;
export type GuardrailMetric = keyof typeof guardrailMetrics;

/** The direction that harms: "increase" means the metric must not rise beyond the tolerance. */
export type GuardrailDirection = "increase" | "decrease";

export interface Guardrail {
  metric: GuardrailMetric;
  direction: GuardrailDirection;
  /** Tolerated relative change in the harmful direction, e.g. 0.05 for 5%. */
  tolerance: number;
}

export function isGuardrailMetric(name: string): name is GuardrailMetric {
  return Object.hasOwn(guardrailMetrics, name);
}

/** Parses `metric:direction:tolerance` (tolerance as a fraction or a percentage, "5%"): CLI and admin form. */
export function parseGuardrail(text: string): { ok: true; value: Guardrail } | { ok: false; error: string } {
  const [metric, direction, tol, ...rest] = text.trim().split(":");
  if (rest.length > 0 || tol === undefined)
    return { ok: false, error: `guardrail "${text}": expected metric:direction:tolerance` };
  if (!isGuardrailMetric(metric))
    return {
      ok: false,
      error: `guardrail metric "${metric}" is unknown; known: ${Object.keys(guardrailMetrics).join(", ")}`,
    };
  if (direction !== "increase" && direction !== "decrease")
    return { ok: false, error: `guardrail direction "${direction}" must be increase or decrease` };
  const tolerance = tol.endsWith("%") ? Number(tol.slice(0, -1)) / 100 : Number(tol);
  if (tol.trim() === "" || !Number.isFinite(tolerance) || tolerance < 0)
    return {
      ok: false,
      error: `guardrail tolerance "${tol}" must be a non-negative number (e.g. 0.05 or 5%)`,
    };
  return { ok: true, value: { metric, direction, tolerance } };
}

const guardrailSchema = z.object({
  metric: z.enum(Object.keys(guardrailMetrics) as [GuardrailMetric, ...GuardrailMetric[]]),
  direction: z.enum(["increase", "decrease"]),
  tolerance: z.number().finite().min(0),
});

/**
 * The guardrails field: an array as stored, or the form's text with one `metric:direction:tolerance` per
 * line (or comma-separated); each bad entry is refused with a message naming it; one guardrail per metric.
 */
export const guardrailsSchema = z.preprocess(
  (v, ctx) => {
    if (v === undefined || v === null) return [];
    if (typeof v !== "string") return v;
    const out: Guardrail[] = [];
    for (const entry of v.split(/[\n,]/).filter((e) => e.trim() !== "")) {
      const parsed = parseGuardrail(entry);
      if (parsed.ok) out.push(parsed.value);
      else ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.error });
    }
    return out;
  },
  z
    .array(guardrailSchema)
    .refine(
      (gs) => new Set(gs.map((g) => g.metric)).size === gs.length,
      "each guardrail metric at most once",
    ),
);
