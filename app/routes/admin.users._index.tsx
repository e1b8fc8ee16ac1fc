import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { listSubjects } from "~/data/catalog.server";
import { createUser, DuplicateEmailError, listUsersPage, WeakPasswordError } from "~/data/accounts.server";
import { createUserSchema } from "../../scripts/inputs/users";
import { userSortable } from "../../scripts/inputs/sortable";
import { ServerTable } from "~/components/data-table";
import { requireAdmin } from "~/security/auth.server";
import { getDb } from "~/utils/db.server";
import { pageCursors, parseListing } from "~/utils/listing";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { NewUserForm } from "~/components/admin/users";
import { parseForm } from "~/forms/forms";
import { answer } from "~/forms/forms.server";
import { Badge } from "~/components/badge";

export const meta: MetaFunction = () => [{ title: "Users · Assay" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { after, before, ...listing } = parseListing(request, userSortable, "name");
  const [{ rows, total, cursors }, subjects] = await Promise.all([
    listUsersPage(getDb(), { ...listing, after, before }),
    listSubjects(getDb()),
  ]);
  return json({ listing, rows, total, cursors: pageCursors(listing, total, cursors), subjects });
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

type Row = SerializeFrom<typeof loader>["rows"][number];
const columns: ColumnDef<Row, unknown>[] = [
  {
    id: "name",
    header: "Name",
    cell: ({ row }) => <Link to={`/admin/users/${row.original.id}`}>{row.original.name}</Link>,
  },
  { id: "email", header: "Email", accessorKey: "email" },
  { id: "roles", header: "Roles", cell: ({ row }) => row.original.roles.join(", ") },
  {
    id: "status",
    header: "Status",
    cell: ({ row }) => (row.original.active ? "active" : <Badge tone="failing">deactivated</Badge>),
  },
];

export default function Users() {
  const { listing, rows, total, cursors, subjects } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>Users</h1>
      <p>
        <a href="/admin/users/invitations">Invitations</a>: invite people by email to choose their own
        password. <a href="/admin/sign-in">Sign-in settings</a>: single sign-on and passwords.
      </p>
      <NewUserForm subjects={subjects} answer={data} />
      <ServerTable
        columns={columns}
        rows={rows}
        total={total}
        {...listing}
        cursors={cursors}
        sortable={[...userSortable]}
        searchLabel="Search name or email"
        caption="Users"
        empty={listing.q ? `No user matches “${listing.q}”.` : "No users yet."}
      />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
