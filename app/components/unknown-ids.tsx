/** The data-quality finding for ids the events name but the catalog lacks, with a few of them. */
export function UnknownIds({
  unknown,
}: {
  unknown: { proposals: number; candidates: number; proposalExamples: string[]; candidateExamples: string[] };
}) {
  if (unknown.proposals === 0 && unknown.candidates === 0)
    return <>every proposal and candidate id the events name is in the catalog</>;
  const part = (n: number, noun: string, examples: string[]) =>
    `${n} ${noun}${n === 1 ? "" : "s"}${n ? ` (${examples.join(", ")}${n > examples.length ? ", …" : ""})` : ""}`;
  return (
    <>
      ids Assay does not know: {part(unknown.proposals, "proposal", unknown.proposalExamples)} and{" "}
      {part(unknown.candidates, "candidate", unknown.candidateExamples)}
    </>
  );
}
