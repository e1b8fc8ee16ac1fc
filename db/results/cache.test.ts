import { keepLatest, latestOf, remember, resultKey } from "./cache";

/**
 * The stale fallback of a kept result (what a page shows while a newer one is computed): one per family,
 * the newest finished, untouched by a failure, and bounded whatever the number of families.
 */

const family = (name: string) => resultKey({ kind: "test", name });
const key = (name: string, version: number) => resultKey({ kind: "test", name, version });

/** A computation kept under (name, version), recorded as its family's latest, that finishes when told. */
function started(name: string, version: number) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const computation = remember(
    key(name, version),
    () =>
      new Promise<string>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      }),
  );
  keepLatest(family(name), key(name, version), computation);
  return { computation, finish, fail };
}

it("keeps the newest finished result of each family, with the key it was computed under", async () => {
  const first = started("a", 1);
  expect(latestOf(family("a"))).toBeUndefined();
  first.finish("fit on version 1");
  await first.computation;
  expect(latestOf(family("a"))).toMatchObject({ key: key("a", 1), value: "fit on version 1" });
  // A newer version running: the older result stays the latest until the newer one finishes.
  const second = started("a", 2);
  expect(latestOf(family("a"))?.value).toBe("fit on version 1");
  second.finish("fit on version 2");
  await second.computation;
  expect(latestOf(family("a"))).toMatchObject({ key: key("a", 2), value: "fit on version 2" });
  // A failed refit leaves the last finished one.
  const third = started("a", 3);
  third.fail(new Error("worker pool full"));
  await expect(third.computation).rejects.toThrow("worker pool full");
  expect(latestOf(family("a"))?.value).toBe("fit on version 2");
});

it("keeps one result per family, for at most 32 families, the least recently finished first out", async () => {
  for (let i = 0; i < 40; i++) {
    const s = started(`family-${i}`, 1);
    s.finish(`result ${i}`);
    await s.computation;
  }
  expect(latestOf(family("family-0"))).toBeUndefined();
  expect(latestOf(family("family-7"))).toBeUndefined();
  expect(latestOf(family("family-8"))?.value).toBe("result 8");
  expect(latestOf(family("family-39"))?.value).toBe("result 39");
});
