import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { scrollCue, TableScroll } from "./table-scroll";

/** The scroll cue of a wide table: a shadow on each edge that hides columns, none when nothing is hidden. */
describe("scrollCue", () => {
  it("shows no cue when the table fits, even by a fraction of a pixel of rounding", () => {
    expect(scrollCue({ scrollLeft: 0, scrollWidth: 800, clientWidth: 800 })).toEqual({
      overflows: false,
      left: false,
      right: false,
    });
    expect(scrollCue({ scrollLeft: 0, scrollWidth: 801, clientWidth: 800 }).overflows).toBe(false);
  });

  it("points right at the start, both ways in the middle, and left at the end", () => {
    const box = { scrollWidth: 1400, clientWidth: 390 };
    expect(scrollCue({ ...box, scrollLeft: 0 })).toEqual({ overflows: true, left: false, right: true });
    expect(scrollCue({ ...box, scrollLeft: 500 })).toEqual({ overflows: true, left: true, right: true });
    expect(scrollCue({ ...box, scrollLeft: 1010 })).toEqual({ overflows: true, left: true, right: false });
  });
});

describe("TableScroll on the server", () => {
  it("renders the table inside its scrolling box inside the frame that carries the cue, with no cue yet", () => {
    const html = renderToStaticMarkup(
      createElement(TableScroll, { label: "Figures", children: createElement("table", null) }),
    );
    expect(html).toBe('<div class="table-frame"><div class="table-scroll"><table></table></div></div>');
  });
});
