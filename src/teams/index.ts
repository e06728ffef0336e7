// Teams (a Slack workspace, a Discord server) and their fair share of the operator's quota.
export { TeamShares, type ShareOptions } from './shares.js';
export { payingChat } from './paying-chat.js';
export { limitingPeople, type PersonLimits } from './person-limits.js';
