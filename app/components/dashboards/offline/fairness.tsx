import { ClientTable } from "~/components/client-table";
import type { Json } from "~/utils/json-type";
import { formatCi, formatNumber, formatRate } from "~/utils/format";
import type { Figure, SystemFairness } from "../../../../scripts/fairness/report";
import { cellAs } from "./cells";
import { FairnessMerit } from "./fairness-merit";
import { ShareByKChart } from "./fairness-chart";
import { FairnessTargetsForm } from "./fairness-targets-form";

export type FairnessFigures = Json<Record<string, SystemFairness>>;
type Fig = Json<Figure> | undefined;

const value = (f: Fig) => f?.value ?? null;
const ci = (f: Fig, format: (v: number) => string) => formatCi(f?.ci, format);

/** One row per attribute, group, system and K: the group's share and exposure of the top K. */
function representationRows(report: FairnessFigures, ks: number[]) {
  return Object.entries(report).flatMap(([system, s]) =>
    Object.entries(s.attributes).flatMap(([attribute, a]) =>
      Object.entries(a.groups).flatMap(([group, g]) =>
        ks.map((k) => ({
          attribute,
          group,
          system,
          k,
          pool: g.suppressed ? null : g.poolShare,
          target: g.target ?? null,
          committees: value(g.figures.committees),
          committeesCi: ci(g.figures.committees, formatRate),
          share: g.suppressed ? null : value(g.figures[`share@${k}`]),
          shareCi: g.suppressed ? (g.suppressed as string) : ci(g.figures[`share@${k}`], formatRate),
          exposure: value(g.figures[`exposure@${k}`]),
          exposureCi: ci(g.figures[`exposure@${k}`], formatRate),
        })),
      ),
    ),
  );
}

/** One row per attribute, group and system: mean exposure and the rank-fairness measures. */
function rankRows(report: FairnessFigures) {
  return Object.entries(report).flatMap(([system, s]) =>
    Object.entries(s.attributes).flatMap(([attribute, a]) =>
      Object.entries(a.groups).map(([group, g]) => ({
        attribute,
        group: g.suppressed ? `${group} (${g.suppressed})` : group,
        system,
        meanExposure: value(g.figures.meanExposure),
        meanExposureCi: ci(g.figures.meanExposure, (v) => formatNumber(v)),
        rND: value(g.figures.rND),
        rKL: value(g.figures.rKL),
        rRD: value(g.figures.rRD),
      })),
    ),
  );
}

/** The largest shortfall of a group's share of the top K against its share of the pool, per system. */
function shortfalls(report: FairnessFigures, k: number) {
  return Object.entries(report).flatMap(([system, s]) => {
    const worst = Object.entries(s.attributes)
      .flatMap(([attribute, a]) =>
        Object.entries(a.groups)
          .filter(([, g]) => !g.suppressed && g.figures[`share@${k}`]?.ci)
          .map(([group, g]) => ({ attribute, group, pool: g.poolShare, share: g.figures[`share@${k}`]! })),
      )
      .filter((x) => x.share.ci!.upper < x.pool)
      .sort((x, y) => x.share.value! / x.pool - y.share.value! / y.pool)[0];
    return worst ? [{ system, ...worst }] : [];
  });
}

/**
 * The "Fairness and diversity" section of the offline report: how each group of candidates (by their
 * imported attributes) is represented and exposed in each system's lists, and how diverse the lists are.
 */
export function Fairness({
  report,
  ks,
  minGroup,
  targets = "",
}: {
  report: FairnessFigures;
  ks: number[];
  minGroup: number;
  /** The targets as the URL carries them (`gender=f:0.4, …`); the field is left out where none can be set (a snapshot). */
  targets?: string | null;
}) {
  const k = ks.includes(10) ? 10 : ks[0];
  const findings = shortfalls(report, k);
  return (
    <section aria-labelledby="fairness-heading">
      <h2 id="fairness-heading">Fairness and diversity</h2>
      <p className="muted">
        Candidates' group attributes (imported, never shown to experts) against each system's lists: a group's
        share of the top K and of its exposure (position weight 1/log2(rank + 1)) beside its share of the
        pool, the gold committees' and the target you set; exposure per unit of merit (committee membership)
        against the other candidates'; rND, rKL and rRD (0 fair, 1 the least fair ranking of the list); AWRF
        (1 when attention matches the pool). Groups with fewer than {minGroup} candidates are not shown.
        Intervals: 95% bootstrap over proposals.
      </p>
      {findings.length > 0 ? (
        <ul>
          {findings.map((f) => (
            <li key={f.system}>
              <strong>{f.system}</strong>: {f.attribute} = {f.group} holds {formatRate(f.share.value)}{" "}
              {ci(f.share, formatRate)} of the top {k}, against {formatRate(f.pool)} of the pool.
            </li>
          ))}
        </ul>
      ) : (
        <p>No group's share of the top {k} is below its share of the pool beyond its interval.</p>
      )}
      {targets !== null ? <FairnessTargetsForm targets={targets} /> : null}
      {Object.keys(Object.values(report)[0]?.attributes ?? {}).map((attribute) => (
        <ShareByKChart key={attribute} report={report} attribute={attribute} ks={ks} />
      ))}
      <FairnessTables report={report} ks={ks} />
      <FairnessMerit report={report} />
    </section>
  );
}

