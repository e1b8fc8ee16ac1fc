import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { RoleCheckboxes } from "./role-checkboxes";
import { createUserSchema } from "../../../scripts/inputs/users";
import { FormErrors } from "~/components/form-parts";
import { CheckboxList } from "~/components/checkbox-list";
import { CsrfInput } from "~/security/csrf";
import { parseForm, type FormAnswer } from "~/forms/forms";

/** The subjects of expertise of an expert, several at once (a searchable checkbox list). */
function SubjectsSelect({ name, subjects }: { name: string; subjects: { id: number; name: string }[] }) {
  return (
    <CheckboxList
      name={name}
      legend="Subjects of expertise (experts)"
      options={subjects.map((s) => ({ value: String(s.id), label: s.name }))}
    />
  );
}

/** The new-user form: name, email, roles, an initial password and the subjects of an expert. */
export function NewUserForm({
  subjects,
  answer,
}: {
  subjects: { id: number; name: string }[];
  answer: FormAnswer | null | undefined;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseForm(formData, createUserSchema),
    shouldValidate: "onBlur",
    defaultValue: { roles: ["expert"] },
  });
  return (
    <section className="panel" aria-labelledby="new-user">
      <h2 id="new-user" style={{ marginTop: 0 }}>
        New user
      </h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <div className="form-grid">
          <div>
            <label htmlFor={fields.name.id}>Name</label>
            <input {...getInputProps(fields.name, { type: "text" })} />
            <p className="field-error" id={fields.name.errorId}>
              {fields.name.errors}
            </p>
          </div>
          <div>
            <label htmlFor={fields.email.id}>Email</label>
            <input {...getInputProps(fields.email, { type: "email" })} />
            <p className="field-error" id={fields.email.errorId}>
              {fields.email.errors}
            </p>
          </div>
          <RoleCheckboxes field={fields.roles} />
          <div>
            <label htmlFor={fields.password.id}>Initial password</label>
            <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
            <p className="field-error" id={fields.password.errorId}>
              {fields.password.errors}
            </p>
          </div>
        </div>
        {/* Below the row, not in it: the tall list in a grid cell pushed the short fields down. */}
        <div className="admin-form-block narrow-block">
          <SubjectsSelect name={fields.subjects.name} subjects={subjects} />
        </div>
        <FormErrors errors={form.errors} />
        <button type="submit" disabled={navigation.state === "submitting"}>
          Create user
        </button>
        {answer?.done ? (
          <p className="notice success" role="status">
            {answer.done}
          </p>
        ) : null}
      </Form>
    </section>
  );
}
