import { useEffect, useId, useState } from "react";

export interface CheckboxOption {
  value: string;
  label: string;
}

/**
 * The options a search shows: those whose label holds every word typed, in any case and order; the
 * ticked ones always (a box is never ticked out of sight), and all of them for an empty search.
 */
export function visibleOptions(
  options: readonly CheckboxOption[],
  query: string,
  checked: ReadonlySet<string>,
) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return options.filter((o) => checked.has(o.value) || words.every((w) => o.label.toLowerCase().includes(w)));
}

/** From this many options on, the list gets a search box. */
const SEARCH_FROM = 7;

/**
 * Several choices at once as a list of checkboxes (posting `name` once per ticked box, as a multiple
 * select does), in a fieldset named by `legend`, with a search box once the list is long: no Ctrl-click.
 * The search filters in the browser only; without a script every box shows and the form works the same.
 */
export function CheckboxList({
  name,
  legend,
  options,
  defaultChecked = [],
  describedBy,
}: {
  name: string;
  legend: string;
  options: readonly CheckboxOption[];
  defaultChecked?: readonly string[];
  describedBy?: string;
}) {
  const id = useId();
  const [checked, setChecked] = useState(() => new Set(defaultChecked));
  const [query, setQuery] = useState("");
  // The search box needs a script, so it appears only once there is one.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const shown = new Set(visibleOptions(options, query, checked).map((o) => o.value));
  return (
    <fieldset className="checkbox-list" aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {scripted && options.length >= SEARCH_FROM ? (
        <input
          type="search"
          className="checkbox-list-search"
          aria-label={`Search ${legend.toLowerCase()}`}
          aria-controls={`${id}-options`}
          placeholder="Type to filter"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      ) : null}
      <div className="checkbox-list-options" id={`${id}-options`}>
        {options.map((o) => (
          <label key={o.value} hidden={!shown.has(o.value)}>
            <input
              type="checkbox"
              name={name}
              value={o.value}
              checked={checked.has(o.value)}
              onChange={(event) => {
                const next = new Set(checked);
                if (event.target.checked) next.add(o.value);
                else next.delete(o.value);
                setChecked(next);
              }}
            />{" "}
            {o.label}
          </label>
        ))}
        {shown.size === 0 ? <p className="muted">None matches “{query}”.</p> : null}
      </div>
      <p className="muted checkbox-list-count" aria-live="polite">
        {checked.size} of {options.length} chosen
      </p>
    </fieldset>
  );
}
