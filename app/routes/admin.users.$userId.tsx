import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { listSubjects } from "~/data/catalog.server";
import { roles } from "../../scripts/inputs/roles";
import { endAllUserSessions, endUserSession, listUserSessions } from "~/data/accounts.server";
import {
  countActiveAdmins,
  getUser,
  setUserActive,
  setUserPassword,
  subjectsOfUser,
  updateUser,
} from "~/data/accounts.server";
import { editUserSchema } from "../../scripts/inputs/users";
import { requireAdmin } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { currentSessionHandle } from "~/utils/sessions.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SessionsPanel } from "~/components/sessions-panel";
import { CsrfInput } from "~/utils/csrf";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.name ?? "User"} · Assay` },
];

async function loadUser(id: string | undefined) {
  const user = await getUser(getDb(), parseId(id, "user"));
  if (!user) throw json({ message: `There is no user with id ${id}.` }, { status: 404 });
  return user;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const user = await loadUser(params.userId);
  const [subjects, mine, sessions, current] = await Promise.all([
    listSubjects(getDb()),
    subjectsOfUser(getDb(), user.id),
    listUserSessions(getDb(), user.id, new Date()),
    currentSessionHandle(request),
  ]);
  return json({ user, subjects, subjectIds: mine.map((s) => s.id), sessions, currentSession: current });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = await loadUser(params.userId);
  const submission = parseWithZod(await request.formData(), { schema: editUserSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply({ hideFields: ["password"] }), done: null }, { status: 400 });
  const value = submission.value;
  const db = getDb();
  const losesAdmin =
    user.role === "admin" &&
    user.active &&
    ((value.intent === "update" && value.role !== "admin") || value.intent === "deactivate");
  if (losesAdmin && (user.id === admin.id || (await countActiveAdmins(db)) <= 1)) {
    const reason =
      user.id === admin.id
        ? "You cannot remove your own admin access; ask another admin."
        : "This is the last active admin; make another admin first.";
    return json({ result: submission.reply({ formErrors: [reason] }), done: null }, { status: 400 });
  }
  switch (value.intent) {
    case "update": {
      await updateUser(db, admin, user.id, {
        name: value.name,
        role: value.role,
        subjectIds: value.subjects,
      });
      const signedOut =
        value.role === user.role ? "" : ` ${user.name} is signed out and signs in again as ${value.role}.`;
      return json({ result: submission.reply(), done: `Saved.${signedOut}` });
    }
    case "password": {
      await setUserPassword(db, admin, user.id, value.password);
      const done = `New password set. ${user.name} is signed out everywhere.`;
      return json({ result: submission.reply({ resetForm: true }), done });
    }
    case "deactivate":
      await setUserActive(db, admin, user.id, false);
      return json({ result: submission.reply(), done: `${user.name} is deactivated and signed out.` });
    case "activate":
      await setUserActive(db, admin, user.id, true);
      return json({ result: submission.reply(), done: `${user.name} is active again.` });
    case "end-session": {
      const ended = await endUserSession(db, admin, user.id, value.session);
      const done =
        ended > 0
          ? `Session ${value.session} ended: that browser must sign in again.`
          : `Session ${value.session} had already ended.`;
      return json({ result: submission.reply(), done });
    }
    case "end-all-sessions": {
      const ended = await endAllUserSessions(db, admin, user.id);
      const done = `Ended ${ended} session${ended === 1 ? "" : "s"} of ${user.name}.`;
      return json({ result: submission.reply(), done });
    }
  }
}

export default function EditUser() {
  const { user, subjects, subjectIds, sessions, currentSession } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "edit-user",
    lastResult: data?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editUserSchema }),
    shouldValidate: "onBlur",
    defaultValue: { name: user.name, role: user.role },
  });
  const passwordFields = fields as unknown as typeof fields & { password: typeof fields.name };
  return (
    <>
      <p>
        <Link to="/admin/users">← Users</Link>
      </p>
      <h1>
        {user.name} {user.active ? null : <span className="badge inactive">deactivated</span>}
      </h1>
      <p className="muted">{user.email}</p>
      {data?.done ? (
        <p className="notice success" role="status">
          {data.done}
        </p>
      ) : null}
      {form.errors ? (
        <p className="notice error" role="alert">
          {form.errors}
        </p>
      ) : null}

      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Profile and role</h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <div className="form-grid">
            <div>
              <label htmlFor="edit-name">Name</label>
              <input id="edit-name" name="name" defaultValue={user.name} required />
              <p className="field-error">{fields.name.errors}</p>
            </div>
            <div>
              <label htmlFor="edit-role">Role</label>
              <select {...getSelectProps(fields.role)} id="edit-role" defaultValue={user.role}>
                {roles.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="edit-subjects">Subjects of expertise (experts)</label>
              <select
                id="edit-subjects"
                name="subjects"
                multiple
                defaultValue={subjectIds.map(String)}
                size={Math.min(6, Math.max(2, subjects.length))}
              >
                {subjects.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <button type="submit" name="intent" value="update">
            Save
          </button>
        </Form>
      </section>

      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Set a new password</h2>
        <Form method="post">
          <CsrfInput />
          <label htmlFor="new-password">New password</label>
          <input
            type="password"
            name="password"
            id="new-password"
            autoComplete="new-password"
            aria-describedby="new-password-error"
          />
          <p className="field-error" id="new-password-error">
            {passwordFields.password.errors}
          </p>
          <button type="submit" name="intent" value="password">
            Set password
          </button>
        </Form>
      </section>

      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Access</h2>
        <Form method="post">
          <CsrfInput />
          {user.active ? (
            <button type="submit" name="intent" value="deactivate" className="button-danger">
              Deactivate {user.name}
            </button>
          ) : (
            <button type="submit" name="intent" value="activate">
              Reactivate {user.name}
            </button>
          )}
        </Form>
      </section>

      <SessionsPanel sessions={sessions} currentSession={currentSession} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
