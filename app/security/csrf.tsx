import { useRouteLoaderData } from "@remix-run/react";
import { useCallback } from "react";
import type { loader as rootLoader } from "~/root";

/** The form field that carries the CSRF token (checked by `guardActions` in csrf.server.ts). */
export const CSRF_FIELD = "csrf";

/** This session's CSRF token, from the root loader; empty when the root loader failed. */
export function useCsrfToken(): string {
  return useRouteLoaderData<typeof rootLoader>("root")?.csrf ?? "";
}

/** Goes inside every `<Form method="post">` and `fetcher.Form`: the server refuses a form without it. */
export function CsrfInput() {
  return <input type="hidden" name={CSRF_FIELD} value={useCsrfToken()} />;
}

/** For `fetcher.submit(...)` and `useSubmit()` with a plain object: `submit(withCsrf(payload), …)`. */
export function useWithCsrf() {
  const token = useCsrfToken();
  return useCallback(
    <T extends Record<string, string>>(payload: T) => ({ ...payload, [CSRF_FIELD]: token }),
    [token],
  );
}
