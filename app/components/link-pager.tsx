import { Link } from "@remix-run/react";

/**
 * First, previous, next and last page as links (`href` gives a page's address), so paging works
 * without JavaScript; at either end the words stay, greyed, where the links would be. Only these four:
 * each is read from the list's index at any depth (the neighbours by cursor, the first and last from
 * either end), where a page picked by number deep in a long list would have to skip its way there.
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
  const link = (to: number, text: string, enabled: boolean) =>
    enabled ? (
      <Link to={href(to)} preventScrollReset={preventScrollReset}>
        {text}
      </Link>
    ) : (
      <span className="muted">{text}</span>
    );
  return (
    <nav className="pager" aria-label={label}>
      {pageCount > 2 ? link(1, "« First", page > 1) : null}
      {link(page - 1, "← Previous", page > 1)}
      <span>
        Page {page} of {pageCount}
      </span>
      {link(page + 1, "Next →", page < pageCount)}
      {pageCount > 2 ? link(pageCount, "Last »", page < pageCount) : null}
    </nav>
  );
}
