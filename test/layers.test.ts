import path from "node:path";
import { ESLint } from "eslint";

/**
 * The layer rules of eslint.config.js fail an import that runs the wrong way. Each case lints a file
 * that does not exist at a real place in the tree, as `npm run lint` would lint it if it did.
 */
const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the layer rules", () => {
  it("refuse db/ importing the app", async () => {
    const found = await problems(
      "db/catalog/probe.ts",
      'import { loader } from "../../app/root";\nexport const probe = loader;\n',
    );
    expect(found).toEqual([expect.stringMatching(/no-restricted-paths: .*db\/catalog may import only/)]);
  });

  it("refuse the database or Node's file system in a pure computing folder", async () => {
    const found = await problems(
      "scripts/stats/probe.ts",
      'import fs from "node:fs";\nimport { listSystems } from "../../db/catalog/catalog";\nexport const probe = [fs, listSystems];\n',
    );
    expect(found).toEqual([
      expect.stringMatching(/no-restricted-imports: .*pure computing folders/),
      expect.stringMatching(/no-restricted-paths: .*scripts\/stats may import only scripts\/lib/),
    ]);
  });

  it("refuse a lower computing folder importing a higher one (no two folders import each other)", async () => {
    const found = await problems(
      "scripts/eval/probe.ts",
      'import { offlineReport } from "../offline/report";\nexport const probe = offlineReport;\n',
    );
    expect(found).toEqual([expect.stringMatching(/no-restricted-paths: .*scripts\/eval may import only/)]);
  });

  it("let only *.server.ts modules of the app reach the database", async () => {
    const code =
      'import { listSystems } from "../../db/catalog/catalog";\nexport const probe = listSystems;\n';
    expect(await problems("app/routes/probe.tsx", code)).toEqual([
      expect.stringMatching(/only \*\.server\.ts modules/),
    ]);
    expect(await problems("app/data/probe.server.ts", code)).toEqual([]);
  });

  it("refuse the command line importing the app", async () => {
    const found = await problems(
      "scripts/cli/probe.ts",
      'import { action } from "../../app/routes/login";\nexport const probe = action;\n',
    );
    expect(found).toEqual([expect.stringMatching(/scripts\/cli may import only/)]);
  });

  it("let an allowed import through", async () => {
    expect(
      await problems(
        "scripts/offline/probe.ts",
        'import { ndcg } from "../eval/registry/ndcg";\nexport const probe = ndcg;\n',
      ),
    ).toEqual([]);
  });
});
