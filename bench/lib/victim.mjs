/**
 * The victim of bench/stall.ts, in a process of its own so that nothing the bench itself does (serving a hostile page,
 * reading a large answer) delays its clock: asks `<service>/health` every 10 ms and a tiny page's metadata every 200 ms
 * from its start, so that its own first requests (a new process's connections and compilation) are behind it; records
 * their latencies from the message `start` to the message `stop`, then sends the worst of each and exits. A request
 * still out when recording stops counts the time it has waited so far.
 *   node bench/lib/victim.mjs <service url> <tiny page query>
 */
import { setTimeout as sleep } from 'node:timers/promises';

const [service, tinyQuery] = process.argv.slice(2);
let recording = false;
let stopped = false;
const worst = { health: 0, tiny: 0 };
process.on('message', (message) => {
  if (message === 'start') recording = true;
  else stopped = true;
});

async function poll(url, everyMs, name) {
  while (!stopped) {
    const started = performance.now();
    const counted = recording;
    let answered = false;
    const request = fetch(url).then((response) => response.arrayBuffer(), () => undefined).finally(() => (answered = true));
    while (!answered && !stopped) await Promise.race([request, sleep(5)]);
    if (counted || recording) worst[name] = Math.max(worst[name], performance.now() - started);
    await sleep(everyMs);
  }
}

const polls = Promise.all([poll(`${service}/health`, 10, 'health'), poll(`${service}/?${tinyQuery}`, 200, 'tiny')]);
process.send('ready');
await polls;
process.send(worst, () => process.exit(0));
