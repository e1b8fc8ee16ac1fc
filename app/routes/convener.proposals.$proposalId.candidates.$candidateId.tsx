import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { openProfile, recordProfileClick } from "~/data/experiments.server";
import { requireUserWithRole } from "~/security/auth.server";
import { changeCommittee, convenerCall } from "~/utils/convener.server";
import { candidateField, convenerProfileSchema } from "../../scripts/inputs/convener";
import { FormErrors } from "~/components/form-parts";
import { formErrorsOf, parseForm } from "~/forms/forms";
import { dispatchIntent } from "~/forms/forms.server";
import { keepLoggedView } from "~/utils/convener-revalidate";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { ConflictWarning } from "~/components/conflict-warning";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.candidate.name ?? "Candidate"} · Assay` },
];

/**
 * The profile, read only: the click that opened it was recorded by the action's `open` (a POST that
 * passed the origin and CSRF checks), so a GET, whoever caused it, changes nothing.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const profile = await convenerCall(() =>
    openProfile(getDb(), user.id, params.proposalId ?? "", params.candidateId ?? ""),
  );
  return json(profile, { headers: { "Cache-Control": "no-store" } });
}

/**
 * Open (from the list's card: the click is logged, then the profile is shown by a redirect to this
 * page), or Adopt or Remove this candidate by the same rules as on the proposal page (cap, session
 * lock, events).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const submission = parseForm(await request.formData(), convenerProfileSchema);
  const candidate = candidateField.safeParse(params.candidateId);
  if (!candidate.success) throw json({ message: candidate.error.issues[0].message }, { status: 400 });
  const change = ({ intent }: { intent: "adopt" | "unadopt" }) =>
    changeCommittee(submission, user.id, params.proposalId ?? "", { intent, candidate: candidate.data });
  const open = async () => {
    await convenerCall(() => recordProfileClick(getDb(), user.id, params.proposalId ?? "", candidate.data));
    return redirect(new URL(request.url).pathname, 303);
  };
  return dispatchIntent(submission, { open, adopt: change, unadopt: change });
}

export const shouldRevalidate = keepLoggedView;

export default function CandidateProfile() {
  const { proposal, candidate, committee: loaded, cap } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const committee = (acted && "committee" in acted ? acted.committee : null) ?? loaded;
  const adopted = committee.includes(candidate.candidateId);
  const full = committee.length >= cap;
  const button = useRef<HTMLButtonElement>(null);
  // After Adopt or Remove, focus stays on the button (whose label now says the other thing).
  useEffect(() => {
    if (acted) button.current?.focus();
  }, [acted]);
  return (
    <>
      <p>
        <Link to={`/convener/proposals/${encodeURIComponent(proposal.externalId)}`}>← {proposal.title}</Link>
      </p>
      <h1>{candidate.name}</h1>
      <p>{candidate.affiliation}</p>
      <ul className="keywords" aria-label="Expertise">
        {candidate.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p>{candidate.summary}</p>
      <p className="muted">Ranked {candidate.rank} for this proposal.</p>
      <ConflictWarning reason={candidate.conflict} />
      <Form method="post" className="panel convener-profile-action">
        <CsrfInput />
        <p className="committee-status" role="status">
          {adopted ? "In the committee" : "Not in the committee"} · committee {committee.length} of {cap}
        </p>
        {adopted ? (
          <button ref={button} type="submit" name="intent" value="unadopt" className="button-secondary">
            Remove {candidate.name}
          </button>
        ) : (
          <button ref={button} type="submit" name="intent" value="adopt" disabled={full}>
            Adopt {candidate.name}
          </button>
        )}
        {full && !adopted ? (
          <span className="muted"> The committee is full; remove someone to adopt another.</span>
        ) : null}
        <FormErrors errors={formErrorsOf(acted)} />
      </Form>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
