import { and, arrayContains, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../platform/client";
import { recordAudit, type AuditActor } from "../audit/audit";
import {
  campaignAssignments,
  campaignExperts,
  campaignItems,
  campaignProposals,
  campaigns,
  campaignSystems,
  candidates,
  convenerAssignments,
  listItems,
  proposals,
  rankedLists,
  ratings,
  subjects,
  systems,
  userSubjects,
  users,
} from "../schema";
import type { CampaignInput } from "../../scripts/inputs/campaigns";
import { createRng, shuffled } from "../../scripts/lib/random";
import { conflictedExpertEmails } from "../catalog/conflicts";
import { assignmentCovers, assignmentPairCount, assignmentScoped, carryScope } from "./assignment-scope";

export class CampaignError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Creates a draft campaign (systems, proposals, invited experts) and its audit entry in one transaction. */
export async function createCampaign(db: Db, actor: AuditActor, input: CampaignInput) {
  return db.transaction(async (tx) => {
    const scope = await resolveCampaignInput(tx, input);
    const [campaign] = await tx
      .insert(campaigns)
      .values({
        name: input.name,
        instructions: input.instructions,
        poolDepth: input.depth,
        ratersPerProposal: input.raters,
        deadline: input.deadline ? new Date(input.deadline) : null,
      })
      .returning();
    await insertCampaignScope(tx, campaign.id, scope);
    await recordAudit(tx, actor, "campaign.create", `campaign ${campaign.id}`, scopeDetail(campaign, scope));
    return campaign;
  });
}

type CampaignScope = Awaited<ReturnType<typeof resolveCampaignInput>>;

const scopeDetail = (
  campaign: { name: string; poolDepth: number; ratersPerProposal: number },
  scope: CampaignScope,
) => ({
  name: campaign.name,
  systems: scope.systemRows.map((s) => s.key),
  depth: campaign.poolDepth,
  raters: campaign.ratersPerProposal,
  experts: scope.expertRows.length,
  proposals: scope.proposalRows.length,
});

/** The systems, experts and proposals an input names, or a CampaignError naming what does not exist. */
async function resolveCampaignInput(tx: DbOrTx, input: CampaignInput) {
  const systemRows = await tx
    .select({ id: systems.id, key: systems.key })
    .from(systems)
    .where(inArray(systems.key, input.systems));
  const missingSystems = input.systems.filter((k) => !systemRows.some((s) => s.key === k));
  if (missingSystems.length) throw new CampaignError(`Unknown system ${missingSystems.join(", ")}.`);
  const expertRows = await tx
    .select({ id: users.id, email: users.email, roles: users.roles })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        input.experts.map((e) => e.toLowerCase()),
      ),
    );
  const notExperts = input.experts.filter(
    (e) => !expertRows.some((u) => u.email.toLowerCase() === e.toLowerCase() && u.roles.includes("expert")),
  );
  if (notExperts.length) throw new CampaignError(`No expert has the email ${notExperts.join(", ")}.`);
  let proposalRows: { id: number }[];
  if (input.proposals?.length) {
    proposalRows = await tx
      .select({ id: proposals.id, externalId: proposals.externalId })
      .from(proposals)
      .where(inArray(proposals.externalId, input.proposals));
    if (proposalRows.length !== new Set(input.proposals).size)
      throw new CampaignError("Some listed proposals do not exist.");
  } else if (input.subject) {
    const [subject] = await tx
      .select({ id: subjects.id })
      .from(subjects)
      .where(eq(subjects.key, input.subject));
    if (!subject) throw new CampaignError(`Unknown subject ${input.subject}.`);
    proposalRows = await tx
      .select({ id: proposals.id })
      .from(proposals)
      .where(eq(proposals.subjectId, subject.id));
  } else proposalRows = await tx.select({ id: proposals.id }).from(proposals);
  if (proposalRows.length === 0) throw new CampaignError("The campaign has no proposals.");
  return { systemRows, expertRows, proposalRows };
}

async function insertCampaignScope(tx: DbOrTx, campaignId: number, scope: CampaignScope) {
  await tx.insert(campaignSystems).values(scope.systemRows.map((s) => ({ campaignId, systemId: s.id })));
  await tx
    .insert(campaignProposals)
    .values(scope.proposalRows.map((p) => ({ campaignId, proposalId: p.id })));
  await tx.insert(campaignExperts).values(scope.expertRows.map((u) => ({ campaignId, userId: u.id })));
}

