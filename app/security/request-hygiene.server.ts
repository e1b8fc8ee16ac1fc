import type { NextFunction, Request, Response } from "express";

/**
 * Why a request URL cannot be served, or null. A malformed percent-encoding (`%`, `%E0%A4%A`, `%FF`)
 * cannot be decoded into text, and a NUL (`%00`) cannot be stored in or compared with PostgreSQL text:
 * either would otherwise surface as a 500 deep inside a loader.
 */
export function urlProblem(url: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return "The address has a malformed percent-encoding: every % must start a valid UTF-8 escape such as %20. Check the link and try again.";
  }
  if (decoded.includes("\u0000"))
    return "The address contains a NUL character (%00), which Assay does not accept anywhere in a URL. Check the link and try again.";
  return null;
}

/**
 * Express middleware, before Remix: refuses a URL that `urlProblem` finds fault with, with a 400 and the
 * sentence: JSON `{ error }` under /api/ (like every API error), a small HTML page elsewhere.
 */
export function requestHygiene(req: Request, res: Response, next: NextFunction) {
  const problem = urlProblem(req.originalUrl);
  if (problem === null) return next();
  res.status(400).set("Cache-Control", "no-store");
  if (req.path.startsWith("/api/")) return res.json({ error: problem });
  res
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address · Assay</title></head>` +
        `<body><main><h1>Bad address</h1><p>${problem}</p><p><a href="/">Go to your home page</a></p></main></body></html>`,
    );
}
