import { ClientTable } from "~/components/client-table";
import type { Json } from "~/utils/json-type";
import { formatCi, formatP, formatPp, formatRate } from "~/utils/format";
import type { AdoptedComposition, ShareGuardrailResult } from "../../../../scripts/fairness/composition";
import { cellAs } from "../offline/cells";
import { ShareGuardrailsTable } from "./guardrails-table";

export type CompositionFigures = Json<
  AdoptedComposition & { by: "arm" | "team"; minGroup: number; guardrails: ShareGuardrailResult[] }
>;

/** "= 0.03", or "< 0.001" (formatP's own sign) without a doubled "= <". */
const pText = (p: number | null | undefined) =>
  (p !== null && p !== undefined && p < 0.001 ? "" : "= ") + formatP(p);

function rows(c: CompositionFigures) {
  const others = c.arms.filter((a) => a !== c.control);
  return Object.entries(c.attributes).flatMap(([attribute, a]) =>
    Object.entries(a.groups).map(([group, g]) => ({
      attribute,
      group: g.suppressed ? `${group} (${g.suppressed})` : group,
      pool: g.suppressed ? null : g.poolShare,
      ...Object.fromEntries(
        c.arms.flatMap((arm) => [
          [`share-${arm}`, g.arms?.[arm]?.value ?? null],
          [`ci-${arm}`, formatCi(g.arms?.[arm]?.ci, formatRate)],
        ]),
      ),
      ...Object.fromEntries(
        others.flatMap((arm) => [
          [`diff-${arm}`, g.differences?.[arm]?.value ?? null],
          [`diffCi-${arm}`, formatCi(g.differences?.[arm]?.ci, formatPp)],
          [`p-${arm}`, formatP(g.differences?.[arm]?.pValue)],
          [`holm-${arm}`, formatP(g.differences?.[arm]?.adjustedP)],
        ]),
      ),
    })),
  );
}

/** Groups whose share differs between an arm and the control beyond the interval. */
function findings(c: CompositionFigures) {
  return Object.entries(c.attributes).flatMap(([attribute, a]) =>
    Object.entries(a.groups).flatMap(([group, g]) =>
      Object.entries(g.differences ?? {}).flatMap(([arm, d]) =>
        d.ci && (d.ci.lower > 0 || d.ci.upper < 0) ? [{ attribute, group, arm, d, g }] : [],
      ),
    ),
  );
}

/**
 * "Composition of adopted candidates" on the experiment dashboard (issue 27): each group's share among the
 * candidates each arm's (or each team's) conveners adopted, the difference from the control with its
 * interval and test, and the share guardrails (unless the page shows them with its other guardrails).
 */
export function AdoptedCompositionSection({
  composition: c,
  guardrails = true,
}: {
  composition: CompositionFigures;
  guardrails?: boolean;
}) {
  const others = c.arms.filter((a) => a !== c.control);
  const found = findings(c);
  const unit = c.by === "team" ? "team" : "arm";
  return (
    <section aria-labelledby="composition-heading">
      <h2 id="composition-heading">Composition of adopted candidates</h2>
      <p className="muted">
        Each group's share among the candidates adopted in each {unit} (
        {c.arms.map((a) => `${a}: ${c.adopted[a]?.candidates ?? 0}`).join(", ")}), beside its share of the
        pool.
        {c.by === "team" ? " An adoption counts for the system that placed the candidate." : ""} Intervals:
        95% bootstrap over conveners; p-values: the matching bootstrap test of no difference, and “p (Holm)”
        the same adjusted by Holm across{" "}
        {c.comparisons === undefined
          ? "the groups (not in this snapshot, frozen before the adjustment)"
          : `the ${c.comparisons} comparisons of groups and ${unit}s`}{" "}
        (with many groups, about one in twenty unadjusted p-values is below 0.05 by chance). Groups with fewer
        than {c.minGroup} candidates are not shown.
      </p>
      {guardrails ? <ShareGuardrailsTable guardrails={c.guardrails} /> : null}
      {found.length > 0 ? (
        <ul>
          {found.map((f) => (
            <li key={`${f.attribute}\u0000${f.group}\u0000${f.arm}`}>
              {f.attribute} = {f.group}: {formatRate(f.g.arms?.[f.arm]?.value)} of {f.arm}'s adopted against{" "}
              {formatRate(f.g.arms?.[c.control]?.value)} of {c.control}'s, {formatPp(f.d.value)}{" "}
              {formatCi(f.d.ci, formatPp)}, p {pText(f.d.pValue)}
              {f.d.adjustedP !== undefined ? `, Holm p ${pText(f.d.adjustedP)}` : ""}.
            </li>
          ))}
        </ul>
      ) : (
        <p>No group's share of adopted candidates differs between {unit}s beyond its interval.</p>
      )}
      <ClientTable
        caption={`Each group's share of adopted candidates by ${unit}`}
        fileName="experiment-adopted-composition.csv"
        groupable={["attribute"]}
        pageSize={15}
        data={rows(c)}
        columns={[
          { id: "attribute", accessorKey: "attribute", header: "Attribute" },
          { id: "group", accessorKey: "group", header: "Group" },
          { id: "pool", accessorKey: "pool", header: "Pool share", ...cellAs(formatRate) },
          ...c.arms.flatMap((arm) => [
            { id: `share-${arm}`, accessorKey: `share-${arm}`, header: arm, ...cellAs(formatRate) },
            { id: `ci-${arm}`, accessorKey: `ci-${arm}`, header: `${arm} 95% CI` },
          ]),
          ...others.flatMap((arm) => [
            {
              id: `diff-${arm}`,
              accessorKey: `diff-${arm}`,
              header: `${arm} − ${c.control}`,
              ...cellAs(formatPp),
            },
            { id: `diffCi-${arm}`, accessorKey: `diffCi-${arm}`, header: `${arm} − ${c.control} 95% CI` },
            { id: `p-${arm}`, accessorKey: `p-${arm}`, header: "p" },
            { id: `holm-${arm}`, accessorKey: `holm-${arm}`, header: "p (Holm)" },
          ]),
        ]}
      />
    </section>
  );
}
