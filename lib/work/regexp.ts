/**
 * Regular expressions over page content cannot backtrack for long, in any thread: past a number of backtracks V8
 * re-runs the match on its linear-time engine (V8's "experimental" non-backtracking engine, in V8 since 8.8), which
 * answers the same for every pattern it supports — all but those with backreferences or lookaround. The webappanalyzer
 * fingerprints and the extraction rules run hundreds of patterns written by others over what a stranger wrote: a
 * nested quantifier such as `^(a+)+$` took 8.5 s on 29 characters, and 2 ms with this on. The flag is process-wide
 * (workers included) and applies to patterns compiled after it is set.
 */
import { setFlagsFromString } from 'node:v8';

let bounded = false;

export function boundBacktracking(): void {
  if (bounded) return;
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  bounded = true;
}
