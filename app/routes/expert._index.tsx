import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { expertAssignments } from "~/data/campaigns.server";
import { requireUserWithRole } from "~/security/auth.server";
import { renderMarkdown } from "~/utils/markdown.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import {
  AssignmentFilter,
  AssignmentsTable,
  CampaignInstructions,
  type AssignmentState,
} from "~/components/expert-assignments";

export const meta: MetaFunction = () => [{ title: "My assignments · Assay" }];

/** Work left first: started tasks with cards left, untouched ones, then fully graded ones that only need Finish, then done. */
function rank(a: { state: AssignmentState; graded: number; total: number }): number {
  if (a.state === "progress") return a.graded < a.total ? 0 : 2;
  return a.state === "todo" ? 1 : 3;
}

/** Finished (or its campaign closed) is done; some grades is in progress; none is to do. */
function statusOf(a: { finishedAt: string | Date | null; status: string; graded: number }): AssignmentState {
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
  const [filter, setFilter] = useState<AssignmentState | "all">("all");
  const campaigns = [...new Map(assignments.map((a) => [a.campaign, a])).values()];
  const next = assignments.find((a) => a.state !== "done");
  const finished = assignments.find((a) => String(a.id) === params.get("finished"));
  const counts = { all: assignments.length, todo: 0, progress: 0, done: 0 };
  for (const a of assignments) counts[a.state]++;
  const rows = filter === "all" ? assignments : assignments.filter((a) => a.state === filter);
  // Finishing lands here: focus goes to the confirmation, so a keyboard or screen reader user hears it first.
  const confirmation = useRef<HTMLParagraphElement>(null);
  useEffect(() => confirmation.current?.focus(), [finished?.id]);
  return (
    <>
      <h1>My assignments</h1>
      <p className="muted">Signed in as {name}.</p>
      {finished ? (
        <p className="notice success" role="status" tabIndex={-1} ref={confirmation}>
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
            <CampaignInstructions key={c.campaign} campaign={c} />
          ))}
          <AssignmentFilter filter={filter} counts={counts} onFilter={setFilter} />
          <AssignmentsTable rows={rows} />
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
