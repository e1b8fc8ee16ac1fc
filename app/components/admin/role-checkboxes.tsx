import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { roles } from "../../../scripts/inputs/roles";

/**
 * A person's roles as a checkbox group (any set, at least one, which the form's schema checks). The
 * boxes take their props from Conform, so its validation and the ticks the person makes stay in step;
 * the group is a fieldset so a screen reader announces "Roles" with each box.
 */
export function RoleCheckboxes({ field }: { field: FieldMetadata<string[], Record<string, unknown>> }) {
  const invalid = (field.errors?.length ?? 0) > 0;
  return (
    <fieldset
      className="role-checkboxes"
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? field.errorId : undefined}
    >
      <legend>Roles</legend>
      {getCollectionProps(field, { type: "checkbox", options: [...roles] }).map(({ key: _key, ...props }) => (
        // Keyed by role, not by Conform's key: a box the person ticked is never remounted to its default.
        <label key={props.value}>
          <input {...props} /> {props.value}
        </label>
      ))}
      <p className="field-error" id={field.errorId}>
        {field.errors?.join(" ")}
      </p>
    </fieldset>
  );
}
