import type { ReactNode } from 'react';

/**
 * The admin lists' table shell: a scrolling wrapper, a header row of column labels, and the rows.
 * On phones the CSS turns each row into a card and shows each cell's data-label.
 */
export function ReviewTable({
  className,
  testId,
  headers,
  headerCell,
  children,
}: {
  className?: string;
  testId?: string;
  headers: readonly { key: string; label: string }[];
  /** what a header cell holds instead of its label (a "select the page" tick box) */
  headerCell?(key: string): ReactNode | undefined;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap al-table-wrap">
      <table className={className ? `table al-table ${className}` : 'table al-table'} data-testid={testId}>
        <thead>
          <tr>
            {headers.map(({ key, label }) => (
              <th key={key} scope="col">
                {headerCell?.(key) ?? label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Column keys with their labels, for the header row of a ReviewTable. */
export function columnHeaders<K extends string>(
  keys: readonly K[],
  label: (key: K) => string,
): { key: K; label: string }[] {
  return keys.map((key) => ({ key, label: label(key) }));
}
