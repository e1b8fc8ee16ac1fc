import { ClientTable } from "~/components/client-table";
import type { Json } from "~/utils/json-type";
import { formatCi, formatCount, formatPp, formatRate } from "~/utils/format";
import type { GradedAttribute } from "../../../../scripts/fairness/composition";
import type { Figure } from "../../../../scripts/fairness/report";
import { cellAs } from "../offline/cells";

export interface GradesByGroupFigures {
  minGroup: number;
  attributes: Record<string, GradedAttribute>;
}
type Fig = Json<Figure> | undefined;

function rows(figures: Json<GradesByGroupFigures>) {
  return Object.entries(figures.attributes).flatMap(([attribute, a]) =>
    Object.entries(a.groups).map(([group, g]) => ({
      attribute,
      group,
      pool: g.suppressed ? null : g.poolShare,
      graded: g.graded?.value ?? null,
      gradedCi: g.suppressed ? g.suppressed : formatCi(g.graded?.ci, formatRate),
      high: g.high?.value ?? null,
      highCi: g.suppressed ? g.suppressed : formatCi(g.high?.ci, formatRate),
      difference: g.difference?.value ?? null,
      differenceCi: g.suppressed ? g.suppressed : formatCi(g.difference?.ci, formatPp),
    })),
  );
}

/** Groups whose share among pairs graded 3–4 differs from their share of graded pairs beyond the interval. */
function skews(figures: Json<GradesByGroupFigures>) {
  return Object.entries(figures.attributes).flatMap(([attribute, a]) =>
    Object.entries(a.groups).flatMap(([group, g]) => {
      const d: Fig = g.difference;
      if (!d?.ci || (d.ci.lower <= 0 && d.ci.upper >= 0)) return [];
      return [{ attribute, group, graded: g.graded!, high: g.high!, difference: d }];
    }),
  );
}

/**
 * "Grades by group" on the analyst's campaign page (issue 27): are the experts' grades skewed by group?
 * Each group's share among the pairs graded 3–4 beside its share of all graded pairs and of the pool.
 */
export function GradesByGroup({ figures }: { figures: Json<GradesByGroupFigures> }) {
  const found = skews(figures);
  const [first] = Object.values(figures.attributes);
  return (
    <section aria-labelledby="grades-by-group-heading">
      <h2 id="grades-by-group-heading">Grades by group</h2>
      <p className="muted">
        Candidates' group attributes (never shown to experts) against the labels: a group's share among the
        pairs graded 3–4 ({formatCount(first?.highPairs)} pairs) beside its share of all graded pairs (
        {formatCount(first?.pairs)}) and of the pool. A positive difference means experts grade the group's
        members relevant more often than the others. Groups with fewer than {figures.minGroup} candidates are
        not shown. Intervals: 95% bootstrap over proposals, each on its own: with many groups, expect about
        one in twenty to exclude 0 by chance.
      </p>
      {found.length > 0 ? (
        <ul>
          {found.map((f) => (
            <li key={`${f.attribute}\u0000${f.group}`}>
              {f.attribute} = {f.group}: {formatRate(f.high.value)} of the pairs graded 3–4 against{" "}
              {formatRate(f.graded.value)} of graded pairs, {formatPp(f.difference.value)}{" "}
              {formatCi(f.difference.ci, formatPp)}.
            </li>
          ))}
        </ul>
      ) : (
        <p>
          No group's share among pairs graded 3–4 differs from its share of graded pairs beyond its interval.
        </p>
      )}
      <ClientTable
        caption="Each group's share among graded pairs and among pairs graded 3–4"
        fileName="campaign-grades-by-group.csv"
        groupable={["attribute"]}
        pageSize={15}
        data={rows(figures)}
        columns={[
          { id: "attribute", accessorKey: "attribute", header: "Attribute" },
          { id: "group", accessorKey: "group", header: "Group" },
          { id: "pool", accessorKey: "pool", header: "Pool share", ...cellAs(formatRate) },
          { id: "graded", accessorKey: "graded", header: "Share of graded", ...cellAs(formatRate) },
          { id: "gradedCi", accessorKey: "gradedCi", header: "95% CI" },
          { id: "high", accessorKey: "high", header: "Share of graded 3–4", ...cellAs(formatRate) },
          { id: "highCi", accessorKey: "highCi", header: "95% CI " },
          { id: "difference", accessorKey: "difference", header: "Difference", ...cellAs(formatPp) },
          { id: "differenceCi", accessorKey: "differenceCi", header: "95% CI  " },
        ]}
      />
    </section>
  );
}
