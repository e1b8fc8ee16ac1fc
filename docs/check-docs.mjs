// Checks README.md and docs/*.md: every relative link resolves (file and #anchor), and every backticked
// path of the tree (`scripts/eval/trec.ts`, `app/data/*.server.ts`, `e2e/fixtures/`) exists, or is a folder
// of the layer table in eslint.config.js.
// Run from anywhere: `node docs/check-docs.mjs`; exits 1 and lists what is broken.
import fs from "node:fs";
import path from "node:path";
import { layers } from "../eslint.config.js";

const root = path.resolve(import.meta.dirname, "..");
const pages = ["README.md", ...fs.readdirSync(path.join(root, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(file) {
  const seen = new Map();
  const found = new Set();
  let fenced = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}

/** The text outside fenced code blocks (links and paths in commands are checked by running them). */
const prose = (text) => text.replace(/^```[\s\S]*?^```/gm, "");

const treeRoots =
  /^(\.\.\/shared|shared|app|db|scripts|test|e2e|migrations|public|docs)\/|^(package|tsconfig)\.json$|^[\w-]+\.config\.(ts|js)$|^server\.ts$/;

function pathExists(candidate) {
  const clean = candidate.replace(/^shared\//, "../shared/");
  // A folder the layer table already names counts, though it may not be merged yet (db/results).
  if (clean.replace(/\/$/, "") in layers) return true;
  if (!clean.includes("*")) return fs.existsSync(path.join(root, clean));
  // A glob such as app/data/*.server.ts: some file in that folder must match.
  const dir = path.join(root, path.dirname(clean));
  const pattern = new RegExp(`^${path.basename(clean).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
  return fs.existsSync(dir) && fs.readdirSync(dir).some((name) => pattern.test(name));
}

const broken = [];
let links = 0;
let paths = 0;
for (const page of pages) {
  const text = prose(fs.readFileSync(path.join(root, page), "utf8"));
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    links += 1;
    const [file, anchor] = target.split("#");
    const resolved = file ? path.resolve(path.dirname(path.join(root, page)), file) : path.join(root, page);
    if (!fs.existsSync(resolved)) broken.push(`${page}: link ${target}: no such file`);
    else if (anchor && !anchors(resolved).has(anchor))
      broken.push(`${page}: link ${target}: no such heading`);
  }
  for (const [, code] of text.matchAll(/`([^`\s]+)`/g)) {
    const candidate = code.replace(/[.,;:]$/, "");
    // dist/ is build output; <domain> and the like are placeholders.
    if (!treeRoots.test(candidate) || candidate.startsWith("dist/") || candidate.includes("<")) continue;
    paths += 1;
    if (!pathExists(candidate)) broken.push(`${page}: path ${candidate} does not exist`);
  }
}
console.log(
  `${pages.length} pages, ${links} relative links, ${paths} backticked paths, ${broken.length} broken`,
);
for (const problem of broken) console.log(`  ${problem}`);
process.exitCode = broken.length ? 1 : 0;
