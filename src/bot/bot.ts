// The conversation core's public face: a command or a button press becomes a Reply of platform-neutral views.
// It knows nothing of Slack or Discord; adapters hand it requests and render what it returns. What a question goes
// through is the pipeline (pipeline/answer.ts: understand, resolve, fetch, present, remember); the Bot adds what every
// reply shares: its request id in the log, a friendly reply for any failure, and the footer.
import type { ApiResult } from '../api/client.js';
import { newRequestId, type Logger } from '../log.js';
import type { Query } from '../query/index.js';
import type { Reply } from '../views/model.js';
import { alertButtons, type AlertButtons, type AlertLookup } from './alert-buttons.js';
import type { Area } from './button-payloads.js';
import { friendlyError } from './friendly-error.js';
import { answer } from './pipeline/answer.js';
import { pickArea, press, saveDraft } from './pipeline/press.js';
import { LastResults } from './last-result.js';
import { privately, type Stages } from './pipeline/stages.js';
import { describe, understand, type Understood } from './pipeline/understand.js';
import { readingOf } from './pipeline/read.js';
import type { RequestReading } from '../ports/chat-core.js';
import { encodeLocationOption, requester } from './requests.js';
import { SearchRunner } from './search.js';
import type {
  ActionRequest,
  BotOptions,
  CommandRequest,
  FormFill,
  FormRequest,
  PickRequest,
  SuggestOption,
  SuggestRequest,
} from './types.js';

export type { ServiceCaller } from './search.js';
export type { BotOptions } from './types.js';

export class Bot {
  /** Fetching without UI state: an alerts poller may share it (and its answer cache). */
  readonly searches: SearchRunner;
  private readonly stages: Stages;
  /** What each reading this bot made understood (read once, answered from it); a reading it did not make is unknown. */
  private readonly readings = new WeakMap<RequestReading, Understood>();

  constructor(private readonly options: BotOptions) {
    this.searches = new SearchRunner(options.api, {
      ttlMs: options.resultTtlMs ?? 5 * 60_000,
      ...(options.resultCacheSize !== undefined ? { maxEntries: options.resultCacheSize } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.lastPolled ? { lastPolled: options.lastPolled, logger: options.logger } : {}),
    });
    this.stages = { options, searches: this.searches, lastResults: new LastResults() };
  }

  /** Buttons under alert messages, from stored state (alert-buttons.ts; the delivery thread uses it without a Bot). */
  alertButtons(find: AlertLookup): AlertButtons {
    return alertButtons(this.options.state, find);
  }

  /** Reads a command once (stage 1, pure): what the metrics, the per-person limits and the answer all go by. */
  read(req: CommandRequest): RequestReading {
    const log = this.options.logger.child({ req: newRequestId(), user: req.user, channel: req.channel });
    const understood = understand(req, this.options, log);
    const reading = readingOf(understood);
    this.readings.set(reading, understood);
    return reading;
  }

  /** What the command was understood as: its reading's, when this bot made it; else the text read now. */
  private understood(req: CommandRequest, log: Logger): Understood {
    return (req.reading && this.readings.get(req.reading)) ?? understand(req, this.options, log);
  }

  /** A slash command. Never throws: every failure becomes a friendly reply and a precise log line. */
  async handleCommand(req: CommandRequest): Promise<Reply> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel });
    try {
      return this.finish(await answer(this.stages, req, this.understood(req, log), log));
    } catch (e) {
      return this.failure(e, log, ref, { text: req.text.slice(0, 200) });
    }
  }

  /**
   * The reply to a command when it needs no I/O (help, text that does not parse, a page too far, alerts off), so that
   * an adapter can answer at once, privately, without a public "thinking…" first. Undefined when the command has to
   * run (handleCommand). Pure and cheap: no call, no state written. Never throws.
   */
  immediateReply(req: CommandRequest): Reply | undefined {
    try {
      const log = this.options.logger.child({ req: newRequestId(), user: req.user, channel: req.channel });
      const understood = this.understood(req, log);
      return 'say' in understood ? this.finish(privately(understood.say)) : undefined;
    } catch {
      return undefined;
    }
  }

  /** A button press. Never throws. */
  async handleAction(req: ActionRequest): Promise<Reply> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel, action: req.action });
    try {
      return this.finish(await press(this.stages, req, log));
    } catch (e) {
      return this.failure(e, log, ref);
    }
  }

  /** A location chosen in the Refine picker: the same search, in that area. */
  async handlePick(req: PickRequest): Promise<Reply> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel, action: 'pick' });
    try {
      return this.finish(await pickArea(this.stages, req));
    } catch (e) {
      return this.failure(e, log, ref);
    }
  }

  /**
   * Location options for a picker, as the person types (at most 100, as Slack allows); mostly from the cache, and from
   * the service only when `mayCall` allows it.
   */
  async suggestLocations({ typed, mayCall }: SuggestRequest): Promise<SuggestOption[]> {
    if (typed.trim().length < 2) return [];
    try {
      const found = await this.options.locations.suggest(typed, mayCall);
      return found.slice(0, 100).map((l) => ({ label: l.name.slice(0, 75), value: encodeLocationOption(l) }));
    } catch (e) {
      this.options.logger.warn('location suggestions failed', { error: e });
      return [];
    }
  }

  /** How a command would be understood, in one line, without running it (pipeline/understand.ts). */
  async describe(text: string, location?: string): Promise<string | undefined> {
    return describe(this.options.locations, this.options.logger, text, location);
  }

  /** The order an edit form is filled from (src/forms reads it into fields), or why there is none. Never throws. */
  async orderForm(req: FormRequest): Promise<FormFill> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel, action: 'form' });
    const who = requester(req);
    try {
      const { alerts, digests } = this.options;
      const { order } = req;
      if ('button' in order) {
        const saving = await saveDraft(this.stages, { channel: req.channel, token: order.button });
        return 'draft' in saving
          ? { ok: true, draft: saving.draft, channel: req.channel }
          : { ok: false, reply: this.finish(saving.reply) };
      }
      const found =
        req.kind === 'alert'
          ? await alerts?.existing(who, order)
          : await digests?.existing(who, 'id' in order ? order : { number: order.number });
      if (!found)
        return { ok: false, reply: privately(`${req.kind === 'alert' ? 'Alerts' : 'Digests'} are off here.`) };
      if ('order' in found) return { ok: true, existing: found.order, channel: found.channel };
      return { ok: false, reply: this.finish(found) };
    } catch (e) {
      return { ok: false, reply: this.failure(e, log, ref) };
    }
  }

  /** Fetches one service page of a search; writes no state. */
  async search(query: Query, location: Area | undefined, page: number): Promise<ApiResult<unknown>> {
    return (await this.searches.search(query, location, page)).result;
  }

  /** `ref` is the request's id (`req` on its log lines), shown to the person as "(ref …)" to quote to the operator. */
  private failure(e: unknown, log: Logger, ref: string, fields: Record<string, unknown> = {}): Reply {
    const friendly = friendlyError(e, ref);
    log[friendly.level]('request failed', { ...fields, error: e });
    return this.finish(privately(friendly.text));
  }

  private finish(reply: Reply): Reply {
    return this.options.footer ? { ...reply, footer: this.options.footer } : reply;
  }
}
