import type { Estimate } from "../../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { ClientTable } from "~/components/client-table";
import { formatCi, formatCount, formatNumber, formatRate } from "~/utils/format";
import { metricLabel } from "~/utils/metrics-display";
import { cellAs, raw, show, type Report } from "./cells";

/** The measures of the by-subject table. */
const SUBJECT_MEASURES = ["Success@5", "Success@10", "Success@20", "RR@10", "AP", "PoolRecall"];

/** Each system's key measures within each subject, each with its 95% interval. */
export function SubjectTable({ report }: { report: Report }) {
  return (
    <ClientTable
      caption="Offline figures by system and subject"
      fileName="offline-by-subject.csv"
      groupable={["system", "subject"]}
      data={report.systems.flatMap((s) =>
        Object.entries(s.subjects).map(([subject, g]) => ({
          system: s.name,
          subject,
          proposals: g.proposals,
          weightShare: raw(g.weightShare),
          kHitMedian: raw(g.kHit?.median.value),
          kHitMedianCi: formatCi(g.kHit?.median.ci, formatNumber),
          kHitP90: raw(g.kHit?.p90.value),
          kHitP90Ci: formatCi(g.kHit?.p90.ci, formatNumber),
          ...Object.fromEntries(
            SUBJECT_MEASURES.flatMap((m) => {
              const e = g.measures[m] as Json<Estimate> | undefined;
              // The CSV keeps raw numbers (a share, not a percentage); the cell shows the measure's unit.
              return [
                [m, raw(e?.value)],
                [`${m} CI`, formatCi(e?.ci, String)],
                [`${m} ci`, e?.ci ?? null],
              ];
            }),
          ),
        })),
      )}
      columns={[
        { id: "system", accessorKey: "system", header: "System" },
        { id: "subject", accessorKey: "subject", header: "Subject" },
        { id: "proposals", accessorKey: "proposals", header: "Proposals", ...cellAs(formatCount) },
        { id: "weightShare", accessorKey: "weightShare", header: "Weight share", ...cellAs(formatRate) },
        // Each measure, then its 95% interval (text, as the K_hit columns): the CSV carries both.
        ...SUBJECT_MEASURES.flatMap((m) => [
          { id: m, accessorKey: m, header: metricLabel(m), ...cellAs((v) => show(m, v)) },
          {
            id: `${m} CI`,
            accessorKey: `${m} CI`,
            header: `${metricLabel(m)} CI`,
            cell: (c: { row: { original: Record<string, unknown> } }): string =>
              formatCi(c.row.original[`${m} ci`] as Json<Estimate>["ci"] | null, (v) => show(m, v)),
            aggregatedCell: (): null => null,
          },
        ]),
        { id: "kHitMedian", accessorKey: "kHitMedian", header: "K_hit median", ...cellAs(formatNumber) },
        { id: "kHitMedianCi", accessorKey: "kHitMedianCi", header: "K_hit median CI" },
        { id: "kHitP90", accessorKey: "kHitP90", header: "K_hit p90", ...cellAs(formatNumber) },
        { id: "kHitP90Ci", accessorKey: "kHitP90Ci", header: "K_hit p90 CI" },
      ]}
    />
  );
}
