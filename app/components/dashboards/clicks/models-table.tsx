import { TableScroll } from "~/components/table-scroll";
import { metricDisplay } from "~/utils/metrics-display";
import type { ClicksFit } from "./fit";
import { fmt, fmtCi, label } from "./labels";

/** The model table's columns, in the reference table's order; labels and units from the one registry. */
const MODEL_COLUMNS = [
  "logLikelihood",
  "perplexity",
  "ctrPredictionRmse",
  "relevanceAuc",
  "rankingNdcg5",
  "trainSeconds",
] as const;

/** The columns with a bootstrap interval, and where the model row keeps it. */
const INTERVALS = {
  logLikelihood: "logLikelihoodCi",
  perplexity: "perplexityCi",
  ctrPredictionRmse: "ctrPredictionRmseCi",
  relevanceAuc: "relevanceAucCi",
  rankingNdcg5: "rankingNdcg5Ci",
} as const;

/** Every click model's fit on the held-out sessions, each measure with its interval (training time aside). */
export function ModelsTable({ fit }: { fit: ClicksFit }) {
  return (
    <TableScroll label="Click models on held-out sessions">
      <table aria-label="Click models on held-out sessions">
        <thead>
          <tr>
            <th>Model</th>
            {MODEL_COLUMNS.map((c) => (
              <th key={c} className="num" title={metricDisplay(c).description}>
                {label(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {fit.models.map((m) => (
            <tr key={m.name}>
              <th scope="row">{m.name}</th>
              {MODEL_COLUMNS.map((c) => (
                <td key={c} className="num">
                  {fmt(m[c], c)}
                  {c in INTERVALS ? (
                    <div className="muted">{fmtCi(m[INTERVALS[c as keyof typeof INTERVALS]], c)}</div>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
