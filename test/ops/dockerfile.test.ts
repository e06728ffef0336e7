// No Docker engine runs here, so the Dockerfile is linted (dockerfile-utils, the validator of the Docker language
// server) and its promises are checked in the text: multi-stage on node:22-bookworm-slim, the native build only in
// the build stages, production dependencies in the image, a non-root user, the /data volume, tini as PID 1, a
// HEALTHCHECK on /healthz, the chart font, and the start command.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
const dockerfile = read('Dockerfile');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages = instructions.reduce<string[][]>(
  (all, line) => (line.startsWith('FROM ') ? [...all, [line]] : (all.at(-1)?.push(line), all)),
  [],
);
const finalStage = stages.at(-1)!;

describe('Dockerfile', () => {
  it('passes the dockerfile-utils validator with no errors or warnings', () => {
    const problems = validate(dockerfile).map(
      (d) => `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
    );
    expect(problems).toEqual([]);
  });

  it('is multi-stage, every stage on node:22-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM (node:22-bookworm-slim|toolchain)( AS [\w-]+)?$/);
    expect(stages.filter((s) => s[0]!.startsWith('FROM node:22-bookworm-slim'))).toHaveLength(2); // the toolchain and the image
  });

  it('builds natively and compiles in the build stages, and ships only production dependencies', () => {
    const toolchain = stages.find((s) => /AS toolchain/.test(s[0]!))!;
    expect(toolchain.join('\n')).toMatch(/apt-get install .*python3.*make.*g\+\+/);
    expect(instructions).toContain('RUN npm ci');
    expect(instructions).toContain('RUN npm run build');
    expect(instructions.join('\n')).toMatch(/RUN npm ci --omit=dev/);
    // The image takes node_modules from the prod-deps stage (built on the same base) and has no compiler of its own.
    expect(finalStage).toContain('COPY --from=prod-deps /app/node_modules ./node_modules');
    expect(finalStage).toContain('COPY --from=build /app/dist ./dist');
    expect(finalStage.join('\n')).not.toMatch(/g\+\+|python3|npm ci(?! --omit)/);
    expect(finalStage).toContain('COPY migrations ./migrations');
  });

  it('runs as a non-root user, with /data as a volume holding the database', () => {
    const user = finalStage.find((l) => l.startsWith('USER '));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(finalStage.join('\n')).toMatch(/VOLUME \["\/data"\]/);
    expect(finalStage.join('\n')).toMatch(/MANZIL_DB_PATH=\/data\/manzil\.db/);
    expect(finalStage.join('\n')).toMatch(/chown node:node \/data/);
  });

  it('has tini as PID 1, a health check on /healthz, the chart font, and starts the compiled CLI', () => {
    expect(finalStage.join('\n')).toMatch(/apt-get install .*\btini\b/);
    // The charts' fonts ship in the repository (assets/fonts): the final image carries them, no system font needed.
    expect(finalStage).toContainEqual(expect.stringMatching(/^COPY assets \.\/assets$/));
    expect(finalStage).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
    const healthcheck = finalStage.find((l) => l.startsWith('HEALTHCHECK '));
    expect(healthcheck).toMatch(/\/healthz/);
    expect(healthcheck).toMatch(/--interval=\d+s/);
    expect(finalStage.at(-1)).toBe('CMD ["node", "dist/src/cli.js", "start"]');
  });

  it('has a docker-compose example that keeps the database on a volume and reads .env', () => {
    const compose = read('docker-compose.yml');
    expect(compose).toMatch(/build: \./);
    expect(compose).toMatch(/- manzil-data:\/data/);
    expect(compose).toMatch(/path: \.env/);
    expect(compose).toMatch(/stop_grace_period: \d+s/);
  });

  it('has a Postgres profile: one Postgres with a health check, and two replicas on it that wait for it', () => {
    const compose = read('docker-compose.yml');
    const service = (name: string) =>
      new RegExp(`\\n  ${name}:\\n([\\s\\S]*?)(?=\\n  [a-z-]+:\\n|\\nvolumes:)`).exec(compose)?.[1] ?? '';
    const postgres = service('postgres');
    const replica = service('manzil-replica');
    expect(postgres).toMatch(/profiles: \[postgres\]/);
    expect(postgres).toMatch(/image: postgres:\d+/);
    expect(postgres).toMatch(/pg_isready/);
    expect(postgres).toMatch(/- postgres-data:\/var\/lib\/postgresql\/data/);
    expect(replica).toMatch(/profiles: \[postgres\]/);
    expect(replica).toMatch(/replicas: 2/);
    expect(replica).toMatch(/DATABASE_URL: postgres:\/\/manzil:\$\{POSTGRES_PASSWORD:-[^}]+\}@postgres:5432\/manzil/);
    expect(replica).toMatch(/condition: service_healthy/);
    // The single SQLite instance stays the default: it has no profile.
    expect(service('manzil')).toMatch(/MANZIL_DB_PATH: \/data\/manzil\.db/);
    expect(service('manzil')).not.toMatch(/profiles:/);
  });

  it('keeps secrets and local state out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', 'node_modules', 'data', 'dist', '*.db']) expect(ignored).toContain(entry);
  });
});
