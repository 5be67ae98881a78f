// Fields the filter forms share: a choice that may be left at "Any" (then not sent), and a range of whole
// days, which `wholeDays` reads from the first day's start to the last day's end.

interface ChoiceFilterProps {
  label: string;
  name: string;
  choices: readonly string[];
}

export function ChoiceFilter({ label, name, choices }: ChoiceFilterProps) {
  return (
    <label>
      {label}
      <select name={name} defaultValue="">
        <option value="">Any</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}

export function DayRangeFilter() {
  return (
    <>
      <label>
        From
        <input name="from" type="date" />
      </label>
      <label>
        To
        <input name="to" type="date" />
      </label>
    </>
  );
}
