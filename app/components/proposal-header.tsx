/** A proposal as everyone who works on it sees it: title, subject, keywords and abstract. */
export function ProposalHeader({
  proposal,
}: {
  proposal: {
    title: string;
    externalId?: string;
    subject: string | null;
    keywords: string[];
    abstract: string;
  };
}) {
  return (
    <>
      <h1>
        {proposal.title} {proposal.externalId ? <span className="muted">({proposal.externalId})</span> : null}
      </h1>
      <p className="muted">Subject: {proposal.subject ?? "none"}</p>
      <ul className="keywords" aria-label="Keywords">
        {proposal.keywords.map((k) => (
          <li key={k}>{k}</li>
        ))}
      </ul>
      <p>{proposal.abstract}</p>
    </>
  );
}
