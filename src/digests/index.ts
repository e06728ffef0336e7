// Market digests: a channel's scheduled summary of the areas it follows, with a chart, posted through the outbox.
export { DigestCommands, DIGEST_HELP, type DigestCommandsOptions, type DigestContext } from './commands.js';
export { MarketDigestComposer, imageOf, points as trendChartPoints, type DigestPayload } from './compose.js';
export {
  DIGEST_JOB,
  DIGEST_KIND,
  DIGEST_NOTICE_KIND,
  digestOrders,
  digestTitle,
  postDigestNow,
  runDigests,
  type DigestComposer,
  type DigestJobDeps,
  type DigestRunReport,
} from './job.js';
export { digestKind, digestNoticeKind, renderDigest } from './messages.js';
export type { FollowedArea } from './codec.js';
