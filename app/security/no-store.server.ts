import type { NextFunction, Request, Response } from "express";

/**
 * Express middleware in front of Remix: every page and API answer without a Cache-Control of its own gets
 * `no-store`, so a signed-in page (an analyst's figures, an admin's users) is kept by no browser
 * history, disk cache or shared proxy (issue 21, item 14). Static files are served before it, with
 * their own caching.
 */
export function noStoreByDefault(_req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
    if (!this.getHeader("Cache-Control")) this.setHeader("Cache-Control", "no-store");
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}
