import MarkdownIt from "markdown-it";

// Raw HTML is off: an admin's instructions are shown to experts, so markup in them is escaped, and
// markdown-it refuses javascript: and other unsafe link schemes.
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

export function renderMarkdown(source: string): string {
  return md.render(source);
}
