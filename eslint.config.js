import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The layers, bottom up: each folder and the folders it may import (besides itself). Read it as the map
 * of docs/architecture.md. The table must stay acyclic (checked below), so no two folders can import
 * each other. Tests are exempt: they may reach any layer to set up what they check.
 */
const pure = {
  "scripts/lib": [],
  "scripts/inputs": ["scripts/lib"],
  "scripts/stats": ["scripts/lib"],
  "scripts/trec-eval": ["scripts/lib"],
  "scripts/eval": ["scripts/lib", "scripts/stats", "scripts/trec-eval"],
  "scripts/online": ["scripts/lib", "scripts/stats", "scripts/inputs"],
  "scripts/assign": ["scripts/lib", "scripts/stats", "scripts/inputs"],
  "scripts/offline": ["scripts/lib", "scripts/stats", "scripts/eval", "scripts/inputs"],
  "scripts/judgement": ["scripts/lib", "scripts/stats", "scripts/eval", "scripts/inputs"],
  "scripts/interleaving": ["scripts/lib", "scripts/stats", "scripts/online"],
  "scripts/fairness": ["scripts/lib", "scripts/stats"],
  "scripts/clicks": ["scripts/lib", "scripts/stats", "scripts/eval", "scripts/offline"],
};
const pureAll = Object.keys(pure);
pure["scripts/results"] = [...pureAll];
const computing = { ...pure, "scripts/workers": [...pureAll], "scripts/io": [...pureAll, "scripts/workers"] };
const below = (...names) => [...Object.keys(computing), ...names];
const dbLayers = {
  "db/schema": ["scripts/inputs"],
  "db/platform": ["db/schema", "scripts/lib"],
  "db/audit": below("db/schema", "db/platform"),
  "db/catalog": below("db/schema", "db/platform", "db/audit"),
  "db/accounts": below("db/schema", "db/platform", "db/audit"),
  "db/campaigns": below("db/schema", "db/platform", "db/audit", "db/catalog", "db/accounts"),
  "db/experiments": below("db/schema", "db/platform", "db/audit", "db/catalog", "db/accounts"),
  "db/migrate.ts": ["db/platform"],
  "db/backup": below("db/schema", "db/platform", "db/migrate.ts"),
};
dbLayers["db/import"] = below(...Object.keys(dbLayers));
dbLayers["db/results"] = below(...Object.keys(dbLayers));
dbLayers["db/snapshots"] = below(...Object.keys(dbLayers));
dbLayers["db/migrate-cli.ts"] = ["db/platform", "db/migrate.ts"];
const dbAll = Object.keys(dbLayers);
export const layers = {
  ...computing,
  ...dbLayers,
  "scripts/demo": below(...dbAll),
  "scripts/cli": below(...dbAll, "scripts/demo"),
  "scripts/bench": below(...dbAll, "scripts/demo", "scripts/cli"),
  // The app: any file may use the pure computing folders; only `*.server.ts` modules reach the
  // database, files and threads (a separate zone below), so no server code can reach a browser bundle.
  app: below(...dbAll),
};
/** The folders that hold pure code: arrays in, numbers out; no I/O, database or UI. */
export const pureFolders = Object.keys(pure).map((folder) => folder.slice("scripts/".length));

function assertAcyclic(graph) {
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open")
      throw new Error(`The layer table has a cycle: ${[...path, node].join(" → ")}`);
    state.set(node, "open");
    for (const next of graph[node] ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of Object.keys(graph)) visit(node, []);
}
assertAcyclic(layers);

/** no-restricted-paths zones: every layer is forbidden all the others it is not allowed. */
function layerZones(table) {
  const names = Object.keys(table);
  const zones = names.map((name) => ({
    target: `./${name}`,
    from: names
      .filter((other) => other !== name && !table[name].includes(other))
      .map((other) => `./${other}`),
    message: `${name} may import only ${table[name].join(", ") || "nothing outside itself"} (eslint.config.js, docs/architecture.md).`,
  }));
  // Inside the app, only *.server.ts modules may reach the database, files and threads.
  zones.push({
    target: "./app/**/!(*.server).{ts,tsx}",
    from: ["./db/**", "./scripts/io/**", "./scripts/workers/**"],
    message:
      "In app/, only *.server.ts modules may import db/ or scripts/io and scripts/workers: go through app/data/*.server.ts.",
  });
  return zones;
}

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".data/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      ".cache/",
      "dist/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-empty-pattern": "off",
    },
  },
  // A function longer than this is split where its parts have names (tests' describe blocks are exempt).
  {
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts", "scripts/**/*.{ts,mjs}", "server.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Playwright fixtures name their callback `use`; it is not a React hook.
  { files: ["e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  // The layer rules of docs/architecture.md: which folder may import which (eslint.layers.js), no
  // import cycle between modules, and no Node I/O in the pure computing folders. Tests may reach across.
  {
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts", "scripts/**/*.{ts,mjs}", "server.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: layerZones(layers) }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: pureFolders.map((folder) => `scripts/${folder}/**/*.ts`),
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "node:*",
                "!node:crypto",
                "fs",
                "fs/*",
                "path",
                "os",
                "worker_threads",
                "zlib",
                "readline",
              ],
              message:
                "The pure computing folders take arrays and return numbers: file and thread code goes in scripts/io or scripts/workers.",
            },
            {
              group: [
                "drizzle-orm",
                "drizzle-orm/*",
                "postgres",
                "piscina",
                "@remix-run/*",
                "react",
                "react-dom",
              ],
              message: "The pure computing folders use no database, server or UI library.",
            },
          ],
        },
      ],
    },
  },
);
