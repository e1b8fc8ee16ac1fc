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

export type Listing = z.infer<typeof listingSchema>;

/** The listing of a request; a parameter that makes no sense (page=-1, sort by an unknown column) is a 400. */
export function parseListing(
  request: Request,
  sortable: readonly string[],
  defaultSort: string,
): Listing & { sort: string } {
  const schema = listingSchema.refine((l) => l.sort === undefined || sortable.includes(l.sort), {
    message: `sort must be one of ${sortable.join(", ")}`,
  });
  const listing = parseQuery(request, schema);
  return { ...listing, sort: listing.sort ?? defaultSort };
}
