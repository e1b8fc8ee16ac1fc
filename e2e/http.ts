import http from "node:http";
import { DEMO_PASSWORD } from "./test";

/**
 * Raw HTTP to the server under test, with exactly the headers given: a browser (or Playwright's
 * request client) would add an Origin, keep a cookie jar and withhold the Secure session cookie.
 */
export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export const baseUrl = () => new URL(process.env.E2E_BASE_URL!);

/** Sends one request and reads the whole answer. */
export function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return exchange(method, path, headers, (request) => request.end(body));
}

/**
 * Posts `head` padded with "a" to `total` bytes, 64 KB at a time, chunked unless `Content-Length` is
 * given; stops a chunked body early once the answer has come. `sentAtAnswer`: bytes written by then.
 */
export async function sendLarge(path: string, headers: Record<string, string>, head: string, total: number) {
  let sent = 0;
  let sentAtAnswer = -1;
  const reply = await exchange("POST", path, headers, async (request) => {
    request.once("response", () => (sentAtAnswer = sent));
    const pad = Buffer.alloc(64 * 1024, "a");
    request.write(head);
    sent = head.length;
    const chunked = !headers["Content-Length"];
    while (sent < total && !(chunked && sentAtAnswer >= 0) && !request.destroyed) {
      const chunk = pad.subarray(0, Math.min(pad.length, total - sent));
      sent += chunk.length;
      if (!request.write(chunk)) await new Promise((resolve) => request.once("drain", resolve));
    }
    request.end();
  });
  return { ...reply, sentAtAnswer };
}

type Writer = (request: http.ClientRequest) => unknown;

function exchange(
  method: string,
  path: string,
  headers: Record<string, string>,
  write: Writer,
): Promise<Reply> {
  const base = baseUrl();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: base.hostname, port: base.port, method, path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    void Promise.resolve(write(request)).catch(reject);
  });
}

export const cookieOf = (reply: Reply, name: string) => {
  const header = (reply.headers["set-cookie"] ?? []).find((c) => c.startsWith(`${name}=`));
  return header ? header.split(";")[0] : null;
};

export const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM = "application/x-www-form-urlencoded";

/** A browser's first visit to the sign-in page: its anonymous cookie and the token bound to it. */
export async function visitor(): Promise<{ cookie: string; token: string }> {
  const reply = await send("GET", "/login?_data=root");
  return { cookie: cookieOf(reply, "__Host-assay_csrf")!, token: JSON.parse(reply.body).csrf };
}

/** Signs in through the form, as a page of this site would; the session's cookie and CSRF token. */
export async function session(
  email: string,
  password = DEMO_PASSWORD,
): Promise<{ cookie: string; token: string }> {
  const anonymous = await visitor();
  const headers = { Cookie: anonymous.cookie, Origin: baseUrl().origin, "Content-Type": FORM };
  const reply = await send(
    "POST",
    "/login?_data=routes%2Flogin",
    headers,
    formBody({ email, password, csrf: anonymous.token }),
  );
  const cookie = cookieOf(reply, "__Host-assay_session");
  if (!cookie) throw new Error(`signing in as ${email} failed: ${reply.status} ${reply.body}`);
  const root = await send("GET", "/?_data=root", { Cookie: cookie });
  return { cookie, token: JSON.parse(root.body).csrf };
}
