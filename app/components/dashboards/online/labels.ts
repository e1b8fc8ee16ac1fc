import { onlineMetrics } from "../../../../scripts/online/report";
import { formatValue } from "~/utils/format";
import { metricDisplay } from "~/utils/metrics-display";

/** The online metrics' display names, from the one registry. */
export const metricLabels: Record<string, string> = Object.fromEntries(
  onlineMetrics.map((m) => [m, metricDisplay(m).label]),
);

/** A metric's value in its unit. */
export const fmt = (v: number | null | undefined, m: string) => formatValue(v, metricDisplay(m).kind);
