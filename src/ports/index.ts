// The interfaces the core offers adapters and asks of them.
export {
  PostFailure,
  type ChatPoster,
  type CredentialsCheck,
  type FailureOutcome,
  type LookupRequest,
  type LookupResult,
} from './chat-poster.js';
export type {
  ActionRequest,
  ChatCore,
  CommandRequest,
  FormFill,
  FormRequest,
  PickRequest,
  RequestReading,
  SuggestOption,
  SuggestRequest,
  Surface,
  TrackRequest,
} from './chat-core.js';
export type { SlackInstallations, WorkspaceKey } from './slack-installations.js';
export { isSharedPool, personIn, personOf, personalTarget, scopeOf, teamOf } from './channel.js';
export { delegateTo } from './chat-core.js';
export {
  areaList,
  personalWords,
  type AlertCommand,
  type AlertSpec,
  type ExistingAlert,
  type ExistingDigest,
  type ExistingOrder,
  type DayName,
  type DigestCommand,
  type DigestWhen,
  type OrderCommand,
  type OrderKind,
  type SharedCommand,
} from './order-command.js';
export type { HomeChange, HomeItem, HomeModel, HomePort, HomeRequest, HomeStateWord } from './home.js';
