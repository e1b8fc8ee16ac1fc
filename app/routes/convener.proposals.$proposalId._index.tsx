import type { Submission } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import {
  committeeOf,
  ConvenerError,
  finish,
  openProposal,
  recordImpression,
  reopenProposal,
} from "~/data/experiments.server";
import { requireUserWithRole } from "~/security/auth.server";
import { changeCommittee, convenerCall } from "~/utils/convener.server";
import { convenerProposalSchema, type ConvenerProposalForm } from "../../scripts/inputs/convener";
import { formErrorsOf, parseForm } from "~/forms/forms";
import { answer, dispatchIntent } from "~/forms/forms.server";
import { keepLoggedView } from "~/utils/convener-revalidate";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ProposalHeader } from "~/components/proposal-header";
import { CsrfInput, useWithCsrf } from "~/security/csrf";
import { CandidateCard, CommitteeMembers, FinishForm, NOBODY } from "~/components/convener/committee";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.proposal.externalId ?? "Proposal"} · Assay` },
];

/**
 * The page shows the open session, or the one the first POST will open; after Finish, the finished
 * committee read-only. The GET writes nothing (another site can cause one): the page, once shown,
 * posts its impression with the view id it was rendered with (`view`), which opens the session if
 * needed and logs each view once.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const view = await convenerCall(() => openProposal(getDb(), user.id, params.proposalId ?? ""));
  return json(view, { headers: { "Cache-Control": "no-store" } });
}

type FormOf<Intent extends ConvenerProposalForm["intent"]> = Extract<
  ConvenerProposalForm,
  { intent: Intent }
>;

/** One handler per form of the page, by its intent. */
function proposalHandlers(submission: Submission<ConvenerProposalForm>, userId: number, proposal: string) {
  const db = getDb();
  const change = (value: FormOf<"adopt" | "unadopt">) => changeCommittee(submission, userId, proposal, value);
  return {
    adopt: change,
    unadopt: change,
    reopen: async () => {
      await convenerCall(() => reopenProposal(db, userId, proposal));
      return redirect(`/convener/proposals/${encodeURIComponent(proposal)}`);
    },
    impression: async ({ intent, view }: FormOf<"impression">) => {
      try {
        const logged = await recordImpression(db, userId, proposal, view);
        return answer(submission, intent, {}, { logged });
      } catch (error) {
        // A view of a session since finished or reopened (another tab): nothing to log, and the page stays.
        if (error instanceof ConvenerError)
          return answer(submission, intent, { status: error.status, formErrors: [error.message] });
        throw error;
      }
    },
    finish: async ({ intent, confirm }: FormOf<"finish">) => {
      if (confirm !== "empty" && (await committeeOf(db, userId, proposal)).length === 0)
        return answer(submission, intent, { status: 409, formErrors: [NOBODY] }, { confirmEmpty: true });
      await convenerCall(() => finish(db, userId, proposal));
      // The list confirms which committee was saved (a query, so it works without JavaScript too).
      return redirect(`/convener?saved=${encodeURIComponent(proposal)}`);
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const submission = parseForm(await request.formData(), convenerProposalSchema);
  return dispatchIntent(submission, proposalHandlers(submission, user.id, params.proposalId ?? ""));
}

export const shouldRevalidate = keepLoggedView;

/**
 * Reports the page shown: one POST per page view (a new view id comes with every load), CSRF-checked
 * like any form. Without JavaScript nothing is reported.
 */
function useImpression(view: string | null) {
  const fetcher = useFetcher();
  const withCsrf = useWithCsrf();
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!view || sent.current === view) return;
    sent.current = view;
    fetcher.submit(withCsrf({ intent: "impression", view }), { method: "post" });
  }, [view, fetcher, withCsrf]);
}

export default function ConvenerProposal() {
  const loaded = useLoaderData<typeof loader>();
  const { proposal, experiment, finished, cap } = loaded;
  useImpression(loaded.view);
  return (
    <>
      <p>
        <Link to="/convener">← My proposals</Link>
      </p>
      <ProposalHeader proposal={proposal} />
      {!experiment ? (
        <div className="empty">
          No recommender is switched on for this proposal yet: ask an admin to start an experiment.
        </div>
      ) : finished ? (
        <FinishedCommittee finished={finished} cap={cap} />
      ) : (
        <Workspace />
      )}
    </>
  );
}

/** The committee as finished: read-only, with Reopen as the one way to change it. */
function FinishedCommittee({
  finished,
  cap,
}: {
  finished: {
    finishedAt: string | null;
    members: { candidateId: number; name: string; affiliation: string | null }[];
  };
  cap: number;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="finished-committee" className="panel committee-finished">
      <h2 id="finished-committee">
        Finished committee ({finished.members.length} of {cap})
      </h2>
      {finished.finishedAt ? (
        <p className="muted">Finished {finished.finishedAt.slice(0, 16).replace("T", " ")} UTC.</p>
      ) : null}
      {finished.members.length === 0 ? (
        <p>Finished with nobody adopted.</p>
      ) : (
        <ol aria-label="Committee members">
          {finished.members.map((m) => (
            <li key={m.candidateId}>
              {m.name}
              {m.affiliation ? <span className="muted">, {m.affiliation}</span> : null}
            </li>
          ))}
        </ol>
      )}
      <Form method="post" className="committee-reopen">
        <CsrfInput />
        <button type="submit" name="intent" value="reopen" className="button-secondary" disabled={busy}>
          Reopen
        </button>
        <span className="muted">
          Reopening starts a new session with this committee to change; this one stays on record.
        </span>
      </Form>
    </section>
  );
}

/** The open session: the recommended list with Adopt/Remove, and the committee kept on screen. */
function Workspace() {
  const { proposal, list, committee: loaded, cap } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const committee = (acted && "committee" in acted ? acted.committee : null) ?? loaded;
  const error = formErrorsOf(acted).join(" ") || null;
  const busy = useNavigation().state !== "idle";
  const members = new Set(committee);
  const full = committee.length >= cap;
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);

  // Focus stays on the card acted on: its button (now Remove or Adopt), or the card if that is disabled.
  useEffect(() => {
    if (!acted || !("candidate" in acted) || !acted.candidate) return;
    const button = document.getElementById(`act-${acted.candidate}`) as HTMLButtonElement | null;
    if (button && !button.disabled) button.focus();
    else document.getElementById(`card-${acted.candidate}`)?.focus();
  }, [acted]);
  useEffect(() => {
    if (acted && "confirmEmpty" in acted) setConfirming(true);
  }, [acted]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (committee.length > 0) setConfirming(false);
  }, [committee.length]);

  const names = list.filter((c) => members.has(c.candidateId));
  const ordered = committee
    .map((id) => names.find((c) => c.candidateId === id))
    .filter((c) => c !== undefined);
  return (
    <div className="convener-workspace">
      <section aria-labelledby="recommended" className="convener-list">
        <h2 id="recommended">Recommended reviewers</h2>
        {list.length === 0 ? (
          <div className="empty">The recommender has no list for this proposal.</div>
        ) : null}
        <ol>
          {list.map((c) => (
            <CandidateCard
              key={c.candidateId}
              candidate={c}
              proposalId={proposal.externalId}
              adopted={members.has(c.candidateId)}
              full={full}
            />
          ))}
        </ol>
      </section>
      <aside aria-labelledby="committee" className="panel committee-panel">
        <h2 id="committee">
          Committee ({committee.length} of {cap})
        </h2>
        {error && !(acted && "confirmEmpty" in acted) ? (
          <p role="alert" className="form-error">
            {error}
          </p>
        ) : null}
        {committee.length === 0 ? <p className="muted committee-empty">Nobody adopted yet.</p> : null}
        <CommitteeMembers members={ordered} />
        {full ? (
          <p className="muted committee-full">The committee is full; remove someone to adopt another.</p>
        ) : null}
        <FinishForm
          empty={committee.length === 0}
          confirming={confirming}
          setConfirming={setConfirming}
          busy={busy}
          confirmRef={confirmRef}
        />
      </aside>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
