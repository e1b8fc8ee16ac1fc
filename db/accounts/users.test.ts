import { createTestDatabase, type TestDatabase } from "../../test/database";
import { hashPassword, verifyPassword } from "./password";
import { createUser, DuplicateEmailError, findCredentials, findUserByEmail, listUsers } from "./users";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

describe("passwords", () => {
  it("hashes with scrypt and a random salt, and verifies", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});

describe("users", () => {
  it("creates a user whose public row has no password hash", async () => {
    const user = await createUser(t.db, "cli", {
      email: "Ada@Example.org",
      name: "Ada",
      roles: ["expert"],
      password: "long-enough-1",
    });
    expect(Object.keys(user).sort()).toEqual([
      "active",
      "createdAt",
      "email",
      "id",
      "mustChangePassword",
      "name",
      "roles",
    ]);
    const listed = await listUsers(t.db);
    expect(JSON.stringify(listed)).not.toMatch(/scrypt/);
  });

  it("treats emails case-insensitively", async () => {
    await expect(
      createUser(t.db, "cli", {
        email: "ada@example.ORG",
        name: "Other",
        roles: ["admin"],
        password: "long-enough-1",
      }),
    ).rejects.toBeInstanceOf(DuplicateEmailError);
    expect((await findUserByEmail(t.db, "ADA@example.org"))?.name).toBe("Ada");
    expect(
      await verifyPassword("long-enough-1", (await findCredentials(t.db, "ada@EXAMPLE.org"))!.passwordHash),
    ).toBe(true);
  });
});
