/** A signed-in bench client: its session cookie and the CSRF token every form it sends must carry. */
export interface BenchSession {
  cookie: string;
  csrf: string;
  /** Headers for a form POST: the cookie and this site's Origin (the server refuses cross-site forms). */
  formHeaders: Record<string, string>;
}

/**
 * Signs in the way a browser does: the sign-in page gives a cookie to bind the first token to, the form
 * goes back with that token and this site's Origin, and the root loader then gives the session's token.
 */
export async function signInForBench(base: string, email: string, password: string): Promise<BenchSession> {
  const first = await rootData(base, "");
  const body = new URLSearchParams({ email, password, csrf: first.csrf });
  const response = await fetch(`${base}/login`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Cookie: first.cookie, Origin: base },
  });
  const setCookie = response.headers.get("set-cookie");
  if (response.status !== 302 || !setCookie)
    throw new Error(`signing in ${email} answered ${response.status}`);
  const cookie = setCookie.split(";")[0];
  const { csrf } = await rootData(base, cookie);
  return { cookie, csrf, formHeaders: { Cookie: cookie, Origin: base } };
}

async function rootData(base: string, cookie: string): Promise<{ csrf: string; cookie: string }> {
  const response = await fetch(`${base}/login?_data=root`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
  const anonymous = response.headers.get("set-cookie")?.split(";")[0];
  const data = response.ok ? ((await response.json()) as { csrf?: string }) : {};
  if (!data.csrf) throw new Error(`the root loader gave no CSRF token (${response.status})`);
  return { csrf: data.csrf, cookie: cookie || anonymous || "" };
}
