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

/**
 * A composition guardrail (issue 27): the share of one group (attribute = value) among an arm's adopted
 * candidates must stay at or above `min` (or at or below `max`), e.g. women ≥ 35%. Read by its interval
 * (scripts/fairness/composition.ts): ok when the whole interval meets the bound, failing when it lies
 * wholly beyond it, at risk otherwise.
 */
export interface CompositionGuardrail {
  metric: "share";
  attribute: string;
  value: string;
  min?: number;
  max?: number;
}

/** Any guardrail an experiment stores: a ratio metric's tolerated change, or a group's share of adoptions. */
export type AnyGuardrail = Guardrail | CompositionGuardrail;

export const isCompositionGuardrail = (g: AnyGuardrail): g is CompositionGuardrail => g.metric === "share";

/** Parses `share:attribute=value:min|max:share` (share as a fraction or a percentage, "35%"). */
export function parseCompositionGuardrail(
  text: string,
): { ok: true; value: CompositionGuardrail } | { ok: false; error: string } {
  const match = /^share:([^=:]*)=(.*):([^:]*):([^:]*)$/.exec(text.trim());
  if (!match)
    return {
      ok: false,
      error: `guardrail "${text}": expected share:attribute=value:min:share (e.g. share:gender=f:min:35%)`,
    };
  const [, rawAttribute, value, bound, raw] = match;
  const attribute = rawAttribute.trim();
  if (attribute === "" || attribute.length > 100)
    return { ok: false, error: `guardrail "${text}": the attribute must be 1 to 100 characters` };
  if (value === "" || value.length > 200)
    return { ok: false, error: `guardrail "${text}": the value must be 1 to 200 characters` };
  if (bound !== "min" && bound !== "max")
    return { ok: false, error: `guardrail "${text}": the bound "${bound}" must be min or max` };
  const share = raw.trim().endsWith("%") ? Number(raw.trim().slice(0, -1)) / 100 : Number(raw);
  if (raw.trim() === "" || !Number.isFinite(share) || share < 0 || share > 1)
    return { ok: false, error: `guardrail share "${raw}" must be from 0 to 1 (e.g. 0.35 or 35%)` };
  return { ok: true, value: { metric: "share", attribute, value, [bound]: share } };
}

/** A guardrail as the form's line: `metric:direction:tolerance%` or `share:attribute=value:min|max:share%`. */
export function guardrailLine(g: AnyGuardrail): string {
  const percent = (v: number) => `${+(v * 100).toFixed(6)}%`;
  if (!isCompositionGuardrail(g)) return `${g.metric}:${g.direction}:${percent(g.tolerance)}`;
  const bound = g.min !== undefined ? `min:${percent(g.min)}` : `max:${percent(g.max ?? 1)}`;
  return `share:${g.attribute}=${g.value}:${bound}`;
}

const guardrailSchema = z.object({
  metric: z.enum(Object.keys(guardrailMetrics) as [GuardrailMetric, ...GuardrailMetric[]]),
  direction: z.enum(["increase", "decrease"]),
  tolerance: z.number().finite().min(0),
});

const shareBound = z
  .number()
  .finite()
  .min(0, "a share must be from 0 to 1")
  .max(1, "a share must be from 0 to 1");
const compositionGuardrailSchema = z
  .object({
    metric: z.literal("share"),
    attribute: z.string().trim().min(1, "the attribute is empty").max(100),
    value: z.string().min(1, "the value is empty").max(200),
    min: shareBound.optional(),
    max: shareBound.optional(),
  })
  .refine((g) => (g.min === undefined) !== (g.max === undefined), "a share guardrail has either min or max");

/** What makes two guardrails the same one: the metric, or a share guardrail's group and bound. */
const guardrailIdentity = (g: AnyGuardrail) =>
  isCompositionGuardrail(g)
    ? `share\u0000${g.attribute}\u0000${g.value}\u0000${g.min === undefined}`
    : g.metric;

/**
 * The guardrails field: an array as stored, or the form's text with one `metric:direction:tolerance` per
 * line (or comma-separated); each bad entry is refused with a message naming it; one guardrail per metric.
 */
export const guardrailsSchema = z.preprocess(
  (v, ctx) => {
    if (v === undefined || v === null) return [];
    if (typeof v !== "string") return v;
    const out: AnyGuardrail[] = [];
    for (const entry of v.split(/[\n,]/).filter((e) => e.trim() !== "")) {
      const parsed = entry.trim().startsWith("share:")
        ? parseCompositionGuardrail(entry)
        : parseGuardrail(entry);
      if (parsed.ok) out.push(parsed.value);
      else ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.error });
    }
    return out;
  },
  z
    .array(z.union([guardrailSchema, compositionGuardrailSchema]))
    .refine(
      (gs) => new Set(gs.map(guardrailIdentity)).size === gs.length,
      "each guardrail metric at most once (a share guardrail: each group and bound at most once)",
    ),
);
