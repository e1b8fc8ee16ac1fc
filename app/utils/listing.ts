import { z } from "zod";

/** Search, sort and page of a server-paginated table, read from the URL. */
export const listingSchema = z.object({
  q: z.string().trim().max(200).catch(""),
  sort: z.string().max(40).optional().catch(undefined),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  size: z.coerce.number().int().refine((n) => [25, 50, 100].includes(n)).catch(25),
});

export type Listing = z.infer<typeof listingSchema>;

export function parseListing(url: URL, sortable: readonly string[], defaultSort: string): Listing & { sort: string } {
  const listing = listingSchema.parse(Object.fromEntries(url.searchParams));
  return { ...listing, sort: listing.sort && sortable.includes(listing.sort) ? listing.sort : defaultSort };
}
