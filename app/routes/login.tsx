import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { DUMMY_HASH, verifyPassword } from "~/data/accounts.server";
import {
  findCredentials,
  getSignInSettings,
  logSignInThrottled,
  recordSignInFailure,
} from "~/data/accounts.server";
import { oidcSettings } from "~/security/oidc.server";
import { AuthField, AuthFormErrors, AuthFrame } from "~/components/auth-frame";
import { loginSchema } from "~/schemas/auth";
import { getOptionalUser, homeOf, PASSWORD_PAGE, safeRedirect } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import {
  addressKey,
  addressWait,
  failSignIn,
  signInWait,
  succeedSignIn,
  waitSentence,
} from "~/security/sign-in-throttle.server";
import { signIn } from "~/security/sessions.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Assay" }];

/**
 * How this server lets people in: single sign-on when OIDC_ISSUER is set, and passwords unless an
 * admin switched them off for everyone but admins (who keep theirs, in case the provider is down).
 */
async function signInWays() {
  const sso = oidcSettings();
  const { passwordSignIn } = await getSignInSettings(getDb());
  return { sso: sso ? { name: sso.name } : null, passwordForAll: !sso || passwordSignIn };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(homeOf(user.roles));
  return json(await signInWays());
}

/**
 * Refuses an address with too many failed sign-ins, before the request body is read (the action guard
 * calls a route's `beforeBody` first): a throttled address costs neither a body parse nor an scrypt.
 */
export async function beforeBody({ context }: ActionFunctionArgs) {
  const address = addressKey(context.ip ?? "");
  const wait = await addressWait(address);
  if (wait > 0) {
    logSignInThrottled("address", address, wait);
    throw json(
      { message: `Too many failed sign-ins from your network address. ${waitSentence(wait)}` },
      { status: 429, headers: { "Retry-After": String(Math.ceil(wait / 1000)) } },
    );
  }
}

const throttledSentence = {
  "account and address": "Too many failed sign-ins to this account from your network address.",
  account: "Too many failed sign-ins to this account; it is slowed down for a moment.",
};

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  await beforeBody(args);
  const submission = parseForm(await request.formData(), loginSchema);
  if (submission.status !== "success")
    return answer(submission, null, { status: 400, hideFields: ["password"] });
  const { email, password, redirectTo } = submission.value;
  const address = addressKey(context.ip ?? "");
  // Checked before the password: a wait that let a right password through would not slow guessing.
  const wait = await signInWait(email, address);
  if (wait) {
    logSignInThrottled(wait.scope, address, wait.ms);
    return answer(submission, null, {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait.ms / 1000)) },
      formErrors: [`${throttledSentence[wait.scope]} ${waitSentence(wait.ms)}`],
      hideFields: ["password"],
    });
  }
  const credentials = await findCredentials(getDb(), email);
  // Always run scrypt, so a wrong email takes as long as a wrong password.
  const valid = await verifyPassword(password, credentials?.passwordHash ?? DUMMY_HASH);
  if (!credentials || !valid || !credentials.active) {
    await failSignIn(email, address);
    const reason = !credentials ? "unknown email" : !valid ? "wrong password" : "deactivated";
    await recordSignInFailure(getDb(), { userId: credentials?.id ?? null, reason, address });
    const message =
      reason === "deactivated"
        ? "This account is deactivated. Ask an admin to reactivate it."
        : "Email or password is wrong.";
    return answer(submission, null, { status: 401, formErrors: [message], hideFields: ["password"] });
  }
  if (!credentials.roles.includes("admin") && !(await signInWays()).passwordForAll) {
    await recordSignInFailure(getDb(), { userId: credentials.id, reason: "password sign-in off", address });
    return answer(submission, null, {
      status: 403,
      formErrors: ["Password sign-in is switched off here: use single sign-on above."],
      hideFields: ["password"],
    });
  }
  await succeedSignIn(email, address);
  // A known (seeded) password is changed before anything else.
  const next = credentials.mustChangePassword
    ? PASSWORD_PAGE
    : safeRedirect(redirectTo, homeOf(credentials.roles));
  return redirect(next, {
    headers: { "Set-Cookie": await signIn(request, credentials.id, context.ip ?? "") },
  });
}

/** "Sign in with <provider>": a link, since starting the flow changes nothing here. */
function SingleSignOn({ name, redirectTo }: { name: string; redirectTo: string }) {
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <p>
      <a className="button sso-button" href={`/auth/oidc${query}`}>
        Sign in with {name}
      </a>
    </p>
  );
}

function PasswordForm() {
  const data = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, loginSchema),
    shouldValidate: "onBlur",
  });
  return (
    <>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <AuthField field={fields.email} label="Email" type="email" auto="username" autoFocus />
        <AuthField field={fields.password} label="Password" type="password" auto="current-password" />
        <AuthFormErrors errors={form.errors} id={form.errorId} />
        <button type="submit" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing in…" : "Sign in"}
        </button>
      </Form>
      <p>
        <a href="/forgot-password">Forgot your password?</a>
      </p>
    </>
  );
}

export default function Login() {
  const { sso, passwordForAll } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  // With passwords off for everyone else, an admin still has a way in (say, while the provider is down).
  const showPassword = passwordForAll || searchParams.get("password") === "admin";
  return (
    <AuthFrame title="Sign in to Assay">
      {sso ? <SingleSignOn name={sso.name} redirectTo={searchParams.get("redirectTo") ?? ""} /> : null}
      {sso && showPassword ? <p className="muted">Or with your email and password:</p> : null}
      {showPassword ? (
        <PasswordForm />
      ) : (
        <p className="muted">
          <a href="/login?password=admin">Administrators: sign in with a password</a>
        </p>
      )}
    </AuthFrame>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
