import type { Submission } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { listSubjects } from "~/data/catalog.server";
import { endAllUserSessions, endUserSession, listUserSessions } from "~/data/accounts.server";
import {
  getUser,
  LastAdminError,
  WeakPasswordError,
  setUserActive,
  setUserPassword,
  subjectsOfUser,
  updateUser,
} from "~/data/accounts.server";
import { editUserSchema, type EditUserForm } from "../../scripts/inputs/users";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { currentSessionHandle } from "~/security/sessions.server";
import { parseId } from "~/utils/route-params.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SessionsPanel } from "~/components/sessions-panel";
import { AccessForm, PasswordForm, ProfileForm } from "~/components/admin/edit-user-forms";
import { ActionNotice } from "~/components/form-parts";
import { parseForm } from "~/forms/forms";
import { answer, dispatchIntent, refuse } from "~/forms/forms.server";
import { Badge } from "~/components/badge";

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

type FormOf<Intent extends EditUserForm["intent"]> = Extract<EditUserForm, { intent: Intent }>;
type User = Awaited<ReturnType<typeof loadUser>>;
type Admin = Awaited<ReturnType<typeof requireAdmin>>;

/** One handler per form of the page, by its intent; each answers in the one form-answer shape. */
function userHandlers(submission: Submission<EditUserForm>, admin: Admin, user: User) {
  const db = getDb();
  const done = (intent: EditUserForm["intent"], sentence: string, resetForm = false) =>
    answer(submission, intent, { done: sentence, resetForm });
  return {
    update: async ({ intent, name, roles, subjects }: FormOf<"update">) => {
      await updateUser(db, admin, user.id, { name, roles, subjectIds: subjects });
      const same = roles.length === user.roles.length && roles.every((r) => user.roles.includes(r));
      const signedOut = same
        ? ""
        : ` ${user.name} is signed out and signs in again as ${roles.join(" and ")}.`;
      return done(intent, `Saved.${signedOut}`);
    },
    password: async ({ intent, password }: FormOf<"password">) => {
      try {
        await setUserPassword(db, admin, user.id, password);
      } catch (error) {
        if (!(error instanceof WeakPasswordError)) throw error;
        return answer(submission, intent, {
          status: 400,
          fieldErrors: { password: [error.message] },
          hideFields: ["password"],
        });
      }
      return done(intent, `New password set. ${user.name} is signed out everywhere.`, true);
    },
    deactivate: async ({ intent }: FormOf<"deactivate">) => {
      await setUserActive(db, admin, user.id, false);
      return done(intent, `${user.name} is deactivated and signed out.`);
    },
    activate: async ({ intent }: FormOf<"activate">) => {
      await setUserActive(db, admin, user.id, true);
      return done(intent, `${user.name} is active again.`);
    },
    "end-session": async ({ intent, session }: FormOf<"end-session">) => {
      const ended = await endUserSession(db, admin, user.id, session);
      return done(
        intent,
        ended > 0
          ? `Session ${session} ended: that browser must sign in again.`
          : `Session ${session} had already ended.`,
      );
    },
    "end-all-sessions": async ({ intent }: FormOf<"end-all-sessions">) => {
      const ended = await endAllUserSessions(db, admin, user.id);
      return done(intent, `Ended ${ended} session${ended === 1 ? "" : "s"} of ${user.name}.`);
    },
  };
}

/**
 * Why this change would take the acting admin's own access, or null. That no change leaves zero active
 * admins is checked by the change itself, inside its transaction with the admins' rows locked
 * (LastAdminError), since two admins may remove each other at the same moment.
 */
function losesOwnAdmin(value: EditUserForm, admin: { id: number }, user: User) {
  const losesAdmin =
    user.roles.includes("admin") &&
    user.active &&
    ((value.intent === "update" && !value.roles.includes("admin")) || value.intent === "deactivate");
  return losesAdmin && user.id === admin.id
    ? "You cannot remove your own admin access; ask another admin."
    : null;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = await loadUser(params.userId);
  const submission = parseForm(await request.formData(), editUserSchema);
  if (submission.status === "success") {
    const reason = losesOwnAdmin(submission.value, admin, user);
    if (reason) return refuse(submission, submission.value.intent, reason);
  }
  try {
    return await dispatchIntent(submission, userHandlers(submission, admin, user), {
      hideFields: ["password"],
    });
  } catch (error) {
    if (error instanceof LastAdminError && submission.status === "success")
      return refuse(submission, submission.value.intent, error.message);
    throw error;
  }
}

export default function EditUser() {
  const { user, subjects, subjectIds, sessions, currentSession } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to="/admin/users">← Users</Link>
      </p>
      <h1>
        {user.name} {user.active ? null : <Badge tone="failing">deactivated</Badge>}
      </h1>
      <p className="muted">{user.email}</p>
      <ActionNotice answer={data} inPlace={["update", "password"]} />
      <ProfileForm user={user} subjects={subjects} subjectIds={subjectIds} answer={data} />
      <PasswordForm answer={data} />
      <AccessForm user={user} sessions={sessions.length} answer={data} />
      <SessionsPanel sessions={sessions} currentSession={currentSession} answer={data} />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
