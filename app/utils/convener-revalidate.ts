import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * Each load of a convener's proposal page is a new view, which posts its own impression, so a POST
 * answered with data (Adopt, Remove, a refused Finish, the impression itself) must not load the page
 * again; a real reload still does, and so does Reopen, whose redirect must load the new session. (Not in convener.server.ts: the browser needs this
 * function, and server modules are empty there.)
 */
export const keepLoggedView: ShouldRevalidateFunction = ({
  formMethod,
  formAction,
  formData,
  currentUrl,
  defaultShouldRevalidate,
}) =>
  formMethod?.toUpperCase() === "POST" &&
  formData?.get("intent") !== "reopen" &&
  (!formAction || new URL(formAction, currentUrl).pathname === currentUrl.pathname)
    ? false
    : defaultShouldRevalidate;
