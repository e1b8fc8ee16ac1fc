import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

const TITLES: Record<number, string> = {
  403: "Not allowed",
  404: "Not found",
  503: "Unavailable for a moment",
};

/** One error page for every route: a sentence on what went wrong and where to go next. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const message =
      typeof error.data === "object" && error.data && "message" in error.data
        ? String(error.data.message)
        : String(error.data || error.statusText);
    const title = TITLES[error.status] ?? `Error ${error.status}`;
    return (
      <section className="error-page" role="alert">
        <h1>{title}</h1>
        <p>{message}</p>
        <p>
          <Link to="/">Go to your home page</Link>
        </p>
      </section>
    );
  }
  // Not logged here: the server logged it (redacted) in handleError, and this also runs in the browser.
  return (
    <section className="error-page" role="alert">
      <h1>Something went wrong</h1>
      <p>
        The server could not complete this request. Try again; if it keeps failing, the server log has the
        details.
      </p>
    </section>
  );
}
