import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * Loaders of the convener's pages log an impression or a click, so a POST answered with data (Adopt,
 * Remove, a refused Finish) must not run them again; a real reload still does, and so does Reopen,
 * whose redirect must load the new session. (Not in convener.server.ts: the browser needs this
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
