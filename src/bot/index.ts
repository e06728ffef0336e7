// The bot's public surface: what adapters and the composition root may use.
export { Bot, type BotOptions, type ServiceCaller } from './bot.js';
export type { ActionRequest, ButtonStateStore, CommandRequest, PickRequest, SuggestOption } from './types.js';
export type { Reply } from '../views/model.js';
