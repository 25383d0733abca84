/**
 * A filter's "from" and "to" days: each limits the other, and a reversed range is said under
 * "to" (the list does not ask the server for it). `id` prefixes the inputs' ids.
 */
export function DateRangeFields({
  id,
  from,
  to,
  labels,
  onChange,
}: {
  id: string;
  from: string;
  to: string;
  labels: { from: string; to: string; reversed: string };
  onChange(patch: { from?: string; to?: string }): void;
}) {
  const reversed = from !== '' && to !== '' && from > to;
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-from`}>{labels.from}</label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          max={to || undefined}
          onChange={(e) => onChange({ from: e.target.value })}
        />
      </div>
      <div className={`field${reversed ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-to`}>{labels.to}</label>
        <input
          id={`${id}-to`}
          type="date"
          value={to}
          min={from || undefined}
          aria-invalid={reversed || undefined}
          aria-describedby={reversed ? `${id}-to-error` : undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
        {reversed && (
          <p className="field-error" id={`${id}-to-error`} role="alert">
            {labels.reversed}
          </p>
        )}
      </div>
    </>
  );
}
