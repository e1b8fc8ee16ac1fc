/** How the app tells its own origin (see `publicOrigin`). */
export interface OriginOptions {
  /** The address users open, e.g. https://assay.example.org (PUBLIC_URL); otherwise told by the request. */
  publicUrl?: string;
  /** Behind a reverse proxy (TRUST_PROXY): its X-Forwarded-Host and X-Forwarded-Proto say the address. */
  trustProxy: boolean;
}

/** The origin the browser says a form came from: Origin, else Referer's; null when neither tells. */
export function requestOrigin(headers: Headers): string | null {
  const origin = headers.get("Origin");
  if (origin !== null) return originOf(origin);
  const referer = headers.get("Referer");
  return referer ? originOf(referer) : null;
}

/**
 * This app's own origin: PUBLIC_URL, else the Host header and the connection's protocol. Forwarded
 * headers count only behind a trusted proxy: anyone can send them, and another site's page could then
 * name its own host as ours.
 */
export function publicOrigin(
  headers: Headers,
  protocol: "http" | "https",
  options: OriginOptions,
): string | null {
  if (options.publicUrl) return originOf(options.publicUrl);
  const forwarded = (name: string) =>
    options.trustProxy ? headers.get(name)?.split(",")[0].trim() || null : null;
  const host = forwarded("X-Forwarded-Host") ?? headers.get("Host");
  return host ? originOf(`${forwarded("X-Forwarded-Proto") ?? protocol}://${host}`) : null;
}

/** Whether a request that changes something comes from a page of this app. */
export function isSameOrigin(headers: Headers, protocol: "http" | "https", options: OriginOptions): boolean {
  const seen = requestOrigin(headers);
  return seen !== null && seen === publicOrigin(headers, protocol, options);
}

/** The normalised origin of a URL (lower-case host, no default port), or null. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}
