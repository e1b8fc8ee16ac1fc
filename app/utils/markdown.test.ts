import { renderMarkdown } from "./markdown.server";

describe("renderMarkdown", () => {
  it("renders markdown and escapes HTML and unsafe links", () => {
    expect(renderMarkdown("**Grade** each card.")).toBe("<p><strong>Grade</strong> each card.</p>\n");
    const hostile = renderMarkdown(
      '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror="alert(1)">',
    );
    expect(hostile).not.toContain("<script>");
    expect(hostile).not.toContain("<img");
    expect(hostile).not.toContain('href="javascript:');
  });
});