/** The campaign, locked for the transaction, if it is still a draft; otherwise a CampaignError (404 or 409). */
async function lockDraft(tx: DbOrTx, campaignId: number, doing: string) {
  const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
  if (!campaign) throw new CampaignError(`There is no campaign ${campaignId}.`, 404);
  if (campaign.status !== "draft")
    throw new CampaignError(
      `Campaign ${campaign.name} is ${campaign.status}; only a draft can be ${doing}.`,
      409,
    );
  return campaign;
}

/** Rewrites a draft campaign from the same input as create (its scope replaced whole), with its audit entry. */
export async function updateCampaign(db: Db, actor: AuditActor, campaignId: number, input: CampaignInput) {
  return db.transaction(async (tx) => {
    await lockDraft(tx, campaignId, "edited");
    const scope = await resolveCampaignInput(tx, input);
    const [campaign] = await tx
      .update(campaigns)
      .set({
        name: input.name,
        instructions: input.instructions,
        poolDepth: input.depth,
        ratersPerProposal: input.raters,
        deadline: input.deadline ? new Date(input.deadline) : null,
      })
      .where(eq(campaigns.id, campaignId))
      .returning();
    // A draft has no items, assignments or grades yet, so its scope can be replaced whole.
    await tx.delete(campaignSystems).where(eq(campaignSystems.campaignId, campaignId));
    await tx.delete(campaignProposals).where(eq(campaignProposals.campaignId, campaignId));
    await tx.delete(campaignExperts).where(eq(campaignExperts.campaignId, campaignId));
    await insertCampaignScope(tx, campaignId, scope);
    await recordAudit(tx, actor, "campaign.update", `campaign ${campaignId}`, scopeDetail(campaign, scope));
    return campaign;
  });
}

/** Deletes a draft campaign (its scope goes with it by cascade), with its audit entry; a launched one is refused. */
export async function deleteCampaign(db: Db, actor: AuditActor, campaignId: number) {
  await db.transaction(async (tx) => {
    const campaign = await lockDraft(tx, campaignId, "deleted");
    await tx.delete(campaigns).where(eq(campaigns.id, campaignId));
    await recordAudit(tx, actor, "campaign.delete", `campaign ${campaignId}`, { name: campaign.name });
  });
}

/** A draft's stored choices in the create form's terms, to prefill the edit form. */
export async function campaignDraftInput(db: DbOrTx, campaignId: number) {
  const keys = await db
    .select({ key: systems.key })
    .from(campaignSystems)
    .innerJoin(systems, eq(systems.id, campaignSystems.systemId))
    .where(eq(campaignSystems.campaignId, campaignId))
    .orderBy(asc(systems.key));
  const emails = await db
    .select({ email: users.email })
    .from(campaignExperts)
    .innerJoin(users, eq(users.id, campaignExperts.userId))
    .where(eq(campaignExperts.campaignId, campaignId))
    .orderBy(asc(users.email));
  const ids = await db
    .select({ id: proposals.externalId })
    .from(campaignProposals)
    .innerJoin(proposals, eq(proposals.id, campaignProposals.proposalId))
    .where(eq(campaignProposals.campaignId, campaignId))
    .orderBy(asc(proposals.externalId));
  return {
    systems: keys.map((s) => s.key),
    experts: emails.map((e) => e.email),
    proposals: ids.map((p) => p.id),
  };
}

const colours = [
  "Amber",
  "Azure",
  "Coral",
  "Crimson",
  "Cobalt",
  "Copper",
  "Cyan",
  "Ember",
  "Fern",
  "Ginger",
  "Honey",
  "Indigo",
  "Ivory",
  "Jade",
  "Lilac",
  "Lime",
  "Maroon",
  "Mint",
  "Ochre",
  "Olive",
  "Pearl",
  "Plum",
  "Rust",
  "Sage",
  "Sand",
  "Slate",
  "Teal",
  "Umber",
];
const animals = [
  "Badger",
  "Bison",
  "Crane",
  "Dove",
  "Eagle",
  "Falcon",
  "Fox",
  "Gecko",
  "Hare",
  "Heron",
  "Ibis",
  "Jackal",
  "Koala",
  "Lark",
  "Lynx",
  "Marten",
  "Newt",
  "Otter",
  "Owl",
  "Panda",
  "Quail",
  "Raven",
  "Seal",
  "Stork",
  "Swift",
  "Tapir",
  "Vole",
  "Wren",
];

