import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { adopt, committeeOf, finish, openProposal, unadopt } from "../../db/convener";
import { requireUserWithRole } from "~/utils/auth.server";
import { convenerCall } from "~/utils/convener.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ProposalHeader } from "~/components/proposal-header";
import { CsrfInput } from "~/utils/csrf";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.proposal.externalId ?? "Proposal"} · Assay` }];

/** Opening the page opens (or resumes) the session and logs the impression on the server. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const view = await convenerCall(() => openProposal(getDb(), user.id, params.proposalId ?? ""));
  return json(view, { headers: { "Cache-Control": "no-store" } });
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("adopt"), candidate: z.string().min(1) }),
  z.object({ intent: z.literal("unadopt"), candidate: z.string().min(1) }),
  z.object({ intent: z.literal("finish") }),
]);

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const parsed = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw json({ message: "That request was not understood; reload the page." }, { status: 400 });
  const proposal = params.proposalId ?? "";
  const db = getDb();
  await convenerCall(async () => {
    if (parsed.data.intent === "adopt") await adopt(db, user.id, proposal, parsed.data.candidate);
    else if (parsed.data.intent === "unadopt") await unadopt(db, user.id, proposal, parsed.data.candidate);
    else await finish(db, user.id, proposal);
  });
  if (parsed.data.intent === "finish") return redirect("/convener");
  return json({ committee: await committeeOf(db, user.id, proposal) });
}

/**
 * After adopting or removing, the action returns the committee and the page keeps its list: running
 * the loader again would log an impression the convener never made (a real reload still does).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, currentUrl, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" && (!formAction || new URL(formAction, currentUrl).pathname === currentUrl.pathname) ? false : defaultShouldRevalidate;

export default function ConvenerProposal() {
  const { proposal, experiment, list, committee: loaded, cap } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const committee = acted && "committee" in acted ? acted.committee : loaded;
  const busy = useNavigation().state !== "idle";
  const members = new Set(committee);
  const full = committee.length >= cap;
  return (
    <>
      <p>
        <Link to="/convener">← My proposals</Link>
      </p>
      <ProposalHeader proposal={proposal} />
      {!experiment ? (
        <div className="empty">No recommender is switched on for this proposal yet: ask an admin to start an experiment.</div>
      ) : (
        <div className="side-by-side" style={{ gridTemplateColumns: "2fr 1fr" }}>
          <section aria-labelledby="recommended">
            <h2 id="recommended">Recommended reviewers</h2>
            {list.length === 0 ? <div className="empty">The recommender has no list for this proposal.</div> : null}
            <ol>
              {list.map((c) => (
                <li key={c.candidateId} style={{ marginBottom: "0.6rem" }}>
                  <Link to={`/convener/proposals/${encodeURIComponent(proposal.externalId)}/candidates/${encodeURIComponent(c.externalId)}`}>{c.name}</Link>, {c.affiliation}
                  <div className="muted">{c.keywords.join(", ")}</div>
                  <Form method="post" style={{ display: "inline" }}>
                    <CsrfInput />
                    <input type="hidden" name="candidate" value={c.externalId} />
                    {members.has(c.candidateId) ? (
                      <button type="submit" name="intent" value="unadopt" className="button-secondary" disabled={busy}>
                        Remove {c.name}
                      </button>
                    ) : (
                      <button type="submit" name="intent" value="adopt" disabled={busy || full}>
                        Adopt {c.name}
                      </button>
                    )}
                  </Form>
                </li>
              ))}
            </ol>
          </section>
          <aside aria-labelledby="committee" className="panel">
            <h2 id="committee" style={{ marginTop: 0 }}>
              Committee ({committee.length} of {cap})
            </h2>
            {committee.length === 0 ? <p className="muted">Nobody adopted yet.</p> : null}
            <ul aria-label="Committee members">
              {list
                .filter((c) => members.has(c.candidateId))
                .map((c) => (
                  <li key={c.candidateId}>{c.name}</li>
                ))}
            </ul>
            {full ? <p className="muted">The committee is full; remove someone to adopt another.</p> : null}
            <Form method="post">
              <CsrfInput />
              <button type="submit" name="intent" value="finish" disabled={busy}>
                Finish
              </button>
            </Form>
          </aside>
        </div>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
