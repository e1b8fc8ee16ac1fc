import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { openProfile } from "../../db/convener";
import { requireUserWithRole } from "~/utils/auth.server";
import { convenerCall } from "~/utils/convener.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.candidate.name ?? "Candidate"} · Assay` }];

/** Opening a profile is a logged interaction (a click), recorded on the server. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  const profile = await convenerCall(() => openProfile(getDb(), user.id, params.proposalId ?? "", params.candidateId ?? ""));
  return json(profile, { headers: { "Cache-Control": "no-store" } });
}

export default function CandidateProfile() {
  const { proposal, candidate } = useLoaderData<typeof loader>();
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
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