/**
 * Launch: build the pool and assign each proposal to exactly r experts, in one transaction under a
 * row lock on the campaign, so concurrent launches cannot double-assign. Experts whose subjects match
 * the proposal's are preferred, then the least loaded; an expert who is in the proposal's own pool
 * (same email, or a candidate external id equal to their email), or who is that candidate of a declared
 * conflict of interest with the proposal (`conflictedExpertEmails`), is never assigned it.
 */
export async function launchCampaign(db: Db, actor: AuditActor, campaignId: number) {
  return db.transaction(async (tx) => {
    const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
    if (!campaign) throw new CampaignError(`There is no campaign ${campaignId}.`, 404);
    if (campaign.status !== "draft")
      throw new CampaignError(`Campaign ${campaign.name} is already ${campaign.status}.`, 409);
    const { proposalRows, pooled } = await campaignPool(tx, campaign);
    const rng = createRng(`campaign-${campaignId}`);
    const items = poolItems(campaignId, proposalRows, pooled, rng);
    for (let i = 0; i < items.length; i += 5000)
      await tx.insert(campaignItems).values(items.slice(i, i + 5000));
    const experts = await launchExperts(tx, campaignId);
    const declared = await conflictedExpertEmails(
      tx,
      proposalRows.map((p) => p.id),
    );
    const assignments = assignRaters(campaign, proposalRows, pooled, experts, declared, rng);
    await tx.insert(campaignAssignments).values(assignments);
    await tx
      .update(campaigns)
      .set({ status: "running", launchedAt: sql`now()` })
      .where(eq(campaigns.id, campaignId));
    const launched = { name: campaign.name, items: items.length, assignments: assignments.length };
    await recordAudit(tx, actor, "campaign.launch", `campaign ${campaignId}`, launched);
    return { items: items.length, assignments: assignments.length };
  });
}

type LaunchRng = ReturnType<typeof createRng>;
type PoolProposal = Awaited<ReturnType<typeof campaignPool>>["proposalRows"][number];
type PooledCandidate = Awaited<ReturnType<typeof campaignPool>>["pooled"][number];
type LaunchExpert = Awaited<ReturnType<typeof launchExperts>>[number];

/** The campaign's proposals (by external id) and the candidates its systems rank in their top K of each. */
async function campaignPool(tx: DbOrTx, campaign: typeof campaigns.$inferSelect) {
  const systemIds = (
    await tx
      .select({ id: campaignSystems.systemId })
      .from(campaignSystems)
      .where(eq(campaignSystems.campaignId, campaign.id))
  ).map((s) => s.id);
  const proposalRows = await tx
    .select({ id: proposals.id, externalId: proposals.externalId, subjectId: proposals.subjectId })
    .from(campaignProposals)
    .innerJoin(proposals, eq(proposals.id, campaignProposals.proposalId))
    .where(eq(campaignProposals.campaignId, campaign.id))
    .orderBy(asc(proposals.externalId));
  const pooled = await tx
    .selectDistinct({
      proposalId: rankedLists.proposalId,
      candidateId: listItems.candidateId,
      email: candidates.email,
      externalId: candidates.externalId,
    })
    .from(listItems)
    .innerJoin(rankedLists, eq(rankedLists.id, listItems.listId))
    .innerJoin(candidates, eq(candidates.id, listItems.candidateId))
    .where(
      and(
        inArray(rankedLists.systemId, systemIds),
        inArray(
          rankedLists.proposalId,
          proposalRows.map((p) => p.id),
        ),
        eq(rankedLists.variant, "default"),
        sql`${listItems.rank} <= ${campaign.poolDepth}`,
      ),
    );
  return { proposalRows, pooled };
}

/** The pool's items, each candidate under a seeded animal alias, unique within its proposal. */
function poolItems(
  campaignId: number,
  proposalRows: PoolProposal[],
  pooled: PooledCandidate[],
  rng: LaunchRng,
) {
  const names = colours.flatMap((c) => animals.map((a) => `${c} ${a}`));
  const items: (typeof campaignItems.$inferInsert)[] = [];
  for (const p of proposalRows) {
    const pool = pooled.filter((x) => x.proposalId === p.id).sort((a, b) => a.candidateId - b.candidateId);
    const aliases = shuffled(names, rng);
    pool.forEach((x, i) =>
      items.push({ campaignId, proposalId: p.id, candidateId: x.candidateId, alias: aliases[i] }),
    );
  }
  return items;
}

