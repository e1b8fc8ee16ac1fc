import type { Submission } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { listSubjects, listSystems } from "~/data/catalog.server";
import {
  campaignDraftInput,
  CampaignError,
  closeCampaign,
  deleteCampaign,
  getCampaign,
  launchCampaign,
  reassign,
  reassignChoices,
  reopenCampaign,
  updateCampaign,
} from "~/data/campaigns.server";
import {
  BadLinkError,
  createInvitation,
  DuplicateEmailError,
  INVITE_LIFETIME_DAYS,
  listInvitations,
  listUsers,
  resendInvitation,
  revokeInvitation,
} from "~/data/accounts.server";
import { mailInvitation } from "~/mail/mail.server";
import { InvitationsTable, InviteForm } from "~/components/admin/invitations";
import { adjudicate, pairDetails, requestMoreGrades } from "~/data/campaigns.server";
import { attachTruth, listTruth, removeTruth } from "~/data/campaigns.server";
import { campaignDashboard } from "~/results/dashboards.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { plural } from "~/utils/format";
import { parseId, parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import {
  ComparisonSentence,
  DisagreementQueue,
  LearningCurveTable,
  SubjectNdcgTable,
  SystemResultsTable,
} from "~/components/campaign-tables";
import { AgreementSection, AssignmentProgress, ExpertProgress } from "~/components/admin/campaign-progress";
import { CampaignStatusForm, EditDraftPanel } from "~/components/admin/campaign-draft";
import { ActionNotice } from "~/components/form-parts";
import { GoldFigures } from "~/components/gold-figures";
import { NeedsGradeTable } from "~/components/needs-grade-table";
import { CampaignExports } from "~/components/campaign-exports";
import { GoldItemsPanel } from "~/components/admin/gold-items";
import { campaignPageSchema, type CampaignPageForm } from "../../scripts/inputs/campaigns";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent, refuse } from "~/forms/forms.server";
import { Badge, statusTone } from "~/components/badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campaign.name ?? "Campaign"} · Assay` },
];

async function load(raw: string | undefined) {
  const campaign = await getCampaign(getDb(), parseId(raw, "campaign"));
  if (!campaign) throw json({ message: `There is no campaign with id ${raw}.` }, { status: 404 });
  return campaign;
}

/** Which disagreements the queue shows, and which page of them. */
const queueQuery = z.object({
  queue: z
    .enum(["unresolved", "adjudicated", "all"], {
      errorMap: () => ({ message: "queue must be unresolved, adjudicated or all" }),
    })
    .default("unresolved"),
  page: z.coerce
    .number({ invalid_type_error: "page must be a number" })
    .int("page must be a whole number")
    .min(1, "page must be 1 or more")
    .default(1),
});
const QUEUE_PAGE = 20;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { queue: show, page } = parseQuery(request, queueQuery);
  const { queue, ...dashboard } = await campaignDashboard(params.campaignId, { names: true });
  const db = getDb();
  const campaignId = dashboard.campaign.id;
  // Unresolved pairs wait for a decision; adjudicated ones are set aside under their own filter.
  const counts = {
    unresolved: queue.filter((p) => p.adjudicated === null).length,
    adjudicated: queue.filter((p) => p.adjudicated !== null).length,
    all: queue.length,
  };
  const shown = queue.filter((p) => show === "all" || (show === "adjudicated") === (p.adjudicated !== null));
  const pageCount = Math.max(1, Math.ceil(shown.length / QUEUE_PAGE));
  const pageRows = shown.slice((page - 1) * QUEUE_PAGE, page * QUEUE_PAGE);
  const details = await pairDetails(
    db,
    campaignId,
    pageRows.map((p) => p.itemId),
  );
  const choices = await reassignChoices(db, campaignId);
  return json({
    ...dashboard,
    assignments: dashboard.assignments.map((a) => ({ ...a, choices: choices.get(a.assignmentId) ?? null })),
    disagreements: {
      show,
      page,
      pageCount,
      counts,
      rows: pageRows.map((p) => {
        const d = details.get(p.itemId);
        return {
          ...p,
          title: d?.title ?? p.proposal,
          candidateName: d?.candidateName ?? p.candidate,
          note: d?.note ?? null,
        };
      }),
    },
    draft: dashboard.campaign.status === "draft" ? await draftForm(campaignId, dashboard.campaign) : null,
    truth: await listTruth(db, campaignId),
    invitations: await listInvitations(db, { campaignId }),
    inviteDays: INVITE_LIFETIME_DAYS,
  });
}

