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

/** Which proposals an experiment or campaign covers: all of them, or those of one subject. */
export function SubjectScopeSelect({ subjects }: { subjects: { id: number; key: string; name: string }[] }) {
  return (
    <div>
      <label htmlFor="subject">Proposals</label>
      <select id="subject" name="subject" defaultValue="">
        <option value="">All proposals</option>
        {subjects.map((s) => (
          <option key={s.id} value={s.key}>
            Subject: {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}
