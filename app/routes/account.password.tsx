import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { changeOwnPassword, WeakPasswordError } from "~/data/accounts.server";
import { changePasswordSchema } from "../../scripts/inputs/users";
import { homeOf, requireUser } from "~/security/auth.server";
import { sessionIdHash } from "~/security/sessions.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Change your password · Assay" }];

const hidden = ["current", "password", "repeat"];

/** Any signed-in person, whatever their roles: each changes only their own password. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { allowPasswordChangeDue: true });
  return json(
    { mustChange: user.mustChangePassword, home: homeOf(user.roles) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { allowPasswordChangeDue: true });
  const submission = parseForm(await request.formData(), changePasswordSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400, hideFields: hidden });
  const { current, password } = submission.value;
  try {
    const changed = await changeOwnPassword(getDb(), user, {
      current,
      next: password,
      keepSession: await sessionIdHash(request),
    });
    if (!changed)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { current: ["The current password is wrong."] },
        hideFields: hidden,
      });
  } catch (error) {
    if (error instanceof WeakPasswordError)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { password: [error.message] },
        hideFields: hidden,
      });
    throw error;
  }
  return answer(submission, null, {
    resetForm: true,
    done: "Your password is changed. Every other session of yours has ended; this one goes on.",
  });
}

function PasswordInput({
  field,
  label,
  autoComplete,
}: {
  field: Parameters<typeof getInputProps>[0];
  label: string;
  autoComplete: string;
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...getInputProps(field, { type: "password" })}
        autoComplete={autoComplete}
        style={{ width: "100%" }}
      />
      <p className="field-error" id={field.errorId}>
        {field.errors}
      </p>
    </div>
  );
}

export default function ChangePassword() {
  const { mustChange, home } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, changePasswordSchema),
    shouldValidate: "onBlur",
  });
  return (
    <section className="login">
      <h1>Change your password</h1>
      {mustChange && !data?.done ? (
        <p className="notice" role="status">
          This account still has the password it was made with, which others may know. Choose your own before
          going on.
        </p>
      ) : null}
      {data?.done ? (
        <p className="notice success" role="status">
          {data.done} <a href={home}>Go on</a>
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <PasswordInput field={fields.current} label="Current password" autoComplete="current-password" />
        <PasswordInput
          field={fields.password}
          label="New password (at least 12 characters)"
          autoComplete="new-password"
        />
        <PasswordInput field={fields.repeat} label="Repeat the new password" autoComplete="new-password" />
        {form.errors ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors}
          </p>
        ) : null}
        <button type="submit" disabled={navigation.state === "submitting"}>
          Change password
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
