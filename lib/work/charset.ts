/**
 * The encoding of an undeclared page, guessed in a worker: chardet holds the thread 27–82 ms a page, and a page of
 * sixteen frames asks sixteen times.
 */
import type { GuessEncoding } from '../fetch/charset.ts';
import { Budget } from '../time/budget.ts';
import type { WorkPool } from './pool.ts';

/** A guess's own deadline where no request's budget is at hand (a warm spare's proxy): a hundred times its cost. */
const GUESS_MS = 5000;

/** Guesses on `work`, each within `budget` (or GUESS_MS of its own); the head is copied to the worker. */
export const workerGuess = (work: WorkPool, budget?: Budget): GuessEncoding =>
  (head) => work.run('charset', head, { budget: budget ?? new Budget(GUESS_MS) });
