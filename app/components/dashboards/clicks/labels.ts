import { formatCi, formatValue } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";

/** A click measure's value in its unit, from the one registry. */
export const fmt = (v: number | null | undefined, code: string) => formatValue(v, metricDisplay(code).kind);
/** A click measure's display name, from the one registry. */
export const label = (code: string) => metricDisplay(code).label;
/** A click measure's 95% interval in its unit ("—" where there is none, as in older snapshots). */
export const fmtCi = (ci: { lower: number; upper: number } | null | undefined, code: string) =>
  formatCi(ci, (v) => fmt(v, code));
