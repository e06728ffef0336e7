// Alerts: saved searches, the poller, the kinds of message they post, and their chat commands.
export {
  AlertCommands,
  ALERTS_HELP,
  describeSchedule,
  type AlertContext,
  type AlertCommandsOptions,
} from './commands.js';
export {
  ALERT_KINDS,
  alertKind,
  renderDelivery,
  type AlertButtons,
  type AlertRendering,
  type DeliveryPayload,
} from './messages.js';
export { matchingAlerts } from './channel.js';
export { foldHeld } from './summary.js';
export { type AlertsApi, type PollerOptions } from './contracts.js';
export { impossibleIn, pauseImpossibleAlerts, type PauseDeps } from './impossible.js';
export { pauseForRecipient, RECIPIENT_PAUSE } from './personal.js';
export { alertOrders, dueQueries, pollOnce, POLL_JOB, type PollerDeps, type RunReport } from './poller.js';
export {
  ALERTABLE,
  canonicalParams,
  decodeSavedQuery,
  lastPollOf,
  notAlertable,
  paramsKey,
  pollKeyOf,
  savedQueryLookup,
  type SavedQuery,
} from './saved-query.js';
