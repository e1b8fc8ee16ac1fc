import type { CampaignResults } from "../../scripts/metrics/campaign-results";

import type { Json } from "~/utils/json-type";

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

/** nDCG@10 of each system per subject, with its interval. */
export function SubjectNdcgTable({ results }: { results: Json<CampaignResults> }) {
  return (
    <table aria-label="nDCG@10 by subject">
      <thead>
        <tr>
          <th>Subject</th>
          {results.systems.map((s) => (
            <th key={s.key} className="num">
              {s.key} nDCG@10
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.keys(results.systems[0]?.subjects ?? {}).map((subject) => (
          <tr key={subject}>
            <td>{subject}</td>
            {results.systems.map((s) => {
              const e = s.subjects[subject]?.measures["nDCG@10"];
              return (
                <td key={s.key} className="num">
                  {num(e?.value)}
                  <div className="muted">{e?.ci ? `${num(e.ci.lower, 2)} – ${num(e.ci.upper, 2)}` : ""}</div>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
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
