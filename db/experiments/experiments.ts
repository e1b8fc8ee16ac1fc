import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  arms,
  experimentApiKeys,
  experimentProposals,
  experiments,
  exposures,
  proposals,
  subjects,
  systems,
  type Experiment,
} from "../schema";
import type { ExperimentInput } from "../../scripts/inputs/experiments";
import { bucketRanges, chooseArm, growthbookHash } from "../../scripts/assign/assign";

export class ExperimentError extends Error {}

export interface ExperimentWithArms extends Experiment {
  arms: {
    id: number;
    key: string;
    systemId: number;
    systemKey: string;
    weight: number;
    isControl: boolean;
    position: number;
  }[];
}

/** Creates a draft experiment with its arms and scope, and its audit entry, in one transaction. */
export async function createExperiment(
  db: Db,
  actor: AuditActor,
  input: ExperimentInput,
): Promise<ExperimentWithArms> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: experiments.id })
      .from(experiments)
      .where(eq(experiments.key, input.key));
    if (existing) throw new ExperimentError(`An experiment with the key ${input.key} already exists.`);
    const resolved = await resolveExperimentInput(tx, input);
    const [experiment] = await tx
      .insert(experiments)
      .values(experimentColumns(input, resolved.scopeSubjectId))
      .returning();
    await insertArmsAndScope(tx, experiment.id, input, resolved);
    await recordAudit(tx, actor, "experiment.create", `experiment ${input.key}`, experimentDetail(input));
    return (await getExperiment(tx, input.key))!;
  });
}

const experimentColumns = (input: ExperimentInput, scopeSubjectId: number | null) => ({
  key: input.key,
  name: input.name,
  kind: input.kind,
  // An A/B experiment has no merge; it keeps the default so the column reads the same for all of them.
  method: input.kind === "interleaving" ? input.method : ("team-draft" as const),
  seed: input.seed || input.key,
  coverage: input.coverage,
  committeeCap: input.committeeCap,
  scope: input.scope,
  scopeSubjectId,
});

const experimentDetail = (input: ExperimentInput) => ({
  name: input.name,
  kind: input.kind,
  ...(input.kind === "interleaving" ? { method: input.method } : {}),
  arms: input.arms.map((a) => ({ key: a.key, system: a.system, weight: a.weight })),
  control: input.control,
  coverage: input.coverage,
  scope: input.scope,
});

/** The systems, subject and proposals an input names, or an ExperimentError naming what does not exist. */
async function resolveExperimentInput(tx: DbOrTx, input: ExperimentInput) {
  const systemRows = await tx
    .select({ id: systems.id, key: systems.key })
    .from(systems)
    .where(
      inArray(
        systems.key,
        input.arms.map((a) => a.system),
      ),
    );
  const systemId = new Map(systemRows.map((s) => [s.key, s.id]));
  const unknown = input.arms.filter((a) => !systemId.has(a.system)).map((a) => a.system);
  if (unknown.length) throw new ExperimentError(`Unknown system ${[...new Set(unknown)].join(", ")}.`);
  let scopeSubjectId: number | null = null;
  if (input.scope === "subject") {
    const [subject] = await tx
      .select({ id: subjects.id })
      .from(subjects)
      .where(eq(subjects.key, input.subject!));
    if (!subject) throw new ExperimentError(`Unknown subject ${input.subject}.`);
    scopeSubjectId = subject.id;
  }
  let proposalIds: number[] = [];
  if (input.scope === "list") {
    const rows = await tx
      .select({ id: proposals.id, externalId: proposals.externalId })
      .from(proposals)
      .where(inArray(proposals.externalId, input.proposals!));
    const missing = input.proposals!.filter((p) => !rows.some((r) => r.externalId === p));
    if (missing.length)
      throw new ExperimentError(
        `Unknown proposal ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? "…" : ""}.`,
      );
    proposalIds = rows.map((r) => r.id);
  }
  return { systemId, scopeSubjectId, proposalIds };
}

async function insertArmsAndScope(
  tx: DbOrTx,
  experimentId: number,
  input: ExperimentInput,
  resolved: Awaited<ReturnType<typeof resolveExperimentInput>>,
) {
  await tx.insert(arms).values(
    input.arms.map((a, i) => ({
      experimentId,
      key: a.key,
      systemId: resolved.systemId.get(a.system)!,
      weight: a.weight,
      isControl: a.key === input.control,
      position: i,
    })),
  );
  if (resolved.proposalIds.length)
    await tx
      .insert(experimentProposals)
      .values(resolved.proposalIds.map((proposalId) => ({ experimentId, proposalId })));
}

