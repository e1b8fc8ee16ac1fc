import { demoLogin, expect, signIn, test } from "./test";

test("an analyst sees the offline report with intervals, hints and the comparison", async ({ page }) => {
  // It computes the report twice (the first view, then Recompute), on a shared machine.
  test.setTimeout(120_000);
  await signIn(page, demoLogin.analyst);
  await expect(page.getByRole("heading", { name: "Offline report" })).toBeVisible();
  // Nothing on an analyst's page leads to an admin page they would be refused.
  await expect(page.getByText(/The same report in a terminal/)).toBeVisible();
  await expect(page.locator('main a[href^="/admin"]')).toHaveCount(0);
  const table = page.getByRole("table", { name: "HR@K by system" });
  // A header and three demo systems: baseline, challenger and the multileaving demo's hybrid.
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table.getByRole("rowheader", { name: "Challenger (embedding ranker)" })).toBeVisible();
  await expect(page.getByText(/show at least \d+ candidates by default/).first()).toBeVisible();
  // Observable Plot draws the three charts in the browser.
  for (const name of [
    "Hit rate by depth K",
    "K_hit: the rank",
    "Share of proposals whose first",
    "Each measure against the depth K",
  ]) {
    await expect(
      page
        .getByRole("img", { name: new RegExp(`^${name}`) })
        .locator("svg")
        .first(),
    ).toBeVisible();
  }
  // The subject table: group by subject, hide a column, download exactly what is shown.
  const tools = page.getByRole("group", { name: "Offline figures by system and subject" });
  const bySubject = tools.getByRole("table");
  // A header and 8 subjects × 3 systems.
  await expect(bySubject.getByRole("row")).toHaveCount(25);
  await expect(bySubject.getByRole("cell", { name: /^\d+(\.\d)?%$/ }).first()).toBeVisible();
  await tools.getByLabel("Group by").selectOption("subject");
  await expect(bySubject.getByRole("row")).toHaveCount(9);
  await tools.getByText("Columns").click();
  await tools.getByLabel("Pool recall", { exact: true }).uncheck();
  const download = page.waitForEvent("download");
  await tools.getByRole("button", { name: "Download CSV" }).click();
  const csv = await (
    await download
  )
    .createReadStream()
    .then((s) => s.toArray())
    .then((chunks) => Buffer.concat(chunks).toString("utf8"));
  // Grouping moves the grouped column first, as shown.
  expect(csv.split(/\r?\n/)[0]).toBe(
    "Subject,System,Proposals,Weight share,HR@5,HR@5 CI,HR@10,HR@10 CI,HR@20,HR@20 CI,MRR@10,MRR@10 CI,AP,AP CI,Pool recall CI,K_hit median,K_hit median CI,K_hit p90,K_hit p90 CI",
  );
  expect(csv.trim().split(/\r?\n/)).toHaveLength(25);
  // On screen HR is a percentage; the CSV keeps the raw share.
  expect(csv.split(/\r?\n/)[1]).toMatch(/,0\.\d+,/);
  expect(csv).not.toContain("%");
  if (process.env.E2E_SCREENSHOTS)
    await page.locator("figure.chart").first().screenshot({ path: "test-results/offline-charts.png" });
  const comparison = page.getByRole("table", { name: "Pairwise comparison" });
  await expect(
    comparison.getByRole("row", { name: /^AP baseline challenger .* (better|worse|inconclusive) / }),
  ).toBeVisible();
  // A difference called on its own but not after Holm's adjustment says both, beside its unadjusted interval.
  await expect(comparison.getByRole("row", { name: /^MRR@10 baseline challenger / })).toContainText(
    /inconclusive\s*after Holm \(better before\)/,
  );
  // p-values never read "0": below 0.001 they read "< 0.001".
  await expect(comparison.getByRole("cell", { name: /^0(\.0+)?$/ })).toHaveCount(0);
  // Every figure, filtered to one measure: one row per system and group (overall and 8 subjects).
  const figures = page.getByRole("group", { name: "Every offline figure" });
  // Display names are shown (HR@10); the ir_measures name (Success@10) finds the same rows.
  // Each measure also has its SD across proposals as a row of its own (`SD Success@10`, "SD of HR@10").
  await figures.getByLabel("Filter rows").fill("SD Success@10");
  // Three demo systems (baseline, challenger and the multileaving demo's hybrid) × 9 groups: 27 rows,
  // the table's first page of 25 under its header.
  await expect(figures.getByRole("table").getByRole("row")).toHaveCount(1 + 25);
  await figures.getByLabel("Filter rows").fill("Success@10");
  await expect(
    figures.getByRole("row", { name: /^challenger overall HR@10 [\d.]+% [\d.]+% [\d.]+%$/ }),
  ).toBeVisible();
  await figures.getByLabel("Filter rows").fill("SD of HR@10");
  await expect(figures.getByRole("table").getByRole("row")).toHaveCount(1 + 25);
  await expect(
    page
      .getByRole("table", { name: "Rank distribution" })
      .getByRole("button", { name: "g (committee members)" }),
  ).toBeVisible();
  // Same seed, same numbers: applying the settings with the seed kept changes nothing.
  const before = await table.innerText();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/B=1000&seed=assay/);
  expect(await table.innerText()).toBe(before);
  // Recompute drops the kept report and computes it anew: a later "computed at", the same numbers.
  const computed = page.getByRole("form", { name: "Computed result" });
  const at = await computed.locator("time").getAttribute("datetime");
  expect(at).toMatch(/^\d{4}-\d\d-\d\dT/);
  // The URL changes before React commits the page rendered for it (later on a loaded machine), and the
  // form posts to the URL it was rendered with: wait for that render, as a user's click would follow it.
  await expect(computed).toHaveAttribute("action", /B=1000&seed=assay/);
  await computed.getByRole("button", { name: "Recompute" }).click();
  await expect(computed.getByRole("status")).toHaveText("Recomputed from the current data.");
  await expect(page).toHaveURL(/B=1000&seed=assay/);
  expect(Date.parse((await computed.locator("time").getAttribute("datetime"))!)).toBeGreaterThan(
    Date.parse(at!),
  );
  expect(await table.innerText()).toBe(before);
});

