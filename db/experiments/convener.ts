import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../platform/client";
import { serverKey } from "../platform/server-keys";
import {
  candidates,
  committeeMembers,
  convenerAssignments,
  convenerSessions,
  events,
  experimentProposals,
  experiments,
  listItems,
  proposals,
  rankedLists,
  subjects,
  users,
} from "../schema";
import { assignUnit, getExperiment, peekUnit, type ExperimentWithArms } from "./experiments";
import { teamDraft } from "../../scripts/interleaving/team-draft";
import { teamDraftMultileave } from "../../scripts/interleaving/multileave";
import { probabilisticInterleave } from "../../scripts/interleaving/probabilistic";

export class ConvenerError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** The randomization unit of a convener: stable, and not their email. */
export const unitOf = (userId: number) => `convener-${userId}`;

/**
 * The convener's proposals with the state of their latest session (any experiment): "to do" until
 * the convener acts, "in progress" once they have (opened a profile, adopted, removed, or reopened a
 * finished committee), "finished" after Finish; `members` are the names of that session's committee in
 * adoption order, so a finished committee stays visible after Finish. A page view's impression (the
 * page's POST) opens a session but is not progress, so a visit leaves it "to do".
 */
export async function myProposals(db: Db, userId: number) {
  const latest = sql`(select s.id from ${convenerSessions} s where s.user_id = ${userId} and s.proposal_id = ${proposals.id} order by s.created_at desc, s.id desc limit 1)`;
  const rows = await db
    .select({
      externalId: proposals.externalId,
      title: proposals.title,
      subject: subjects.name,
      status: sql<
        "open" | "finished" | null
      >`(select s.status::text from ${convenerSessions} s where s.id = ${latest})`,
      members: sql<
        string[]
      >`coalesce((select array_agg(c.name order by m.adopted_at, c.id) from ${committeeMembers} m join ${candidates} c on c.id = m.candidate_id where m.session_id = ${latest}), '{}')`,
      // An action: a committee member, a logged click/adopt/unadopt, or an earlier session (a reopen).
      acted: sql<boolean>`(exists (select 1 from ${committeeMembers} m where m.session_id = ${latest})
        or exists (select 1 from ${events} e join ${convenerSessions} s on s.id = e.session_id and s.experiment_id = e.experiment_id and s.unit = e.unit
          where s.id = ${latest} and e.type <> 'impression')
        or (select count(*) from ${convenerSessions} s where s.user_id = ${userId} and s.proposal_id = ${proposals.id}) > 1)`,
    })
    .from(convenerAssignments)
    .innerJoin(proposals, eq(proposals.id, convenerAssignments.proposalId))
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(eq(convenerAssignments.userId, userId))
    .orderBy(asc(proposals.externalId));
  return rows.map(({ status, members, acted, ...p }) => ({
    ...p,
    finished: status === "finished",
    started: status !== null && acted,
    members,
    committee: members.length,
  }));
}

/** The most recently started running experiment whose scope includes the proposal. */
export async function experimentForProposal(
  db: Db | Tx,
  proposal: { id: number; subjectId: number | null },
): Promise<ExperimentWithArms | null> {
  const [row] = await db
    .select({ key: experiments.key })
    .from(experiments)
    .where(
      and(
        eq(experiments.status, "running"),
        sql`(${experiments.scope} = 'all'
          or (${experiments.scope} = 'subject' and ${experiments.scopeSubjectId} = ${proposal.subjectId})
          or (${experiments.scope} = 'list' and exists (select 1 from ${experimentProposals} ep where ep.experiment_id = ${experiments.id} and ep.proposal_id = ${proposal.id})))`,
      ),
    )
    .orderBy(desc(experiments.startedAt))
    .limit(1);
  return row ? getExperiment(db, row.key) : null;
}

async function assignedProposal(db: Db | Tx, userId: number, externalId: string) {
  const [row] = await db
    .select({
      id: proposals.id,
      externalId: proposals.externalId,
      title: proposals.title,
      abstract: proposals.abstract,
      keywords: proposals.keywords,
      subjectId: proposals.subjectId,
      subject: subjects.name,
    })
    .from(convenerAssignments)
    .innerJoin(proposals, eq(proposals.id, convenerAssignments.proposalId))
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(and(eq(convenerAssignments.userId, userId), eq(proposals.externalId, externalId)));
  if (!row) throw new ConvenerError(`Proposal ${externalId} is not assigned to you.`, 403);
  return row;
}

