// What every kind of listener is given (one deps object); what they share of a request is in ./origin.ts.
import type { ChatCore, SlackInstallations, TrackRequest } from '../../../src/ports/index.js';
import type { Logger } from '../../../src/log.js';
import type { SlackAdmins } from '../admins.js';
import type { SlackForms } from '../forms.js';
import type { SlackHome } from '../home.js';
import type { SlackClients } from '../poster.js';

export interface ListenerDeps {
  bot: ChatCore;
  admins: SlackAdmins;
  clients: SlackClients;
  logger: Logger;
  /**
   * Counts each listener from the ack to the reply's delivery (respond() to the response_url), so a graceful stop
   * waits for the answer to reach Slack, not only for the bot to have one.
   */
  track: TrackRequest;
  /** Add to Slack: where installations are kept (a removed workspace's is deleted); unset with one bot token. */
  installations?: SlackInstallations | undefined;
  /** The alert and digest forms (modals): each kind's file registers its part of them. */
  forms: SlackForms;
  /** The Home tab (the person's own alerts and digests); none when unset. */
  home?: SlackHome | undefined;
}

/** Without a tracker, a listener just runs. */
export const untracked: TrackRequest = (work) => work();

export { actionChannel, refuse, warnOf, type BlockOrigin } from './origin.js';