test("the offline report's newer sections: committee cap, what the ground truth is worth, and prediction time beside accuracy", async ({
  page,
}) => {
  test.slow(); // one report of 200 proposals with the campaign's grades, on a loaded machine
  await signIn(page, demoLogin.analyst);
  // With a committee cap (the demo's committees have 5 members: none dropped), kept in the form and stated.
  await page.goto("/analyst?B=200&seed=newer-sections&maxCommittee=5");
  await expect(page.getByLabel("Largest committee")).toHaveValue("5");
  await expect(page.getByTestId("offline-view")).toContainText(
    "committees of at most 5 members: 0 proposals dropped",
  );
  // The demo campaign graded the same lists: members against the others, with the grade chart and both golds.
  await expect(page.getByRole("heading", { name: "What the ground truth is worth" })).toBeVisible();
  await expect(
    page.getByText(
      /^Mean grade: members [\d.]+ \([\d,]+ pairs\), others [\d.]+ \([\d,]+ pairs\); difference \+/,
    ),
  ).toBeVisible();
  await expect(
    page
      .getByRole("figure", { name: "Expert grades: committee members and the others" })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: "Measures under committee gold and expert gold" })
      .getByRole("rowheader", { name: "Challenger (embedding ranker)" }),
  ).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Agreement of the system orders under both golds" }).getByRole("row"),
  ).toHaveCount(5);
  // The demo's lists carry latencies and its systems build figures: the three criteria side by side.
  const resources = page.getByRole("table", { name: "Accuracy, prediction time and build by system" });
  await expect(resources.getByRole("row", { name: /^Challenger \(embedding ranker\)/ })).toContainText(
    "200 of 200",
  );
  await expect(
    page.getByRole("figure", { name: "Prediction time per list, by system" }).locator("svg").first(),
  ).toBeVisible();
  // The demo has no query variants and no protocol lists, so no Friedman test and no protocol figures.
  await expect(page.getByRole("heading", { name: "Query variants against the default" })).toHaveCount(0);
});

test("more than 20,000 resamples are refused with a sentence, not computed", async ({ page }) => {
  await signIn(page, demoLogin.analyst);
  const response = await page.goto("/analyst?B=50000");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("Use at most 20,000 resamples (B).");
});

test("experts and conveners get 403 on the analyst page", async ({ page }) => {
  await signIn(page, demoLogin.convener);
  const response = await page.goto("/analyst");
  expect(response?.status()).toBe(403);
});