/** The edit form of a draft: its stored values and the choices the create form offers. */
async function draftForm(
  campaignId: number,
  campaign: {
    name: string;
    instructions: string;
    poolDepth: number;
    ratersPerProposal: number;
    deadline: Date | null;
  },
) {
  const db = getDb();
  const [stored, systems, subjects, users] = await Promise.all([
    campaignDraftInput(db, campaignId),
    listSystems(db),
    listSubjects(db),
    listUsers(db),
  ]);
  return {
    initial: {
      ...stored,
      name: campaign.name,
      instructions: campaign.instructions,
      depth: campaign.poolDepth,
      raters: campaign.ratersPerProposal,
      deadline: campaign.deadline ? campaign.deadline.toISOString().slice(0, 10) : "",
    },
    systems: systems.map((s) => s.key),
    subjects,
    experts: users
      .filter((u) => u.roles.includes("expert") && u.active)
      .map((u) => ({ email: u.email, name: u.name })),
  };
}

/** One handler per form of the page, by its intent; each answers in the one form-answer shape. */
function campaignHandlers(
  submission: Submission<CampaignPageForm>,
  admin: Awaited<ReturnType<typeof requireAdmin>>,
  campaignId: number,
) {
  const db = getDb();
  const done = (intent: CampaignPageForm["intent"], sentence: string) =>
    answer(submission, intent, { done: sentence });
  return {
    update: async ({ intent, ...input }: FormOf<"update">) => {
      await updateCampaign(db, admin, campaignId, input);
      return answer(submission, intent, { done: "Draft saved." });
    },
    delete: async () => {
      await deleteCampaign(db, admin, campaignId);
      return redirect("/admin/campaigns");
    },
    launch: async ({ intent }: FormOf<"launch">) => {
      const result = await launchCampaign(db, admin, campaignId);
      return done(intent, `Launched: ${result.items} pairs to grade, ${result.assignments} assignments.`);
    },
    close: async ({ intent }: FormOf<"close">) => {
      await closeCampaign(db, admin, campaignId);
      return done(
        intent,
        "Closed: grades can no longer change. Reopen the campaign to let experts grade again.",
      );
    },
    reopen: async ({ intent }: FormOf<"reopen">) => {
      await reopenCampaign(db, admin, campaignId);
      return done(intent, "Reopened: experts can grade again where they left off.");
    },
    reassign: async ({ intent, assignment, expert }: FormOf<"reassign">) => {
      await reassign(db, admin, campaignId, assignment, expert);
      return done(intent, "Reassigned.");
    },
    adjudicate: async ({ intent, item, grade, note }: FormOf<"adjudicate">) => {
      await adjudicate(db, admin, campaignId, item, grade, note);
      return done(intent, "Adjudicated: the final grade replaces the median for this pair.");
    },
    "attach-truth": async ({ intent, ...pair }: FormOf<"attach-truth">) => {
      const counts = await attachTruth(db, admin, campaignId, pair);
      const what = counts.added ? "attached" : counts.updated ? "changed" : "unchanged";
      return done(
        intent,
        `Gold item ${pair.proposal} / ${pair.candidate} ${what}: known grade ${pair.grade}.`,
      );
    },
    "request-grades": async ({ intent, items, top, raters }: FormOf<"request-grades">) => {
      const result = await requestMoreGrades(db, admin, campaignId, items.slice(0, top), raters);
      return done(
        intent,
        `Asked for ${plural(raters, "more grade")} on ${plural(result.pairs, "pair")}: ${plural(result.assignments, "new assignment")} over ${plural(result.proposals, "proposal")}${result.extended ? `, ${plural(result.extended, "assignment")} given more pairs` : ""}, each for the chosen pairs only.`,
      );
    },
    "remove-truth": async ({ intent, item }: FormOf<"remove-truth">) => {
      await removeTruth(db, admin, campaignId, item);
      return done(
        intent,
        "Gold item removed: the pair is graded as before, no longer scored against a known grade.",
      );
    },
  };
}

type FormOf<Intent extends CampaignPageForm["intent"]> = Extract<CampaignPageForm, { intent: Intent }>;

/**
 * The campaign's invitations: experts only, linked to this campaign so that accepting puts the person
 * on its expert pool. Without SMTP the link is shown once (`link`), as on the invitations page.
 */
