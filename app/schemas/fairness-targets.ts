import { parseFairnessTarget, type FairnessTarget } from "../../scripts/inputs/fairness-targets";

/**
 * The expected shares the analyst set on the offline page (`?target=gender=f:0.4`, one parameter per
 * target, or several separated by commas in one field), or the first problem as a sentence naming the
 * field and the bad entry.
 */
export function parseFairnessTargets(
  values: URLSearchParams,
): { targets: FairnessTarget[] } | { error: string } {
  const entries = values
    .getAll("target")
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
  const targets: FairnessTarget[] = [];
  for (const entry of entries) {
    const parsed = parseFairnessTarget(entry);
    if (!parsed.ok) return { error: `target "${entry}": ${parsed.error}` };
    if (targets.some((t) => t.attribute === parsed.value.attribute && t.value === parsed.value.value))
      return { error: `target "${entry}": ${parsed.value.attribute}=${parsed.value.value} is set twice` };
    targets.push(parsed.value);
  }
  return { targets };
}

/** The targets of a report page's request; a 400 with a sentence naming the target when one is not usable. */
export function fairnessTargetParams(request: Request): FairnessTarget[] {
  const result = parseFairnessTargets(new URL(request.url).searchParams);
  if ("error" in result)
    throw new Response(JSON.stringify({ message: result.error }), {
      status: 400,
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
  return result.targets;
}

/** The targets as the page's field shows them and the URL carries them: `gender=f:0.4, country=DE:0.2`. */
export const targetsText = (targets: readonly FairnessTarget[]) =>
  targets.map((t) => `${t.attribute}=${t.value}:${t.share}`).join(", ");
