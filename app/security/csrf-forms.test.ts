import fs from "node:fs";
import path from "node:path";

/**
 * Every form that posts carries the CSRF token: the server refuses one without it (csrf.server.ts), so
 * a form that forgot `<CsrfInput />` would fail only when a user pressed its button. Read from the
 * source, so a new form cannot forget it without this test failing.
 */
const appDir = path.resolve(__dirname, "..");
const sources = (fs.readdirSync(appDir, { recursive: true }) as string[])
  // csrf.tsx, where the helpers live, names forms only in its doc comments.
  .filter((file) => file.endsWith(".tsx") && !file.endsWith("csrf.tsx"))
  .map((file) => ({ file, text: fs.readFileSync(path.join(appDir, file), "utf8") }));

function postingForms(text: string) {
  const forms: { line: number; body: string }[] = [];
  for (const match of text.matchAll(/<(Form|fetcher\.Form|form)\b([^>]*)>/g)) {
    if (!/method=["{]?["']?post/i.test(match[2])) continue;
    const close = text.indexOf(`</${match[1]}>`, match.index!);
    forms.push({
      line: text.slice(0, match.index).split("\n").length,
      body: text.slice(match.index!, close),
    });
  }
  return forms;
}

it("finds the app's posting forms", () => {
  expect(sources.flatMap(({ text }) => postingForms(text)).length).toBeGreaterThanOrEqual(15);
});

it("puts <CsrfInput /> in every form that posts", () => {
  const missing = sources.flatMap(({ file, text }) =>
    postingForms(text)
      .filter((form) => !form.body.includes("<CsrfInput"))
      .map((form) => `${file}:${form.line}`),
  );
  expect(missing).toEqual([]);
});

it("adds the token to every programmatic submit", () => {
  const bare = sources.flatMap(({ file, text }) =>
    [...text.matchAll(/\b(?:fetcher|submit)\w*\.submit\(|\bsubmit\(\s*(?!withCsrf)/g)]
      .filter((m) => !text.slice(m.index!, m.index! + 80).includes("withCsrf("))
      .map((m) => `${file}:${text.slice(0, m.index).split("\n").length}`),
  );
  expect(bare).toEqual([]);
});
