import type { AgreementReport } from "../../../../scripts/judgement/agreement";
import type { Json } from "~/utils/json-type";
import { Chart } from "~/components/chart";
import { formatCi, formatCount, formatNumber } from "~/utils/format";

const num = formatNumber;
const three = (v: unknown) => formatNumber(v as number | null);

/** Krippendorff's α without each expert in turn, against α with everyone. */
export function AgreementChart({ agreement }: { agreement: Json<AgreementReport> }) {
  return (
    <Chart
      title="Agreement per expert"
      table={{
        columns: [
          { key: "rater", label: "Expert" },
          { key: "alpha", label: "α without this expert", format: three },
        ],
        rows: agreement.leaveOneOut,
      }}
      caption={`Agreement without each expert (leave-one-out α); the line is α with everyone, ${num(agreement.alpha)}. An expert whose removal raises α disagrees most with the others.`}
      deps={[agreement]}
      build={(Plot) => ({
        marginLeft: 120,
        x: { label: "Krippendorff's α without this expert", domain: [0, 1], grid: true },
        y: { label: null },
        marks: [
          Plot.barX(agreement.leaveOneOut, { y: "rater", x: "alpha", fill: "#0b5cad" }),
          Plot.ruleX([agreement.alpha ?? 0], { stroke: "#b42318", strokeDasharray: "4 3" }),
        ],
      })}
    />
  );
}

/** The experts' agreement in one line: α with its interval, the pairs and the experts it rests on. */
export function AgreementSummary({ agreement }: { agreement: Json<AgreementReport> }) {
  return (
    <p>
      Krippendorff's α (ordinal) = {num(agreement.alpha)}, 95% CI {formatCi(agreement.ci, formatNumber)};{" "}
      {formatCount(agreement.items)} pairs, {formatCount(agreement.raters)} experts.
    </p>
  );
}
