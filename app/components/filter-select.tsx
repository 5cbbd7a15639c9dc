/**
 * A labelled select of a GET filter form (its value lives in the URL). `key` follows the value so
 * that a client-side navigation to other filters shows them, as a page load would.
 */
export function FilterSelect({
  label,
  name,
  value,
  options,
  className,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string | number; label: string }[];
  className: string;
}) {
  return (
    <label className="flex flex-col">
      {label}
      <select key={value} name={name} defaultValue={value} className={className}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
