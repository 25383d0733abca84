import type { InputHTMLAttributes } from 'react';
import { Field } from '../../../components/field';

/** A labelled settings input with the id `settings-<name>` (the error focus looks for it). */
export function SettingsInput({
  name,
  label,
  error,
  value,
  onValue,
  multiline,
  hint,
  ...rest
}: {
  name: string;
  label: string;
  error?: string;
  value: string;
  onValue(value: string): void;
  multiline?: boolean;
  /** a line under the field, read with it */
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'name'>) {
  const id = `settings-${name}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const aria = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <Field id={id} label={label} error={error}>
      {multiline ? (
        <textarea id={id} rows={3} value={value} onChange={(e) => onValue(e.target.value)} {...aria} />
      ) : (
        <input id={id} value={value} onChange={(e) => onValue(e.target.value)} {...aria} {...rest} />
      )}
      {hint && (
        <p className="muted small field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </Field>
  );
}
