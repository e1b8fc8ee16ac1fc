import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { offlineReport, type OfflineInput } from "../../../../scripts/offline/report";
import { resultRows } from "../../../../scripts/results/rows";
import { formatCi, formatNumber, formatRate } from "~/utils/format";
import { HitRateTable } from "./hit-rate-table";
import { RankDistributionTable } from "./rank-distribution";
import { SubjectTable } from "./subject-table";

/** Pool recall, K_hit and the rank distribution with their intervals, on the offline report's tables. */

const cells = (html: string) =>
  [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, "").trim()),
  );

// p1 finds its member at 1, p2 at 2, p3 never (pool recall 1, 1, 0); p4 has two members at 1 and 3.
const input: OfflineInput = {
  proposals: ["p1", "p2", "p3", "p4"].map((id) => ({ id, subject: "s" })),
  gold: new Map([
    ["p1", new Set(["a"])],
    ["p2", new Set(["b"])],
    ["p3", new Set(["c"])],
    ["p4", new Set(["d", "e"])],
  ]),
  systems: [
    {
      key: "sys",
      name: "System",
      lists: new Map([
        ["p1", new Map([["default", ["a", "x"]]])],
        ["p2", new Map([["default", ["x", "b"]]])],
        ["p3", new Map([["default", ["x", "y"]]])],
        ["p4", new Map([["default", ["d", "x", "e"]]])],
      ]),
    },
  ],
  catalog: new Set(["a", "b", "c", "d", "e", "x", "y"]),
};
const report = JSON.parse(JSON.stringify(offlineReport(input, { ks: [1, 2], B: 400, seed: "t" })));
const [system] = report.systems;

it("shows pool recall with its interval in the headline table, as the other measures", () => {
  const pool = system.overall.measures.PoolRecall;
  // Pool recall per proposal 1, 1, 0, 1: the mean ¾; resamples reach 0 (p3 four times is 1 in 256).
  expect(pool.value).toBe(0.75);
  expect(pool.ci.lower).toBeLessThan(0.75);
  const [header, row] = cells(renderToStaticMarkup(createElement(HitRateTable, { report })));
  const at = header.indexOf("Pool recall");
  expect(row[at]).toBe(`${formatRate(0.75)}${formatCi(pool.ci, formatRate)}`);
});

it("gives the rank distribution's mean, median and p90 their intervals; g = 1's median and p90 are K_hit's", () => {
  const html = renderToStaticMarkup(createElement(RankDistributionTable, { report }));
  const [header, g1] = cells(html);
  expect(header).toEqual(
    expect.arrayContaining(["Mean rank", "Mean CI", "Median", "Median CI", "p90", "p90 CI"]),
  );
  expect(g1[header.indexOf("Median CI")]).toBe(formatCi(system.kHit.median.ci, formatNumber));
  expect(g1[header.indexOf("p90 CI")]).toBe(formatCi(system.kHit.p90.ci, formatNumber));
  // The ranks 1, 2, 1 of the first member: the mean's interval runs between the all-1 and all-2 resamples.
  expect(system.rankDistribution[0].meanCi).toEqual({ lower: 1, upper: 2 });
  expect(g1[header.indexOf("Mean CI")]).toBe(formatCi({ lower: 1, upper: 2 }, formatNumber));
});

it("adds a pool recall CI column to the subject table, and the intervals to the snapshot's rows", () => {
  const [header, row] = cells(renderToStaticMarkup(createElement(SubjectTable, { report })));
  expect(header[header.indexOf("Pool recall") + 1]).toBe("Pool recall CI");
  expect(row[header.indexOf("Pool recall CI")]).toBe(
    formatCi(system.subjects.s.measures.PoolRecall.ci, formatRate),
  );
  const rows = resultRows("offline", report).filter((r) => r.group === "overall");
  const find = (measure: string) => rows.find((r) => r.measure === measure);
  expect(find("PoolRecall")).toMatchObject({ value: 0.75, ...system.overall.measures.PoolRecall.ci });
  expect(find("Rank(g=1) mean")).toMatchObject({ lower: 1, upper: 2 });
  // g = 2: only p4 has two members retrieved (rank 3): every resample is p4.
  expect(find("Rank(g=2) median")).toMatchObject({ value: 3, lower: 3, upper: 3 });
  expect(find("Rank(g=1) median")).toBeUndefined();
  // The overall K_hit (the system's own, not a group's) is there with its interval.
  expect(find("K_hit median")).toMatchObject({ value: system.kHit.median.value, ...system.kHit.median.ci });
});