/** The campaign's active experts, by id, with the subjects each has declared. */
async function launchExperts(tx: DbOrTx, campaignId: number) {
  const experts = await tx
    .select({ id: users.id, email: users.email })
    .from(campaignExperts)
    .innerJoin(users, eq(users.id, campaignExperts.userId))
    .where(and(eq(campaignExperts.campaignId, campaignId), eq(users.active, true)))
    .orderBy(asc(users.id));
  const subjectsOf = new Map<number, Set<number>>();
  for (const s of await tx
    .select()
    .from(userSubjects)
    .where(inArray(userSubjects.userId, experts.map((e) => e.id).concat(-1)))) {
    if (!subjectsOf.has(s.userId)) subjectsOf.set(s.userId, new Set());
    subjectsOf.get(s.userId)!.add(s.subjectId);
  }
  return experts.map((e) => ({ ...e, subjects: subjectsOf.get(e.id) }));
}

/**
 * Each proposal, in a seeded order, to r eligible experts: those of its subject first, then the least
 * loaded, then a seeded tiebreak. Too few eligible experts for a proposal refuses the launch.
 */
function assignRaters(
  campaign: typeof campaigns.$inferSelect,
  proposalRows: PoolProposal[],
  pooled: PooledCandidate[],
  experts: LaunchExpert[],
  declared: Awaited<ReturnType<typeof conflictedExpertEmails>>,
  rng: LaunchRng,
) {
  const campaignId = campaign.id;
  const load = new Map(experts.map((e) => [e.id, 0]));
  const assignments: (typeof campaignAssignments.$inferInsert)[] = [];
  for (const p of shuffled(proposalRows, rng)) {
    const pool = pooled.filter((x) => x.proposalId === p.id);
    const conflicted = (e: { email: string }) =>
      declared.get(p.id)?.has(e.email.toLowerCase()) ||
      pool.some(
        (x) =>
          x.email?.toLowerCase() === e.email.toLowerCase() ||
          x.externalId.toLowerCase() === e.email.toLowerCase(),
      );
    const eligible = experts.filter((e) => !conflicted(e));
    if (eligible.length < campaign.ratersPerProposal) {
      throw new CampaignError(
        `Proposal ${p.externalId} has only ${eligible.length} eligible expert${eligible.length === 1 ? "" : "s"} for ${campaign.ratersPerProposal} raters; invite more experts or lower the raters per proposal.`,
      );
    }
    const tiebreak = new Map(eligible.map((e) => [e.id, rng.next()]));
    const chosen = eligible
      .sort((a, b) => {
        const ma = a.subjects?.has(p.subjectId ?? -1) ? 1 : 0;
        const mb = b.subjects?.has(p.subjectId ?? -1) ? 1 : 0;
        return mb - ma || load.get(a.id)! - load.get(b.id)! || tiebreak.get(a.id)! - tiebreak.get(b.id)!;
      })
      .slice(0, campaign.ratersPerProposal);
    for (const e of chosen) {
      load.set(e.id, load.get(e.id)! + 1);
      assignments.push({
        campaignId,
        proposalId: p.id,
        expertId: e.id,
        seed: `${campaignId}:${p.id}:${e.id}:${rng.nextUint32()}`,
      });
    }
  }
  return assignments;
}

/** Closes a running campaign: grades can no longer change. */
export async function closeCampaign(db: Db, actor: AuditActor, campaignId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ status: "closed", closedAt: sql`now()` })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "running")))
      .returning({ name: campaigns.name });
    if (!row) throw new CampaignError("Only a running campaign can be closed.", 409);
    await recordAudit(tx, actor, "campaign.close", `campaign ${campaignId}`, { name: row.name });
  });
}

/**
 * Reopens a closed campaign: its experts can grade again where they left off (assignments, grades and
 * adjudications are kept as they were), and the audit log says who reopened it.
 */
