import { safeRedirect } from "./auth.server";

/**
 * Where sign-in may send a browser afterwards. Hostile values are the usual open-redirect tricks
 * (OWASP's unvalidated-redirects cheat sheet, and what browsers' URL parsers do with them per the WHATWG
 * URL standard: a backslash counts as a slash, tabs and newlines are removed, so "/\t/evil" is "//evil").
 */
const HOME = "/analyst";

const hostile: [string, unknown][] = [
  ["protocol-relative", "//evil.example"],
  ["three slashes", "///evil.example"],
  ["slash backslash", "/\\evil.example"],
  ["backslash slash", "\\/evil.example"],
  ["two backslashes", "\\\\evil"],
  ["slash backslash slash", "/\\/evil.example"],
  ["a backslash anywhere", "/reports\\..\\..\\evil"],
  ["%09 decoded: a tab browsers drop", "/\t/evil.example"],
  ["a newline (was a 500)", "/\n/x"],
  ["a carriage return", "/\r/evil.example"],
  ["CR LF header injection", "/x\r\nSet-Cookie: a=b"],
  ["NUL", "/\u0000"],
  ["DEL", "/\u007f/evil.example"],
  ["C1 next-line", "/\u0085/evil.example"],
  ["https URL", "https://evil.example"],
  ["http URL to this name", "http://assay.invalid/admin"],
  ["javascript scheme", "javascript:alert(1)"],
  ["javascript scheme in capitals", "JAVASCRIPT:alert(1)"],
  ["data scheme", "data:text/html,<script>alert(1)</script>"],
  ["scheme with one slash", "http:/evil"],
  ["leading space", " /x"],
  ["leading tab", "\t/x"],
  ["bare host", "evil.example"],
  ["relative path", "analyst"],
  ["dot segments up to //", "/x/../..//evil.example"],
  ["dot segment then //", "/..//evil.example"],
  ["empty", ""],
  ["missing", null],
  ["undefined", undefined],
  ["a file upload", new File(["/x"], "x.txt")],
];

const kept: [string, string, string][] = [
  ["query and fragment", "/analyst?B=100#x", "/analyst?B=100#x"],
  ["a deep path", "/expert/assignments/12", "/expert/assignments/12"],
  ["the root", "/", "/"],
  ["encoded characters stay encoded", "/admin/candidates?q=a%20b&x=%2F", "/admin/candidates?q=a%20b&x=%2F"],
  ["encoded slashes are a path here", "/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["an encoded backslash is a path here", "/%5Cevil.example", "/%5Cevil.example"],
  ["an encoded tab is a path here", "/%09/evil.example", "/%09/evil.example"],
  ["dot segments resolve on this site", "/analyst/../admin/users", "/admin/users"],
  ["non-ASCII is encoded", "/admin/candidates?q=Ångström", "/admin/candidates?q=%C3%85ngstr%C3%B6m"],
];

describe("safeRedirect", () => {
  it.each(hostile)("sends %s to the role's home", (_label, value) => {
    expect(safeRedirect(value as string, HOME)).toBe(HOME);
  });

  it.each(kept)("keeps a same-site path: %s", (_label, value, expected) => {
    expect(safeRedirect(value, HOME)).toBe(expected);
  });

  it("never returns anything a browser would take to another origin", () => {
    for (const [, value] of [...hostile, ...kept.map(([l, v]) => [l, v] as [string, unknown])]) {
      const target = safeRedirect(value as string, HOME);
      expect(new URL(target, "https://assay.example/login").origin).toBe("https://assay.example");
      expect(target).toMatch(/^\/(?![/\\])/);
    }
  });
});
