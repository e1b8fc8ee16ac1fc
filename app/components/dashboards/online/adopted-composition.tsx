import { ClientTable } from "~/components/client-table";
import { TableScroll } from "~/components/table-scroll";
import type { Json } from "~/utils/json-type";
import { formatCi, formatP, formatPp, formatRate } from "~/utils/format";
import type { AdoptedComposition, ShareGuardrailResult } from "../../../../scripts/fairness/composition";
import { cellAs } from "../offline/cells";

export type CompositionFigures = Json<
  AdoptedComposition & { by: "arm" | "team"; minGroup: number; guardrails: ShareGuardrailResult[] }
>;

/** "= 0.03", or "< 0.001" (formatP's own sign) without a doubled "= <". */
const pText = (p: number | null | undefined) =>
  (p !== null && p !== undefined && p < 0.001 ? "" : "= ") + formatP(p);

const stateClass = { ok: "better", "at risk": "inconclusive", failing: "worse" } as const;

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

function ShareGuardrails({ c }: { c: CompositionFigures }) {
  if (c.guardrails.length === 0) return null;
  return (
    <TableScroll label="Share guardrails">
      <table aria-label="Share guardrails">
        <thead>
          <tr>
            <th>Guardrail</th>
            <th className="num">Control</th>
            <th>Variation (95% interval)</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {c.guardrails.map((g) => (
            <tr key={`${g.arm}-${g.attribute}-${g.value}-${g.min ?? ""}-${g.max ?? ""}`}>
              <td>
                share of {g.attribute} = {g.value} among adopted{" "}
                {g.min !== undefined ? `≥ ${formatRate(g.min)}` : `≤ ${formatRate(g.max)}`}
                <div className="muted">{g.arm}</div>
              </td>
              <td className="num">{formatRate(g.control)}</td>
              <td>
                {g.reason ? (
                  <span className="muted">{g.reason}</span>
                ) : (
                  <>
                    {formatRate(g.share?.value)}{" "}
                    <span className="muted">{formatCi(g.share?.ci, formatRate)}</span>
                  </>
                )}
              </td>
              <td>
                <span className={`verdict verdict-${stateClass[g.state]}`}>{g.state}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * "Composition of adopted candidates" on the experiment dashboard (issue 27): each group's share among the
 * candidates each arm's (or each team's) conveners adopted, the difference from the control with its
 * interval and test, and the share guardrails.
 */
export function AdoptedCompositionSection({ composition: c }: { composition: CompositionFigures }) {
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
        95% bootstrap over conveners; p-values: the matching bootstrap test of no difference, each unadjusted
        (with many groups, about one in twenty is below 0.05 by chance). Groups with fewer than {c.minGroup}{" "}
        candidates are not shown.
      </p>
      <ShareGuardrails c={c} />
      {found.length > 0 ? (
        <ul>
          {found.map((f) => (
            <li key={`${f.attribute}\u0000${f.group}\u0000${f.arm}`}>
              {f.attribute} = {f.group}: {formatRate(f.g.arms?.[f.arm]?.value)} of {f.arm}'s adopted against{" "}
              {formatRate(f.g.arms?.[c.control]?.value)} of {c.control}'s, {formatPp(f.d.value)}{" "}
              {formatCi(f.d.ci, formatPp)}, p {pText(f.d.pValue)}.
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
          ]),
        ]}
      />
    </section>
  );
}
