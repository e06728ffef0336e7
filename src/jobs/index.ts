// Named scheduled jobs, their fenced leases, and this instance's heartbeat.
export { Heartbeat, HEARTBEAT_MS, LAPSE_MS } from './heartbeat.js';
export { runLeased, type LeasedRun, type LeasedRunOptions } from './lease.js';
export { JobScheduler, type Job, type Scheduler } from './scheduler.js';
export { SharedScheduler, slotJobId, type SharedSchedulerOptions } from './shared-scheduler.js';
export { Leadership, type LeadershipOptions } from './leadership.js';
