import { csrfToken } from "./csrf.server";
import { hostCookie, sessionCookieName } from "./sessions.server";

describe("cookie names", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("carry the __Host- prefix in production, with Secure, Path=/ and no Domain as the prefix demands", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SESSION_SECRET", "a test secret of at least thirty-two characters");
    expect(sessionCookieName()).toBe("__Host-assay_session");
    const { setCookie } = csrfToken(new Request("https://assay.example.org/login"));
    expect(setCookie).toMatch(/^__Host-assay_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    expect(setCookie).not.toMatch(/Domain=/i);
  });

  it("go without it over plain http in development, where a browser would refuse a __Host- cookie", () => {
    vi.stubEnv("NODE_ENV", "development");
    expect(hostCookie("assay_session")).toBe("__assay_session");
  });
});
