import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  test: {
    globals: true,
    include: ["{app,db,scripts,test}/**/*.test.{ts,tsx}"],
    globalSetup: ["./test/global-setup.ts"],
    pool: "forks",
    // Time limits catch a hang, not slowness: on a 2-core machine at load ~20 one spawned `assay` (tsx)
    // takes ~10 s, so a test of three commands passed 30 s. Tests wait on events, never on the clock.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