export async function reopenCampaign(db: Db, actor: AuditActor, campaignId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ status: "running", closedAt: null })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "closed")))
      .returning({ name: campaigns.name });
    if (!row) throw new CampaignError("Only a closed campaign can be reopened.", 409);
    await recordAudit(tx, actor, "campaign.reopen", `campaign ${campaignId}`, { name: row.name });
  });
}

export async function listCampaigns(db: DbOrTx) {
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      status: campaigns.status,
      poolDepth: campaigns.poolDepth,
      raters: campaigns.ratersPerProposal,
      deadline: campaigns.deadline,
      // Table-qualified on purpose: drizzle leaves columns unqualified in a select without joins.
      proposals: sql<number>`(select count(*)::int from campaign_proposals cp where cp.campaign_id = "campaigns"."id")`,
      items: sql<number>`(select count(*)::int from campaign_items ci where ci.campaign_id = "campaigns"."id")`,
      ratings: sql<number>`(select count(*)::int from ratings r join campaign_assignments a on a.id = r.assignment_id where a.campaign_id = "campaigns"."id")`,
    })
    .from(campaigns)
    .orderBy(desc(campaigns.createdAt));
}

/** An expert's own assignments with progress; nothing about other experts. */
export async function expertAssignments(db: DbOrTx, expertId: number) {
  return db
    .select({
      id: campaignAssignments.id,
      campaign: campaigns.name,
      status: campaigns.status,
      deadline: campaigns.deadline,
      instructions: campaigns.instructions,
      proposal: proposals.title,
      finishedAt: campaignAssignments.finishedAt,
      total: assignmentPairCount(campaignAssignments),
      graded: sql<number>`(select count(*)::int from ${ratings} r where r.assignment_id = ${campaignAssignments.id})`,
    })
    .from(campaignAssignments)
    .innerJoin(campaigns, eq(campaigns.id, campaignAssignments.campaignId))
    .innerJoin(proposals, eq(proposals.id, campaignAssignments.proposalId))
    .where(
      and(
        eq(campaignAssignments.expertId, expertId),
        eq(campaignAssignments.active, true),
        inArray(campaigns.status, ["running", "closed"]),
      ),
    )
    .orderBy(asc(campaigns.id), asc(proposals.externalId));
}

async function ownAssignment(db: DbOrTx, expertId: number, assignmentId: number) {
  const [a] = await db
    .select({
      id: campaignAssignments.id,
      campaignId: campaignAssignments.campaignId,
      proposalId: campaignAssignments.proposalId,
      seed: campaignAssignments.seed,
      finishedAt: campaignAssignments.finishedAt,
      status: campaigns.status,
      campaign: campaigns.name,
      instructions: campaigns.instructions,
      deadline: campaigns.deadline,
      // A person may be a convener and an expert at once: one never grades a proposal they convene,
      // even when made its convener after launch (launch and reassignment already keep them off it).
      convenes: sql<boolean>`exists (select 1 from ${convenerAssignments} ca where ca.user_id = ${expertId} and ca.proposal_id = ${campaignAssignments.proposalId})`,
    })
    .from(campaignAssignments)
    .innerJoin(campaigns, eq(campaigns.id, campaignAssignments.campaignId))
    .where(
      and(
        eq(campaignAssignments.id, assignmentId),
        eq(campaignAssignments.expertId, expertId),
        eq(campaignAssignments.active, true),
      ),
    );
  // Someone else's assignment looks exactly like a missing one.
  if (!a || a.status === "draft") throw new CampaignError("There is no such assignment of yours.", 404);
  if (a.convenes)
    throw new CampaignError(
      "You convene this proposal, so you cannot grade it; ask an admin to reassign it.",
      403,
    );
  return a;
}

/**
 * The blind task: the proposal, and each pooled candidate as a card with its alias, expertise keywords
 * and public summary only, in an order shuffled from the assignment's stored seed (stable across
 * reloads, different between experts). Never a name, affiliation, id, score, rank or system.
 */
