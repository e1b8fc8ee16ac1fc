// Builds the `assay` CLI into dist/: the command loader and each command's module as ES module chunks
// (a command loads only its own), and the worker threads of `eval`, `online`, `agreement` and `fairness` as CommonJS files
// beside them. `npm install` (prepare) and `npm run build` run it; the CLI never compiles at run time.
// dist/ sits one level below the project, as scripts/ does, so paths the code takes from its own
// location (../migrations) hold in both.
import { build } from "esbuild";

// Small pure-JS packages are bundled in (resolving a package costs each start more than its code);
// the rest stay in node_modules: the database layer, and packages that find files beside themselves.
const bundled = new Set(["commander", "papaparse", "cli-progress"]);
const keepExternal = {
  name: "keep-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith("@")
        ? args.path.split("/").slice(0, 2).join("/")
        : args.path.split("/")[0];
      return bundled.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  plugins: [keepExternal],
  logLevel: "warning",
};
await build({
  ...common,
  entryPoints: { assay: "scripts/cli/assay.ts" },
  outdir: "dist",
  format: "esm",
  splitting: true,
  chunkNames: "chunk-[hash]",
  // A bundled CommonJS package may require Node's own modules; ES modules have no require of their own.
  banner: {
    js: 'import { createRequire as assayCreateRequire } from "node:module"; const require = assayCreateRequire(import.meta.url);',
  },
});
await build({
  ...common,
  entryPoints: {
    "trec-worker": "scripts/io/trec-worker.ts",
    "online-worker": "scripts/io/online-worker.ts",
    "online-decide-worker": "scripts/io/online-decide-worker.ts",
    "learning-curve-worker": "scripts/workers/learning-curve-worker.ts",
    "fairness-report-worker": "scripts/workers/fairness-report-worker.ts",
  },
  outdir: "dist",
  format: "cjs",
  outExtension: { ".js": ".cjs" },
});
