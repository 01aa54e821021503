/**
 * The adblock engine, built at deploy time and shipped serialized in the function's folder: parsing the lists
 * costs seconds of CPU and hundreds of MB (bench/adblock), which a cold start should not pay, and loading the
 * serialized engine costs tens of milliseconds. It is built from the packaged lists and the deployer's own
 * (GLANCE_ADBLOCK_LISTS on the deploying machine), so neither AdGuard's ~120 MB package nor those files ship.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildEngine } from '../lib/browser/adblock-engine.ts';

const ENGINE_FILE = 'adblock-engine.bin';
/** Where Lambda unpacks the function (LAMBDA_TASK_ROOT): GLANCE_ADBLOCK_ENGINE for the function. */
export const ENGINE_PATH = `/var/task/${ENGINE_FILE}`;

/** Writes the serialized engine into the built function folder `out`. */
export async function writeAdblockEngine(out: string, deployerLists: readonly string[]): Promise<void> {
  const engine = await buildEngine(deployerLists);
  await writeFile(join(out, ENGINE_FILE), engine.serialize());
}
