import { demoLogin, expect, signIn, test } from "./test";

test("an analyst opens the experiment's click models, reads the curve as a table, and freezes them", async ({
  page,
}) => {
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst/experiments/reviewer-ranker-v2");
  await page.getByRole("link", { name: /^Click models/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Click models · Embedding ranker vs keyword baseline",
  );
  // Pending first if the fit is slow; the page asks again by itself until the models are there.
  const models = page.getByRole("table", { name: "Click models on held-out sessions" });
  await expect(models).toBeVisible({ timeout: 60_000 });
  await expect(models.getByRole("rowheader")).toHaveText([
    "GCTR",
    "RCTR",
    "DCTR",
    "PBM",
    "CM",
    "DCM",
    "SDCM",
    "CCM",
    "DBN",
    "SDBN",
    "UBM",
    "TCM",
  ]);
  const pbm = await models.getByRole("row", { name: /^PBM / }).innerText();
  // Log-likelihood and perplexity with their 95% intervals, and how they were made.
  expect(pbm).toMatch(/−0\.\d+\s*\[−0\.\d+,\s−0\.\d+\]/);
  await expect(page.getByText(/bootstrap over conveners .* B = 1,000/)).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^PBM's probability that a convener looks at each rank/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await expect(page.getByRole("table", { name: "Examination by rank" })).toBeHidden();
  await page.getByText("Show the examination curve as a table").click();
  // Rank 1 is 100% by definition; the other ranks have an interval from refitting PBM per resample.
  const examination = page.getByRole("table", { name: "Examination by rank" });
  await expect(examination.getByRole("row", { name: /^1 100% \[100%,\s100%\]/ })).toBeVisible();
  await expect(examination.getByRole("row", { name: /^2 / })).toContainText(
    /\d+\.\d%\[\d+\.\d%,\s\d+\.\d%\]/,
  );
  await expect(
    page.getByRole("figure", { name: "Examination by rank (PBM)" }).getByRole("list", { name: "Legend" }),
  ).toContainText("95% interval (PBM refitted per resample)");
  await expect(
    page
      .getByRole("table", { name: "CTR per arm, raw and corrected for position bias" })
      .getByRole("rowheader"),
  ).toHaveText(["A", "B"]);
  // Each arm's raw and corrected CTR with its interval over the arm's conveners.
  await expect(
    page
      .getByRole("table", { name: "CTR per arm, raw and corrected for position bias" })
      .getByRole("row", { name: /^A / }),
  ).toContainText(/\d+\.\d%\[\d+\.\d%,\s\d+\.\d%\]/);
  // B's CTRs minus the control's, in percentage points with their intervals.
  const pp = /[+−][\d.]+\spp\[[+−]?[\d.]+\spp,\s[+−]?[\d.]+\spp\]/;
  await expect(
    page
      .getByRole("table", { name: "CTR per arm, raw and corrected for position bias" })
      .getByRole("row", { name: /^B / })
      .getByRole("cell")
      .filter({ hasText: pp }),
  ).toHaveCount(2);

  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+ clicks/);
  // The snapshot page draws the same table from the stored result (training times differ run to run).
  const frozen = await page
    .getByRole("table", { name: "Click models on held-out sessions" })
    .getByRole("row", { name: /^PBM / })
    .innerText();
  expect(frozen.split("\t").slice(0, -1)).toEqual(pbm.split("\t").slice(0, -1));
});
