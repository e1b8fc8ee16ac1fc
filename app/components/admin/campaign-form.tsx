import { campaignSchema } from "../../../scripts/inputs/campaigns";
import { ProposalListField, SubjectScopeSelect } from "~/components/form-parts";

/** What the campaign form starts with: defaults for a new one, the stored draft when editing. */
export interface CampaignFormValues {
  name: string;
  instructions: string;
  depth: number;
  raters: number;
  deadline: string;
  systems: string[];
  experts: string[];
  proposals: string[];
}

/** Reads the campaign form through the one campaign schema: the create and the edit action share it. */
export function readCampaignForm(form: FormData) {
  const listed = String(form.get("proposals") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  return campaignSchema.safeParse({
    name: form.get("name"),
    instructions: form.get("instructions") ?? "",
    systems: form.getAll("systems"),
    depth: form.get("depth"),
    raters: form.get("raters"),
    experts: form.getAll("experts"),
    subject: form.get("subject") || undefined,
    proposals: listed.length ? listed : undefined,
    deadline: form.get("deadline") || undefined,
  });
}

/** The fields of the campaign form (inside the caller's Form, which adds the CSRF input and the button). */
export function CampaignFields({
  systems,
  subjects,
  experts,
  initial,
}: {
  systems: string[];
  subjects: { id: number; key: string; name: string }[];
  experts: { email: string; name: string }[];
  initial?: CampaignFormValues;
}) {
  return (
    <>
      <div className="form-grid">
        <div>
          <label htmlFor="name">Name</label>
          <input id="name" name="name" required defaultValue={initial?.name} />
        </div>
        <div>
          <label htmlFor="depth">Pool depth K (top K of each system)</label>
          <input
            id="depth"
            name="depth"
            type="number"
            min={1}
            max={200}
            defaultValue={initial?.depth ?? 10}
          />
        </div>
        <div>
          <label htmlFor="raters">Raters per proposal</label>
          <input
            id="raters"
            name="raters"
            type="number"
            min={1}
            max={10}
            defaultValue={initial?.raters ?? 3}
          />
        </div>
        <div>
          <label htmlFor="deadline">Deadline (optional)</label>
          <input id="deadline" name="deadline" type="date" defaultValue={initial?.deadline} />
        </div>
        <SubjectScopeSelect
          subjects={subjects}
          allLabel={initial ? "The proposals listed below" : "All proposals"}
        />
        <div>
          <label htmlFor="systems">Systems whose lists are pooled</label>
          <select
            id="systems"
            name="systems"
            multiple
            size={Math.min(5, Math.max(2, systems.length))}
            defaultValue={initial?.systems ?? systems.slice(0, 2)}
          >
            {systems.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="experts">Experts invited</label>
          <select
            id="experts"
            name="experts"
            multiple
            size={Math.min(6, Math.max(2, experts.length))}
            defaultValue={initial?.experts}
          >
            {experts.map((e) => (
              <option key={e.email} value={e.email}>
                {e.name} ({e.email})
              </option>
            ))}
          </select>
        </div>
      </div>
      <ProposalListField defaultValue={initial?.proposals} />
      <div className="field">
        <label htmlFor="instructions">Instructions for the experts (markdown)</label>
        <textarea id="instructions" name="instructions" rows={4} defaultValue={initial?.instructions} />
      </div>
    </>
  );
}
