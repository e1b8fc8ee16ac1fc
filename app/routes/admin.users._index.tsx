import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { listSubjects } from "~/data/catalog.server";
import { createUser, DuplicateEmailError, listUsers, WeakPasswordError } from "~/data/accounts.server";
import { createUserSchema } from "../../scripts/inputs/users";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { searchField } from "~/utils/listing";
import { parseQuery } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { NewUserForm, UsersTable } from "~/components/admin/users";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";

export const meta: MetaFunction = () => [{ title: "Users · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { q } = parseQuery(request, z.object({ q: searchField.default("") }));
  const [users, subjects] = await Promise.all([listUsers(getDb(), q), listSubjects(getDb())]);
  return json({ users, subjects, q });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await request.formData(), createUserSchema);
  if (submission.status !== "success")
    return answer(submission, null, { status: 400, hideFields: ["password"] });
  try {
    const user = await createUser(getDb(), admin, {
      ...submission.value,
      subjectIds: submission.value.subjects,
    });
    return answer(submission, null, { resetForm: true, done: `Created ${user.name} (${user.email}).` });
  } catch (error) {
    if (error instanceof WeakPasswordError)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { password: [error.message] },
        hideFields: ["password"],
      });
    if (error instanceof DuplicateEmailError)
      return answer(submission, null, {
        status: 400,
        fieldErrors: { email: [error.message] },
        hideFields: ["password"],
      });
    throw error;
  }
}

export default function Users() {
  const { users, subjects, q } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Users</h1>
      <p>
        <a href="/admin/users/invitations">Invitations</a>: invite people by email to choose their own
        password. <a href="/admin/sign-in">Sign-in settings</a>: single sign-on and passwords.
      </p>
      <NewUserForm subjects={subjects} answer={data} />
      <Form method="get" className="toolbar" role="search">
        <div>
          <label htmlFor="user-search">Search name or email</label>
          <input id="user-search" type="search" name="q" defaultValue={q} />
        </div>
        <button type="submit">Search</button>
      </Form>
      <UsersTable users={users} q={q} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
