import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { getProposalDetail } from "~/data/catalog.server";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ProposalHeader } from "~/components/proposal-header";
import { TableScroll } from "~/components/table-scroll";

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

      <h2>Gold committee ({gold.length})</h2>
      {gold.length === 0 ? (
        <p className="muted">No gold committee imported for this proposal.</p>
      ) : (
        <ul>
          {gold.map((g) => (
            <li key={g.id}>
              <span className="gold-mark" aria-hidden>
                ★
              </span>{" "}
              {g.name}, {g.affiliation} <span className="muted">({g.externalId})</span>
            </li>
          ))}
        </ul>
      )}

      <h2>Ranked lists</h2>
      {lists.length === 0 ? (
        <div className="empty">No system has a list for this proposal yet.</div>
      ) : (
        <>
          <Form method="get" className="toolbar">
            {variants.length > 1 ? (
              <div>
                <label htmlFor="variant">Query variant</label>
                <select id="variant" name="variant" defaultValue={variant}>
                  {variants.map((v) => (
                    <option key={v}>{v}</option>
                  ))}
                </select>
              </div>
            ) : null}
            <div>
              <label htmlFor="depth">Show top</label>
              <select id="depth" name="depth" defaultValue={String(depth)}>
                {[10, 20, 50, 100, 1000].map((d) => (
                  <option key={d} value={d}>
                    {d === 1000 ? "all" : d}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit">Show</button>
            <span className="muted">
              Longest list: {longest}. <span className="gold-mark">★</span> marks a gold committee member.
            </span>
          </Form>
          <div className="side-by-side">
            {lists.map((list) => {
              const hits = list.items.filter((i) => goldIds.has(i.candidateId)).length;
              return (
                <section key={list.listId} aria-label={`${list.systemKey} list`}>
                  <h3>
                    {list.systemName} <span className="muted">({list.systemKey})</span>
                  </h3>
                  <p className="muted">
                    {hits} of {gold.length} gold members anywhere in its {list.items.length} items.
                  </p>
                  <TableScroll label="Ranked list">
                    <table>
                      <thead>
                        <tr>
                          <th className="num">Rank</th>
                          <th>Candidate</th>
                          <th className="num">Score</th>
                        </tr>
                      </thead>
                      <tbody>
                        {list.items.slice(0, depth).map((item) => {
                          const isGold = goldIds.has(item.candidateId);
                          return (
                            <tr key={item.rank} className={isGold ? "gold" : undefined}>
                              <td className="num">{item.rank}</td>
                              <td>
                                {isGold ? (
                                  <span className="gold-mark" title="Gold committee member">
                                    ★{" "}
                                  </span>
                                ) : null}
                                {item.name} <span className="muted">· {item.affiliation}</span>
                                {isGold ? <span className="sr-only"> (gold member)</span> : null}
                              </td>
                              <td className="num">{item.score ?? "—"}</td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </TableScroll>
                </section>
              );
            })}
          </div>
        </>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