type ListItem = Awaited<ReturnType<typeof listFor>>[number];

async function listFor(db: Db | Tx, systemId: number, proposalId: number) {
  return db
    .select({
      rank: listItems.rank,
      candidateId: candidates.id,
      externalId: candidates.externalId,
      name: candidates.name,
      affiliation: candidates.affiliation,
      keywords: candidates.keywords,
      summary: candidates.summary,
      // A declared conflict of interest with this proposal: its reason ("" when none was given), null when there is none.
      conflict: sql<
        string | null
      >`(select c.reason from conflicts c where c.proposal_id = ${proposalId} and c.candidate_id = ${candidates.id})`,
    })
    .from(listItems)
    .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
    .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
    .where(
      and(
        eq(rankedLists.systemId, systemId),
        eq(rankedLists.proposalId, proposalId),
        eq(rankedLists.variant, "default"),
      ),
    )
    .orderBy(asc(listItems.rank));
}

/**
 * The list a session shows, with the system that placed each position (`teams`, null in an A/B
 * experiment). In an interleaving experiment it is the team-draft merge of the control's and the
 * challenger's lists (with multileaving, of every arm's list; with probabilistic interleaving, drawn
 * from their softmax rankers), its coins seeded by (experiment seed, session id), so every load of one session
 * shows the same list; it is as long as the longest list, and `rank` is the position shown
 * (a system's own rank would tell which system placed whom). Units outside coverage see the control's list. The teams stay on the server: the caller
 * logs them and never hands them to the page.
 */
async function sessionList(
  tx: Db | Tx,
  experiment: ExperimentWithArms,
  session: { id: string; arm: string },
  proposalId: number,
  counted: boolean,
): Promise<{ list: ListItem[]; teams: string[] | null }> {
  // Units outside coverage see the control arm's system, as in an A/B experiment.
  if (experiment.kind !== "interleaving" || !counted) {
    const systemId = experiment.arms.find((a) => a.key === session.arm)!.systemId;
    return { list: await listFor(tx, systemId, proposalId), teams: null };
  }
  // The control first, then the others in the order they were given: the systems' order in a multileave.
  const systems = [...experiment.arms].sort((a, b) => Number(b.isControl) - Number(a.isControl));
  const lists: ListItem[][] = [];
  for (const arm of systems) lists.push(await listFor(tx, arm.systemId, proposalId));
  const byId = new Map(lists.flat().map((c) => [c.externalId, c]));
  const ids = lists.map((l) => l.map((c) => c.externalId));
  const draw = {
    depth: Math.max(1, ...ids.map((l) => l.length)),
    seed: experiment.seed,
    sessionId: session.id,
  };
  const merged =
    experiment.method === "multileaving"
      ? teamDraftMultileave(
          systems.map((a, i) => ({ system: a.systemKey, list: ids[i] })),
          draw,
        )
      : (experiment.method === "probabilistic" ? probabilisticInterleave : teamDraft)(ids[0], ids[1], {
          ...draw,
          systems: [systems[0].systemKey, systems[1].systemKey],
        });
  return { list: merged.items.map((id, i) => ({ ...byId.get(id)!, rank: i + 1 })), teams: merged.teams };
}

async function logEvent(
  tx: Tx,
  experiment: ExperimentWithArms,
  session: { id: string; unit: string; arm: string },
  proposal: string,
  type: string,
  extra: { candidateId?: string; items?: string[]; teams?: string[] | null; eventId?: string },
) {
  // An event id given by the caller (a page view's) is logged once: a replay meets the unique key.
  const inserted = await tx
    .insert(events)
    .values({
      eventId: extra.eventId ?? randomUUID(),
      experimentId: experiment.id,
      type,
      at: new Date().toISOString(),
      arm: session.arm,
      unit: session.unit,
      sessionId: session.id,
      proposalId: proposal,
      candidateId: extra.candidateId ?? null,
      items: extra.items ?? null,
      teams: extra.teams ?? null,
    })
    .onConflictDoNothing()
    .returning({ eventId: events.eventId });
  return inserted.length > 0;
}

/**
 * A page view of a session, as the page carries it until it reports itself shown: a random view id
 * (the impression's event id) and an HMAC of it with the session id under the database's key. Only
 * the server can make one, a view of one session is not one of another (a reopened committee is a new
 * session), and its impression is logged once.
 */
