import { useNavigation } from "@remix-run/react";

/**
 * Whether this page's post of `intent` (with these fields) is on its way: submitted, or answered
 * while the page's data reloads. Remix hands the action's answer to the page before the reloaded
 * loader data, so a button keeps its busy state until both have arrived.
 */
export function usePendingIntent(intent: string, fields: Record<string, string | number> = {}): boolean {
  const navigation = useNavigation();
  const posted = navigation.formData;
  if (navigation.state === "idle" || !posted || posted.get("intent") !== intent) return false;
  return Object.entries(fields).every(([name, value]) => posted.get(name) === String(value));
}

/** Whether the page is between an answer and its reloaded data (or on its way elsewhere). */
export function usePageSettling(): boolean {
  return useNavigation().state !== "idle";
}
