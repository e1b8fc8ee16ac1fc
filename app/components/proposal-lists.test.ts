import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RankedListSection } from "./proposal-lists";

type Props = Parameters<typeof RankedListSection>[0];

/** The Score column of a rendered list, cell by cell. */
function scores(items: { score: number | null }[]): string[] {
  const list = {
    systemKey: "hybrid",
    systemName: "Hybrid",
    items: items.map((item, i) => ({
      rank: i + 1,
      candidateId: i + 1,
      name: `Candidate ${i + 1}`,
      affiliation: "Somewhere",
      score: item.score,
    })),
  } as unknown as Props["list"];
  const html = renderToStaticMarkup(
    createElement(RankedListSection, { list, goldIds: new Set<number>(), goldCount: 0, depth: 10 }),
  );
  return [...html.matchAll(/<td class="num">([^<]*)<\/td><\/tr>/g)].map((m) => m[1]);
}

describe("a system's ranked list on the proposal page", () => {
  it("shows every score with the dashboards' three significant digits, whatever the system stored", () => {
    // The hybrid system stores raw floats (0.031544957774465976); the others four decimals.
    expect(
      scores([{ score: 0.031544957774465976 }, { score: 0.9762 }, { score: 12.5 }, { score: null }]),
    ).toEqual(["0.0315", "0.976", "12.5", "—"]);
  });
});
