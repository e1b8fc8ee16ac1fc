import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { expect, signIn, test } from "./test";

let sql: postgres.Sql;
test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

type Taken = { item_id: number; grade: number | null; rationale: string; position: number };

/**
 * Reopens one of expert2's graded assignments with three cards ungraded (their grades kept here, to be
 * given again by keyboard), so the demo's figures are the same after the test as before.
 */
async function reopenWithThreeLeft(nth: number) {
  const [a] = await sql<
    { id: number }[]
  >`select a.id from campaign_assignments a join users u on u.id = a.expert_id
    where u.email = 'expert2@assay.local' and (select count(*) from ratings r where r.assignment_id = a.id) >= 4
    order by a.id offset ${nth} limit 1`;
  const taken = await sql<Taken[]>`delete from ratings where (assignment_id, item_id) in (
      select assignment_id, item_id from ratings where assignment_id = ${a.id} order by position offset 1 limit 3)
    returning item_id, grade, rationale, position`;
  await sql`update campaign_assignments set finished_at = null where id = ${a.id}`;
  return { id: a.id, taken: [...taken] };
}

const viewports = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
viewports.forEach((viewport, nth) =>
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a task finishes by keyboard alone: n to each card left, its grade, then one Enter", async ({
      page,
    }) => {
      const { id, taken } = await reopenWithThreeLeft(nth);
      await signIn(page, "expert2@assay.local");
      await page.goto(`/expert/assignments/${id}`, { waitUntil: "networkidle" });
      const card = (item: number) => page.locator(`[data-card="${item}"]`);
      // In the order the page shows the cards.
      const order = await page
        .locator("[data-card]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-card")));
      taken.sort((x, y) => order.indexOf(String(x.item_id)) - order.indexOf(String(y.item_id)));
      const aliases = await Promise.all(
        taken.map(async (t) => (await card(t.item_id).getAttribute("aria-label"))!),
      );

      // Finish is reachable while blocked, and says which cards are left, each a link to its card.
      const finish = page.getByRole("button", { name: "Finish" });
      await expect(finish).toHaveAttribute("aria-disabled", "true");
      await expect(finish).toHaveAccessibleDescription(
        `Grade every card to finish (3 left): ${aliases.join(", ")}.`,
      );
      await page.locator("#finish-why").getByRole("link", { name: aliases[1] }).click();
      await expect(card(taken[1].item_id)).toBeFocused();

      // ? shows the keys and hides them again.
      await page.keyboard.press("?");
      await expect(page.getByRole("heading", { name: "Keyboard shortcuts" })).toBeVisible();
      await page.keyboard.press("?");
      await expect(page.getByRole("heading", { name: "Keyboard shortcuts" })).toHaveCount(0);

      // n goes to the next card not graded yet (wrapping), whatever is between.
      await page.keyboard.press("n");
      await expect(card(taken[2].item_id)).toBeFocused();
      await page.keyboard.press("n");
      await expect(card(taken[0].item_id)).toBeFocused();
      for (const [i, t] of taken.entries()) {
        await expect(card(t.item_id)).toBeFocused();
        await page.keyboard.press(t.grade === null ? "0" : String(t.grade));
        // A grade moves to the next card; n from there to the next one left, unless that is where it landed.
        const following = taken[i + 1];
        if (following && !(await card(following.item_id).evaluate((el) => el === document.activeElement)))
          await page.keyboard.press("n");
      }
      // After the last grade: one key press (counted here) finishes, saves in flight or not.
      let presses = 0;
      await page.keyboard.press("Enter");
      presses++;
      await expect(page).toHaveURL(new RegExp(`/expert\\?finished=${id}$`));
      await expect(page.getByRole("status")).toBeFocused();
      await expect(page.getByRole("status")).toContainText("Finished");
      expect(presses).toBeLessThan(10);

      // The grades given are those taken away; the rationales go back as they were.
      for (const t of taken) {
        const [r] = await sql<Taken[]>`select item_id, grade, rationale, position from ratings
          where assignment_id = ${id} and item_id = ${t.item_id}`;
        expect(r.grade).toBe(t.grade);
        await sql`update ratings set rationale = ${t.rationale} where assignment_id = ${id} and item_id = ${t.item_id}`;
      }
    });
  }),
);
