import { ClientTable } from "~/components/client-table";
import {
  formatCi,
  formatDifference,
  formatP,
  verdictByP,
  type Direction,
  type Verdict,
} from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";
import { VerdictLabel } from "../verdict";
import { cellAs, show, type Report } from "./cells";

/** The comparisons most decisions rest on come first; the rest follow in the report's order. */
const KEY_MEASURES = ["Success@10", "RR@10", "AP", "Rank(g=1)"];
const keyFirst = (measure: string) =>
  KEY_MEASURES.includes(measure) ? KEY_MEASURES.indexOf(measure) : KEY_MEASURES.length;

/** One row per comparison of two systems on one measure, key measures first, with its verdict. */
function comparisonRows(report: Report) {
  return [...report.comparisons]
    .sort((x, y) => keyFirst(x.measure) - keyFirst(y.measure))
    .map((c) => {
      const d = metricDisplay(c.measure);
      return {
        measure: d.label,
        code: c.measure,
        a: c.a,
        b: c.b,
        meanA: c.meanA,
        meanB: c.meanB,
        difference: c.difference,
        // The interval as it reads, in the difference's unit (its CSV cell too): "[+3.1 pp, +6.6 pp]".
        ci: c.ci ? formatCi(c.ci, (v) => formatDifference(v, d.kind)) : null,
        p: c.pValue,
        pHolm: c.pAdjusted,
        ...holmVerdict(c.difference, c.pValue, c.pAdjusted, d.direction),
        method: c.method,
      };
    });
}

/**
 * The verdict after Holm's adjustment, and its words: where the comparison alone (its unadjusted p, as
 * its unadjusted interval) would call it, but the adjusted p does not, the words say so, so that an
 * interval clear of zero never stands beside a bare "inconclusive".
 */
export function holmVerdict(
  difference: number | null,
  p: number | null,
  pHolm: number | null,
  direction: Direction,
): { verdict: Verdict; verdictText: string } {
  const verdict = verdictByP(difference, pHolm, direction);
  const alone = verdictByP(difference, p, direction);
  return {
    verdict,
    verdictText: verdict === alone ? verdict : `${verdict} after Holm (${alone} before)`,
  };
}

/** Every pair of systems on every measure: B − A with its paired 95% interval, p before and after Holm, and the verdict. */
export function PairwiseComparisons({ report }: { report: Report }) {
  if (report.comparisons.length === 0) return <p className="muted">One system only: nothing to compare.</p>;
  return (
    <ClientTable
      caption="Pairwise comparison"
      fileName="offline-comparisons.csv"
      groupable={["measure"]}
      pageSize={12}
      initiallyHidden={["code"]}
      data={comparisonRows(report)}
      columns={[
        { id: "measure", accessorKey: "measure", header: "Measure" },
        { id: "code", accessorKey: "code", header: "Code name" },
        { id: "a", accessorKey: "a", header: "A" },
        { id: "b", accessorKey: "b", header: "B" },
        {
          id: "meanA",
          accessorKey: "meanA",
          header: "Mean A",
          cell: (c) => show(c.row.original.code, c.getValue() as number),
          aggregatedCell: () => null,
        },
        {
          id: "meanB",
          accessorKey: "meanB",
          header: "Mean B",
          cell: (c) => show(c.row.original.code, c.getValue() as number),
          aggregatedCell: () => null,
        },
        {
          id: "difference",
          accessorKey: "difference",
          header: "B − A",
          cell: (c) => (
            <span className={`verdict verdict-${c.row.original.verdict}`}>
              {formatDifference(c.getValue() as number, metricDisplay(c.row.original.code).kind)}
            </span>
          ),
          aggregatedCell: () => null,
        },
        {
          id: "ci",
          accessorKey: "ci",
          header: "95% CI of B − A (unadjusted)",
          cell: (c) => (c.getValue() as string | null) ?? "—",
          aggregatedCell: () => null,
          enableSorting: false,
          meta: { numeric: true },
        },
        { id: "p", accessorKey: "p", header: "p", ...cellAs(formatP) },
        { id: "pHolm", accessorKey: "pHolm", header: "p (Holm)", ...cellAs(formatP) },
        {
          id: "verdict",
          accessorKey: "verdictText",
          header: "B vs A",
          cell: (c) => {
            const { verdict, verdictText } = c.row.original;
            return (
              <>
                <VerdictLabel verdict={verdict} />
                {verdictText === verdict ? null : (
                  <div className="muted">{verdictText.slice(verdict.length + 1)}</div>
                )}
              </>
            );
          },
          aggregatedCell: () => null,
        },
        { id: "method", accessorKey: "method", header: "Test" },
      ]}
    />
  );
}
