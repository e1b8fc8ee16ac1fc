import { z } from "zod";
import { parseQuery } from "./route-params.server";

/** The free-text search of a list page (`?q=`), trimmed; at most 200 characters. */
export const searchField = z
  .string()
  .max(200, "q (the search) is longer than 200 characters")
  .transform((q) => q.trim());

const pageMessage = "page must be a whole number from 1 to 1,000,000";

/** Search, sort and page of a server-paginated table, read from the URL. */
export const listingSchema = z.object({
  q: searchField.default(""),
  sort: z.string().optional(),
  dir: z.enum(["asc", "desc"], { errorMap: () => ({ message: "dir must be asc or desc" }) }).default("asc"),
  page: z.coerce
    .number({ invalid_type_error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(1_000_000, pageMessage)
    .default(1),
  size: z.coerce
    .number({ invalid_type_error: "size must be 25, 50 or 100" })
    .refine((n) => [25, 50, 100].includes(n), "size must be 25, 50 or 100")
    .default(25),
});

/**
 * A keyset cursor as the URL carries it (`?after=` for the next page, `?before=` for the previous):
 * the sort value and id of the row the page starts past, base64url JSON, so any page is as fast as
 * the first. One the server did not make is a 400, not a wrong page.
 */
const cursorField = z
  .string()
  .max(1000, "the page's cursor is too long: go back to the first page")
  .transform((text, ctx) => {
    try {
      const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
      if (
        Array.isArray(value) &&
        value.length === 2 &&
        typeof value[0] === "string" &&
        Number.isInteger(value[1])
      )
        return value as [string, number];
    } catch {
      // Falls through to the message below.
    }
    ctx.addIssue({ code: "custom", message: "the page's cursor is not valid: go back to the first page" });
    return z.NEVER;
  });

export const cursorSchema = z.object({ after: cursorField.optional(), before: cursorField.optional() });

/** The cursor of a row, for the URL. */
export function encodeCursor(edge: [string, number] | null): string | null {
  return edge ? Buffer.from(JSON.stringify(edge), "utf8").toString("base64url") : null;
}

/**
 * The next and previous pages' cursors from a page's first and last rows: none past either end.
 */
export function pageCursors(
  listing: { page: number; size: number },
  total: number,
  edges: { first: [string, number] | null; last: [string, number] | null },
) {
  return {
    prev: listing.page > 1 ? encodeCursor(edges.first) : null,
    next: listing.page * listing.size < total ? encodeCursor(edges.last) : null,
  };
}

export type Listing = z.infer<typeof listingSchema>;

/** The listing of a request; a parameter that makes no sense (page=-1, sort by an unknown column) is a 400. */
export function parseListing(
  request: Request,
  sortable: readonly string[],
  defaultSort: string,
): Listing & { sort: string } & z.infer<typeof cursorSchema> {
  const schema = listingSchema
    .merge(cursorSchema)
    .refine((l) => l.sort === undefined || sortable.includes(l.sort), {
      message: `sort must be one of ${sortable.join(", ")}`,
    });
  const listing = parseQuery(request, schema);
  return { ...listing, sort: listing.sort ?? defaultSort };
}
