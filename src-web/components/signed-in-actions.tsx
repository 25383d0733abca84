import { InboxBell } from './inbox-bell';
import { UserMenu } from './user-menu';

/**
 * The top bar's end for a signed-in reader: the inbox bell, then the account menu. A chunk of its
 * own (top-bar.tsx loads it once someone is signed in), so a visitor's first page goes without it.
 */
export function SignedInActions() {
  return (
    <>
      <InboxBell />
      <UserMenu />
    </>
  );
}
