import { Form } from "@remix-run/react";
import { CsrfInput } from "~/security/csrf";
import { describeUserAgent } from "~/security/user-agent";
import { TableScroll } from "~/components/table-scroll";

export type SessionRow = {
  handle: string;
  createdAt: string;
  lastSeenAt: string;
  endsAt: string;
  userAgent: string;
  ip: string;
};

const when = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * A user's live sign-in sessions on the admin's user page, each with "End", plus "End all". A session
 * is named by a short handle (the start of its id's hash), which cannot be turned back into a cookie.
 */
export function SessionsPanel({
  sessions,
  currentSession,
}: {
  sessions: SessionRow[];
  currentSession: string | null;
}) {
  return (
    <section className="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" style={{ marginTop: 0 }}>
        Sessions
      </h2>
      {sessions.length === 0 ? (
        <p className="muted">Not signed in anywhere.</p>
      ) : (
        <>
          <TableScroll label="Sessions">
            <table>
              <thead>
                <tr>
                  <th>Session</th>
                  <th>Signed in</th>
                  <th>Last seen</th>
                  <th>Expires</th>
                  <th>Browser</th>
                  <th>Address</th>
                  <th>
                    <span className="sr-only">End</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr key={s.handle}>
                    <td>
                      <code>{s.handle}</code>{" "}
                      {s.handle === currentSession ? <span className="badge">this browser</span> : null}
                    </td>
                    <td>{when(s.createdAt)}</td>
                    <td>{when(s.lastSeenAt)}</td>
                    <td>{when(s.endsAt)}</td>
                    <td title={s.userAgent}>{describeUserAgent(s.userAgent)}</td>
                    <td>{s.ip || "unknown"}</td>
                    <td>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="session" value={s.handle} />
                        <button
                          type="submit"
                          name="intent"
                          value="end-session"
                          aria-label={`End session ${s.handle}`}
                        >
                          End
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Form method="post">
            <CsrfInput />
            <button type="submit" name="intent" value="end-all-sessions" className="button-danger">
              End all sessions
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
