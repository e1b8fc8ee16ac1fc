import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/utils/auth.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Analyst · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, ["analyst", "admin"]);
  return json({ name: user.name });
}

export default function AnalystHome() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Offline report</h1>
      <p className="muted">Signed in as {name}.</p>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
