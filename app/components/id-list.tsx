import { Fragment } from "react";

/**
 * Ids listed in one cell ("cand-0233, cand-0396, …"): the line may break between ids, never inside one
 * at its hyphen. The row (and its CSV) keeps the plain comma-separated text.
 */
export function IdList({ text }: { text: string }) {
  const ids = text ? text.split(", ") : [];
  return (
    <>
      {ids.map((id, i) => (
        <Fragment key={i}>
          {i ? ", " : null}
          <span className="id">{id}</span>
        </Fragment>
      ))}
    </>
  );
}
