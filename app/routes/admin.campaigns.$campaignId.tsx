import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
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
  updateCampaign,
} from "~/data/campaigns.server";
import { listUsers } from "~/data/accounts.server";
import { adjudicate, pairDetails } from "~/data/campaigns.server";
import { attachTruth, listTruth, removeTruth } from "~/data/campaigns.server";
import { campaignDashboard } from "~/utils/dashboards.server";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { toId } from "../../scripts/inputs/ids";
import { parseId, parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import {
  ComparisonSentence,
  DisagreementQueue,
  LearningCurveTable,
  SubjectNdcgTable,
  SystemResultsTable,
} from "~/components/campaign-tables";
import { CampaignFields, readCampaignForm } from "~/components/admin/campaign-form";
import { DeleteDraft } from "~/components/admin/delete-draft";
import { ActionNotice } from "~/components/form-parts";
import { GoldFigures } from "~/components/gold-figures";
import { GoldItemsPanel } from "~/components/admin/gold-items";
import { CsrfInput } from "~/utils/csrf";
import { formatCi, formatCount, formatNumber } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";

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

/** The form that attaches a known grade to a pooled pair (a gold item). */
const truthForm = z.object({
  proposal: z
    .string({ required_error: "Give the proposal's id." })
    .trim()
    .min(1, "Give the proposal's id.")
    .max(200, "The proposal id is longer than 200 characters."),
  candidate: z
    .string({ required_error: "Give the candidate's id." })
    .trim()
    .min(1, "Give the candidate's id.")
    .max(200, "The candidate id is longer than 200 characters."),
  grade: z.coerce
    .number({ invalid_type_error: "Choose a known grade from 1 to 4." })
    .int("Choose a known grade from 1 to 4.")
    .min(1, "Choose a known grade from 1 to 4.")
    .max(4, "Choose a known grade from 1 to 4."),
});

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
      .filter((u) => u.role === "expert" && u.active)
      .map((u) => ({ email: u.email, name: u.name })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const campaign = await load(params.campaignId);
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "update") {
      const input = readCampaignForm(form);
      if (!input.success)
        return json(
          { error: input.error.issues.map((i) => i.message).join("; "), done: null },
          { status: 400 },
        );
      await updateCampaign(getDb(), admin, campaign.id, input.data);
      return json({ error: null, done: "Draft saved." });
    }
    if (intent === "delete") {
      await deleteCampaign(getDb(), admin, campaign.id);
      return redirect("/admin/campaigns");
    }
    if (intent === "reassign") {
      const assignment = toId(String(form.get("assignment") ?? ""));
      const expert = toId(String(form.get("expert") ?? ""));
      if (assignment === null || expert === null)
        return json({ error: "Choose the expert who takes over.", done: null }, { status: 400 });
      await reassign(getDb(), admin, campaign.id, assignment, expert);
      return json({ error: null, done: "Reassigned." });
    }
    if (intent === "adjudicate") {
      const grade = Number(form.get("grade"));
      const item = toId(String(form.get("item") ?? ""));
      const note = String(form.get("note") ?? "").slice(0, 2000);
      if (![1, 2, 3, 4].includes(grade) || item === null)
        return json({ error: "Choose a final grade from 1 to 4.", done: null }, { status: 400 });
      await adjudicate(getDb(), admin, campaign.id, item, grade as 1 | 2 | 3 | 4, note);
      return json({ error: null, done: "Adjudicated: the final grade replaces the median for this pair." });
    }
    if (intent === "attach-truth") {
      const input = truthForm.safeParse(
        Object.fromEntries(["proposal", "candidate", "grade"].map((k) => [k, form.get(k) ?? undefined])),
      );
      if (!input.success)
        return json(
          { error: input.error.issues.map((i) => i.message).join(" "), done: null },
          { status: 400 },
        );
      const counts = await attachTruth(getDb(), admin, campaign.id, input.data);
      const what = counts.added ? "attached" : counts.updated ? "changed" : "unchanged";
      return json({
        error: null,
        done: `Gold item ${input.data.proposal} / ${input.data.candidate} ${what}: known grade ${input.data.grade}.`,
      });
    }
    if (intent === "remove-truth") {
      const item = toId(String(form.get("item") ?? ""));
      if (item === null)
        return json({ error: "Choose the gold item to remove.", done: null }, { status: 400 });
      await removeTruth(getDb(), admin, campaign.id, item);
      return json({
        error: null,
        done: "Gold item removed: the pair is graded as before, no longer scored against a known grade.",
      });
    }
    if (intent === "launch") {
      const result = await launchCampaign(getDb(), admin, campaign.id);
      return json({
        error: null,
        done: `Launched: ${result.items} pairs to grade, ${result.assignments} assignments.`,
      });
    }
    if (intent === "close") {
      await closeCampaign(getDb(), admin, campaign.id);
      return json({ error: null, done: "Closed: grades can no longer change." });
    }
    return json({ error: "That request was not understood.", done: null }, { status: 400 });
  } catch (error) {
    if (error instanceof CampaignError)
      return json({ error: error.message, done: null }, { status: error.status });
    throw error;
  }
}

/** Agreement figures through the one formatting module (three significant digits). */
const num = (v: number | null | undefined) => formatNumber(v);