function invitationHandlers(
  submission: Submission<CampaignPageForm>,
  admin: Awaited<ReturnType<typeof requireAdmin>>,
  campaignId: number,
  request: Request,
) {
  const db = getDb();
  return {
    invite: async ({ intent, email }: FormOf<"invite">) => {
      const invite = await createInvitation(db, admin, { email, roles: ["expert"], campaignId });
      const link = await mailInvitation(request, email, invite.token);
      const done = `Invited ${email} as an expert of this campaign.`;
      return answer(submission, intent, { resetForm: true, done }, { link });
    },
    resend: async ({ intent, id }: FormOf<"resend">) => {
      const invite = await resendInvitation(db, admin, id);
      const link = await mailInvitation(request, invite.email, invite.token);
      return answer(submission, intent, { done: `Sent a new link to ${invite.email}.` }, { link });
    },
    revoke: async ({ intent, id }: FormOf<"revoke">) => {
      await revokeInvitation(db, admin, id);
      return answer(submission, intent, { done: "The invitation is revoked." }, { link: null });
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const campaign = await load(params.campaignId);
  const submission = parseForm(await request.formData(), campaignPageSchema);
  try {
    return await dispatchIntent(submission, {
      ...campaignHandlers(submission, admin, campaign.id),
      ...invitationHandlers(submission, admin, campaign.id, request),
    });
  } catch (error) {
    if (error instanceof DuplicateEmailError)
      return answer(submission, "invite" as const, {
        status: 400,
        fieldErrors: { email: [`${error.message} Choose them among the experts of the draft instead.`] },
      });
    if (error instanceof BadLinkError)
      return refuse(submission, null, "This invitation was already accepted or does not exist.", 409);
    if (error instanceof CampaignError) {
      const intent = submission.status === "success" ? submission.value.intent : null;
      return refuse(submission, intent, error.message, error.status);
    }
    throw error;
  }
}

/** The campaign's own invitations: experts invited here join its pool once they accept. */
function CampaignInvitations() {
  const { campaign, invitations, inviteDays } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const link = data && "link" in data ? (data.link as string | null) : null;
  return (
    <section aria-label="Invitations to this campaign">
      {link ? (
        <p className="notice" role="status">
          No SMTP_URL is set, so the mail is in .data/outbox. The link (works once): <code>{link}</code>
        </p>
      ) : null}
      <InviteForm answer={data} campaign={campaign.name} />
      <InvitationsTable invitations={invitations} inviteDays={inviteDays} answer={data} />
    </section>
  );
}

export default function CampaignPage() {
  const {
    campaign,
    perExpert,
    agreement,
    results,
    disagreements,
    curve,
    needsGrade,
    assignments,
    draft,
    gold,
    truth,
    goldProgress,
    goldStale,
  } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <p>
        <Link to="/admin/campaigns">← Campaigns</Link>
      </p>
      <h1>
        {campaign.name} <Badge tone={statusTone(campaign.status)}>{campaign.status}</Badge>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.ratersPerProposal} raters per proposal
        {campaign.deadline ? `, deadline ${new Date(campaign.deadline).toISOString().slice(0, 10)}` : ""}.
      </p>
      <ActionNotice answer={data} inPlace={["update", "attach-truth", "request-grades"]} />
      <CampaignStatusForm
        status={campaign.status}
        name={campaign.name}
        perExpert={perExpert}
        answer={data}
        busy={busy}
      />
      {draft ? <EditDraftPanel draft={draft} name={campaign.name} answer={data} busy={busy} /> : null}
      <ExpertProgress perExpert={perExpert} />
      <CampaignInvitations />
      <AssignmentProgress assignments={assignments} />
      <AgreementSection agreement={agreement} />
      {results ? (
        <>
          <h2>Results on the aggregated labels</h2>
          <SystemResultsTable results={results} label="Results by system" />
          <SubjectNdcgTable results={results} />
          <ComparisonSentence results={results} />
        </>
      ) : null}
      <DisagreementQueue {...disagreements} />
      {campaign.status === "running" ? <NeedsGradeTable rows={needsGrade} answer={data} busy={busy} /> : null}
      {curve.length ? (
        <>
          <h2>Label learning curve</h2>
          <p className="muted">
            How often a label from n raters equals the label from all of them, and how well the systems'
            nDCG@10 order under n raters matches the order under all (Kendall τ).
          </p>
          <LearningCurveTable curve={curve} />
        </>
      ) : null}
      {campaign.status !== "draft" ? (
        <>
          <GoldFigures
            gold={gold}
            progress={goldProgress}
            stale={goldStale}
            empty="No gold items: import a truth file or attach grades below."
          />
          <GoldItemsPanel truth={truth} busy={busy} answer={data} />
          <CampaignExports campaignId={campaign.id} />
        </>
      ) : null}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