export async function taskView(db: DbOrTx, expertId: number, assignmentId: number) {
  const a = await ownAssignment(db, expertId, assignmentId);
  const [proposal] = await db
    .select({
      title: proposals.title,
      abstract: proposals.abstract,
      keywords: proposals.keywords,
      subject: subjects.name,
    })
    .from(proposals)
    .leftJoin(subjects, eq(subjects.id, proposals.subjectId))
    .where(eq(proposals.id, a.proposalId));
  const items = await db
    .select({
      id: campaignItems.id,
      alias: campaignItems.alias,
      keywords: candidates.keywords,
      summary: candidates.summary,
    })
    .from(campaignItems)
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .where(
      and(
        eq(campaignItems.campaignId, a.campaignId),
        eq(campaignItems.proposalId, a.proposalId),
        assignmentCovers(a.id),
      ),
    )
    .orderBy(asc(campaignItems.id));
  const cards = shuffled(items, createRng(a.seed));
  const saved = await db
    .select({ itemId: ratings.itemId, grade: ratings.grade, rationale: ratings.rationale })
    .from(ratings)
    .where(eq(ratings.assignmentId, a.id));
  const byItem = new Map(saved.map((r) => [r.itemId, r]));
  return {
    assignment: {
      id: a.id,
      campaign: a.campaign,
      instructions: a.instructions,
      deadline: a.deadline,
      editable: a.status === "running",
      finished: a.finishedAt !== null,
      finishedAt: a.finishedAt,
    },
    proposal,
    cards: cards.map((c, i) => ({
      ...c,
      position: i + 1,
      grade: byItem.has(c.id) ? (byItem.get(c.id)!.grade ?? "cant") : null,
      rationale: byItem.get(c.id)?.rationale ?? "",
    })),
  };
}