test("an analyst opens the online and expert dashboards, with their charts", async ({ page }) => {
  await signIn(page, demoLogin.analyst);
  await page.getByRole("link", { name: "Experiments and campaigns" }).click();
  await page.getByRole("link", { name: "Embedding ranker vs keyword baseline" }).click();
  await expect(page.getByRole("table", { name: "Arms with intervals" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByText(/No sample-ratio mismatch/)).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^Relative lift of each metric/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  for (const metric of ["CTR", "Adoption rate", "Mean adopted rank", "Session success rate"])
    await expect(
      page
        .getByRole("img", { name: new RegExp(`^${metric} per arm as it stood`) })
        .locator("svg")
        .first(),
    ).toBeVisible();
  const differences = page.getByRole("table", { name: "Differences vs control" });
  await expect(
    differences.getByRole("row", {
      name: /^Adoption rate B vs A [+−][\d.]+ pp \[.* pp\] [+−][\d.]+% \[[+−][\d.]+%, [+−][\d.]+%\] (< 0\.001|0\.\d\d+|1\.0) (better|worse|inconclusive)$/,
    }),
  ).toBeVisible();
  // Lower is better for the mean adopted rank: said in words, and the verdict follows it.
  await expect(
    differences.getByRole("row", {
      name: /^Mean adopted rank B vs A, lower is better .* (better|worse|inconclusive)$/,
    }),
  ).toBeVisible();

  await page.goBack();
  await page.getByRole("link", { name: "Reviewer relevance, autumn round" }).click();
  await expect(page.getByRole("table", { name: "nDCG by system" }).getByRole("row")).toHaveCount(3);
  await expect(
    page
      .getByRole("img", { name: /^Agreement without each expert/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await expect(page.getByText(/Krippendorff's α \(ordinal\) = 0\.\d{3}, 95% CI/)).toBeVisible();
});

test("the offline report shows score statistics, score bands and exposure, and its snapshot keeps them", async ({
  page,
}) => {
  test.slow(); // two reports (the page and the snapshot) on a loaded machine
  await signIn(page, demoLogin.analyst);
  await page.goto("/analyst?B=200&seed=scores");
  for (const name of ["Scores", "Score bands", "Diversity and exposure"])
    await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  // Scores at ranks 1..50 of 200 demo lists; quartiles and SD in three significant digits.
  const stats = page
    .getByRole("group", { name: "Score statistics by system and subject" })
    .getByRole("table");
  const statsRow = stats.getByRole("row", {
    name: /^Challenger \(embedding ranker\) overall 10,000 0\.\d+ 0\.\d+/,
  });
  await expect(statsRow).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^Mean score of Baseline \(keyword BM25\) at each rank/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await page
    .getByLabel("System shown in the score charts")
    .selectOption({ label: "Challenger (embedding ranker)" });
  await expect(
    page
      .getByRole("img", { name: /^Histogram of the scores Challenger/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  // The reliability diagram and its data: ten decile bands, the highest first, with Wilson intervals.
  await expect(
    page
      .getByRole("img", { name: /^Reliability diagram/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  const bands = page.getByRole("group", { name: "Score bands" });
  await bands.getByLabel("Filter rows").fill("Challenger");
  await expect(
    bands.getByRole("row", {
      name: /^Challenger \(embedding ranker\) 10 [\d.]+ and above [\d,]+ \d+ [\d.]+% \[[\d.]+%, [\d.]+%\] /,
    }),
  ).toBeVisible();
  const exposure = page
    .getByRole("group", { name: "Diversity and exposure by system, subject and K" })
    .getByRole("table");
  await expect(
    exposure.getByRole("row", {
      name: /^Baseline \(keyword BM25\) overall 10 200 100% [\d.]+% 0\.\d+ [\d.]+ [\d.]+% [\d.]+%$/,
    }),
  ).toBeVisible();
  await expect(
    page
      .getByRole("img", { name: /^Long-tail share and Gini/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  const live = await statsRow.innerText();
  await page.getByRole("button", { name: "Freeze snapshot" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Snapshot \d+/);
  expect(
    await page
      .getByRole("group", { name: "Score statistics by system and subject" })
      .getByRole("row", { name: /^Challenger \(embedding ranker\) overall / })
      .innerText(),
  ).toBe(live);
  await expect(
    page
      .getByRole("img", { name: /^Reliability diagram/ })
      .locator("svg")
      .first(),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Diversity and exposure", exact: true })).toBeVisible();
});
