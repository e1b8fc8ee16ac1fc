import { ConfirmAction } from "~/components/confirm-action";
import { describeUserAgent } from "~/security/user-agent";
import { TableScroll } from "~/components/table-scroll";
import type { FormAnswer } from "~/forms/forms";
import { formatDateTime } from "~/utils/format";
import { Badge } from "~/components/badge";

export type SessionRow = {
  handle: string;
  createdAt: string;
  lastSeenAt: string;
  endsAt: string;
  userAgent: string;
  ip: string;
};

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/**
 * A user's live sign-in sessions on the admin's user page, each with "End", plus "End all". A session
 * is named by a short handle (the start of its id's hash), which cannot be turned back into a cookie.
 */
export function SessionsPanel({
  sessions,
  currentSession,
  answer,
}: {
  sessions: SessionRow[];
  currentSession: string | null;
  /** The page's last answer: a post without confirmation (no script) reopens that row's dialog. */
  answer?: FormAnswer | null;
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
                      {s.handle === currentSession ? <Badge>this browser</Badge> : null}
                    </td>
                    <td>{when(s.createdAt)}</td>
                    <td>{when(s.lastSeenAt)}</td>
                    <td>{when(s.endsAt)}</td>
                    <td title={s.userAgent}>{describeUserAgent(s.userAgent)}</td>
                    <td>{s.ip || "unknown"}</td>
                    <td>
                      <ConfirmAction
                        intent="end-session"
                        label="End"
                        busyLabel="Ending…"
                        ariaLabel={`End session ${s.handle}`}
                        title={`End session ${s.handle}?`}
                        consequences={[
                          s.handle === currentSession
                            ? "This is your own browser: you are signed out here."
                            : `The browser signed in there (${describeUserAgent(s.userAgent)}) is signed out at its next request.`,
                        ]}
                        confirmLabel="Yes, end the session"
                        fields={{ session: s.handle }}
                        danger={false}
                        answer={answer}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <EndAllSessions sessions={sessions} currentSession={currentSession} answer={answer} />
        </>
      )}
    </section>
  );
}

/** "End all sessions", behind the confirmation that says how many end, and whether this browser is one. */
function EndAllSessions({
  sessions,
  currentSession,
  answer,
}: {
  sessions: SessionRow[];
  currentSession: string | null;
  answer?: FormAnswer | null;
}) {
  const n = sessions.length;
  return (
    <ConfirmAction
      intent="end-all-sessions"
      label="End all sessions"
      busyLabel="Ending…"
      title="End all sessions?"
      consequences={[
        `${n === 1 ? "The 1 live session ends" : `All ${n} live sessions end`}: every browser signed in as this user is signed out at its next request.`,
        ...(sessions.some((s) => s.handle === currentSession) ? ["That includes your own browser."] : []),
      ]}
      confirmLabel="Yes, end all sessions"
      answer={answer}
    />
  );
}