/** The experiment with this key, locked for the transaction, if it is still a draft; otherwise an ExperimentError. */
async function lockDraft(tx: DbOrTx, key: string, doing: string) {
  const [experiment] = await tx.select().from(experiments).where(eq(experiments.key, key)).for("update");
  if (!experiment) throw new ExperimentError(`There is no experiment ${key}.`);
  if (experiment.status !== "draft")
    throw new ExperimentError(`Experiment ${key} is ${experiment.status}; only a draft can be ${doing}.`);
  return experiment;
}

/**
 * Rewrites a draft experiment from the same input as create (arms and scope replaced whole; the key may
 * change to one not taken), with its audit entry. A draft has no exposures or events yet.
 */
export async function updateExperiment(
  db: Db,
  actor: AuditActor,
  key: string,
  input: ExperimentInput,
): Promise<ExperimentWithArms> {
  return db.transaction(async (tx) => {
    const draft = await lockDraft(tx, key, "edited");
    if (input.key !== key) {
      const [taken] = await tx
        .select({ id: experiments.id })
        .from(experiments)
        .where(eq(experiments.key, input.key));
      if (taken) throw new ExperimentError(`An experiment with the key ${input.key} already exists.`);
    }
    const resolved = await resolveExperimentInput(tx, input);
    await tx
      .update(experiments)
      .set(experimentColumns(input, resolved.scopeSubjectId))
      .where(eq(experiments.id, draft.id));
    await tx.delete(arms).where(eq(arms.experimentId, draft.id));
    await tx.delete(experimentProposals).where(eq(experimentProposals.experimentId, draft.id));
    await insertArmsAndScope(tx, draft.id, input, resolved);
    await recordAudit(tx, actor, "experiment.update", `experiment ${input.key}`, {
      ...experimentDetail(input),
      ...(input.key !== key ? { previousKey: key } : {}),
    });
    return (await getExperiment(tx, input.key))!;
  });
}

/** Deletes a draft experiment (arms, scope and keys go with it by cascade), with its audit entry; others are refused. */
export async function deleteExperiment(db: Db, actor: AuditActor, key: string) {
  await db.transaction(async (tx) => {
    const draft = await lockDraft(tx, key, "deleted");
    await tx.delete(experiments).where(eq(experiments.id, draft.id));
    await recordAudit(tx, actor, "experiment.delete", `experiment ${key}`, { name: draft.name });
  });
}

/** A draft's stored choices in the create form's terms, to prefill the edit form. */
export async function experimentDraftInput(db: DbOrTx, experiment: ExperimentWithArms) {
  const [subject] = experiment.scopeSubjectId
    ? await db.select({ key: subjects.key }).from(subjects).where(eq(subjects.id, experiment.scopeSubjectId))
    : [];
  const listed = await db
    .select({ id: proposals.externalId })
    .from(experimentProposals)
    .innerJoin(proposals, eq(proposals.id, experimentProposals.proposalId))
    .where(eq(experimentProposals.experimentId, experiment.id))
    .orderBy(asc(proposals.externalId));
  return { subject: subject?.key ?? "", proposals: listed.map((p) => p.id) };
}

export async function getExperiment(db: DbOrTx, key: string): Promise<ExperimentWithArms | null> {
  const [experiment] = await db.select().from(experiments).where(eq(experiments.key, key));
  if (!experiment) return null;
  const armRows = await db
    .select({
      id: arms.id,
      key: arms.key,
      systemId: arms.systemId,
      systemKey: systems.key,
      weight: arms.weight,
      isControl: arms.isControl,
      position: arms.position,
    })
    .from(arms)
    .innerJoin(systems, eq(systems.id, arms.systemId))
    .where(eq(arms.experimentId, experiment.id))
    .orderBy(asc(arms.position));
  return { ...experiment, arms: armRows };
}

