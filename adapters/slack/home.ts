// The Home tab: drawn with views.publish when a person opens it, and again after each change to their alerts or
// digests in this process (the core tells: HomePort.onChange), whichever surface made it. What changes in the
// background (a post, a pause for an impossible search, an error, the month's quota), maybe in the delivery thread or
// another instance, is caught by drawing each tab opened in the last day again every `refreshMs`, published only
// when it differs from what was last published (its relative times aside). Only a tab opened since this process started is drawn again: Slack
// sends app_home_opened at every visit, so any other is drawn fresh when next opened, and a person's first visit (no
// view published yet) still shows "try this". Publishes for one person run one after another, the last one always
// drawing the latest state (Slack keeps the last view published).
import type { HomePort } from '../../src/ports/index.js';
import type { Logger } from '../../src/log.js';
import type { SlackClients } from './poster.js';
import { renderHome, type HomeDrawing } from './render-home.js';

const SLACK_TEAM = /^slack:([^:]+)$/;
/** Tabs drawn again in the background: those opened in the last day, at most this many (the latest opened). */
const OPEN_FOR_MS = 86_400_000;
const MAX_OPEN = 1_000;
const RELATIVE = /\d+ (second|minute|hour|day|month|year)s? ago/g;

export class SlackHome {
  /** Per person (`T1:U1`): a publish under way, and whether another is wanted after it. */
  private readonly running = new Map<string, { again: HomeDrawing | undefined; done: Promise<void> }>();
  /** What the person's last press did, shown at the top until they open the tab again. */
  private readonly notices = new Map<string, string>();
  /** The people (`T1:U1`) whose tab was opened since this process started, with when (oldest first). */
  private readonly opens = new Map<string, number>();
  /** What was last published to each person's tab: the same view is not published again. */
  private readonly published = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly refresher: NodeJS.Timeout;

  constructor(
    readonly core: HomePort,
    private readonly clients: SlackClients,
    private readonly logger: Logger,
    refreshMs = 300_000,
  ) {
    this.refresher = setInterval(() => this.refresh(), refreshMs);
    this.refresher.unref();
    // Only Slack's teams have a Home tab; a change on Discord or the terminal is not drawn.
    this.unsubscribe = core.onChange((team, owner) => {
      const m = SLACK_TEAM.exec(team);
      if (m && this.opens.has(`${m[1]}:${owner}`)) void this.publish(m[1]!, owner);
    });
  }

  /** Opened: drawn now, with "try this" on a first visit; the last press's notice is gone. */
  opened(teamId: string, user: string, firstVisit: boolean): Promise<void> {
    const key = `${teamId}:${user}`;
    this.notices.delete(key);
    this.opens.delete(key);
    this.opens.set(key, Date.now());
    for (const oldest of this.opens.keys()) {
      if (this.opens.size <= MAX_OPEN) break;
      this.forget(oldest);
    }
    // Drawn whatever was published before: the person is looking now, and Slack may show an older view.
    this.published.delete(key);
    return this.publish(teamId, user, { firstVisit });
  }

  /** Each tab opened in the last day drawn again, published only if it changed (see the file's head). */
  refresh(): void {
    const since = Date.now() - OPEN_FOR_MS;
    for (const [key, at] of [...this.opens]) {
      if (at < since) {
        this.forget(key);
        continue;
      }
      const cut = key.lastIndexOf(':');
      void this.publish(key.slice(0, cut), key.slice(cut + 1));
    }
  }

  private forget(key: string): void {
    this.opens.delete(key);
    this.published.delete(key);
    this.notices.delete(key);
  }

  /** Says what a press did at the top of the tab, drawn again. */
  noticed(teamId: string, user: string, notice: string): Promise<void> {
    this.notices.set(`${teamId}:${user}`, notice);
    return this.publish(teamId, user);
  }

  /** Draws the person's tab; when one is under way, once more after it (never two at once, never a stale last). */
  publish(teamId: string, user: string, drawing: HomeDrawing = {}): Promise<void> {
    const key = `${teamId}:${user}`;
    const under = this.running.get(key);
    if (under) {
      under.again = { ...under.again, ...drawing };
      return under.done;
    }
    const entry = { again: undefined as HomeDrawing | undefined, done: Promise.resolve() };
    entry.done = (async () => {
      let next: HomeDrawing | undefined = drawing;
      while (next) {
        await this.draw(teamId, user, next);
        next = entry.again;
        entry.again = undefined;
      }
      this.running.delete(key);
    })();
    this.running.set(key, entry);
    return entry.done;
  }

  stop(): void {
    this.unsubscribe();
    clearInterval(this.refresher);
  }

  private async draw(teamId: string, user: string, drawing: HomeDrawing): Promise<void> {
    try {
      const client = await this.clients.forTeam(teamId);
      if (!client) return;
      const model = await this.core.view(`slack:${teamId}`, user);
      const notice = this.notices.get(`${teamId}:${user}`);
      const view = renderHome(model, { ...drawing, ...(notice ? { notice } : {}) });
      const key = `${teamId}:${user}`;
      // Compared without its relative times ("5 minutes ago"), which alone would draw every open tab each time.
      const json = JSON.stringify(view).replace(RELATIVE, 'ago');
      if (this.published.get(key) === json) return;
      await client.views.publish({ user_id: user, view: view as never });
      this.published.set(key, json);
    } catch (error) {
      // The tab stays as it was; the next open or change draws it again.
      this.logger.warn('slack: the Home tab could not be published', { team: teamId, user, error });
    }
  }
}
