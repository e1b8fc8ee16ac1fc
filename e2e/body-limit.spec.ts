import postgres from "postgres";
import { runningEmbeddedUrl } from "../db/platform/connect";
import { baseUrl, cookieOf, FORM, formBody, sendLarge, session, visitor } from "./http";
import { DEMO_PASSWORD, demoLogin, expect, test } from "./test";

/**
 * Trust, item 5 (pages): a form larger than its route allows (1 MB unless the route says more) gets a
 * 413 sentence before it is parsed, hashed or acted on, whether its size is declared or it comes
 * chunked; and the client gets that answer, not a reset connection.
 */
const MB = 1024 * 1024;
const TOO_LARGE = "This form is larger than 1 MB, the most this page accepts; nothing was saved.";
let sql: postgres.Sql;
/** A declared size, or none: the body goes chunked. */
const length = (sized: boolean, bytes: number): Record<string, string> =>
  sized ? { "Content-Length": String(bytes) } : {};

test.beforeAll(async () => {
  sql = postgres((await runningEmbeddedUrl(process.env.E2E_DATA_DIR!))!, { max: 1, onnotice: () => {} });
});
test.afterAll(() => sql?.end());

for (const sized of [true, false]) {
  const how = sized ? "with its Content-Length" : "chunked";

  test(`a 2 MB form to a page, ${how}, gets a 413 and is not acted on`, async () => {
    const admin = await session(demoLogin.admin);
    const email = `too-large-${sized ? "sized" : "chunked"}@assay.test`;
    const fields = formBody({
      name: "Big",
      email,
      role: "analyst",
      password: "big-password-1",
      csrf: admin.token,
    });
    const headers = {
      Cookie: admin.cookie,
      Origin: baseUrl().origin,
      "Content-Type": FORM,
      ...length(sized, 2 * MB),
    };
    const reply = await sendLarge(
      "/admin/users?index&_data=routes%2Fadmin.users._index",
      headers,
      `${fields}&pad=`,
      2 * MB,
    );
    expect([reply.status, JSON.parse(reply.body)]).toEqual([413, { message: TOO_LARGE }]);
    expect(await sql`select 1 from users where email = ${email}`).toHaveLength(0);
  });

  test(`100 MB to the sign-in form, ${how}, is refused before it is read: no sign-in, an early 413`, async () => {
    const anonymous = await visitor();
    // The right password: were the body parsed and the password checked, this would sign in.
    const fields = formBody({ email: demoLogin.admin, password: DEMO_PASSWORD, csrf: anonymous.token });
    const headers = {
      Cookie: anonymous.cookie,
      Origin: baseUrl().origin,
      "Content-Type": FORM,
      ...length(sized, 100 * MB),
    };
    const reply = await sendLarge("/login", headers, `${fields}&pad=`, 100 * MB);
    expect(reply.status).toBe(413);
    expect(reply.body).toContain(TOO_LARGE);
    expect(cookieOf(reply, "__Host-assay_session")).toBeNull();
    // The answer came while the client was still sending: the server did not wait for the 100 MB.
    expect(reply.sentAtAnswer).toBeGreaterThan(0);
    expect(reply.sentAtAnswer).toBeLessThan(50 * MB);
  });
}

test("the import page takes up to 50 MB, from an admin only, who is checked before the upload is read", async () => {
  const boundary = "assay-test-boundary";
  const head = (token: string) =>
    [
      ...[`--${boundary}`, 'Content-Disposition: form-data; name="csrf"', "", token],
      ...[`--${boundary}`, 'Content-Disposition: form-data; name="entity"', "", "lists"],
      ...[
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="big.csv"',
        "Content-Type: text/csv",
        "",
        "",
      ],
    ].join("\r\n");
  const upload = async (email: string, size: number, sized: boolean) => {
    const own = await session(email);
    const type = `multipart/form-data; boundary=${boundary}`;
    const headers = {
      Cookie: own.cookie,
      Origin: baseUrl().origin,
      "Content-Type": type,
      ...length(sized, size),
    };
    return sendLarge("/admin/import?_data=routes%2Fadmin.import", headers, head(own.token), size);
  };

  const analyst = await upload(demoLogin.analyst, 60 * MB, true);
  const notAdmin = "This page is for the admin role; you are signed in as analyst.";
  expect([analyst.status, JSON.parse(analyst.body).message]).toEqual([403, notAdmin]);
  expect(analyst.sentAtAnswer).toBeLessThan(50 * MB);

  const sentence =
    "The file is larger than 50 MB; import it with the CLI: npm run assay -- import <entity> <file>.";
  for (const sized of [true, false]) {
    const admin = await upload(demoLogin.admin, 51 * MB, sized);
    expect([admin.status, JSON.parse(admin.body)]).toEqual([413, { message: sentence }]);
  }
});
