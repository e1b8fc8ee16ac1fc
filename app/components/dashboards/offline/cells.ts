import type { OfflineReport, Estimate } from "../../../../scripts/offline/report";
import type { Json } from "~/utils/json-type";
import { formatCi, formatValue } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";

export type Report = Json<OfflineReport>;
export type System = Report["systems"][number];

/** A system's overall estimate of one measure, when the report has it. */
export const estimate = (s: System, name: string) => s.overall.measures[name] as Json<Estimate> | undefined;

/** A measure's value in its unit (HR as a percentage, MRR and AP with three digits). */
export const show = (name: string, v: number | null | undefined) => formatValue(v, metricDisplay(name).kind);
export const showCi = (name: string, e: Json<Estimate> | undefined) => formatCi(e?.ci, (v) => show(name, v));

/** A table cell shown in a unit while the row (and its CSV) keeps the raw number. */
export const cellAs = (format: (v: number | null) => string) => ({
  cell: (c: { getValue: () => unknown }) => format(c.getValue() as number | null),
  aggregatedCell: () => null,
});

/** A missing figure as null, so the table and its CSV show it empty. */
export const raw = (v: number | null | undefined) => (v === undefined ? null : v);
