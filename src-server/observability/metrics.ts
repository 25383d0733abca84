import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics. Every label takes a value from a short fixed list or from
 * the code (a route's pattern, a job's name), never from a request: ids and raw paths would
 * make a new series per value and grow the scrape without end.
 */
export const registry = new Registry();

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request's method as a label: the usual ones, else "other". */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}

/** 2xx, 3xx, 4xx, 5xx. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

export const httpDuration = new Histogram({
  name: 'taskreward_http_request_duration_seconds',
  help: 'Time to answer a request, by method, route pattern and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const dbBusyRefusals = new Counter({
  name: 'taskreward_db_busy_refusals_total',
  help: 'Requests refused with 503 because the database was busy or a lock wait timed out',
  registers: [registry],
});

export const dbTransactionDuration = new Histogram({
  name: 'taskreward_db_transaction_duration_seconds',
  help: 'Time from BEGIN to COMMIT or ROLLBACK, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [registry],
});

export const imageQueueWait = new Histogram({
  name: 'taskreward_image_queue_wait_seconds',
  help: 'Time an image or password job waited for its turn in the work queue',
  labelNames: ['queue'] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const imageQueueDepth = new Gauge({
  name: 'taskreward_image_queue_jobs',
  help: 'Jobs in the work queue now, running or waiting',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

export const imageQueueCapacity = new Gauge({
  name: 'taskreward_image_queue_capacity',
  help: 'How many jobs the work queue runs at once and holds waiting before it answers 503',
  labelNames: ['queue', 'kind'] as const,
  registers: [registry],
});

export const jobLastRun = new Gauge({
  name: 'taskreward_job_last_run_timestamp_seconds',
  help: 'When a background job last ran on this node (Unix time)',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobLastSuccess = new Gauge({
  name: 'taskreward_job_last_success_timestamp_seconds',
  help: 'When a background job last ran without an error on this node (Unix time)',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'taskreward_job_failures_total',
  help: 'Runs of a background job that ended in an error',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'taskreward_job_runs_total',
  help: 'Runs of a background job, by outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export const memoryReductions = new Histogram({
  name: 'taskreward_memory_reduce_pause_seconds',
  help: 'Pauses of the collections asked for while the RSS was over MEMORY_BUDGET_MB',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [registry],
});

export const memoryReturned = new Counter({
  name: 'taskreward_memory_reduce_returned_bytes_total',
  help: 'Resident memory those collections gave back to the system',
  registers: [registry],
});

export const buildInfo = new Gauge({
  name: 'taskreward_build_info',
  help: 'Always 1; the labels say which version runs on which Node and database engine',
  labelNames: ['version', 'node_version', 'engine'] as const,
  registers: [registry],
});

/** The numbers an operator watches, read from the database at each scrape (site-wide, not per node). */
export const siteGauges = {
  pendingSubmissions: new Gauge({
    name: 'taskreward_pending_submissions',
    help: 'Submissions waiting for review',
    registers: [registry],
  }),
  oldestPendingSubmission: new Gauge({
    name: 'taskreward_oldest_pending_submission_age_seconds',
    help: 'Age of the oldest submission waiting for review (0 when none)',
    registers: [registry],
  }),
  pendingWithdrawals: new Gauge({
    name: 'taskreward_pending_withdrawals',
    help: 'Withdrawals waiting for an admin',
    registers: [registry],
  }),
  pendingWithdrawalsTl: new Gauge({
    name: 'taskreward_pending_withdrawals_tl',
    help: 'Sum of the withdrawals waiting for an admin, in Turkish lira',
    registers: [registry],
  }),
  oldestPendingWithdrawal: new Gauge({
    name: 'taskreward_oldest_pending_withdrawal_age_seconds',
    help: 'Age of the oldest withdrawal waiting for an admin (0 when none)',
    registers: [registry],
  }),
  openFraudFlags: new Gauge({
    name: 'taskreward_open_fraud_flags',
    help: 'Fraud flags not yet dismissed',
    registers: [registry],
  }),
  users: new Gauge({ name: 'taskreward_users', help: 'Accounts', registers: [registry] }),
  pendingMails: new Gauge({
    name: 'taskreward_mail_outbox_pending',
    help: 'Mails queued and not yet sent (0 where SMTP is not set up: nothing is queued)',
    registers: [registry],
  }),
  oldestPendingMail: new Gauge({
    name: 'taskreward_oldest_pending_mail_age_seconds',
    help: 'Age of the oldest mail still waiting to be sent (0 when none)',
    registers: [registry],
  }),
};

let processMetrics = false;

/** Node's own metrics (event-loop lag, heap, GC, handles), started once when metrics are served. */
export function startProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}