/** Saves one grade (an upsert: one grade per expert and pair, whatever the retries). */
export async function saveGrade(
  db: Db,
  expertId: number,
  assignmentId: number,
  g: {
    item: number;
    grade: "1" | "2" | "3" | "4" | "cant";
    rationale: string;
    position: number;
    timeSpentMs: number;
  },
) {
  const a = await ownAssignment(db, expertId, assignmentId);
  if (a.status !== "running")
    throw new CampaignError("This campaign is closed; grades can no longer change.", 409);
  const [item] = await db
    .select({
      id: campaignItems.id,
      alias: campaignItems.alias,
      covered: sql<boolean>`${assignmentCovers(a.id)}`,
    })
    .from(campaignItems)
    .where(
      and(
        eq(campaignItems.id, g.item),
        eq(campaignItems.campaignId, a.campaignId),
        eq(campaignItems.proposalId, a.proposalId),
      ),
    );
  if (!item) throw new CampaignError("That card is not part of this assignment.", 404);
  // A pair of the proposal outside a scoped assignment: named by its alias, which is all an expert sees.
  if (!item.covered)
    throw new CampaignError(
      `Card ${item.alias} is not one of the pairs this assignment asks you to grade.`,
      403,
    );
  const grade = g.grade === "cant" ? null : Number(g.grade);
  await db
    .insert(ratings)
    .values({
      assignmentId: a.id,
      itemId: item.id,
      grade,
      rationale: g.rationale,
      position: g.position,
      timeSpentMs: g.timeSpentMs,
    })
    .onConflictDoUpdate({
      target: [ratings.assignmentId, ratings.itemId],
      set: {
        grade,
        rationale: g.rationale,
        position: g.position,
        timeSpentMs: sql`${ratings.timeSpentMs} + ${g.timeSpentMs}`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Marks an assignment finished once every card it covers has a grade (a scoped one: its pairs only); a
 * second Finish changes nothing.
 */
export async function finishAssignment(db: Db, expertId: number, assignmentId: number) {
  const view = await taskView(db, expertId, assignmentId);
  const missing = view.cards.filter((c) => c.grade === null).length;
  if (missing > 0)
    throw new CampaignError(`${missing} card${missing === 1 ? " is" : "s are"} not graded yet.`, 409);
  // Finishing twice (a Back button, a second tab) keeps the first date rather than moving it.
  await db
    .update(campaignAssignments)
    .set({ finishedAt: sql`now()` })
    .where(and(eq(campaignAssignments.id, assignmentId), isNull(campaignAssignments.finishedAt)));
}

export async function getCampaign(db: DbOrTx, id: number) {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return campaign ?? null;
}

/** Progress per expert (names are for admins only) and the raw grades for agreement. */
export async function campaignProgress(db: DbOrTx, campaignId: number) {
  const perExpert = await db
    .select({
      expertId: users.id,
      name: users.name,
      assignments: sql<number>`count(*)::int`,
      finished: sql<number>`count(${campaignAssignments.finishedAt})::int`,
      graded: sql<number>`(select count(*)::int from ${ratings} r join ${campaignAssignments} a2 on a2.id = r.assignment_id where a2.expert_id = ${users.id} and a2.campaign_id = ${campaignId})`,
      total: sql<number>`sum(${assignmentPairCount(campaignAssignments)})::int`,
    })
    .from(campaignAssignments)
    .innerJoin(users, eq(users.id, campaignAssignments.expertId))
    .where(eq(campaignAssignments.campaignId, campaignId))
    .groupBy(users.id, users.name)
    .orderBy(asc(users.name));
  const grades = await db
    .select({ itemId: ratings.itemId, expertId: campaignAssignments.expertId, grade: ratings.grade })
    .from(ratings)
    .innerJoin(campaignAssignments, eq(campaignAssignments.id, ratings.assignmentId))
    .where(eq(campaignAssignments.campaignId, campaignId));
  return { perExpert, grades };
}

/** Assignments per proposal with progress, for the monitor (admins only). */
export async function proposalProgress(db: DbOrTx, campaignId: number) {
  return db
    .select({
      assignmentId: campaignAssignments.id,
      proposal: proposals.externalId,
      expertId: users.id,
      expert: users.name,
      finishedAt: campaignAssignments.finishedAt,
      graded: sql<number>`(select count(*)::int from ${ratings} r where r.assignment_id = ${campaignAssignments.id})`,
      total: assignmentPairCount(campaignAssignments),
      scoped: assignmentScoped(campaignAssignments.id),
    })
    .from(campaignAssignments)
    .innerJoin(proposals, eq(proposals.id, campaignAssignments.proposalId))
    .innerJoin(users, eq(users.id, campaignAssignments.expertId))
    .where(and(eq(campaignAssignments.campaignId, campaignId), eq(campaignAssignments.active, true)))
    .orderBy(asc(proposals.externalId), asc(users.name));
}

/**
 * Who may take over each proposal's work: active users with the role expert who have no active
 * assignment on that proposal in this campaign and are not in its pool (same email, or a candidate
 * external id equal to their email: launch's conflict rule) nor conflicted with it by a declared
 * conflict of interest. Names are for admins only. `keepBusy` keeps those with an active assignment on
 * the proposal (more grades of chosen pairs may extend an expert's scoped assignment).
 */
export async function eligibleExperts(
  db: DbOrTx,
  campaignId: number,
  proposalIds: number[],
  { keepBusy = false }: { keepBusy?: boolean } = {},
) {
  const experts = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(arrayContains(users.roles, ["expert"]), eq(users.active, true)))
    .orderBy(asc(users.name), asc(users.id));
  const ids = proposalIds.concat(-1);
  const taken = await db
    .select({ proposalId: campaignAssignments.proposalId, expertId: campaignAssignments.expertId })
    .from(campaignAssignments)
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        eq(campaignAssignments.active, true),
        inArray(campaignAssignments.proposalId, ids),
      ),
    );
  const pooled = await db
    .select({
      proposalId: campaignItems.proposalId,
      email: sql<string | null>`lower(${candidates.email})`,
      externalId: sql<string>`lower(${candidates.externalId})`,
    })
    .from(campaignItems)
    .innerJoin(candidates, eq(candidates.id, campaignItems.candidateId))
    .where(and(eq(campaignItems.campaignId, campaignId), inArray(campaignItems.proposalId, ids)));
  const declared = await conflictedExpertEmails(db, proposalIds);
  const eligible = new Map<number, { id: number; name: string }[]>();
  for (const proposalId of proposalIds) {
    const busy = new Set(
      keepBusy ? [] : taken.filter((a) => a.proposalId === proposalId).map((a) => a.expertId),
    );
    const conflicted = new Set([
      ...pooled.filter((x) => x.proposalId === proposalId).flatMap((x) => [x.email, x.externalId]),
      ...(declared.get(proposalId) ?? []),
    ]);
    eligible.set(
      proposalId,
      experts
        .filter((e) => !busy.has(e.id) && !conflicted.has(e.email.toLowerCase()))
        .map((e) => ({ id: e.id, name: e.name })),
    );
  }
  return eligible;
}

/** Each unfinished active assignment of a running campaign with the experts it can be reassigned to. */
export async function reassignChoices(db: DbOrTx, campaignId: number) {
  const open = await db
    .select({ assignmentId: campaignAssignments.id, proposalId: campaignAssignments.proposalId })
    .from(campaignAssignments)
    .innerJoin(campaigns, eq(campaigns.id, campaignAssignments.campaignId))
    .where(
      and(
        eq(campaignAssignments.campaignId, campaignId),
        eq(campaignAssignments.active, true),
        isNull(campaignAssignments.finishedAt),
        eq(campaigns.status, "running"),
      ),
    );
  const eligible = await eligibleExperts(db, campaignId, [...new Set(open.map((a) => a.proposalId))]);
  return new Map(open.map((a) => [a.assignmentId, eligible.get(a.proposalId) ?? []]));
}

/**
 * Locks a campaign's row for the rest of the transaction and refuses (409, `refusal`) unless it is
 * running: work handed out on a campaign that another request is closing would never be graded.
 */
export async function lockRunningCampaign(tx: Tx, campaignId: number, refusal: string): Promise<void> {
  const [campaign] = await tx
    .select({ status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .for("update");
  if (campaign?.status !== "running") throw new CampaignError(refusal, 409);
}

/**
 * Gives a stalled (unfinished) assignment of a running campaign to an eligible expert (`eligibleExperts`),
 * in one transaction: the old one stops being active (its grades stay, as raw history), the proposal
 * keeps exactly r active raters, and the new expert joins the campaign's invited experts.
 */
export async function reassign(
  db: Db,
  actor: AuditActor,
  campaignId: number,
  assignmentId: number,
  expertId: number,
) {
  return db.transaction(async (tx) => {
    await lockRunningCampaign(tx, campaignId, "Only a running campaign's work can be reassigned.");
    const [old] = await tx
      .select()
      .from(campaignAssignments)
      .where(
        and(
          eq(campaignAssignments.id, assignmentId),
          eq(campaignAssignments.campaignId, campaignId),
          eq(campaignAssignments.active, true),
        ),
      );
    if (!old) throw new CampaignError("That assignment is not active in this campaign.", 404);
    if (old.finishedAt)
      throw new CampaignError("That assignment is finished; only unfinished work can be reassigned.", 409);
    const [expert] = await tx
      .select({ name: users.name, roles: users.roles, active: users.active })
      .from(users)
      .where(eq(users.id, expertId));
    if (!expert || !expert.roles.includes("expert") || !expert.active)
      throw new CampaignError("Only an active expert can take over an assignment.");
    const eligible = (await eligibleExperts(tx, campaignId, [old.proposalId])).get(old.proposalId)!;
    if (!eligible.some((e) => e.id === expertId)) {
      throw new CampaignError(
        `${expert.name} cannot take this proposal: they already have it or are in its pool (conflict of interest).`,
      );
    }
    await tx.insert(campaignExperts).values({ campaignId, userId: expertId }).onConflictDoNothing();
    const [already] = await tx
      .select({ id: campaignAssignments.id })
      .from(campaignAssignments)
      .where(
        and(
          eq(campaignAssignments.campaignId, campaignId),
          eq(campaignAssignments.proposalId, old.proposalId),
          eq(campaignAssignments.expertId, expertId),
        ),
      );
    await tx.update(campaignAssignments).set({ active: false }).where(eq(campaignAssignments.id, old.id));
    // An expert once moved off this proposal gets their old assignment (and grades) back rather than a second one.
    if (already)
      await tx
        .update(campaignAssignments)
        .set({ active: true })
        .where(eq(campaignAssignments.id, already.id));
    const [taker] = already
      ? [already]
      : await tx
          .insert(campaignAssignments)
          .values({
            campaignId,
            proposalId: old.proposalId,
            expertId,
            seed: `${old.seed}:reassigned:${expertId}`,
          })
          .returning({ id: campaignAssignments.id });
    // A scoped assignment (more grades of chosen pairs) passes on its pairs, not the whole pool.
    await carryScope(tx, old.id, taker.id, !already);
    const [proposal] = await tx
      .select({ externalId: proposals.externalId })
      .from(proposals)
      .where(eq(proposals.id, old.proposalId));
    await recordAudit(tx, actor, "campaign.reassign", `campaign ${campaignId}`, {
      assignmentId,
      proposal: proposal.externalId,
      fromExpertId: old.expertId,
      toExpertId: expertId,
    });
  });
}
