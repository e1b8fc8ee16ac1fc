import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CheckboxList, visibleOptions } from "./checkbox-list";

const subjects = ["Climate science", "Ecology", "Economics", "Machine learning", "Neuroscience"].map(
  (label, i) => ({ value: String(i + 1), label }),
);

describe("a searchable checkbox list in place of a Ctrl-click multiple select", () => {
  it("posts each ticked box under the field's name, as a multiple select did, with every box in the page", () => {
    const html = renderToStaticMarkup(
      createElement(CheckboxList, {
        name: "subjects",
        legend: "Subjects of expertise (experts)",
        options: subjects,
        defaultChecked: ["2", "4"],
      }),
    );
    expect(html).toContain("<legend>Subjects of expertise (experts)</legend>");
    expect(html).not.toContain("<select");
    const boxes = [...html.matchAll(/<input [^>]*type="checkbox"[^>]*>/g)].map(([tag]) => [
      /name="subjects"/.test(tag) ? /value="(\d)"/.exec(tag)![1] : "unnamed",
      / checked=""/.test(tag),
    ]);
    expect(boxes).toEqual([
      ["1", false],
      ["2", true],
      ["3", false],
      ["4", true],
      ["5", false],
    ]);
    expect(html).toContain("2 of 5 chosen");
  });

  it("filters by every word typed, in any case, and keeps the ticked ones in sight", () => {
    const labels = (query: string, checked: string[] = []) =>
      visibleOptions(subjects, query, new Set(checked)).map((o) => o.label);
    expect(labels("")).toHaveLength(5);
    expect(labels("eco")).toEqual(["Ecology", "Economics"]);
    expect(labels("LEARNING machine")).toEqual(["Machine learning"]);
    expect(labels("eco", ["5"])).toEqual(["Ecology", "Economics", "Neuroscience"]);
    expect(labels("physics")).toEqual([]);
  });
});
