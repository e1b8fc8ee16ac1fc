import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BadLinkError, checkResetLink, resetPassword, WeakPasswordError } from "~/data/accounts.server";
import { resetPasswordSchema } from "../../scripts/inputs/invitations";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer, refuse } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Assay" }];

const hidden = ["password", "repeat"];
const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** Anyone holding the link: the token is the credential; a bad one gets a clear page and a 410. */
export async function loader({ params }: LoaderFunctionArgs) {
  try {
    await checkResetLink(getDb(), params.token ?? "");
    return json({ problem: null }, { headers: noStore });
  } catch (error) {
    if (!(error instanceof BadLinkError)) throw error;
    return json({ problem: error.message }, { status: 410, headers: noStore });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), resetPasswordSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400, hideFields: hidden });
  try {
    await resetPassword(getDb(), params.token ?? "", submission.value.password);
    return answer(submission, null, {
      resetForm: true,
      done: "Your password is changed and every session of yours has ended. Sign in with the new password.",
    });
  } catch (error) {
    if (error instanceof WeakPasswordError)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { password: [error.message] },
        hideFields: hidden,
      });
    if (error instanceof BadLinkError) return refuse(submission, null, error.message, 410);
    throw error;
  }
}

export default function ResetPassword() {
  const { problem } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, resetPasswordSchema),
    shouldValidate: "onBlur",
  });
  // After a successful post the loader runs again and finds the link used: the success comes first.
  if (problem && !data?.done)
    return (
      <section className="login">
        <h1>This reset link does not work</h1>
        <p className="form-error" role="alert">
          {problem}
        </p>
        <p>
          <a href="/forgot-password">Ask for a new link</a>
        </p>
      </section>
    );
  if (data?.done)
    return (
      <section className="login">
        <h1>Password changed</h1>
        <p className="notice success" role="status">
          {data.done} <a href="/login">Sign in</a>
        </p>
      </section>
    );
  return (
    <section className="login">
      <h1>Choose a new password</h1>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        {(["password", "repeat"] as const).map((name) => (
          <div className="field" key={name}>
            <label htmlFor={fields[name].id}>
              {name === "password" ? "New password (at least 12 characters)" : "Repeat the new password"}
            </label>
            <input
              {...getInputProps(fields[name], { type: "password" })}
              autoComplete="new-password"
              style={{ width: "100%" }}
            />
            <p className="field-error" id={fields[name].errorId}>
              {fields[name].errors}
            </p>
          </div>
        ))}
        {form.errors ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors}
          </p>
        ) : null}
        <button type="submit">Set new password</button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
