/**
 * The campaign's labels where its figures are shown: TREC qrels, every rater's grade as CSV, and JSON
 * (the export route serves analysts and admins alike). Plain links, so they download without a script.
 */
export function CampaignExports({ campaignId }: { campaignId: number }) {
  const href = (format: string) => `/api/campaigns/${campaignId}/export?format=${format}`;
  return (
    <p className="campaign-exports">
      Export the labels: <a href={href("qrels")}>TREC qrels</a> · <a href={href("csv")}>per-rater CSV</a> ·{" "}
      <a href={href("json")}>JSON</a>
    </p>
  );
}
