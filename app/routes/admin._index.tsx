import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { catalogCounts } from "../../db/catalog";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Admin · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ counts: await catalogCounts(getDb()) });
}

export default function AdminHome() {
  const { counts } = useLoaderData<typeof loader>();
  const cards: [string, number, string][] = [
    ["Proposals", counts.proposals, "/admin/proposals"],
    ["Candidates", counts.candidates, "/admin/candidates"],
    ["Systems", counts.systems, "/admin/systems"],
    ["Ranked lists", counts.lists, "/admin/systems"],
    ["List items", counts.items, "/admin/systems"],
    ["Gold members", counts.gold, "/admin/proposals"],
    ["Subjects", counts.subjects, "/admin/import"],
    ["Users", counts.users, "/admin/users"],
  ];
  return (
    <>
      <h1>Overview</h1>
      {counts.proposals === 0 ? (
        <p className="notice">
          No data yet. <Link to="/admin/import">Import</Link> subjects, proposals, candidates, systems, their ranked lists and the gold committees.
        </p>
      ) : null}
      <div className="cards">
        {cards.map(([label, value, to]) => (
          <Link key={label} to={to} className="card" style={{ textDecoration: "none", color: "inherit" }}>
            <div className="muted">{label}</div>
            <div className="value">{Number(value).toLocaleString("en")}</div>
          </Link>
        ))}
      </div>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
