import { demoLogin, expect, signIn, test } from "./test";

test("a convener builds a committee and the experiment page shows it in their arm", async ({
  page,
  browser,
}) => {
  // The admin page is reloaded until the impression is counted: on a loaded machine that outlasts the default limit.
  test.setTimeout(180_000);
  const admin = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(admin, demoLogin.admin);
  await admin.goto("/admin/experiments/reviewer-ranker-v2");
  // The events cell of each arm's row (after exposed units, units with sessions and sessions).
  const eventsOf = async () =>
    Promise.all(
      ["A", "B"].map(async (arm) =>
        Number((await admin.locator(`tr[data-arm="${arm}"] td`).nth(3).innerText()).replace(/,/g, "")),
      ),
    );
  const [a0, b0] = await eventsOf();

  await signIn(page, demoLogin.convener);
  await expect(page.getByRole("table", { name: "My proposals" }).getByRole("row")).toHaveCount(11);
  await page.getByRole("link", { name: "prop-0003" }).click();
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  // The GET logs nothing; the page, once shown, posts its one impression (a view id checked and used once).
  const logged = async () => {
    await admin.reload();
    const [a, b] = await eventsOf();
    return a - a0 + (b - b0);
  };
  await expect.poll(logged, { timeout: 30_000 }).toBe(1);
  const names = await page
    .getByRole("heading", { name: "Recommended reviewers" })
    .locator("xpath=..")
    .getByRole("listitem")
    .locator("button.profile-link")
    .allInnerTexts();
  expect(names.length).toBeGreaterThan(4);

  for (const name of names.slice(0, 2)) {
    await page.getByRole("button", { name, exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await page.goBack();
  }
  for (const name of names.slice(0, 3)) {
    await page
      .getByRole("button", { name: `Adopt ${name}` })
      .first()
      .click();
    await expect(page.getByRole("button", { name: `Remove ${name}` }).first()).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Committee (3 of 5)" })).toBeVisible();
  await page
    .getByRole("button", { name: `Remove ${names[1]}` })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
  await expect(memberNames(page)).toHaveText([names[0], names[2]]);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/convener\?saved=/);
  await expect(page.getByRole("row", { name: /prop-0003/ })).toContainText("finished");

  // The convener's events: 3 impressions (open, and back twice), 2 clicks, 3 adopts, 1 unadopt and the
  // finish (which the guardrails read) = 10, all in one arm.
  await admin.reload();
  const [a1, b1] = await eventsOf();
  expect([a1 - a0, b1 - b0].sort((x, y) => x - y)).toEqual([0, 10]);
});

test("a convener cannot open a proposal that is not theirs", async ({ page }) => {
  await signIn(page, demoLogin.convener);
  const response = await page.goto("/convener/proposals/prop-0150");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Proposal prop-0150 is not assigned to you.")).toBeVisible();
});

test("an admin creates and revokes an API key; the revoked key gets 401", async ({ page, request }) => {
  await signIn(page, demoLogin.admin);
  await page.goto("/admin/experiments/reviewer-ranker-v2");
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = (await page.getByRole("status").locator("code").innerText()).trim();
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const ok = await request.post(`${process.env.E2E_BASE_URL}/api/events`, { headers, data: { events: [] } });
  expect(ok.status()).toBe(200);
  await page.getByRole("button", { name: `Revoke ${key.slice(0, 12)}…` }).click();
  await page.getByRole("button", { name: "Yes, revoke the key" }).click();
  await expect(page.getByRole("button", { name: `Revoke ${key.slice(0, 12)}…` })).toHaveCount(0);
  const refused = await request.post(`${process.env.E2E_BASE_URL}/api/events`, {
    headers,
    data: { events: [] },
  });
  expect(refused.status()).toBe(401);
});

/** Opens an admin page on the demo experiment that reads one number per arm from its arms table. */
async function armCounter(browser: import("@playwright/test").Browser, column: number) {
  const admin = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(admin, demoLogin.admin);
  await admin.goto("/admin/experiments/reviewer-ranker-v2");
  // Columns of an arm's row: exposed units, units with sessions, sessions, events.
  return async () => {
    await admin.reload();
    const values = await Promise.all(
      ["A", "B"].map(async (arm) =>
        Number((await admin.locator(`tr[data-arm="${arm}"] td`).nth(column).innerText()).replace(/,/g, "")),
      ),
    );
    return values[0] + values[1];
  };
}

/** The convener's proposals other than prop-0003 (which the first test finishes). */
async function freeProposals(page: import("@playwright/test").Page) {
  const ids = await page.getByRole("table", { name: "My proposals" }).getByRole("link").allInnerTexts();
  return ids.filter((id) => id !== "prop-0003");
}

/** The names in the open committee's panel (each item also holds its Remove button). */
function memberNames(page: import("@playwright/test").Page) {
  return page.getByRole("list", { name: "Committee members" }).locator(".committee-member-name");
}

async function reviewerNames(page: import("@playwright/test").Page) {
  await expect(page.getByRole("heading", { name: "Recommended reviewers" })).toBeVisible();
  return page
    .getByRole("heading", { name: "Recommended reviewers" })
    .locator("xpath=..")
    .getByRole("listitem")
    .locator("button.profile-link")
    .allInnerTexts();
}

test("a finished committee stays on home and on Back, read-only, until Reopen starts one new session", async ({
  page,
  browser,
}) => {
  const sessions = await armCounter(browser, 2);
  await signIn(page, demoLogin.convener);
  const [proposal] = await freeProposals(page);
  await page.getByRole("link", { name: proposal, exact: true }).click();
  const names = await reviewerNames(page);
  for (const name of names.slice(0, 2)) {
    await page.getByRole("button", { name: `Adopt ${name}` }).click();
    // Focus stays on the card acted on: its button now offers Remove.
    await expect(page.getByRole("button", { name: `Remove ${name}`, exact: true })).toBeFocused();
  }
  await page.getByRole("button", { name: `Remove ${names[1]}`, exact: true }).click();
  await expect(page.getByRole("button", { name: `Adopt ${names[1]}` })).toBeFocused();
  await page.getByRole("button", { name: `Adopt ${names[2]}` }).click();
  await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
  await page.getByRole("button", { name: "Finish", exact: true }).click();
  await expect(page).toHaveURL(/\/convener\?saved=/);
  const row = page.getByRole("row", { name: new RegExp(proposal) });
  await expect(row).toContainText("finished");
  await expect(row).toContainText(`2: ${names[0]}, ${names[2]}`);

  const before = await sessions();
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Finished committee (2 of 5)" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Committee members" }).getByRole("listitem")).toHaveText([
    new RegExp(names[0]),
    new RegExp(names[2]),
  ]);
  await expect(page.getByRole("button", { name: /^(Adopt|Remove|Finish)/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Finished committee (2 of 5)" })).toBeVisible();
  expect(await sessions()).toBe(before); // looking at a finished committee starts nothing

  await page.getByRole("button", { name: "Reopen" }).click();
  // Reopening shows the saved committee, to change rather than rebuild.
  await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${names[0]}`, exact: true })).toBeVisible();
  // The session counts once its page has posted its impression (the GET logs nothing).
  await expect.poll(sessions, { timeout: 30_000 }).toBe(before + 1);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
  await expect.poll(sessions, { timeout: 30_000 }).toBe(before + 1); // a reload resumes the reopened session
  await page.goto("/convener");
  await expect(page.getByRole("row", { name: new RegExp(proposal) })).toContainText("in progress");
});

test("a convener adopts and removes on the profile page, logged like on the list", async ({
  page,
  browser,
}) => {
  // Each count reloads the admin's experiment page, which recomputes its report after every new event:
  // seconds apiece on a loaded machine.
  test.slow();
  const events = await armCounter(browser, 3);
  await signIn(page, demoLogin.convener);
  const [, proposal] = await freeProposals(page);
  const opened = await events();
  await page.getByRole("link", { name: proposal, exact: true }).click();
  const [name] = await reviewerNames(page);
  // The page posts its impression once shown: count from there, so it never lands inside the count below.
  await expect.poll(events).toBe(opened + 1);
  const before = opened + 1;
  await page.getByRole("button", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await page.getByRole("button", { name: `Adopt ${name}` }).click();
  await expect(page.getByRole("button", { name: `Remove ${name}` })).toBeFocused();
  await expect(page.getByText("In the committee · committee 1 of 5")).toBeVisible();
  // The profile opened (click) and the adopt, no second click (the count below would be one more).
  await expect.poll(events).toBe(before + 2);
  await page.getByRole("link", { name: /^←/ }).click();
  await expect(page.getByRole("heading", { name: "Committee (1 of 5)" })).toBeVisible();
  await expect(memberNames(page)).toHaveText([name]);
  await page.getByRole("button", { name, exact: true }).click();
  // The list has a Remove button too: wait for the profile before pressing the profile's.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await page.getByRole("button", { name: `Remove ${name}` }).click();
  await expect(page.getByRole("button", { name: `Adopt ${name}` })).toBeFocused();
  await expect(page.getByText("Not in the committee · committee 0 of 5")).toBeVisible();
  // impression (back to the list), click, unadopt
  await expect.poll(events).toBe(before + 5);
});

test("finishing with nobody adopted takes a second, explicit step", async ({ page }) => {
  await signIn(page, demoLogin.convener);
  const [, , proposal] = await freeProposals(page);
  await page.getByRole("link", { name: proposal, exact: true }).click();
  await page.getByRole("button", { name: "Finish", exact: true }).click();
  await expect(page.getByRole("button", { name: "Finish with nobody" })).toBeFocused();
  await expect(
    page.getByText("Nobody is adopted yet. Confirm that you want to finish with an empty committee."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Keep choosing" }).click();
  await expect(page.getByRole("button", { name: "Finish with nobody" })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/convener/proposals/${proposal}$`));
  await page.getByRole("button", { name: "Finish", exact: true }).click();
  await page.getByRole("button", { name: "Finish with nobody" }).click();
  await expect(page).toHaveURL(/\/convener\?saved=/);
  await expect(page.getByRole("row", { name: new RegExp(proposal) })).toContainText("nobody adopted");
  await expect(page.getByRole("row", { name: new RegExp(proposal) })).toContainText("finished");
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const)
  test(`at ${width} px a visit stays "to do", the panel removes, Back leaves a profile, and Finish confirms the saved committee`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, demoLogin.convener);
    const rows = page.getByRole("table", { name: "My proposals" }).getByRole("row");
    const proposal = await rows.filter({ hasText: "to do" }).last().getByRole("link").innerText();
    const row = rows.filter({ hasText: proposal });
    await page.getByRole("link", { name: proposal, exact: true }).click();
    const names = await reviewerNames(page);
    await page.getByRole("link", { name: "← My proposals" }).click();
    await expect(row).toContainText("to do"); // merely looking is not progress

    await page.getByRole("link", { name: proposal, exact: true }).click();
    await page.getByRole("button", { name: names[0], exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(names[0]);
    await page.getByRole("button", { name: `Adopt ${names[0]}` }).click();
    await expect(page.getByRole("button", { name: `Remove ${names[0]}` })).toBeFocused();
    await page.goBack(); // one step back from the profile, even after adopting there, is the list
    await expect(page).toHaveURL(new RegExp(`/convener/proposals/${proposal}$`));
    await expect(page.getByRole("heading", { name: "Committee (1 of 5)" })).toBeVisible();

    for (const name of names.slice(1, 3)) await page.getByRole("button", { name: `Adopt ${name}` }).click();
    await expect(page.getByRole("heading", { name: "Committee (3 of 5)" })).toBeVisible();
    await page.getByRole("button", { name: `Remove ${names[1]} from the committee` }).click();
    await expect(page.getByRole("heading", { name: "Committee (2 of 5)" })).toBeVisible();
    await expect(memberNames(page)).toHaveText([names[0], names[2]]);
    await expect(page.getByRole("button", { name: `Adopt ${names[1]}` })).toBeFocused();

    await page.getByRole("button", { name: "Finish", exact: true }).click();
    const saved = page.getByRole("status").filter({ hasText: "Committee saved" });
    await expect(saved).toBeFocused();
    await expect(saved).toContainText(`${proposal}`);
    await expect(saved).toContainText(`2 members: ${names[0]}, ${names[2]}.`);
    await expect(row).toContainText("finished");
    await expect(row).toContainText(`2: ${names[0]}, ${names[2]}`);
  });
