import { defineConfig, devices } from "@playwright/test";

const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * Browser tests run against a production build served by `server.ts` on a free port with its own
 * data directory (see e2e/global-setup.ts), in Debian's Chromium.
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Limits catch a hang, not slowness: on a loaded 2-core machine signing in alone took 25 s. Every wait
  // is on something the page shows, so a longer limit costs nothing when the machine is fast.
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
});
