import type { Migration } from 'kysely/migration';
import * as initial from './2026-11-22-0400-initial';
import * as taskListIndexes from './2026-11-23-1000-task-list-indexes';
import * as adminListIndexes from './2026-11-24-1000-admin-list-indexes';
import * as taskCountIndex from './2026-11-24-1100-task-count-index';
import * as feedbackCodes from './2026-11-25-0900-feedback-codes';
import * as searchFolding from './2026-11-25-1300-search-folding';
import * as statCounters from './2026-11-25-1700-stat-counters';
import * as proofThumbnails from './2026-11-25-1800-proof-thumbnails';
import * as taskTimeLimits from './2026-11-26-0900-task-time-limits';
import * as proofTypes from './2026-11-26-1000-proof-types';
import * as appeals from './2026-11-26-1100-appeals';
import * as userForfeit from './2026-11-26-1200-user-forfeit';
import * as inbox from './2026-11-26-1300-inbox';
import * as auditLog from './2026-11-26-1400-audit-log';
import * as submissionTaskIndex from './2026-11-26-1500-submission-task-index';
import * as fraudSignals from './2026-11-27-0900-fraud-signals';
import * as clusterState from './2026-11-28-0900-cluster-state';
import * as bytewiseCollation from './2026-11-29-0904-bytewise-collation';
import * as auditWords from './2026-11-29-0905-audit-words';
import * as auditActor from './2026-11-29-0915-audit-actor';
import * as mail from './2026-11-30-1000-mail';
import * as sessionsTwoFactor from './2026-11-30-1100-sessions-two-factor';
import * as contentPrints from './2026-11-30-1400-content-prints';
import * as payoutAccounts from './2026-12-01-1100-payout-accounts';
import * as userNotes from './2026-12-01-1300-user-notes';
import * as partLookupKeys from './2026-12-02-0900-part-lookup-keys';
import * as submissionCounts from './2026-12-02-1000-submission-counts';
import * as taskSearchFilter from './2026-12-03-1000-task-search-filter';
import * as startUpIndexes from './2026-12-04-0900-start-up-indexes';
import * as taskSearchCover from './2026-12-04-1000-task-search-cover';
import * as statCountersWithoutRowid from './2026-12-05-1000-stat-counters-without-rowid';
import * as taskSearchFilterPostgres from './2026-12-06-1000-task-search-filter-postgres';
import * as taskListTriggers from './2026-12-07-1000-task-list-triggers';

/** Every migration, registered by name (a folder-reading provider breaks inside a bundle). */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0400-initial': initial,
  '2026-11-23-1000-task-list-indexes': taskListIndexes,
  '2026-11-24-1000-admin-list-indexes': adminListIndexes,
  '2026-11-24-1100-task-count-index': taskCountIndex,
  '2026-11-25-0900-feedback-codes': feedbackCodes,
  '2026-11-25-1300-search-folding': searchFolding,
  '2026-11-25-1700-stat-counters': statCounters,
  '2026-11-25-1800-proof-thumbnails': proofThumbnails,
  '2026-11-26-0900-task-time-limits': taskTimeLimits,
  '2026-11-26-1000-proof-types': proofTypes,
  '2026-11-26-1100-appeals': appeals,
  '2026-11-26-1200-user-forfeit': userForfeit,
  '2026-11-26-1300-inbox': inbox,
  '2026-11-26-1400-audit-log': auditLog,
  '2026-11-26-1500-submission-task-index': submissionTaskIndex,
  '2026-11-27-0900-fraud-signals': fraudSignals,
  '2026-11-28-0900-cluster-state': clusterState,
  '2026-11-29-0904-bytewise-collation': bytewiseCollation,
  '2026-11-29-0905-audit-words': auditWords,
  '2026-11-29-0915-audit-actor': auditActor,
  '2026-11-30-1000-mail': mail,
  '2026-11-30-1100-sessions-two-factor': sessionsTwoFactor,
  '2026-11-30-1400-content-prints': contentPrints,
  '2026-12-01-1100-payout-accounts': payoutAccounts,
  '2026-12-01-1300-user-notes': userNotes,
  '2026-12-02-0900-part-lookup-keys': partLookupKeys,
  '2026-12-02-1000-submission-counts': submissionCounts,
  '2026-12-03-1000-task-search-filter': taskSearchFilter,
  '2026-12-04-0900-start-up-indexes': startUpIndexes,
  '2026-12-04-1000-task-search-cover': taskSearchCover,
  '2026-12-05-1000-stat-counters-without-rowid': statCountersWithoutRowid,
  '2026-12-06-1000-task-search-filter-postgres': taskSearchFilterPostgres,
  '2026-12-07-1000-task-list-triggers': taskListTriggers,
};
