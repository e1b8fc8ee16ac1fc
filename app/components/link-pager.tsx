import { Link } from "@remix-run/react";

/**
 * Previous and next page as links (`href` gives a page's address), so paging works without JavaScript;
 * at either end the word stays, greyed, where the link would be.
 */
export function LinkPager({
  label,
  page,
  pageCount,
  href,
  preventScrollReset,
}: {
  label: string;
  page: number;
  pageCount: number;
  href: (page: number) => string;
  preventScrollReset?: boolean;
}) {
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link to={href(page - 1)} preventScrollReset={preventScrollReset}>
          ← Previous
        </Link>
      ) : (
        <span className="muted">← Previous</span>
      )}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} preventScrollReset={preventScrollReset}>
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