export async function listExperiments(db: DbOrTx) {
  return db
    .select({
      id: experiments.id,
      key: experiments.key,
      name: experiments.name,
      status: experiments.status,
      kind: experiments.kind,
      method: experiments.method,
      coverage: experiments.coverage,
      createdAt: experiments.createdAt,
      startedAt: experiments.startedAt,
      stoppedAt: experiments.stoppedAt,
      // Table-qualified on purpose: drizzle leaves columns unqualified in a select without joins.
      units: sql<number>`(select count(*)::int from exposures x where x.experiment_id = "experiments"."id")`,
      events: sql<number>`(select count(*)::int from events e where e.experiment_id = "experiments"."id")`,
    })
    .from(experiments)
    .orderBy(desc(experiments.createdAt));
}

/** draft → running → stopped; a stopped experiment is not restarted (create a new one). */
export async function setExperimentStatus(
  db: Db,
  actor: AuditActor,
  key: string,
  status: "running" | "stopped",
) {
  const from = status === "running" ? "draft" : "running";
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(experiments)
      .set(status === "running" ? { status, startedAt: sql`now()` } : { status, stoppedAt: sql`now()` })
      .where(and(eq(experiments.key, key), eq(experiments.status, from)))
      .returning({ id: experiments.id });
    if (row) {
      await recordAudit(
        tx,
        actor,
        status === "running" ? "experiment.start" : "experiment.stop",
        `experiment ${key}`,
      );
      return;
    }
    const experiment = await getExperiment(tx, key);
    if (!experiment) throw new ExperimentError(`There is no experiment ${key}.`);
    throw new ExperimentError(
      `Experiment ${key} is ${experiment.status}; only a ${from} experiment can be ${status === "running" ? "started" : "stopped"}.`,
    );
  });
}

/**
 * Runs a stopped experiment again. Its seed, arms and stored exposures are untouched, so every unit
 * keeps the arm it had (assignments stay sticky); events are accepted again from now on, and the audit
 * log says who restarted it.
 */
export async function restartExperiment(db: Db, actor: AuditActor, key: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(experiments)
      .set({ status: "running", stoppedAt: null })
      .where(and(eq(experiments.key, key), eq(experiments.status, "stopped")))
      .returning({ id: experiments.id });
    if (row) return recordAudit(tx, actor, "experiment.restart", `experiment ${key}`);
    const experiment = await getExperiment(tx, key);
    if (!experiment) throw new ExperimentError(`There is no experiment ${key}.`);
    throw new ExperimentError(
      `Experiment ${key} is ${experiment.status}; only a stopped experiment can be restarted.`,
    );
  });
}

export interface Assignment {
  arm: string;
  armId: number;
  system: string;
  /** False outside coverage or when the experiment is not running: the unit sees the control system and is not counted. */
  counted: boolean;
}

/** The arm GrowthBook's v2 hash gives a unit, or -1 outside coverage. */
export function hashedArmIndex(experiment: ExperimentWithArms, unit: string): number {
  return chooseArm(
    growthbookHash(experiment.seed, unit),
    bucketRanges(
      experiment.arms.map((a) => a.weight),
      experiment.coverage,
    ),
  );
}

/**
 * The arm `assignUnit` would give a unit, read only: the stored exposure, else the hashed arm, not
 * stored. A page shown by a GET uses it, since a GET (which another site can cause) writes nothing;
 * the first POST stores the exposure through `assignUnit`, which gives the same arm.
 */
export async function peekUnit(
  db: DbOrTx,
  experiment: ExperimentWithArms,
  unit: string,
): Promise<Assignment> {
  const control = experiment.arms.find((a) => a.isControl)!;
  const uncounted = { arm: control.key, armId: control.id, system: control.systemKey, counted: false };
  if (experiment.status !== "running") return uncounted;
  const [stored] = await db
    .select({ armId: exposures.armId })
    .from(exposures)
    .where(and(eq(exposures.experimentId, experiment.id), eq(exposures.unit, unit)));
  const index = hashedArmIndex(experiment, unit);
  const armId = stored?.armId ?? (index < 0 ? undefined : experiment.arms[index].id);
  const arm = experiment.arms.find((a) => a.id === armId);
  return arm ? { arm: arm.key, armId: arm.id, system: arm.systemKey, counted: true } : uncounted;
}

/**
 * A unit's arm in a running experiment: the first arm it was exposed to (stored, it sticks), else the
 * one GrowthBook's v2 hash gives, stored now. Outside coverage, or when the experiment is not
 * running, the control arm, neither stored nor counted.
 */
