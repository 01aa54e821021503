/**
 * A render as a page job: the request checked before any page opens, a page admitted (admission.ts), the page steps
 * run in it (page-steps.ts), and the screenshot's encoding or overlay waited for once the page and its slot are free.
 */
import { adblocker } from './adblock.ts';
import type { Admission } from './admission.ts';
import { checkWebpViewport } from './capture.ts';
import { runPageSteps, type Finishing, type PageStepDeps } from './page-steps.ts';
import type { RenderRequest, RenderResult } from './request.ts';

/** Each stage's milliseconds since the one before, by name, and the function that marks a stage's end. */
function stopwatch(): { timings: Record<string, number>; lap: (name: string) => void } {
  const timings: Record<string, number> = {};
  let last = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timings[name] = Math.round(now - last);
    last = now;
  };
  return { timings, lap };
}

export async function render(admission: Admission, deps: PageStepDeps, request: RenderRequest): Promise<RenderResult> {
  const { url, setup, load, capture, budget } = request;
  const { timings, lap } = stopwatch();
  if (capture.screenshot) checkWebpViewport(capture.screenshot, setup.viewport);
  // The engine is built once per process; its first build overlaps the queue and the launch.
  if (load.adblock) void adblocker(deps.adblock, deps.work).catch(() => undefined);
  const finishing: Finishing = { begin: () => admission.finishing() };
  try {
    const rendered = await admission.onPage(
      url,
      budget,
      setup,
      (open) => runPageSteps({ open, request, deps, lap, timings, finishing, captured: {} }),
      lap,
    );
    // Under way since the capture, and waited for once the page's work is done (it needs neither the page nor its slot).
    if (finishing.composing) {
      rendered.screenshot = await finishing.composing();
      lap(capture.screenshot?.overlay ? 'overlay' : 'encode');
    }
    return rendered;
  } finally {
    finishing.done?.();
  }
}
