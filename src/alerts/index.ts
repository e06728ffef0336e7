// Alerts: saved searches, the poller, the outbox and its drainer, and their chat commands.
export { AlertCommands, ALERTS_HELP, describeSchedule, type AlertContext, type AlertCommandsOptions } from './commands.js';
export { OutboxDrainer, type DeliveryDeps, type DeliveryOptions, type DrainReport } from './delivery.js';
export { renderDelivery, type AlertButtons, type DeliveryPayload } from './messages.js';
export { pruneAlerts } from './prune.js';
export { pollOnce, POLL_JOB, type AlertsApi, type PollerDeps, type PollerOptions, type RunReport } from './poller.js';
export { AlertScheduler, isValidCron } from './scheduler.js';
export { ALERTABLE, canonicalParams, decodeSavedQuery, notAlertable, paramsKey, type SavedQuery } from './saved-query.js';
