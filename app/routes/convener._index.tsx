import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { myProposals } from "~/data/experiments.server";
import { requireUserWithRole } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { plural } from "~/utils/format";
import { Badge } from "~/components/badge";

export const meta: MetaFunction = () => [{ title: "My proposals · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  return json({ name: user.name, proposals: await myProposals(getDb(), user.id) });
}

export default function ConvenerHome() {
  const { name, proposals } = useLoaderData<typeof loader>();
  const open = proposals.filter((p) => !p.finished);
  const [params] = useSearchParams();
  const saved = proposals.find((p) => p.finished && p.externalId === params.get("saved"));
  return (
    <>
      <h1>Proposals that need a committee</h1>
      {saved ? <CommitteeSaved proposal={saved} /> : null}
      <p className="muted">
        Signed in as {name}. {open.length} of {proposals.length} proposals still need a committee.
      </p>
      {proposals.length === 0 ? (
        <div className="empty">
          No proposals are assigned to you yet. An admin assigns them (Import → convener assignments).
        </div>
      ) : (
        <div className="table-scroll convener-home">
          <table aria-label="My proposals">
            <thead>
              <tr>
                <th>Proposal</th>
                <th>Title</th>
                <th className="convener-home-subject">Subject</th>
                <th>Committee</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {proposals.map((p) => (
                <tr key={p.externalId}>
                  <td className="convener-home-id">
                    <Link to={`/convener/proposals/${encodeURIComponent(p.externalId)}`}>{p.externalId}</Link>
                  </td>
                  <td className="convener-home-title">{p.title}</td>
                  <td className="convener-home-subject">{p.subject ?? "—"}</td>
                  <td className="committee-names">
                    {p.members.length === 0 ? (
                      <span className="muted">{p.finished ? "nobody adopted" : "—"}</span>
                    ) : (
                      <>
                        <span className="committee-count">{p.members.length}:</span> {p.members.join(", ")}
                      </>
                    )}
                  </td>
                  <td className="convener-home-status">
                    <Badge tone={p.finished ? "ok" : p.started ? "neutral" : "risk"}>
                      {p.finished ? "finished" : p.started ? "in progress" : "to do"}
                    </Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/**
 * After Finish: which committee was saved, with its members, taking the focus so that a keyboard or
 * screen-reader user hears it instead of landing on the page body. Read from the database, not the
 * query, so it only confirms what was actually saved.
 */
function CommitteeSaved({
  proposal,
}: {
  proposal: { externalId: string; title: string; members: string[] };
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [proposal.externalId]);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="notice success convener-saved">
      <strong>Committee saved</strong> for {proposal.externalId} ({proposal.title}):{" "}
      {proposal.members.length === 0 ? (
        "nobody adopted."
      ) : (
        <>
          {plural(proposal.members.length, "member")}: {proposal.members.join(", ")}.
        </>
      )}{" "}
      <Link to={`/convener/proposals/${encodeURIComponent(proposal.externalId)}`}>View or reopen it</Link>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
