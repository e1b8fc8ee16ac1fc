import { eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import { experiments } from "../schema";
import type { AnalysisSettings } from "../../scripts/inputs/analysis-settings";
import { ExperimentError } from "./experiments";
import { isCompositionGuardrail, type AnyGuardrail } from "../../scripts/inputs/guardrails";

const DAY_MS = 86_400_000;

/**
 * Why CUPED cannot use a pre-period of `days` before `start`, or null: the events (of any experiment)
 * must reach back that far, or the covariate would silently cover fewer days than the setting says.
 */
export async function prePeriodProblem(db: DbOrTx, start: Date, days: number): Promise<string | null> {
  const [row] = await db.execute<{ earliest: string | null }>(
    sql`select min(at)::text as earliest from events`,
  );
  const from = new Date(start.getTime() - days * DAY_MS);
  const earliest = row?.earliest ? new Date(row.earliest) : null;
  if (earliest && earliest <= from) return null;
  const held = earliest ? Math.max(0, Math.floor((start.getTime() - earliest.getTime()) / DAY_MS)) : 0;
  return (
    `prePeriodDays: a pre-period of ${days} days before ${start.toISOString()} reaches back to ${from.toISOString()}, ` +
    (earliest
      ? `but the earliest event is of ${earliest.toISOString()} (${held} whole day(s) of history)`
      : "but there are no events yet") +
    "; shorten the pre-period or turn CUPED off."
  );
}

/** Why a share guardrail cannot be read, or null: its attribute must be one the candidates have. */
async function shareGuardrailProblem(
  db: DbOrTx,
  guardrails: readonly AnyGuardrail[],
): Promise<string | null> {
  const shares = guardrails.filter(isCompositionGuardrail);
  if (shares.length === 0) return null;
  const known = (
    await db.execute<{ attribute: string }>(
      sql`select distinct attribute from candidate_attributes order by 1`,
    )
  ).map((r) => r.attribute);
  const unknown = shares.find((g) => !known.includes(g.attribute));
  if (!unknown) return null;
  return (
    `guardrails: the attribute "${unknown.attribute}" of "share:${unknown.attribute}=${unknown.value}" is unknown; ` +
    (known.length
      ? `known: ${known.join(", ")}.`
      : "no candidate has a group attribute yet (import attributes first).")
  );
}

/**
 * Stores how an experiment's result is read, at any status (the data does not change, only its reading),
 * with an audit entry; with CUPED on, the history must cover the pre-period before the experiment's start
 * (or before now, for a draft). Throws an ExperimentError naming the field, writing nothing.
 */
export async function updateAnalysisSettings(
  db: Db,
  actor: AuditActor,
  key: string,
  settings: AnalysisSettings,
) {
  return db.transaction(async (tx) => {
    const [experiment] = await tx
      .select({ id: experiments.id, startedAt: experiments.startedAt, kind: experiments.kind })
      .from(experiments)
      .where(eq(experiments.key, key))
      .for("update");
    if (!experiment) throw new ExperimentError(`There is no experiment ${key}.`);
    if (settings.cuped) {
      const problem = await prePeriodProblem(tx, experiment.startedAt ?? new Date(), settings.prePeriodDays);
      if (problem) throw new ExperimentError(problem);
    }
    const shareProblem = await shareGuardrailProblem(tx, settings.guardrails);
    if (shareProblem) throw new ExperimentError(shareProblem);
    const values = {
      engine: settings.engine,
      cuped: settings.cuped,
      prePeriodDays: settings.prePeriodDays,
      priorMean: settings.priorMean,
      priorVariance: settings.priorVariance ?? null,
      guardrails: settings.guardrails,
    };
    await tx.update(experiments).set(values).where(eq(experiments.id, experiment.id));
    await recordAudit(tx, actor, "experiment.analysis", `experiment ${key}`, values);
    return values;
  });
}
