import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getSignInSettings, saveSignInSettings } from "~/data/accounts.server";
import { signInSettingsSchema } from "../../scripts/inputs/sign-in-settings";
import { requireAdmin } from "~/security/auth.server";
import { oidcSettings } from "~/security/oidc.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { RoleCheckboxes } from "~/components/admin/role-checkboxes";
import { FormErrors } from "~/components/form-parts";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Sign-in settings · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const sso = oidcSettings();
  const settings = await getSignInSettings(getDb());
  return json({ provider: sso ? { name: sso.name, issuer: sso.issuer } : null, settings });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), signInSettingsSchema);
  if (submission.status !== "success") return answer(submission, "save" as const, { status: 400 });
  await saveSignInSettings(getDb(), admin, submission.value);
  return answer(submission, "save" as const, { done: "Sign-in settings saved." });
}

function SettingsForm({
  settings,
}: {
  settings: ReturnType<typeof useLoaderData<typeof loader>>["settings"];
}) {
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.result,
    defaultValue: { ...settings, passwordSignIn: settings.passwordSignIn ? "on" : undefined },
    onValidate: ({ formData }) => parseForm(formData, signInSettingsSchema),
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="card">
      <CsrfInput />
      <fieldset>
        <legend>A verified email that is neither a user nor invited</legend>
        <label>
          <input {...getInputProps(fields.unknownEmails, { type: "radio", value: "refuse" })} /> is refused
        </label>
        <label>
          <input {...getInputProps(fields.unknownEmails, { type: "radio", value: "join" })} /> may join, with
          the roles below
        </label>
      </fieldset>
      <RoleCheckboxes field={fields.joinRoles} />
      <label>
        <input {...getInputProps(fields.passwordSignIn, { type: "checkbox" })} /> Everyone may also sign in
        with a password (when unticked, only admins can, so a provider outage cannot lock them out)
      </label>
      <FormErrors errors={form.errors} />
      <button type="submit">Save</button>
    </Form>
  );
}

export default function SignInSettings() {
  const { provider, settings } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Sign-in settings</h1>
      <p>
        <a href="/admin/users">Back to users</a>
      </p>
      {provider ? (
        <p>
          Single sign-on is on, with {provider.name} (<code>{provider.issuer}</code>). The first sign-in of an
          invited email makes the account, with the invitation&apos;s roles; an existing account with the same
          verified email is linked.
        </p>
      ) : (
        <p className="notice">
          Single sign-on is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to turn it on. Until
          then these settings have no effect and everyone signs in with a password.
        </p>
      )}
      {data?.done ? (
        <p className="notice success" role="status">
          {data.done}
        </p>
      ) : null}
      <SettingsForm settings={settings} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
