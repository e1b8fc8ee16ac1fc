import { FailureLimiter } from "./rate-limit.server";

describe("FailureLimiter", () => {
  it("blocks after the limit within the window and frees the key when the window ends", () => {
    const limiter = new FailureLimiter(3, 1000);
    for (let i = 0; i < 2; i++) limiter.fail("a", 0);
    expect(limiter.retryAfter("a", 10)).toBe(0);
    limiter.fail("a", 10);
    expect(limiter.retryAfter("a", 10)).toBe(990);
    expect(limiter.retryAfter("b", 10)).toBe(0);
    expect(limiter.retryAfter("a", 1000)).toBe(0);
  });

  it("forgets a key on reset", () => {
    const limiter = new FailureLimiter(1, 1000);
    limiter.fail("a", 0);
    limiter.reset("a");
    expect(limiter.retryAfter("a", 1)).toBe(0);
  });
});
