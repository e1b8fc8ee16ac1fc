import { Form } from "@remix-run/react";
import type { getProposalDetail } from "~/data/catalog.server";
import type { Json } from "~/utils/json-type";
import { TableScroll } from "~/components/table-scroll";
import { formatValue } from "~/utils/format";

type ProposalDetail = Json<NonNullable<Awaited<ReturnType<typeof getProposalDetail>>>>;
type GoldMember = ProposalDetail["gold"][number];
type RankedList = ProposalDetail["lists"][number];

/** A proposal's gold committee, each member marked with the star the ranked lists use. */
export function GoldCommittee({ gold }: { gold: GoldMember[] }) {
  return (
    <>
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
    </>
  );
}

/** Which lists to show (a GET form): the query variant, when there are several, and how deep. */
export function RankedListsView({
  variants,
  variant,
  depth,
  longest,
}: {
  variants: string[];
  variant: string;
  depth: number;
  longest: number;
}) {
  return (
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
  );
}

/** One system's list down to `depth`, gold committee members starred, with how many it holds in all. */
export function RankedListSection({
  list,
  goldIds,
  goldCount,
  depth,
}: {
  list: RankedList;
  goldIds: Set<number>;
  goldCount: number;
  depth: number;
}) {
  const hits = list.items.filter((i) => goldIds.has(i.candidateId)).length;
  return (
    <section aria-label={`${list.systemKey} list`}>
      <h3>
        {list.systemName} <span className="muted">({list.systemKey})</span>
      </h3>
      <p className="muted">
        {hits} of {goldCount} gold members anywhere in its {list.items.length} items.
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
                  <td className="num">{formatValue(item.score, "score")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
