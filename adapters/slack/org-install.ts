// Enterprise Grid: each workspace of an org adds Manzil on its own (saved under `E…:T…`, found by its team). An
// org-wide
// install (`is_enterprise_install`) is refused at Slack's redirect: one token for every workspace of the org, with no
// workspace of its own, while every chat channel (`slack:T…:C…`) is posted to with its own workspace's token. Its token
// is
// revoked so the org is not left with an app that never answers, and the person gets a page that says what to do.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Installation, InstallURLOptions } from '@slack/bolt';
import { postingClient, type PostingClientOptions } from './poster.js';
import type { SendLog } from './send.js';

/** What the person who tried an org-wide install reads; `installPath` is the Add to Slack link to start again. */
export function orgInstallPage(installPath: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Manzil: add it to a workspace</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto; padding: 0 1em">
<h2>Manzil is added one workspace at a time</h2>
<p>You chose to install Manzil on your whole Enterprise Grid organization. Manzil does not support org-wide installs:
each workspace adds it on its own, so that its alerts and digests are posted with that workspace's own access.
Nothing was installed.</p>
<p><a href="${installPath}">Add to Slack</a> again and, on Slack's page, pick a <strong>workspace</strong> (not the
organization) in the menu at the top right. Repeat for each workspace that wants Manzil.</p>
</body>
</html>
`;
}

/**
 * Bolt's `afterInstallation`: an org-wide install is not stored (false, with the page written); any other goes on.
 * The revoke is best effort: a token Slack did not revoke is still never saved, so never used.
 */
export function refuseOrgWideInstall(installPath: string, clientOptions: PostingClientOptions, log: SendLog) {
  return async (
    installation: Installation<'v1' | 'v2', boolean>,
    _options: InstallURLOptions,
    _req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> => {
    if (installation.isEnterpriseInstall !== true) return true;
    const token = installation.bot?.token;
    let revoked = false;
    if (token) {
      try {
        // A call Slack refused throws: ok is all there is to read.
        revoked = (await postingClient(token, clientOptions).auth.revoke()).ok === true;
      } catch (e) {
        log('slack: could not revoke the token of a refused org-wide install', {
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
    log('slack: refused an org-wide (Enterprise Grid) install; each workspace must add Manzil on its own', {
      enterprise: installation.enterprise?.id,
      revoked,
    });
    res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end(orgInstallPage(installPath));
    return false;
  };
}
