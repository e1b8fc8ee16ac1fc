import type { ReactNode } from "react";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { z } from "zod";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";

/** The narrow frame of the signed-out pages (sign-in, forgotten password, links from mails, single sign-on). */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="login">
      <h1>{title}</h1>
      {children}
    </section>
  );
}

type Field = Parameters<typeof getInputProps>[0];

/** One labelled, full-width input of those pages, with its error under it. */
export function AuthField({
  field,
  label,
  type,
  auto,
  autoFocus,
}: {
  field: Field;
  label: string;
  type: "text" | "email" | "password";
  auto: string;
  autoFocus?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...getInputProps(field, { type })}
        autoComplete={auto}
        autoFocus={autoFocus}
        style={{ width: "100%" }}
      />
      <p className="field-error" id={field.errorId}>
        {field.errors}
      </p>
    </div>
  );
}

/** The form's own errors (not a field's), announced. */
export function AuthFormErrors({ errors, id }: { errors: string[] | undefined; id: string }) {
  return errors ? (
    <p className="form-error" role="alert" id={id}>
      {errors}
    </p>
  ) : null;
}

/**
 * A page reached by a mailed link (an invitation, a password reset): once the form succeeded, what was
 * done; else, when the link does not work, why; else null, and the page shows its form. The success
 * comes first, because after it the loader runs again and finds the link used.
 */
export function linkOutcome({
  problem,
  done,
  titles,
  problemHelp,
}: {
  problem: string | null;
  done: string | null | undefined;
  titles: { problem: string; done: string };
  problemHelp?: ReactNode;
}) {
  if (done)
    return (
      <AuthFrame title={titles.done}>
        <p className="notice success" role="status">
          {done} <a href="/login">Sign in</a>
        </p>
      </AuthFrame>
    );
  if (problem)
    return (
      <AuthFrame title={titles.problem}>
        <p className="form-error" role="alert">
          {problem}
        </p>
        {problemHelp}
      </AuthFrame>
    );
  return null;
}

type PasswordLabels = { password: string; repeat: string; submit: string };

/**
 * The new-password form of a mailed link: a password typed twice, and with `askName` the name others
 * will see (an invitation). Validated in the browser by the route's own schema.
 */
export function NewPasswordForm({
  schema,
  lastResult,
  askName,
  labels,
}: {
  schema: z.ZodTypeAny;
  lastResult: SubmissionResult<string[]> | undefined;
  askName?: boolean;
  labels: PasswordLabels;
}) {
  const [form, fields] = useForm<{ name: string; password: string; repeat: string }>({
    lastResult,
    onValidate: ({ formData }) => parseForm(formData, schema),
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <CsrfInput />
      {askName ? <AuthField field={fields.name} label="Your name" type="text" auto="name" /> : null}
      <AuthField field={fields.password} label={labels.password} type="password" auto="new-password" />
      <AuthField field={fields.repeat} label={labels.repeat} type="password" auto="new-password" />
      <AuthFormErrors errors={form.errors} id={form.errorId} />
      <button type="submit">{labels.submit}</button>
    </Form>
  );
}
