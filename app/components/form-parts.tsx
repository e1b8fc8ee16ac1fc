/** The answer of a form's action: what went wrong (one sentence or a list), or what was done. */
export function ActionNotice({ error, errors, done }: { error?: string | null; errors?: string[] | null; done?: string | null }) {
  if (errors?.length)
    return (
      <ul className="notice error" role="alert">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    );
  if (error)
    return (
      <p className="notice error" role="alert">
        {error}
      </p>
    );
  if (done)
    return (
      <p className="notice success" role="status">
        {done}
      </p>
    );
  return null;
}
