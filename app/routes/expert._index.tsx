import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/utils/auth.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "My assignments · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "expert");
  return json({ name: user.name });
}

export default function ExpertHome() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>My assignments</h1>
      <p className="muted">Signed in as {name}.</p>
      <div className="empty">No rating assignments yet. When an admin launches a campaign that includes you, its proposals appear here.</div>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
