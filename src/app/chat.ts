// The chat side of an instance: the conversation core (Bot) with its commands (alerts, digests, compare), wrapped as
// every adapter receives it: a team's calls charged to it, one person's costly asks limited, requests counted and
// refused once shutdown begins.
import { AlertCommands, POLL_JOB, describeSchedule, lastPollOf } from '../alerts/index.js';
import type { ApiClient } from '../api/client.js';
import type { ListingSummary } from '../api/records.js';
import { Bot, typedReplies } from '../bot/index.js';
import { CompareCommands } from '../compare/index.js';
import type { Config } from '../config.js';
import { DigestCommands, postDigestNow, type MarketDigestComposer } from '../digests/index.js';
import { guardBot, type Lifecycle } from '../lifecycle.js';
import { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import { contextText, periodTransactions, readValue, type MarketData } from '../market/index.js';
import { countRequests, type Metrics } from '../ops/metrics.js';
import { teamOf, type ChatCore, type HomePort } from '../ports/index.js';
import { OrderChanges } from '../standing-orders/changes.js';
import { OrderHome } from '../standing-orders/home.js';
import type { Database } from '../store/index.js';
import {
  limitingPeople,
  limitingSuggestions,
  payingChat,
  PersonLimiter,
  storedHourlyUses,
  type TeamShares,
} from '../teams/index.js';
import { pollerOptionsOf } from './background.js';
import { INSTANCE } from './store.js';

export const SANDBOX_FOOTER = 'Sample data from the local sandbox. Set UAE_API_KEY for live data.';

export interface ChatSideDeps {
  config: Config;
  db: Database;
  api: ApiClient;
  /** Set on the embedded sandbox: its replies carry the sample-data footer. */
  sandboxed: boolean;
  shares: Pick<TeamShares, 'allows'>;
  service: string;
  logger: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
  market: MarketData;
  composer: MarketDigestComposer;
  alertsCron: string;
  /** A test's clock: the commands read summaries' slots and quiet hours on the same time as the poller. */
  clock?: () => number;
  /** The background, wherever it runs (here or in the delivery thread); read only once a command needs it. */
  background: { runSoon(job: string): void; poke(): void };
}

export interface ChatSide {
  /** The conversation core itself (its answer cache is pruned with the store). */
  bot: Bot;
  /** What the adapters receive: the bot wrapped (see the file's head). */
  chatBot: ChatCore;
  /** A person's own alerts and digests as one view (Slack's Home tab), told of every change in this process. */
  home: HomePort;
}

/** Builds the chat side; the location resolver is ready when it resolves. */
export async function composeChat(d: ChatSideDeps): Promise<ChatSide> {
  const { config, db, api, service, logger, market } = d;
  const locations = new LocationResolver(api, db.locationCache(service), config.locationCacheTtlMs);
  await locations.ready;
  const changes = new OrderChanges();
  const alerts = new AlertCommands({
    repo: db.alerts,
    leases: db.leases,
    holder: INSTANCE,
    outbox: db.outbox,
    api,
    locations,
    service,
    logger,
    ...pollerOptionsOf(config),
    limits: { perChannel: config.alerts.maxPerChannel, perOwner: config.alerts.maxPerUser },
    schedule: describeSchedule(d.alertsCron, config.alerts.timezone),
    // A first look that could not take the poller's lease (a run held it) is taken by a run right after.
    needsFirstLook: () => d.background.runSoon(POLL_JOB),
    onReleased: () => d.background.poke(),
    channelAllows: (channel) => d.shares.allows(teamOf(channel)),
    ...(d.clock ? { now: d.clock } : {}),
    changes,
  });
  // Digests: composed with their charts by the digests job and posted through the outbox like alerts.
  const digests = new DigestCommands({
    repo: db.digests,
    locations,
    service,
    logger,
    timezone: config.alerts.timezone,
    callsPerArea: 10,
    ...(d.clock ? { now: d.clock } : {}),
    limits: { perChannel: config.digests.maxPerChannel, areasPerDigest: config.digests.areasPerDigest },
    channelAllows: (channel) => d.shares.allows(teamOf(channel)),
    changes,
    postNow: (channel, areas) =>
      postDigestNow(
        { composer: d.composer, enqueue: (x) => db.outbox.enqueue(x), logger, onQueued: () => d.background.poke() },
        channel,
        areas,
      ),
  });
  const bot = new Bot({
    api,
    locations,
    state: db.buttons(service),
    logger,
    alerts,
    digests,
    compare: new CompareCommands({ market, locations, logger }),
    market: {
      listingContext: async (area, listing) => {
        const c = await market.listingContext(area, listing as ListingSummary);
        return c && contextText(c);
      },
    },
    // A transactions reply's figures cover its period: every page (DIGEST_MAX_PAGES at most), shared with the digests.
    periods: { transactions: (params, use) => periodTransactions(market, params, use) },
    // `/value`: from the same market cache as the digests and the cards.
    value: { estimate: (area, ask) => readValue(market, area, ask) },
    ...(d.sandboxed ? { footer: SANDBOX_FOOTER } : {}),
    // Answers as fresh as the alerts: one older than the query's last poll (here, in the thread or elsewhere) is not
    // reused.
    searchFreshMs: config.searchFreshMs,
    lastPolled: lastPollOf(db.alerts, service),
  });
  return { bot, chatBot: wrapForAdapters(bot, d), home: new OrderHome([alerts.home(), digests.home()], changes) };
}

/**
 * Each request's calls are its team's (its fair share of the month: src/teams); one person's costly asks are limited,
 * and so are the calls their typing into an area picker costs. Adapters get the guarded bot: requests in flight are
 * counted, and refused politely once shutdown begins.
 */
function wrapForAdapters(bot: Bot, d: ChatSideDeps): ChatCore {
  const { config, logger } = d;
  const suggesting = limitingSuggestions(payingChat(bot), {
    perHour: config.teams.suggestionsPerHour,
    takeUse: storedHourlyUses(d.db.people, 'suggestion'),
    teamAllows: (team) => d.shares.allows(team),
    onLimited: (team, user) =>
      logger.warn(
        'area suggestions: one person reached the hourly limit of calls; the picker answers from the cache for now',
        { team, user, perHour: config.teams.suggestionsPerHour },
      ),
  });
  // On the sample data with no limit set, nobody's searches are limited (config-teams.ts: the demo's only user).
  const limited = config.teams.personLimits
    ? limitingPeople(suggesting, new PersonLimiter(d.db.people, config.teams, logger))
    : suggesting;
  // Outermost, so that every reply, a refusal at shutdown included, writes commands as the platform types them.
  return typedReplies(guardBot(countRequests(limited, d.metrics), d.lifecycle));
}
