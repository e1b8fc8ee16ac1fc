import { adoptedComposition, shareGuardrails } from "../../fairness/composition";
import { DEFAULT_MIN_GROUP } from "../../fairness/report";
import { guardrailLine, type CompositionGuardrail } from "../../inputs/guardrails";
import type { GuardrailSession } from "../../online/guardrail-sessions";
import { CliError } from "../errors";
import { readText } from "../options";
import { parseAttributes } from "./fairness-files";

/**
 * The attributes file of `--guardrail share:…`, read before the events so that a missing file or a
 * guardrail naming an attribute the file lacks is refused at once (exit 2, naming the guardrail).
 */
export async function readShareAttributes(shares: readonly CompositionGuardrail[], file: string | undefined) {
  if (!file)
    throw new CliError(
      `--guardrail ${guardrailLine(shares[0])} needs --attributes (a CSV of candidate,attribute,value).`,
      2,
    );
  const attributes = parseAttributes(await readText(file, "--attributes"), file, null);
  for (const g of shares)
    if (!attributes.has(g.attribute))
      throw new CliError(
        `--guardrail ${guardrailLine(g)}: the attribute "${g.attribute}" is not in ${file}; known: ${[...attributes.keys()].sort().join(", ")}.`,
        2,
      );
  return attributes;
}

/**
 * `assay online --guardrail share:attribute=value:min|max:share --attributes FILE`: the share guardrails
 * read as the app reads them (db/results/online-composition.ts) — the composition of each arm's adopted
 * candidates with its bootstrap over conveners, groups under the minimum size hidden, and each bound's
 * state from the arm's interval — from the sessions the other guardrails read, so the same units count
 * (units in one arm, sessions with an impression, adoptions after unadopts).
 */
export function shareGuardrailReadings(
  shares: readonly CompositionGuardrail[],
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>,
  sessions: readonly GuardrailSession[],
  { control, arms, B, seed }: { control: string; arms: readonly string[]; B: number; seed: string | number },
) {
  const adoptions = sessions.flatMap((s) =>
    (s.adoptedIds ?? []).map((candidate) => ({ unit: s.unit, arm: s.arm, candidate })),
  );
  const composition = adoptedComposition({
    adoptions,
    attributes,
    control,
    arms,
    minGroup: DEFAULT_MIN_GROUP,
    bootstrap: { B, seed },
  });
  return shareGuardrails(composition, shares);
}
