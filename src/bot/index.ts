// The bot's public surface: what adapters and the composition root may use.
export { Bot, type BotOptions, type ServiceCaller } from './bot.js';
export { alertButtons, type AlertButtons, type AlertLookup } from './alert-buttons.js';
export { alertsRequest, decodeLocationOption, digestsRequest } from './requests.js';
export { compareRequest } from '../query/index.js';
export { SearchRunner, searchParams, type SearchOutcome } from './search.js';
export { typedFor, typedReplies } from './typed-reply.js';
export { StateMaintenance, type MaintenanceOptions, type PruneCounts } from './maintenance.js';
export {
  type ActionRequest,
  type ButtonStateStore,
  type CommandRequest,
  type PeriodPort,
  type PickRequest,
  type SuggestOption,
  type Surface,
  type TrackRequest,
} from './types.js';
export type { Reply } from '../views/model.js';
// The forms of alerts and digests (pure): their fields into an OrderCommand, an order back into them, its typed text.
export {
  ALERT_TYPES,
  commandText,
  formConfirmation,
  fromOrder,
  KeptForms,
  priceRangeText,
  readPriceRange,
  toAlertOrder,
  toDigestOrder,
  type AlertField,
  type AlertFormValues,
  type DigestField,
  type DigestFormValues,
} from '../forms/index.js';
// The delivery port lives in src/ports; re-exported while adapters move to it.
export { PostFailure, type ChatPoster } from '../ports/index.js';
// The slash commands (one list for help, Slack's manifest and Discord's definitions): pure data, for the adapters.
export { SLASH_COMMANDS, type CommandKind, type SlashCommand, type Subcommand } from '../query/commands.js';
