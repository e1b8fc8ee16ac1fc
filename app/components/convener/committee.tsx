import { Form } from "@remix-run/react";
import type { RefObject } from "react";
import { ConflictWarning } from "~/components/conflict-warning";
import { CsrfInput } from "~/security/csrf";

/** What Finish with nobody adopted asks first (the server asks the same, with a 409). */
export const NOBODY = "Nobody is adopted yet. Confirm that you want to finish with an empty committee.";

type Candidate = {
  candidateId: number;
  externalId: string;
  name: string;
  affiliation: string | null;
  keywords: string[];
  conflict: string | null;
};

/** One recommended candidate: its profile (opened by a POST), expertise, a conflict, and Adopt or Remove (intents). */
export function CandidateCard({
  candidate: c,
  proposalId,
  adopted,
  full,
}: {
  candidate: Candidate;
  proposalId: string;
  adopted: boolean;
  full: boolean;
}) {
  return (
    <li
      id={`card-${c.externalId}`}
      tabIndex={-1}
      className="convener-card"
      data-adopted={adopted || undefined}
    >
      {/* Opening a profile is a logged click, so it is a POST (origin and CSRF checked, with or without
          JavaScript); the profile route logs it and redirects to the profile, which a GET only reads. */}
      <Form
        method="post"
        action={`/convener/proposals/${encodeURIComponent(proposalId)}/candidates/${encodeURIComponent(c.externalId)}`}
        className="convener-card-action"
      >
        <CsrfInput />
        <button type="submit" name="intent" value="open" className="link-button profile-link">
          {c.name}
        </button>
      </Form>
      , {c.affiliation}
      <div className="muted">{c.keywords.join(", ")}</div>
      <ConflictWarning reason={c.conflict} />
      <Form method="post" className="convener-card-action">
        <CsrfInput />
        <input type="hidden" name="candidate" value={c.externalId} />
        {adopted ? (
          <button
            id={`act-${c.externalId}`}
            type="submit"
            name="intent"
            value="unadopt"
            className="button-secondary"
          >
            Remove {c.name}
          </button>
        ) : (
          <button id={`act-${c.externalId}`} type="submit" name="intent" value="adopt" disabled={full}>
            Adopt {c.name}
          </button>
        )}
      </Form>
    </li>
  );
}

/**
 * The committee panel's members, each with its own Remove (intent `unadopt`), so a convener can change
 * the committee where they read it, without finding the card in a long list.
 */
export function CommitteeMembers({ members }: { members: { externalId: string; name: string }[] }) {
  return (
    <ul aria-label="Committee members" className="committee-members">
      {members.map((c) => (
        <li key={c.externalId}>
          <span className="committee-member-name">{c.name}</span>
          <Form method="post" className="committee-member-remove">
            <CsrfInput />
            <input type="hidden" name="candidate" value={c.externalId} />
            <button
              type="submit"
              name="intent"
              value="unadopt"
              className="button-secondary button-small"
              aria-label={`Remove ${c.name} from the committee`}
            >
              Remove
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

/**
 * Finish the committee (intent `finish`); with nobody adopted, a second explicit step first, whose
 * button takes the focus (`confirmRef`).
 */
export function FinishForm({
  empty,
  confirming,
  setConfirming,
  busy,
  confirmRef,
}: {
  empty: boolean;
  confirming: boolean;
  setConfirming: (confirming: boolean) => void;
  busy: boolean;
  confirmRef: RefObject<HTMLButtonElement>;
}) {
  return (
    <Form method="post" className="committee-finish">
      <CsrfInput />
      {confirming && empty ? (
        <div role="group" aria-labelledby="confirm-empty">
          <p id="confirm-empty">{NOBODY}</p>
          <input type="hidden" name="confirm" value="empty" />
          <button
            ref={confirmRef}
            type="submit"
            name="intent"
            value="finish"
            className="button-danger"
            disabled={busy}
          >
            Finish with nobody
          </button>{" "}
          <button type="button" className="button-secondary" onClick={() => setConfirming(false)}>
            Keep choosing
          </button>
        </div>
      ) : (
        <button
          type="submit"
          name="intent"
          value="finish"
          disabled={busy}
          onClick={(event) => {
            // An empty committee takes a second, explicit step; the server asks for it too.
            if (empty) {
              event.preventDefault();
              setConfirming(true);
            }
          }}
        >
          Finish
        </button>
      )}
    </Form>
  );
}