export async function assignUnit(
  db: DbOrTx,
  experiment: ExperimentWithArms,
  unit: string,
): Promise<Assignment> {
  const control = experiment.arms.find((a) => a.isControl)!;
  const uncounted = { arm: control.key, armId: control.id, system: control.systemKey, counted: false };
  if (experiment.status !== "running") return uncounted;
  const [stored] = await db
    .select({ armId: exposures.armId })
    .from(exposures)
    .where(and(eq(exposures.experimentId, experiment.id), eq(exposures.unit, unit)));
  let armId = stored?.armId;
  if (armId === undefined) {
    const index = hashedArmIndex(experiment, unit);
    if (index < 0) return uncounted;
    // Concurrent first exposures race to the insert; whichever lands, everyone reads it back.
    await db
      .insert(exposures)
      .values({ experimentId: experiment.id, unit, armId: experiment.arms[index].id })
      .onConflictDoNothing();
    const [row] = await db
      .select({ armId: exposures.armId })
      .from(exposures)
      .where(and(eq(exposures.experimentId, experiment.id), eq(exposures.unit, unit)));
    armId = row.armId;
  }
  const arm = experiment.arms.find((a) => a.id === armId)!;
  return { arm: arm.key, armId: arm.id, system: arm.systemKey, counted: true };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A new API key for an experiment, returned once. Keys are 192 random bits, so a SHA-256 of the key
 * (not a slow password hash) is enough to store: nobody can guess one from the table. The audit entry
 * names the key by id and prefix only.
 */
export async function createApiKey(
  db: Db,
  actor: AuditActor,
  experimentKey: string,
  options: { expiresAt?: Date } = {},
) {
  return db.transaction(async (tx) => {
    const experiment = await getExperiment(tx, experimentKey);
    if (!experiment) throw new ExperimentError(`There is no experiment ${experimentKey}.`);
    const key = `assay_${randomBytes(24).toString("base64url")}`;
    const [row] = await tx
      .insert(experimentApiKeys)
      .values({
        experimentId: experiment.id,
        prefix: key.slice(0, 12),
        hash: sha256(key),
        expiresAt: options.expiresAt ?? null,
      })
      .returning({ id: experimentApiKeys.id, prefix: experimentApiKeys.prefix });
    const detail = { keyId: row.id, prefix: row.prefix, expiresAt: options.expiresAt?.toISOString() ?? null };
    await recordAudit(tx, actor, "experiment.key.create", `experiment ${experiment.key}`, detail);
    return { id: row.id, prefix: row.prefix, key };
  });
}

/** Revokes one of an experiment's keys; revoking a key already revoked changes nothing and is not logged. */
export async function revokeApiKey(db: Db, actor: AuditActor, experimentId: number, keyId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(experimentApiKeys)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(experimentApiKeys.id, keyId),
          eq(experimentApiKeys.experimentId, experimentId),
          isNull(experimentApiKeys.revokedAt),
        ),
      )
      .returning({ prefix: experimentApiKeys.prefix });
    if (!row) return;
    const [experiment] = await tx
      .select({ key: experiments.key })
      .from(experiments)
      .where(eq(experiments.id, experimentId));
    await recordAudit(tx, actor, "experiment.key.revoke", `experiment ${experiment.key}`, {
      keyId,
      prefix: row.prefix,
    });
  });
}

export async function listApiKeys(db: DbOrTx, experimentId: number) {
  return db
    .select({
      id: experimentApiKeys.id,
      prefix: experimentApiKeys.prefix,
      createdAt: experimentApiKeys.createdAt,
      expiresAt: experimentApiKeys.expiresAt,
      revokedAt: experimentApiKeys.revokedAt,
    })
    .from(experimentApiKeys)
    .where(eq(experimentApiKeys.experimentId, experimentId))
    .orderBy(desc(experimentApiKeys.createdAt));
}

/** The experiment a presented key belongs to, or null when the key is unknown, revoked or expired. */
export async function experimentForApiKey(db: DbOrTx, key: string): Promise<ExperimentWithArms | null> {
  const [row] = await db
    .select({
      key: experiments.key,
      revokedAt: experimentApiKeys.revokedAt,
      expiresAt: experimentApiKeys.expiresAt,
    })
    .from(experimentApiKeys)
    .innerJoin(experiments, eq(experiments.id, experimentApiKeys.experimentId))
    .where(eq(experimentApiKeys.hash, sha256(key)));
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
  return getExperiment(db, row.key);
}
