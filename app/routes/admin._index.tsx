import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { catalogCounts } from "~/data/catalog.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Admin · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ counts: await catalogCounts(getDb()) });
}

export default function AdminHome() {
  const { counts } = useLoaderData<typeof loader>();
  // Each tile opens the page that lists what it counts (subjects have no page of their own: the
  // proposals listing sorted by subject shows them; gold members are counted per proposal there too).
  const cards: [string, number, string][] = [
    ["Proposals", counts.proposals, "/admin/proposals"],
    ["Candidates", counts.candidates, "/admin/candidates"],
    ["Systems", counts.systems, "/admin/systems"],
    ["Ranked lists", counts.lists, "/admin/lists"],
    ["List items", counts.items, "/admin/lists?sort=items&dir=desc"],
    ["Gold members", counts.gold, "/admin/proposals?sort=gold&dir=desc"],
    ["Subjects", counts.subjects, "/admin/proposals?sort=subject"],
    ["Users", counts.users, "/admin/users"],
  ];
  return (
    <>
      <h1>Overview</h1>
      {counts.proposals === 0 ? (
        <p className="notice">
          No data yet. <Link to="/admin/import">Import</Link> subjects, proposals, candidates, systems, their
          ranked lists and the gold committees.
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
