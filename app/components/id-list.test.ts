import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { IdList } from "./id-list";

it("keeps each id of a list whole (its own nowrap span) and breaks only between ids", () => {
  expect(renderToStaticMarkup(createElement(IdList, { text: "cand-0233, cand-0396 (#3)" }))).toBe(
    '<span class="id">cand-0233</span>, <span class="id">cand-0396 (#3)</span>',
  );
  expect(renderToStaticMarkup(createElement(IdList, { text: "" }))).toBe("");
});
