// Order matters: Edge's header also names Chrome and Safari, Chrome's also names Safari.
const browsers: [RegExp, string][] = [
  [/Edg\/(\d+)/, "Edge"],
  [/Firefox\/(\d+)/, "Firefox"],
  [/Chrome\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[^ ]* .*Safari\//, "Safari"],
];
const systems: [string, string][] = [
  ["Android", "Android"],
  ["iPhone", "iOS"],
  ["iPad", "iPadOS"],
  ["Windows", "Windows"],
  ["Mac OS X", "macOS"],
  ["Linux", "Linux"],
];

/**
 * "Firefox 128 on Windows" from a User-Agent header: enough for an admin to tell a user's browsers
 * apart. An unrecognised header is shown cut short, an empty one as "unknown".
 */
export function describeUserAgent(userAgent: string): string {
  if (!userAgent.trim()) return "unknown";
  const browser = browsers
    .map(([pattern, name]) => ({ match: userAgent.match(pattern), name }))
    .find((b) => b.match);
  if (!browser) return userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent;
  const system = systems.find(([needle]) => userAgent.includes(needle))?.[1];
  const name = `${browser.name} ${browser.match![1]}`;
  return system ? `${name} on ${system}` : name;
}
