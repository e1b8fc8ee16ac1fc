import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { expertAssignments } from "../../db/campaigns";
import { requireUserWithRole } from "~/utils/auth.server";
import { renderMarkdown } from "~/utils/markdown.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "My assignments · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  const assignments = await expertAssignments(getDb(), user.id);
  return json({ name: user.name, assignments: assignments.map((a) => ({ ...a, instructions: a.instructions ? renderMarkdown(a.instructions) : "" })) });
}

export default function ExpertHome() {
  const { name, assignments } = useLoaderData<typeof loader>();
  const campaigns = [...new Map(assignments.map((a) => [a.campaign, a])).values()];
  return (
    <>
      <h1>My assignments</h1>
      <p className="muted">Signed in as {name}.</p>
      {assignments.length === 0 ? (
        <div className="empty">No rating assignments yet. When an admin launches a campaign that includes you, its proposals appear here.</div>
      ) : (
        <>
          {campaigns.map((c) => (
            <section key={c.campaign} className="panel" aria-label={`Instructions for ${c.campaign}`}>
              <h2 style={{ marginTop: 0 }}>{c.campaign}</h2>
              {c.deadline ? <p>Deadline: {new Date(c.deadline).toISOString().slice(0, 10)}</p> : null}
              {c.instructions ? (
                // Rendered on the server from markdown with raw HTML off (app/utils/markdown.server.ts).
                <div className="instructions" dangerouslySetInnerHTML={{ __html: c.instructions }} />
              ) : (
                <p>Grade every candidate for the proposal: 1 irrelevant, 2 far-fetched, 3 relevant, 4 highly relevant, or can't judge.</p>
              )}
            </section>
          ))}
          <table aria-label="Assignments">
            <thead>
              <tr>
                <th>Campaign</th>
                <th>Proposal</th>
                <th className="num">Graded</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {assignments.map((a) => (
                <tr key={a.id}>
                  <td>{a.campaign}</td>
                  <td>
                    <Link to={`/expert/assignments/${a.id}`}>{a.proposal}</Link>
                  </td>
                  <td className="num">
                    {a.graded} / {a.total}
                  </td>
                  <td>{a.status === "closed" ? "campaign closed" : a.finishedAt ? "finished" : a.graded === 0 ? "to do" : "in progress"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
