/**
 * In the browser: the visible controls of the page's main part under 44 px (see `small`), and the ids and
 * intervals in table cells whose text lies on more than one line (a Range over the text has line boxes
 * at more than one height).
 */
export function layoutProblems() {
  const main = document.querySelector("main") ?? document.body;
  const shown = (el: HTMLElement) => el.getClientRects().length > 0;
  // Buttons, sort-header and pager links, <summary> toggles and text boxes: 44 px tall; link-looking
  // buttons ("more") and those links 44 px wide too.
  const tall = [...main.querySelectorAll<HTMLElement>("button, th > a, .pager a, summary, textarea")]
    .filter((el) => shown(el) && el.getBoundingClientRect().height < 43.5)
    .map(
      (el) =>
        `"${(el.innerText || el.getAttribute("placeholder") || el.tagName).trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().height)} px tall`,
    );
  const wide = [...main.querySelectorAll<HTMLElement>(".link-button, th > a, .pager a")]
    .filter((el) => shown(el) && el.getBoundingClientRect().width < 43.5)
    .map(
      (el) => `"${el.innerText.trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().width)} px wide`,
    );
  const small = [...tall, ...wide].slice(0, 5);
  const ID = /^[A-Za-z][\w.]*-[\w.-]*\d[\w.-]*$/;
  // "[10.1%, 14.2%]", "[+0.031, +0.066]": two bounds, no quotes or braces (a JSON array is no interval).
  const INTERVAL = /\[[^\][{}"]+,\s*[^\][{}"]+\]/g;
  const lines = (node: Text, from: number, to: number) => {
    const range = document.createRange();
    range.setStart(node, from);
    range.setEnd(node, to);
    const tops = new Set(
      [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
    );
    return tops.size;
  };
  const wrapped: string[] = [];
  for (const cell of main.querySelectorAll<HTMLElement>("td, th")) {
    if (cell.getClientRects().length === 0) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const text = node.data;
      const trimmed = text.trim();
      // An id alone in its text, or one word of a few ("experiment reviewer-ranker-v2" in the audit log).
      const words = trimmed.split(/\s+/);
      if (words.length <= 3)
        for (const m of text.matchAll(/\S+/g))
          if (ID.test(m[0]) && lines(node, m.index, m.index + m[0].length) > 1) wrapped.push(m[0]);
      for (const m of text.matchAll(INTERVAL))
        if (lines(node, m.index, m.index + m[0].length) > 1) wrapped.push(m[0]);
    }
  }
  return { small, wrapped: wrapped.slice(0, 5) };
}
