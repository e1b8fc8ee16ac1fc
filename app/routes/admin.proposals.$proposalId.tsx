import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { getProposalDetail } from "~/data/catalog.server";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ProposalHeader } from "~/components/proposal-header";
import { GoldCommittee, RankedListSection, RankedListsView } from "~/components/proposal-lists";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.proposal.externalId ?? "Proposal"} · Assay` },
];

const depthMessage = "depth must be a whole number from 1 to 1,000";
const viewSchema = z.object({
  variant: z.string().max(200, "variant is longer than 200 characters").default("default"),
  depth: z.coerce
    .number({ invalid_type_error: depthMessage })
    .int(depthMessage)
    .min(1, depthMessage)
    .max(1000, depthMessage)
    .default(20),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const detail = await getProposalDetail(getDb(), params.proposalId ?? "");
  if (!detail) throw json({ message: `There is no proposal with id ${params.proposalId}.` }, { status: 404 });
  const view = parseQuery(request, viewSchema);
  const variants = [...new Set(detail.lists.map((l) => l.variant))];
  const variant = variants.includes(view.variant) ? view.variant : (variants[0] ?? "default");
  return json({
    ...detail,
    lists: detail.lists.filter((l) => l.variant === variant),
    variants,
    variant,
    depth: view.depth,
  });
}

export default function ProposalPage() {
  const { proposal, gold, lists, variants, variant, depth } = useLoaderData<typeof loader>();
  const goldIds = new Set(gold.map((g) => g.id));
  const longest = Math.max(0, ...lists.map((l) => l.items.length));
  return (
    <>
      <p>
        <Link to="/admin/proposals">← Proposals</Link>
      </p>
      <ProposalHeader proposal={proposal} />

      <GoldCommittee gold={gold} />

      <h2>Ranked lists</h2>
      {lists.length === 0 ? (
        <div className="empty">No system has a list for this proposal yet.</div>
      ) : (
        <>
          <RankedListsView variants={variants} variant={variant} depth={depth} longest={longest} />
          <div className="side-by-side">
            {lists.map((list) => (
              <RankedListSection
                key={list.listId}
                list={list}
                goldIds={goldIds}
                goldCount={gold.length}
                depth={depth}
              />
            ))}
          </div>
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
