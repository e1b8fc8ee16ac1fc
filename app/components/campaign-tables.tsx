import type { CampaignResults } from "../../scripts/metrics/campaign-results";
import type { Json } from "~/utils/json-type";
import { ClientTable } from "~/components/client-table";

const num = (v: number | null | undefined, d = 3) => (v === null || v === undefined ? "—" : v.toFixed(d));

/** How often n raters give the all-rater label, and the Kendall τ of the systems' order under n raters. */
export function LearningCurveTable({ curve }: { curve: { raters: number; labelAgreement: number; kendallTau: number | null }[] }) {
  return (
    <table aria-label="Label learning curve">
      <thead>
        <tr>
          <th className="num">Raters</th>
          <th className="num">Same label as all raters</th>
          <th className="num">Kendall τ of system order</th>
        </tr>
      </thead>
      <tbody>
        {curve.map((c) => (
          <tr key={c.raters}>
            <td className="num">{c.raters}</td>
            <td className="num">{(c.labelAgreement * 100).toFixed(1)}%</td>
            <td className="num">{num(c.kendallTau, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v.toFixed(4)));

/** nDCG@10 and Judged@10 of each system per subject, with intervals: sortable, groupable, downloadable. */
export function SubjectNdcgTable({ results }: { results: Json<CampaignResults> }) {
  return (
    <ClientTable
      caption="nDCG@10 by subject"
      fileName="expert-by-subject.csv"
      groupable={["subject", "system"]}
      data={results.systems.flatMap((s) =>
        Object.entries(s.subjects).map(([subject, g]) => ({
          subject,
          system: s.key,
          proposals: g.proposals,
          ndcg: round(g.measures["nDCG@10"]?.value),
          lower: round(g.measures["nDCG@10"]?.ci?.lower),
          upper: round(g.measures["nDCG@10"]?.ci?.upper),
          judged: round(g.measures["Judged@10"]?.value),
        })),
      )}
      columns={[
        { id: "subject", accessorKey: "subject", header: "Subject" },
        { id: "system", accessorKey: "system", header: "System" },
        { id: "proposals", accessorKey: "proposals", header: "Proposals", aggregatedCell: () => null },
        { id: "ndcg", accessorKey: "ndcg", header: "nDCG@10", aggregatedCell: () => null },
        { id: "lower", accessorKey: "lower", header: "95% CI lower", aggregatedCell: () => null },
        { id: "upper", accessorKey: "upper", header: "95% CI upper", aggregatedCell: () => null },
        { id: "judged", accessorKey: "judged", header: "Judged@10", aggregatedCell: () => null },
      ]}
    />
  );
}

/** nDCG@K (linear and exponential gain) and Judged@K per system, each with its interval. */
export function SystemResultsTable({ results, label }: { results: Json<CampaignResults>; label: string }) {
  const measures = results.ks.flatMap((k) => [`nDCG@${k}`, `nDCG(gain=exp)@${k}`, `Judged@${k}`]);
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th>System</th>
          <th className="num">Proposals</th>
          {measures.map((m) => (
            <th key={m} className="num">
              {m}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {results.systems.map((s) => (
          <tr key={s.key}>
            <th scope="row">{s.key}</th>
            <td className="num">{s.overall.proposals}</td>
            {measures.map((m) => (
              <td key={m} className="num">
                {num(s.overall.measures[m].value)}
                <div className="muted">{s.overall.measures[m].ci ? `${num(s.overall.measures[m].ci!.lower, 2)} – ${num(s.overall.measures[m].ci!.upper, 2)}` : ""}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The paired comparison of the systems on nDCG@10, as one sentence. */
export function ComparisonSentence({ results }: { results: Json<CampaignResults> }) {
  const c = results.comparison;
  if (!c) return null;
  return (
    <p>
      Paired comparison on nDCG@10 ({c.queries} proposals{c.holm ? ", Holm-adjusted" : ""}):{" "}
      {c.pairs.map((p) => `${p.b} − ${p.a} = ${num(p.difference)} (95% CI ${p.ci ? `${num(p.ci.lower)} – ${num(p.ci.upper)}` : "—"}, p = ${num(p.pAdjusted, 4)})`).join("; ")}.
    </p>
  );
}
