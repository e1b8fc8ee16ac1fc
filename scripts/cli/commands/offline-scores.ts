import { InvalidArgumentError } from "commander";
import type { SystemOffline } from "../../offline/report";
import { ciText, fmt, table } from "../output";

/** `--bands 0.9,0.8,0.5`: score thresholds, any order, at least one, each a finite number. */
export function bandList(value: string): number[] {
  const parts = value.split(",").map((s) => s.trim());
  if (parts.some((p) => p === "" || !Number.isFinite(Number(p))))
    throw new InvalidArgumentError("must be score thresholds separated by commas (0.9,0.8,0.5).");
  return [...new Set(parts.map(Number))].sort((a, b) => b - a);
}

/** A band edge with three significant digits, so small scores (PageRank's 0.00134) stay apart. */
const edge = (v: number) => String(Number(v.toPrecision(3)));

/** The score statistics, score bands and exposure of one system, as text tables. */
export function printScoreSections(s: SystemOffline) {
  const st = s.scoreStats;
  if (!st.scored) console.log(`Scores: ${s.key} gives no scores.`);
  else {
    const rows = [["overall", st.overall] as const, ...Object.entries(st.subjects)].map(([group, g]) => [
      group,
      g.count,
      g.mean,
      g.sd,
      g.min,
      g.q1,
      g.median,
      g.q3,
      g.max,
    ]);
    console.log(`Scores at ranks 1..${st.depth} (quartiles: type 7, linear interpolation):`);
    console.log(table(["group", "scores", "mean", "sd", "min", "q1", "median", "q3", "max"], rows, 3));
    console.log(
      `Mean score by rank: ${st.overall.meanByRank
        .slice(0, 10)
        .map((v, r) => `${r + 1}: ${fmt(v, 3)}`)
        .join(", ")}${st.depth > 10 ? ", …" : ""}`,
    );
  }
  if (s.scoreBands) {
    const b = s.scoreBands;
    console.log(
      `Score bands (${b.method === "deciles" ? "deciles of the scores" : "given thresholds"}; Wilson ${Math.round(b.level * 100)}% CI):`,
    );
    console.log(
      table(
        ["band", "candidates", "committee", "share", "ci"],
        b.bands.map((x) => [
          `${x.lower === null ? "−∞" : edge(x.lower)} … ${x.upper === null ? "∞" : edge(x.upper)}`,
          x.candidates,
          x.members,
          x.share,
          ciText(x.ci),
        ]),
      ),
    );
  }
  const e = s.exposure;
  console.log(
    `Diversity and exposure: prediction coverage ${fmt(e.overall.predictionCoverage)} (head = top ${e.headShare * 100}% of the catalog by top-K slots)`,
  );
  console.log(
    table(
      ["K", "long-tail share", "Gini", "subject entropy (bits)", "other-subject share", "no subject"],
      e.overall.byK.map((x) => [
        x.k,
        x.longTailShare,
        x.gini,
        x.subjectEntropy,
        x.otherSubjectShare,
        x.unknownSubjectShare,
      ]),
    ),
  );
}
