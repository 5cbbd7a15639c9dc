import { Link } from "react-router";

/**
 * "Previous page · Page N of M · Next page" under a paged list (styled as `.pager`, list.css);
 * nothing when there is one page. `href` makes the link to another page of the same list.
 */
export function Pager({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="pager">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          Previous page
        </Link>
      ) : null}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