function FairnessTables({ report, ks }: { report: FairnessFigures; ks: number[] }) {
  return (
    <>
      <ClientTable
        caption="Representation of each group in the top K"
        fileName="offline-fairness-representation.csv"
        groupable={["attribute", "system", "k"]}
        pageSize={15}
        data={representationRows(report, ks)}
        columns={[
          { id: "attribute", accessorKey: "attribute", header: "Attribute" },
          { id: "group", accessorKey: "group", header: "Group" },
          { id: "system", accessorKey: "system", header: "System" },
          { id: "k", accessorKey: "k", header: "K" },
          { id: "pool", accessorKey: "pool", header: "Pool share", ...cellAs(formatRate) },
          { id: "target", accessorKey: "target", header: "Target", ...cellAs(formatRate) },
          { id: "committees", accessorKey: "committees", header: "Committees' share", ...cellAs(formatRate) },
          { id: "committeesCi", accessorKey: "committeesCi", header: "95% CI  " },
          { id: "share", accessorKey: "share", header: "Share of top K", ...cellAs(formatRate) },
          { id: "shareCi", accessorKey: "shareCi", header: "95% CI" },
          { id: "exposure", accessorKey: "exposure", header: "Exposure of top K", ...cellAs(formatRate) },
          { id: "exposureCi", accessorKey: "exposureCi", header: "95% CI " },
        ]}
      />
      <ClientTable
        caption="Rank fairness of each group"
        fileName="offline-fairness-rank.csv"
        groupable={["attribute", "system"]}
        pageSize={15}
        data={rankRows(report)}
        columns={[
          { id: "attribute", accessorKey: "attribute", header: "Attribute" },
          { id: "group", accessorKey: "group", header: "Group" },
          { id: "system", accessorKey: "system", header: "System" },
          {
            id: "meanExposure",
            accessorKey: "meanExposure",
            header: "Mean exposure",
            ...cellAs(formatNumber),
          },
          { id: "meanExposureCi", accessorKey: "meanExposureCi", header: "95% CI" },
          { id: "rND", accessorKey: "rND", header: "rND", ...cellAs(formatNumber) },
          { id: "rKL", accessorKey: "rKL", header: "rKL", ...cellAs(formatNumber) },
          { id: "rRD", accessorKey: "rRD", header: "rRD", ...cellAs(formatNumber) },
        ]}
      />
      <ClientTable
        caption="Attention fairness and diversity by K"
        fileName="offline-fairness-diversity.csv"
        groupable={["system"]}
        pageSize={15}
        data={diversityRows(report, ks)}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "k", accessorKey: "k", header: "K" },
          ...Object.keys(Object.values(report)[0]?.attributes ?? {}).map((a) => ({
            id: `awrf-${a}`,
            accessorKey: `awrf-${a}`,
            header: `AWRF (${a})`,
            ...cellAs(formatNumber),
          })),
          { id: "alpha", accessorKey: "alpha", header: "α-nDCG (subjects)", ...cellAs(formatNumber) },
          { id: "strec", accessorKey: "strec", header: "Subject recall", ...cellAs(formatRate) },
        ]}
      />
    </>
  );
}

function diversityRows(report: FairnessFigures, ks: number[]) {
  return Object.entries(report).flatMap(([system, s]) =>
    ks.map((k) => ({
      system,
      k,
      ...Object.fromEntries(
        Object.entries(s.attributes).map(([a, f]) => [`awrf-${a}`, value(f.figures[`AWRF@${k}`])]),
      ),
      alpha: value(s.diversity?.[`alpha-nDCG@${k}`]),
      strec: value(s.diversity?.[`strec@${k}`]),
    })),
  );
}
