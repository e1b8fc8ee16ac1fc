import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { expertAssignments } from "~/data/campaigns.server";
import { requireUserWithRole } from "~/utils/auth.server";
import { renderMarkdown } from "~/utils/markdown.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { TableScroll } from "~/components/table-scroll";

export const meta: MetaFunction = () => [{ title: "My assignments · Assay" }];

type Status = "todo" | "progress" | "done";
const STATUS_LABEL: Record<Status, string> = { todo: "to do", progress: "in progress", done: "done" };

/** Work left first: started tasks with cards left, untouched ones, then fully graded ones that only need Finish, then done. */
function rank(a: { state: Status; graded: number; total: number }): number {
  if (a.state === "progress") return a.graded < a.total ? 0 : 2;
  return a.state === "todo" ? 1 : 3;
}

/** Finished (or its campaign closed) is done; some grades is in progress; none is to do. */
function statusOf(a: { finishedAt: string | Date | null; status: string; graded: number }): Status {
  if (a.finishedAt || a.status === "closed") return "done";
  return a.graded > 0 ? "progress" : "todo";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  const assignments = (await expertAssignments(getDb(), user.id))
    .map((a) => ({
      ...a,
      instructions: a.instructions ? renderMarkdown(a.instructions) : "",
      state: statusOf(a),
    }))
    // The order of `rank`, and the query's order (campaign, proposal) within each rank.
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i)
    .map(({ a }) => a);
  return json({ name: user.name, assignments }, { headers: { "Cache-Control": "no-store" } });
}

export default function ExpertHome() {
  const { name, assignments } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const [filter, setFilter] = useState<Status | "all">("all");
  const campaigns = [...new Map(assignments.map((a) => [a.campaign, a])).values()];
  const next = assignments.find((a) => a.state !== "done");
  const finished = assignments.find((a) => String(a.id) === params.get("finished"));
  const counts = { all: assignments.length, todo: 0, progress: 0, done: 0 };
  for (const a of assignments) counts[a.state]++;
  const rows = filter === "all" ? assignments : assignments.filter((a) => a.state === filter);
  return (
    <>
      <h1>My assignments</h1>
      <p className="muted">Signed in as {name}.</p>
      {finished ? (
        <p className="notice success" role="status">
          Finished “{finished.proposal}”. Thank you.{" "}
          {next ? "Your next task is below." : "That was your last open task."}
        </p>
      ) : null}
      {assignments.length === 0 ? (
        <div className="empty">
          No rating assignments yet. When an admin launches a campaign that includes you, its proposals appear
          here.
        </div>
      ) : (
        <>
          <p>
            {next ? (
              <Link className="button" to={`/expert/assignments/${next.id}`}>
                Next task: {next.proposal}
              </Link>
            ) : (
              <span className="notice success">Every assignment is done.</span>
            )}{" "}
            <span className="muted">
              {counts.todo} to do · {counts.progress} in progress · {counts.done} done
            </span>
          </p>
          {campaigns.map((c) => (
            <details key={c.campaign} className="panel" aria-label={`Instructions for ${c.campaign}`}>
              <summary>
                <strong>{c.campaign}</strong>
                {c.deadline ? ` · Deadline: ${new Date(c.deadline).toISOString().slice(0, 10)}` : ""} ·
                instructions
              </summary>
              {c.instructions ? (
                // Rendered on the server from markdown with raw HTML off (app/utils/markdown.server.ts).
                <div className="instructions" dangerouslySetInnerHTML={{ __html: c.instructions }} />
              ) : (
                <p>
                  Grade every candidate for the proposal: 1 irrelevant, 2 far-fetched, 3 relevant, 4 highly
                  relevant, or can't judge.
                </p>
              )}
            </details>
          ))}
          <div className="assignment-filter" role="group" aria-label="Show assignments">
            {(["all", "todo", "progress", "done"] as const).map((s) => (
              <button key={s} type="button" aria-pressed={filter === s} onClick={() => setFilter(s)}>
                {s === "all" ? "All" : STATUS_LABEL[s].replace(/^./, (c) => c.toUpperCase())} ({counts[s]})
              </button>
            ))}
          </div>
          <TableScroll label="Assignments">
            <table aria-label="Assignments">
              <thead>
                <tr>
                  <th>Status</th>
                  <th>Proposal</th>
                  <th className="assignments-campaign">Campaign</th>
                  <th className="num">Graded</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <span className={`status-pill ${a.state}`}>{STATUS_LABEL[a.state]}</span>
                      {a.state === "progress" && a.graded === a.total ? (
                        <span className="muted"> · ready to finish</span>
                      ) : null}
                      {a.state === "done" && a.status === "closed" && !a.finishedAt ? (
                        <span className="muted"> · campaign closed</span>
                      ) : null}
                    </td>
                    <td>
                      <Link to={`/expert/assignments/${a.id}`}>{a.proposal}</Link>
                    </td>
                    <td className="assignments-campaign">{a.campaign}</td>
                    <td className="num">
                      {a.graded} / {a.total}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
