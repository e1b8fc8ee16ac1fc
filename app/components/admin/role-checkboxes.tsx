import { roles } from "../../../scripts/inputs/roles";

/**
 * A person's roles as a checkbox group (any set, at least one, which the form's schema checks). One
 * `roles` value per ticked box; the group is a fieldset so a screen reader announces "Roles" with each.
 */
export function RoleCheckboxes({
  id,
  checked,
  errors,
}: {
  id: string;
  checked: readonly string[];
  errors: readonly string[] | null | undefined;
}) {
  const errorId = `${id}-error`;
  return (
    <fieldset
      className="role-checkboxes"
      aria-invalid={errors?.length ? true : undefined}
      aria-describedby={errors?.length ? errorId : undefined}
    >
      <legend>Roles</legend>
      {roles.map((role) => (
        <label key={role}>
          <input type="checkbox" name="roles" value={role} defaultChecked={checked.includes(role)} /> {role}
        </label>
      ))}
      <p className="field-error" id={errorId}>
        {errors?.join(" ")}
      </p>
    </fieldset>
  );
}
