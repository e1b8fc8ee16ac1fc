import { CheckboxList } from "~/components/checkbox-list";
import { ProposalListField, SubjectScopeSelect, errorAttributes, FieldError } from "~/components/form-parts";

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

/** A field's errors by its name (Conform's `form.allErrors`): shown next to the field. */
type FieldErrors = Record<string, string[] | undefined>;

/** One labelled number input of the form, with its errors beside it. */
function NumberField(props: {
  name: "depth" | "raters";
  label: string;
  max: number;
  defaultValue: number;
  errors: FieldErrors;
}) {
  const errors = props.errors[props.name];
  return (
    <div>
      <label htmlFor={props.name}>{props.label}</label>
      <input
        id={props.name}
        name={props.name}
        type="number"
        min={1}
        max={props.max}
        defaultValue={props.defaultValue}
        {...errorAttributes(props.name, errors)}
      />
      <FieldError id={props.name} errors={errors} />
    </div>
  );
}

/** The pooled systems and the invited experts: two searchable checkbox lists. */
function PoolChoices({
  systems,
  experts,
  initial,
  errors,
}: {
  systems: string[];
  experts: { email: string; name: string }[];
  initial?: CampaignFormValues;
  errors: FieldErrors;
}) {
  return (
    <>
      <div>
        <CheckboxList
          name="systems"
          legend="Systems whose lists are pooled"
          options={systems.map((s) => ({ value: s, label: s }))}
          defaultChecked={initial?.systems ?? systems.slice(0, 2)}
          describedBy={errors.systems?.length ? "systems-error" : undefined}
        />
        <FieldError id="systems" errors={errors.systems} />
      </div>
      <div>
        <CheckboxList
          name="experts"
          legend="Experts invited"
          options={experts.map((e) => ({ value: e.email, label: `${e.name} (${e.email})` }))}
          defaultChecked={initial?.experts ?? []}
          describedBy={errors.experts?.length ? "experts-error" : undefined}
        />
        <FieldError id="experts" errors={errors.experts} />
      </div>
    </>
  );
}

/**
 * The fields of the campaign form (inside the caller's Form, which adds the CSRF input and the button),
 * read by `campaignFormSchema` (scripts/inputs/campaigns.ts) on both sides.
 */
export function CampaignFields({
  systems,
  subjects,
  experts,
  initial,
  errors = {},
}: {
  systems: string[];
  subjects: { id: number; key: string; name: string }[];
  experts: { email: string; name: string }[];
  initial?: CampaignFormValues;
  errors?: FieldErrors;
}) {
  return (
    <>
      <div className="form-grid">
        <div>
          <label htmlFor="name">Name</label>
          <input
            id="name"
            name="name"
            required
            defaultValue={initial?.name}
            {...errorAttributes("name", errors.name)}
          />
          <FieldError id="name" errors={errors.name} />
        </div>
        <NumberField
          name="depth"
          label="Pool depth K (top K of each system)"
          max={200}
          defaultValue={initial?.depth ?? 10}
          errors={errors}
        />
        <NumberField
          name="raters"
          label="Raters per proposal"
          max={10}
          defaultValue={initial?.raters ?? 3}
          errors={errors}
        />
        <div>
          <label htmlFor="deadline">Deadline (optional)</label>
          <input
            id="deadline"
            name="deadline"
            type="date"
            defaultValue={initial?.deadline}
            {...errorAttributes("deadline", errors.deadline)}
          />
          <FieldError id="deadline" errors={errors.deadline} />
        </div>
        <SubjectScopeSelect
          subjects={subjects}
          allLabel={initial ? "The proposals listed below" : "All proposals"}
        />
        <PoolChoices systems={systems} experts={experts} initial={initial} errors={errors} />
      </div>
      <ProposalListField defaultValue={initial?.proposals} errors={errors.proposals} />
      <div className="field">
        <label htmlFor="instructions">Instructions for the experts (markdown)</label>
        <textarea
          id="instructions"
          name="instructions"
          rows={4}
          defaultValue={initial?.instructions}
          {...errorAttributes("instructions", errors.instructions)}
        />
        <FieldError id="instructions" errors={errors.instructions} />
      </div>
    </>
  );
}
