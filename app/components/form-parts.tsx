/** The answer of a form's action: what went wrong (one sentence or a list), or what was done. */
export function ActionNotice({
  error,
  errors,
  done,
}: {
  error?: string | null;
  errors?: string[] | null;
  done?: string | null;
}) {
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

type SubjectOption = { id: number; key: string; name: string };

/** Which proposals an experiment or campaign covers: all of them (or `allLabel`), or those of one subject. */
export function SubjectScopeSelect(props: {
  subjects: SubjectOption[];
  defaultValue?: string;
  allLabel?: string;
}) {
  return (
    <div>
      <label htmlFor="subject">Proposals</label>
      <select id="subject" name="subject" defaultValue={props.defaultValue ?? ""}>
        <option value="">{props.allLabel ?? "All proposals"}</option>
        {props.subjects.map((s) => (
          <option key={s.id} value={s.key}>
            Subject: {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The alternative to a subject: an explicit list of proposal ids. */
export function ProposalListField({ defaultValue }: { defaultValue?: readonly string[] }) {
  return (
    <div className="field admin-form-block">
      <label htmlFor="proposals">Or only these proposals (ids, separated by spaces or commas)</label>
      <textarea id="proposals" name="proposals" rows={2} defaultValue={defaultValue?.join(" ")} />
    </div>
  );
}
