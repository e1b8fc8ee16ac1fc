import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUserWithRole } from "~/utils/auth.server";
import { RouteErrorBoundary } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "My proposals · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, "convener");
  return json({ name: user.name });
}

export default function ConvenerHome() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Proposals that need a committee</h1>
      <p className="muted">Signed in as {name}.</p>
      <div className="empty">No proposals are assigned to you yet. An admin assigns proposals when an experiment starts.</div>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
