/**
 * Layer folders are built at synth time into .build/ (git-ignored), named for everything in them, and reused. A
 * build goes to a temporary folder renamed into place, so the folder existing means it is complete, and
 * concurrent synths never see half a layer.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';

export function buildOnce(target: string, fill: (staging: string) => void): void {
  if (existsSync(target)) return;
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    fill(staging);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another synth finished the same layer first; anything else is a real failure.
    if (!existsSync(target)) throw error;
  }
}
