import type { AuthReply } from '@contract/types';
import { useState } from 'react';
import { useAuth } from '../../lib/auth';

/**
 * The submit of the login and register forms: check the form in the browser, post it, sign
 * the new session in (RedirectIfAuthed then takes the user on), and keep the busy flag and
 * the error text. `describe` turns a failure into the text to show, or null to show none.
 */
export function useAuthSubmit<V>(
  validate: () => V | null,
  post: (input: V) => Promise<AuthReply>,
  describe: (err: unknown) => string | null,
) {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const input = validate();
    if (!input) return;
    setBusy(true);
    try {
      const reply = await post(input);
      signIn(reply.token, reply.data);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}
