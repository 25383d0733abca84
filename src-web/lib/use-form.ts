import { fieldErrors } from '@contract/schemas';
import { useState } from 'react';
import type { z } from 'zod';

/**
 * Form state checked with a shared contract schema; a field's error clears as soon as it is edited.
 */
export function useForm<S extends z.ZodType, V extends Record<string, string | boolean>>(
  schema: S,
  initial: V,
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const { [key as string]: _gone, ...rest } = e;
      return rest;
    });
  };
  const validate = (): z.output<S> | null => {
    const parsed = schema.safeParse(values);
    if (parsed.success) return parsed.data;
    setErrors(fieldErrors(parsed.error));
    return null;
  };
  /** The props that bind a text input to a string field (id, value, change, invalid state). */
  const input = <K extends keyof V & string>(key: K) => ({
    id: key,
    name: key,
    value: String(values[key]),
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as V[K]),
    'aria-invalid': key in errors,
    'aria-describedby': key in errors ? `${key}-error` : undefined,
  });
  return { values, set, errors, setErrors, validate, input };
}
