// Manzil's real entry (`manzil start`: the terminal chat on the embedded sandbox) that fails as a bug would once it
// runs:
// on SIGUSR2, an exception nothing catches or (CRASH=reject) a promise rejection nothing handles, whose message is
// CRASH_MESSAGE (the test puts secrets in it). Nothing here handles the failure: Manzil's own crash handling must.
import { runCli } from '../../src/cli.js';

process.on('SIGUSR2', () => {
  const error = new Error(process.env.CRASH_MESSAGE ?? 'crash');
  if (process.env.CRASH === 'reject') void Promise.reject(error);
  else
    setImmediate(() => {
      throw error;
    });
});

process.exitCode = await runCli(['start']);
