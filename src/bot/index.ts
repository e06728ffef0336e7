// The bot's public surface: what adapters and the composition root may use.
export { Bot, decodeLocationOption, type BotOptions, type ServiceCaller } from './bot.js';
export { SearchRunner, runSearch, searchParams, type SearchOutcome } from './search.js';
export { StateMaintenance, type MaintenanceOptions, type PruneCounts } from './maintenance.js';
export { PostFailure, type ActionRequest, type ButtonStateStore, type ChatPoster, type CommandRequest, type PickRequest, type SuggestOption, type Surface, type TrackRequest } from './types.js';
export type { Reply } from '../views/model.js';
