/**
 * An email address in a narrow column: it may wrap after its @ and before each dot (a <wbr> at
 * each), never inside a name or a domain label, so "sule.gunes@example.com" never reads
 * "sule.gunes@example.co" over "m". The whole address is in the title, for a cell that still
 * ends up too narrow for one of its parts.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?<=@)|(?=\.)/);
  let at = 0;
  return (
    <span className={className ? `email-text ${className}` : 'email-text'} title={email}>
      {parts.map((part) => {
        const start = at;
        at += part.length;
        return (
          <span key={start}>
            {start > 0 && <wbr />}
            {part}
          </span>
        );
      })}
    </span>
  );
}