function viewToken(key: Buffer, sessionId: string, viewId: string = randomUUID()) {
  return `${viewId}.${createHmac("sha256", key).update(`${sessionId}:${viewId}`).digest("base64url")}`;
}

/** The database's key for page views and first sessions, made on first use (a one-time row). */
async function viewKey(db: Db | Tx) {
  return Buffer.from(await serverKey(db, "convener-views"), "hex");
}

/**
 * The id of the convener's first session on a proposal in an experiment, derived from the three under
 * the database's key rather than drawn: the page, shown by a GET before the session exists, and the
 * first POST, which creates it, agree on it, and with it on an interleaved list's coins. Nobody
 * without the key can predict it. Later sessions (a reopen) are drawn at random.
 */
function firstSessionId(key: Buffer, experimentId: number, userId: number, proposalId: number) {
  const h = createHmac("sha256", key).update(`session:${experimentId}:${userId}:${proposalId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

async function viewIdOf(tx: Tx, sessionId: string, token: string): Promise<string | null> {
  const viewId = token.split(".")[0];
  const expected = Buffer.from(viewToken(await viewKey(tx), sessionId, viewId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? viewId : null;
}

/** The latest finished session of the convener on the proposal in this experiment, with its committee. */
async function finishedCommittee(tx: Tx, experimentId: number, userId: number, proposalId: number) {
  const [session] = await tx
    .select({ id: convenerSessions.id, finishedAt: convenerSessions.finishedAt })
    .from(convenerSessions)
    .where(
      and(
        eq(convenerSessions.experimentId, experimentId),
        eq(convenerSessions.userId, userId),
        eq(convenerSessions.proposalId, proposalId),
        eq(convenerSessions.status, "finished"),
      ),
    )
    .orderBy(desc(convenerSessions.finishedAt), desc(convenerSessions.createdAt))
    .limit(1);
  if (!session) return null;
  const members = await tx
    .select({
      candidateId: candidates.id,
      externalId: candidates.externalId,
      name: candidates.name,
      affiliation: candidates.affiliation,
    })
    .from(committeeMembers)
    .innerJoin(candidates, eq(candidates.id, committeeMembers.candidateId))
    .where(eq(committeeMembers.sessionId, session.id))
    .orderBy(asc(committeeMembers.adoptedAt), asc(candidates.id));
  return { finishedAt: session.finishedAt?.toISOString() ?? null, members };
}

/** The convener's open session on a proposal in an experiment (at most one: a unique index). */
function openSessionOf(tx: Db | Tx, experimentId: number, userId: number, proposalId: number) {
  return tx
    .select()
    .from(convenerSessions)
    .where(
      and(
        eq(convenerSessions.experimentId, experimentId),
        eq(convenerSessions.userId, userId),
        eq(convenerSessions.proposalId, proposalId),
        eq(convenerSessions.status, "open"),
      ),
    );
}

/**
 * What a GET shows of the convener's session on a proposal, read only: the open session, or, when
 * there is none and nothing was finished, the first session as its first POST will create it (its
 * derived id, the arm `assignUnit` will store). A finished committee comes back as `finished`.
 */
async function shownSession(tx: Tx, key: Buffer, userId: number, externalId: string) {
  const proposal = await assignedProposal(tx, userId, externalId);
  const experiment = await experimentForProposal(tx, proposal);
  if (!experiment) return { proposal, experiment: null } as const;
  const [open] = await openSessionOf(tx, experiment.id, userId, proposal.id);
  const assignment = await peekUnit(tx, experiment, open?.unit ?? unitOf(userId));
  if (!open) {
    const finished = await finishedCommittee(tx, experiment.id, userId, proposal.id);
    if (finished) return { proposal, experiment, finished, counted: assignment.counted } as const;
  }
  const session = open ?? {
    id: firstSessionId(key, experiment.id, userId, proposal.id),
    arm: assignment.arm,
  };
  const { list } = await sessionList(tx, experiment, session, proposal.id, assignment.counted);
  const committee = open
    ? await tx
        .select({ candidateId: committeeMembers.candidateId })
        .from(committeeMembers)
        .where(eq(committeeMembers.sessionId, open.id))
        .orderBy(asc(committeeMembers.adoptedAt))
    : [];
  const members = committee.map((c) => c.candidateId);
  return { proposal, experiment, session, list, committee: members, counted: assignment.counted } as const;
}

/**
 * The proposal page: the convener's open session, or the one their first action will open, with the
 * list it shows. Read only (the transaction is `read only`, so PostgreSQL refuses any write): a GET,
 * which another site can cause, creates no session, exposure or event. The page posts its impression
 * once shown, and that POST (or the first adopt, click or finish) creates the session and stores the
 * exposure (`lockedSession`). Once the convener has finished, the page shows that finished committee
 * read-only: a new session starts only through `reopenProposal`, never by going Back. Units outside
 * coverage see the control system and nothing is logged for them.
 */
export async function openProposal(db: Db, userId: number, externalId: string) {
  const key = await viewKey(db);
  return db.transaction(
    async (tx) => {
      const shown = await shownSession(tx, key, userId, externalId);
      const none = { list: [] as ListItem[], committee: [] as number[], session: null, view: null };
      if (!shown.experiment)
        return {
          proposal: shown.proposal,
          experiment: null,
          cap: 5,
          counted: false,
          finished: null,
          ...none,
        };
      const experiment = { key: shown.experiment.key, name: shown.experiment.name };
      const cap = shown.experiment.committeeCap;
      if ("finished" in shown)
        return {
          ...none,
          proposal: shown.proposal,
          experiment,
          cap,
          counted: shown.counted,
          finished: shown.finished,
        };
      return {
        proposal: shown.proposal,
        experiment,
        session: { id: shown.session.id },
        // The page posts it back once shown (recordImpression): a GET itself logs nothing.
        view: shown.counted && shown.list.length > 0 ? viewToken(key, shown.session.id) : null,
        list: shown.list,
        committee: shown.committee,
        cap,
        counted: shown.counted,
        finished: null,
      };
    },
    { accessMode: "read only" },
  );
}

/**
 * Reopens a finished proposal: starts a new session holding the committee last finished, so the
 * convener edits what they saved rather than starting over. No adopt events are logged for the
 * members carried over: the online metrics read a session's committee from its own events, and the
 * convener adopted those people in the finished session, where they are already counted. The
 * impression is logged when the page loads the new session. Reopening while a session is open
 * changes nothing, so a double click starts one session.
 */
export async function reopenProposal(db: Db, userId: number, externalId: string) {
  return db.transaction(async (tx) => {
    const proposal = await assignedProposal(tx, userId, externalId);
    const experiment = await experimentForProposal(tx, proposal);
    if (!experiment) throw new ConvenerError("No experiment is running for this proposal.", 409);
    const id = randomUUID();
    const started = await insertSession(tx, experiment, userId, proposal.id, id);
    if (started) await carryCommittee(tx, experiment.id, userId, proposal.id, id);
    return { started };
  });
}

/**
 * Inserts a session of the convener on a proposal, in the arm their unit is (or now gets) assigned, so
 * every session of a unit stays in one arm. Nothing when the id exists or the convener already has an
 * open session there (a unique index): whether it was inserted.
 */
async function insertSession(
  tx: Tx,
  experiment: ExperimentWithArms,
  userId: number,
  proposalId: number,
  id: string,
): Promise<boolean> {
  const unit = unitOf(userId);
  const { arm } = await assignUnit(tx, experiment, unit);
  const inserted = await tx
    .insert(convenerSessions)
    .values({ id, experimentId: experiment.id, userId, proposalId, unit, arm })
    .onConflictDoNothing()
    .returning({ id: convenerSessions.id });
  return inserted.length > 0;
}

/** The convener's most recently finished session on a proposal (none before a Finish). */
function lastFinishedSession(tx: Tx, experimentId: number, userId: number, proposalId: number) {
  return tx
    .select({ id: convenerSessions.id })
    .from(convenerSessions)
    .where(
      and(
        eq(convenerSessions.experimentId, experimentId),
        eq(convenerSessions.userId, userId),
        eq(convenerSessions.proposalId, proposalId),
        eq(convenerSessions.status, "finished"),
      ),
    )
    .orderBy(desc(convenerSessions.finishedAt), desc(convenerSessions.createdAt))
    .limit(1);
}

/** Copies the latest finished session's committee, in its adoption order, into a new session. */
async function carryCommittee(
  tx: Tx,
  experimentId: number,
  userId: number,
  proposalId: number,
  into: string,
) {
  const [last] = await lastFinishedSession(tx, experimentId, userId, proposalId);
  if (!last) return;
  const members = await tx
    .select({ candidateId: committeeMembers.candidateId, adoptedAt: committeeMembers.adoptedAt })
    .from(committeeMembers)
    .where(eq(committeeMembers.sessionId, last.id))
    .orderBy(asc(committeeMembers.adoptedAt), asc(committeeMembers.candidateId));
  if (members.length > 0)
    await tx.insert(committeeMembers).values(members.map((m) => ({ sessionId: into, ...m })));
}

/** The open session, locked for this transaction, with the list it shows. */
async function lockedSession(tx: Tx, userId: number, externalId: string) {
  const proposal = await assignedProposal(tx, userId, externalId);
  const experiment = await experimentForProposal(tx, proposal);
  if (!experiment) throw new ConvenerError("No experiment is running for this proposal.", 409);
  const [open] = await openSessionOf(tx, experiment.id, userId, proposal.id).for("update");
  const session = open ?? (await startFirstSession(tx, experiment, userId, proposal.id));
  const counted = (await assignUnit(tx, experiment, session.unit)).counted;
  const { list, teams } = await sessionList(tx, experiment, session, proposal.id, counted);
  return { proposal, experiment, session, list, teams, counted };
}

const FINISHED = "This proposal's committee is finished; reopen the proposal to start again.";

/**
 * Creates the convener's first session on a proposal, on their first POST (the page's impression, or
 * an adopt, click or finish): the exposure and the session with the id the page was shown with, in the
 * caller's transaction. Two first POSTs at once insert the same id, so one session is made. After a
 * finished committee only `reopenProposal` starts another.
 */
async function startFirstSession(tx: Tx, experiment: ExperimentWithArms, userId: number, proposalId: number) {
  const [finished] = await lastFinishedSession(tx, experiment.id, userId, proposalId);
  if (finished) throw new ConvenerError(FINISHED, 409);
  await insertSession(
    tx,
    experiment,
    userId,
    proposalId,
    firstSessionId(await viewKey(tx), experiment.id, userId, proposalId),
  );
  const [session] = await openSessionOf(tx, experiment.id, userId, proposalId).for("update");
  if (!session) throw new ConvenerError(FINISHED, 409);
  return session;
}

function candidateIn(list: ListItem[], externalId: string) {
  const candidate = list.find((c) => c.externalId === externalId);
  if (!candidate) throw new ConvenerError(`Candidate ${externalId} is not in this proposal's list.`, 404);
  return candidate;
}

/**
 * A candidate's profile with the session's committee, so the page can adopt or remove. Reading it
 * records nothing and creates no session (a read-only transaction, as `openProposal`): a page load is
 * a GET, which another site can cause (a link, a top-level navigation), so the click is recorded
 * apart, by `recordProfileClick` from a checked POST, which opens the session if none is open yet.
 */
export async function openProfile(db: Db, userId: number, proposal: string, candidate: string) {
  const key = await viewKey(db);
  return db.transaction(
    async (tx) => {
      const shown = await shownSession(tx, key, userId, proposal);
      if (!shown.experiment) throw new ConvenerError("No experiment is running for this proposal.", 409);
      if ("finished" in shown) throw new ConvenerError(FINISHED, 409);
      return {
        proposal: shown.proposal,
        candidate: candidateIn(shown.list, candidate),
        committee: shown.committee,
        cap: shown.experiment.committeeCap,
      };
    },
    { accessMode: "read only" },
  );
}

/**
 * The proposal page was shown: its impression (the list in the order shown, with the teams of an
 * interleaving), logged at most once per page view. `token` is the view the page was rendered with;
 * one the server did not make for this open session is refused. Answers whether it was logged now.
 */
export async function recordImpression(db: Db, userId: number, proposal: string, token: string) {
  return db.transaction(async (tx) => {
    const s = await lockedSession(tx, userId, proposal);
    const viewId = await viewIdOf(tx, s.session.id, token);
    if (!viewId) throw new ConvenerError("This page view is not one Assay showed: reload the page.", 400);
    if (!s.counted || s.list.length === 0) return false;
    return logEvent(tx, s.experiment, s.session, s.proposal.externalId, "impression", {
      items: s.list.map((c) => c.externalId),
      teams: s.teams,
      eventId: viewId,
    });
  });
}

/** The convener opened a candidate's profile from the list: a click, logged in the open session. */
export async function recordProfileClick(db: Db, userId: number, proposal: string, candidate: string) {
  await db.transaction(async (tx) => {
    const s = await lockedSession(tx, userId, proposal);
    const c = candidateIn(s.list, candidate);
    if (s.counted)
      await logEvent(tx, s.experiment, s.session, s.proposal.externalId, "click", {
        candidateId: c.externalId,
      });
  });
}

/**
 * Adopts a candidate into the committee, up to the experiment's cap. The session row is locked, so
 * two tabs adopting at once are served one after the other and never exceed the cap.
 */
export async function adopt(db: Db, userId: number, proposal: string, candidate: string) {
  return db.transaction(async (tx) => {
    const s = await lockedSession(tx, userId, proposal);
    const c = candidateIn(s.list, candidate);
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(committeeMembers)
      .where(eq(committeeMembers.sessionId, s.session.id));
    const already = await tx
      .select()
      .from(committeeMembers)
      .where(
        and(eq(committeeMembers.sessionId, s.session.id), eq(committeeMembers.candidateId, c.candidateId)),
      );
    if (already.length) return;
    if (n >= s.experiment.committeeCap)
      throw new ConvenerError(
        `The committee is full (${n} of ${s.experiment.committeeCap}); remove someone first.`,
        409,
      );
    await tx.insert(committeeMembers).values({ sessionId: s.session.id, candidateId: c.candidateId });
    if (s.counted)
      await logEvent(tx, s.experiment, s.session, s.proposal.externalId, "adopt", {
        candidateId: c.externalId,
      });
  });
}

/** Removes a candidate from the open committee; logs `unadopt` only when someone was removed. */
export async function unadopt(db: Db, userId: number, proposal: string, candidate: string) {
  return db.transaction(async (tx) => {
    const s = await lockedSession(tx, userId, proposal);
    const c = candidateIn(s.list, candidate);
    const removed = await tx
      .delete(committeeMembers)
      .where(
        and(eq(committeeMembers.sessionId, s.session.id), eq(committeeMembers.candidateId, c.candidateId)),
      )
      .returning();
    if (removed.length && s.counted)
      await logEvent(tx, s.experiment, s.session, s.proposal.externalId, "unadopt", {
        candidateId: c.externalId,
      });
  });
}

/**
 * Finishes the open session; the committee stays as it is and is shown read-only from then on. An A/B
 * experiment's session logs `finish` (the guardrails' time to finish and empty committees); an
 * interleaved one does not, since its credit counts every non-impression event as about a candidate.
 */
export async function finish(db: Db, userId: number, proposal: string) {
  return db.transaction(async (tx) => {
    const s = await lockedSession(tx, userId, proposal);
    await tx
      .update(convenerSessions)
      .set({ status: "finished", finishedAt: sql`now()` })
      .where(eq(convenerSessions.id, s.session.id));
    if (s.counted && s.experiment.kind === "ab")
      await logEvent(tx, s.experiment, s.session, s.proposal.externalId, "finish", {});
  });
}

export async function assignProposals(db: Db | Tx, pairs: { userId: number; proposalId: number }[]) {
  if (pairs.length === 0) return 0;
  const inserted = await db.insert(convenerAssignments).values(pairs).onConflictDoNothing().returning();
  return inserted.length;
}

export async function convenerIdsByEmail(db: Db, emails: string[]) {
  const rows = await db
    .select({ id: users.id, email: users.email, roles: users.roles })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        emails.map((e) => e.toLowerCase()),
      ),
    );
  return new Map(rows.filter((r) => r.roles.includes("convener")).map((r) => [r.email.toLowerCase(), r.id]));
}

/** The candidate ids of the convener's open committee on a proposal, in adoption order. */
export async function committeeOf(db: Db, userId: number, externalId: string): Promise<number[]> {
  const rows = await db
    .select({ candidateId: committeeMembers.candidateId })
    .from(committeeMembers)
    .innerJoin(convenerSessions, eq(convenerSessions.id, committeeMembers.sessionId))
    .innerJoin(proposals, eq(proposals.id, convenerSessions.proposalId))
    .where(
      and(
        eq(convenerSessions.userId, userId),
        eq(proposals.externalId, externalId),
        eq(convenerSessions.status, "open"),
      ),
    )
    .orderBy(asc(committeeMembers.adoptedAt));
  return rows.map((r) => r.candidateId);
}
