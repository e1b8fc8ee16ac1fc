import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { acceptInvitation, BadLinkError, checkInvitation, WeakPasswordError } from "~/data/accounts.server";
import { acceptInvitationSchema } from "../../scripts/inputs/invitations";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer, refuse } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Accept your invitation · Assay" }];

const hidden = ["password", "repeat"];
const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** Anyone holding the link: the token is the only credential, so a bad one gets a clear page and a 4xx. */
export async function loader({ params }: LoaderFunctionArgs) {
  try {
    const { email } = await checkInvitation(getDb(), params.token ?? "");
    return json({ email, problem: null }, { headers: noStore });
  } catch (error) {
    if (!(error instanceof BadLinkError)) throw error;
    return json({ email: null, problem: error.message }, { status: 410, headers: noStore });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), acceptInvitationSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400, hideFields: hidden });
  try {
    const user = await acceptInvitation(getDb(), params.token ?? "", submission.value);
    return answer(submission, null, {
      resetForm: true,
      done: `Welcome, ${user.name}. Your account is ready: sign in with ${user.email} and your new password.`,
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

function Field({
  field,
  label,
  type,
  auto,
}: {
  field: Parameters<typeof getInputProps>[0];
  label: string;
  type: "text" | "password";
  auto: string;
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...getInputProps(field, { type })} autoComplete={auto} style={{ width: "100%" }} />
      <p className="field-error" id={field.errorId}>
        {field.errors}
      </p>
    </div>
  );
}

export default function AcceptInvitation() {
  const { email, problem } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, acceptInvitationSchema),
    shouldValidate: "onBlur",
  });
  // After a successful post the loader runs again and finds the link used: the success comes first.
  if (problem && !data?.done)
    return (
      <section className="login">
        <h1>This invitation link does not work</h1>
        <p className="form-error" role="alert">
          {problem}
        </p>
      </section>
    );
  if (data?.done)
    return (
      <section className="login">
        <h1>Account ready</h1>
        <p className="notice success" role="status">
          {data.done} <a href="/login">Sign in</a>
        </p>
      </section>
    );
  return (
    <section className="login">
      <h1>Accept your invitation</h1>
      <p>You were invited to Assay as {email}. Choose the name others will see and your password.</p>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <Field field={fields.name} label="Your name" type="text" auto="name" />
        <Field
          field={fields.password}
          label="Password (at least 12 characters)"
          type="password"
          auto="new-password"
        />
        <Field field={fields.repeat} label="Repeat the password" type="password" auto="new-password" />
        {form.errors ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors}
          </p>
        ) : null}
        <button type="submit">Create my account</button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
