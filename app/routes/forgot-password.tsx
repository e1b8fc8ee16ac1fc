import { getFormProps, useForm } from "@conform-to/react";
import { AuthField, AuthFormErrors, AuthFrame } from "~/components/auth-frame";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { requestPasswordReset, normalEmail } from "~/data/accounts.server";
import { resetMail, sendMail, linkOrigin } from "~/mail/mail.server";
import { forgotPasswordSchema } from "../../scripts/inputs/invitations";
import { addressKey, FailureLimiter } from "~/security/rate-limit.server";
import { getDb } from "~/utils/db.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CsrfInput } from "~/security/csrf";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Forgot password · Assay" }];

const HOUR = 3_600_000;
// Each request counts: a mailbox gets at most 3 links an hour, an address may ask 10 times.
const byEmail = new FailureLimiter(3, HOUR);
const byAddress = new FailureLimiter(10, HOUR);

// The same words whether the address has an account or not, so the page tells nobody who is a user.
const SAME_ANSWER =
  "If an account uses this address, a link to choose a new password is on its way. It works once, for one hour.";

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await request.formData(), forgotPasswordSchema);
  if (submission.status !== "success") return answer(submission, null, { status: 400 });
  const email = normalEmail(submission.value.email);
  const address = addressKey(context.ip ?? "");
  if (byAddress.retryAfter(address) > 0)
    return answer(submission, null, {
      status: 429,
      formErrors: ["Too many requests from your network. Try again in an hour."],
    });
  byAddress.fail(address);
  const limited = byEmail.retryAfter(email) > 0;
  byEmail.fail(email);
  if (!limited) {
    const reset = await requestPasswordReset(getDb(), email);
    if (reset) {
      await sendMail(resetMail(reset.email, `${linkOrigin(request)}/reset-password/${reset.token}`));
    }
  }
  return answer(submission, null, { resetForm: true, done: SAME_ANSWER });
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.result,
    onValidate: ({ formData }) => parseForm(formData, forgotPasswordSchema),
    shouldValidate: "onBlur",
  });
  return (
    <AuthFrame title="Forgot your password?">
      {data?.done ? (
        <p className="notice success" role="status">
          {data.done}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <AuthField field={fields.email} label="Your email" type="email" auto="email" />
        <AuthFormErrors errors={form.errors} id={form.errorId} />
        <button type="submit">Send me a link</button>
      </Form>
      <p>
        <a href="/login">Back to sign-in</a>
      </p>
    </AuthFrame>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
