import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import { RoleCheckboxes } from "./role-checkboxes";
import { editUserSchema } from "../../../scripts/inputs/users";
import { errorAttributes, FieldError, FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { ConfirmAction } from "~/components/confirm-action";
import { CheckboxList } from "~/components/checkbox-list";
import { formErrorsOf, parseForm, resultFor, type FormAnswer } from "~/forms/forms";

type Answer = FormAnswer | null | undefined;

/** The form of one intent of the user page, checked by the page's schema in the browser and on the server. */
function useUserForm(
  id: string,
  answer: Answer,
  intent: "update" | "password",
  defaultValue?: { roles: string[] },
) {
  const result = resultFor(answer, intent);
  const [form, fields] = useForm({
    id,
    lastResult: result,
    onValidate: ({ formData }) => parseForm(formData, editUserSchema),
    shouldValidate: "onBlur",
    defaultValue,
  });
  return { form, fields, errors: form.allErrors, formErrors: result ? formErrorsOf(answer) : null };
}

/** Name, roles and subjects of expertise (intent `update`). */
export function ProfileForm({
  user,
  subjects,
  subjectIds,
  answer,
}: {
  user: { name: string; roles: string[] };
  subjects: { id: number; name: string }[];
  subjectIds: number[];
  answer: Answer;
}) {
  // One defaultValue object per saved set of roles: a new object each render would reset the boxes.
  const saved = user.roles.join(",");
  const defaultValue = useMemo(() => ({ roles: saved.split(",") }), [saved]);
  const { form, fields, errors, formErrors } = useUserForm("edit-user", answer, "update", defaultValue);
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Profile and roles</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <div className="form-grid">
          <div>
            <label htmlFor="edit-name">Name</label>
            <input
              id="edit-name"
              name="name"
              defaultValue={user.name}
              required
              {...errorAttributes("edit-name", errors.name)}
            />
            <FieldError id="edit-name" errors={errors.name} />
          </div>
          <RoleCheckboxes field={fields.roles} />
          <CheckboxList
            name="subjects"
            legend="Subjects of expertise (experts)"
            options={subjects.map((s) => ({ value: String(s.id), label: s.name }))}
            defaultChecked={subjectIds.map(String)}
          />
        </div>
        <FormErrors errors={formErrors} />
        <button type="submit" name="intent" value="update">
          Save
        </button>
      </Form>
    </section>
  );
}

/** A new password, which signs the user out everywhere (intent `password`). */
export function PasswordForm({ answer }: { answer: Answer }) {
  const { form, errors, formErrors } = useUserForm("set-password", answer, "password");
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Set a new password</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <label htmlFor="new-password">New password</label>
        <input
          type="password"
          name="password"
          id="new-password"
          autoComplete="new-password"
          {...errorAttributes("new-password", errors.password)}
        />
        <FieldError id="new-password" errors={errors.password} />
        <FormErrors errors={formErrors} />
        <button type="submit" name="intent" value="password">
          Set password
        </button>
      </Form>
    </section>
  );
}

/** Deactivate or reactivate the account (intents `deactivate`, `activate`). */
export function AccessForm({
  user,
  sessions = 0,
  answer,
}: {
  user: { name: string; active: boolean };
  /** The user's live sessions, which deactivating ends. */
  sessions?: number;
  /** The page's last answer: a post without confirmation (no script) reopens the dialog. */
  answer?: FormAnswer | null;
}) {
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Access</h2>
      {user.active ? (
        <ConfirmAction
          intent="deactivate"
          label={`Deactivate ${user.name}`}
          busyLabel="Deactivating…"
          title={`Deactivate ${user.name}?`}
          consequences={[
            `${user.name} can no longer sign in; ${sessions === 1 ? "their 1 live session ends" : `their ${sessions} live sessions end`}.`,
            "Their grades and history stay. You can reactivate the account afterwards.",
          ]}
          confirmLabel={`Yes, deactivate ${user.name}`}
          answer={answer}
        />
      ) : (
        <Form method="post">
          <CsrfInput />
          <button type="submit" name="intent" value="activate">
            Reactivate {user.name}
          </button>
        </Form>
      )}
    </section>
  );
}