export default function CampaignPage() {
  const { campaign, perExpert, agreement, results, disagreements, curve, assignments, draft, gold, truth } =
    useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <p>
        <Link to="/admin/campaigns">← Campaigns</Link>
      </p>
      <h1>
        {campaign.name} <span className="badge">{campaign.status}</span>
      </h1>
      <p className="muted">
        Pool depth {campaign.poolDepth}, {campaign.ratersPerProposal} raters per proposal
        {campaign.deadline ? `, deadline ${new Date(campaign.deadline).toISOString().slice(0, 10)}` : ""}.
      </p>
      <ActionNotice error={data?.error} done={data?.done} />
      <Form method="post" className="toolbar">
        <CsrfInput />
        {campaign.status === "draft" ? (
          <button type="submit" name="intent" value="launch" disabled={busy}>
            Launch campaign
          </button>
        ) : null}
        {campaign.status === "running" ? (
          <button type="submit" name="intent" value="close" className="button-danger" disabled={busy}>
            Close campaign
          </button>
        ) : null}
      </Form>
      {draft ? (
        <section className="panel admin-form-panel" aria-labelledby="edit-draft">
          <h2 id="edit-draft">Edit this draft</h2>
          <Form method="post">
            <CsrfInput />
            <CampaignFields
              systems={draft.systems}
              subjects={draft.subjects}
              experts={draft.experts}
              initial={draft.initial}
            />
            <button type="submit" name="intent" value="update" disabled={busy}>
              Save draft
            </button>
          </Form>
          <DeleteDraft what={`campaign ${campaign.name}`} />
        </section>
      ) : null}
      <h2>Progress per expert</h2>
      {perExpert.length === 0 ? (
        <div className="empty">Nobody is assigned yet: launch the campaign.</div>
      ) : (
        <TableScroll label="Progress per expert">
          <table aria-label="Progress per expert">
            <thead>
              <tr>
                <th>Expert</th>
                <th className="num">Proposals</th>
                <th className="num">Finished</th>
                <th className="num">Graded</th>
              </tr>
            </thead>
            <tbody>
              {perExpert.map((e) => (
                <tr key={e.expertId}>
                  <td>{e.name}</td>
                  <td className="num">{e.assignments}</td>
                  <td className="num">{e.finished}</td>
                  <td className="num">
                    {e.graded} / {e.total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {assignments.length ? (
        <details>
          <summary>Progress per proposal ({assignments.length} assignments); reassign a stalled one</summary>
          <TableScroll label="Progress per proposal">
            <table aria-label="Progress per proposal">
              <thead>
                <tr>
                  <th>Proposal</th>
                  <th>Expert</th>
                  <th className="num">Graded</th>
                  <th>Reassign to</th>
                </tr>
              </thead>
              <tbody>
                {assignments.map((a) => (
                  <tr key={a.assignmentId}>
                    <td>{a.proposal}</td>
                    <td>{a.expert}</td>
                    <td className="num">
                      {a.graded} / {a.total}
                      {a.finishedAt ? " ✓" : ""}
                    </td>
                    <td>
                      {a.choices === null ? null : a.choices.length === 0 ? (
                        <span className="muted">No eligible expert</span>
                      ) : (
                        <Form method="post" className="toolbar">
                          <CsrfInput />
                          <input type="hidden" name="assignment" value={a.assignmentId} />
                          <select
                            name="expert"
                            aria-label={`Expert to take over ${a.proposal} from ${a.expert}`}
                            defaultValue=""
                          >
                            <option value="">—</option>
                            {a.choices.map((e) => (
                              <option key={e.id} value={e.id}>
                                {e.name}
                              </option>
                            ))}
                          </select>
                          <button type="submit" name="intent" value="reassign" className="button-secondary">
                            Reassign
                          </button>
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      ) : null}

      <h2>Agreement</h2>
      {agreement ? (
        <>
          <p>
            Krippendorff's α (ordinal) = <strong>{num(agreement.alpha)}</strong>, 95% CI{" "}
            {formatCi(agreement.ci, formatNumber)} over {formatCount(agreement.items)} pairs,{" "}
            {agreement.raters} experts, {agreement.pairableValues} pairable grades.
          </p>
          <TableScroll label="Leave-one-out agreement">
            <table aria-label="Leave-one-out agreement">
              <thead>
                <tr>
                  <th>Without expert</th>
                  <th className="num">Grades</th>
                  <th className="num">α</th>
                </tr>
              </thead>
              <tbody>
                {agreement.leaveOneOut.map((l) => (
                  <tr key={l.rater}>
                    <td>{l.rater}</td>
                    <td className="num">{l.ratings}</td>
                    <td className="num">{num(l.alpha)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : (
        <div className="empty">No grades yet.</div>
      )}

      {results ? (
        <>
          <h2>Results on the aggregated labels</h2>
          <SystemResultsTable results={results} label="Results by system" />
          <SubjectNdcgTable results={results} />
          <ComparisonSentence results={results} />
        </>
      ) : null}

      <DisagreementQueue {...disagreements} />

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
          <GoldFigures gold={gold} empty="No gold items: import a truth file or attach grades below." />
          <GoldItemsPanel truth={truth} busy={busy} />
        </>
      ) : null}

      {campaign.status !== "draft" ? (
        <p>
          Export: <a href={`/api/campaigns/${campaign.id}/export?format=qrels`}>TREC qrels</a> ·{" "}
          <a href={`/api/campaigns/${campaign.id}/export?format=csv`}>per-rater CSV</a> ·{" "}
          <a href={`/api/campaigns/${campaign.id}/export?format=json`}>JSON</a>
        </p>
      ) : null}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
