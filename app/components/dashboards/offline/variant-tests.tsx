import { ClientTable } from "~/components/client-table";
import { formatCount, formatNumber, formatP } from "~/utils/format";
import { TableScroll } from "~/components/table-scroll";
import { metricLabel } from "~/utils/metrics-display";
import { cellAs, raw, show, type Report } from "./cells";

/**
 * Query variants (phrasings of a proposal's query): each variant against `default` over the proposals
 * that have both, with the report's paired test, Holm-adjusted per system. Nothing when no system has
 * a second variant.
 */
export function VariantTests({ report }: { report: Report }) {
  const data = report.systems.flatMap((s) =>
    (s.variants?.tests ?? []).map((t) => ({
      system: s.name,
      variant: t.variant,
      measure: metricLabel(t.measure),
      code: t.measure,
      proposals: t.proposals,
      meanDefault: raw(t.meanDefault),
      meanVariant: raw(t.meanVariant),
      pAdjusted: raw(t.pAdjusted),
      method: t.method,
    })),
  );
  if (!data.length) return null;
  const inUnit = {
    cell: (c: { getValue: () => unknown; row: { original: { code: string } } }) =>
      show(c.row.original.code, c.getValue() as number | null),
    aggregatedCell: () => null,
  };
  return (
    <>
      <h2>Query variants against the default</h2>
      <ClientTable
        caption="Query variants against the default"
        fileName="offline-variant-tests.csv"
        groupable={["system", "variant"]}
        initiallyHidden={["code"]}
        data={data}
        columns={[
          { id: "system", accessorKey: "system", header: "System" },
          { id: "variant", accessorKey: "variant", header: "Variant" },
          { id: "measure", accessorKey: "measure", header: "Measure" },
          { id: "code", accessorKey: "code", header: "Code" },
          { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
          { id: "meanDefault", accessorKey: "meanDefault", header: "Default", ...inUnit },
          { id: "meanVariant", accessorKey: "meanVariant", header: "Variant mean", ...inUnit },
          { id: "pAdjusted", accessorKey: "pAdjusted", header: "p (Holm)", ...cellAs(formatP) },
          { id: "method", accessorKey: "method", header: "Test" },
        ]}
      />
      <FriedmanTable report={report} />
    </>
  );
}

/** Friedman's test per system and measure: does the variant change the figure at all (three variants or more)? */
function FriedmanTable({ report }: { report: Report }) {
  const rows = report.systems.flatMap((s) =>
    (s.variants?.friedman ?? []).map((f) => ({ system: s.name, ...f })),
  );
  if (!rows.length) return null;
  return (
    <TableScroll label="Friedman's test over every variant">
      <table aria-label="Friedman's test over every variant">
        <caption className="muted">
          Friedman's test over the proposals that have every variant: whether the phrasing changes the figure
          at all (each test alone, not adjusted).
        </caption>
        <thead>
          <tr>
            <th>System</th>
            <th>Measure</th>
            <th className="num">Variants</th>
            <th className="num">Proposals</th>
            <th className="num">χ²</th>
            <th className="num">p</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={`${f.system}-${f.measure}`}>
              <th scope="row">{f.system}</th>
              <td>{metricLabel(f.measure)}</td>
              <td className="num">{formatCount(f.variants)}</td>
              <td className="num">{formatCount(f.proposals)}</td>
              <td className="num">{formatNumber(f.statistic)}</td>
              <td className="num">{formatP(f.pValue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
