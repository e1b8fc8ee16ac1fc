import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";

let storage: SessionStorage | undefined;

/** Signed, httpOnly, sameSite=lax cookies; secure in production. The cookie holds only the user id. */
export function sessionStorage(): SessionStorage {
  if (!storage) {
    const secret = process.env.SESSION_SECRET;
    if (!secret) throw new Error("SESSION_SECRET is not set: start Assay with `npm start`.");
    storage = createCookieSessionStorage({
      cookie: {
        name: "__assay_session",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: process.env.NODE_ENV === "production",
        secrets: [secret],
        maxAge: 60 * 60 * 12,
      },
    });
  }
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}
