// The operator's endpoints' configuration, apart from config.ts: where /healthz and /metrics listen and who may read
// them
// (src/ops/exposure.ts applies it; docs/security.md, "What is exposed where", explains it).
import { z } from 'zod';

/** The variables, merged into config.ts's schema (empty values are taken as unset before they get here). */
export const OPS_VARIABLES = {
  OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  OPS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  // A guessable token would protect nothing; the problem names its length, never its value.
  OPS_TOKEN: z
    .string()
    .trim()
    .refine((v) => v.length >= 16, {
      message: 'too short: use at least 16 characters, such as the output of openssl rand -hex 32',
    })
    .optional(),
  OPS_ON_SLACK_PORT: z.enum(['on', 'off'], { error: 'OPS_ON_SLACK_PORT must be on or off' }).default('off'),
  METRICS_MAX_TEAMS: z.coerce.number().int().min(0).max(10_000).default(50),
};

/** What each is for, said after a problem with it. */
export const OPS_MEANING: Record<string, string> = {
  OPS_PORT: 'a separate port for /healthz and /metrics',
  OPS_HOST: 'the address /healthz and /metrics listen on',
  OPS_TOKEN: 'the bearer token /metrics and the detailed /healthz require',
  METRICS_MAX_TEAMS: 'how many teams get a label of their own in /metrics',
};

export interface OpsConfig {
  /** The ops server's port (OPS_PORT); unset: PORT when no chat platform serves HTTP there, else no ops server. */
  port: number | undefined;
  /** The address it binds (OPS_HOST): loopback by default. */
  host: string;
  /** OPS_TOKEN: when set, /metrics and the detailed /healthz require `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** OPS_ON_SLACK_PORT=on: Slack's public port serves them too (else only a liveness /healthz). */
  onSlackPort: boolean;
  /** METRICS_MAX_TEAMS: how many teams get a `team` label of their own in /metrics. */
  maxTeams: number;
}

type OpsValues = z.infer<z.ZodObject<typeof OPS_VARIABLES>>;

export function opsConfig(e: OpsValues): OpsConfig {
  return {
    port: e.OPS_PORT,
    host: e.OPS_HOST,
    token: e.OPS_TOKEN,
    onSlackPort: e.OPS_ON_SLACK_PORT === 'on',
    maxTeams: e.METRICS_MAX_TEAMS,
  };
}
