/**
 * In the browser: the visible buttons of the page's main part shorter than 44 px, and the ids and
 * intervals in table cells whose text lies on more than one line (a Range over the text has line boxes
 * at more than one height).
 */
export function layoutProblems() {
  const main = document.querySelector("main") ?? document.body;
  const small = [...main.querySelectorAll<HTMLElement>("button")]
    .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().height < 43.5)
    .slice(0, 5)
    .map((b) => `"${b.innerText.trim().slice(0, 30)}" ${Math.round(b.getBoundingClientRect().height)} px`);
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
