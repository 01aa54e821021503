/**
 * What the main thread and a worker say to each other (lib/work/pool.ts, lib/work/worker.ts). A worker runs one task
 * at a time; while it runs, the task may call functions the main thread lends it (a media check over the network),
 * each call answered by a reply with its id. Errors cross as plain data: a GlanceError keeps its code, anything else
 * its name, message and stack, so the main thread can answer the one and log the other.
 */
import { GlanceError, type ErrorCode } from '../errors.ts';

/** What the main thread gives a worker as it starts. */
export interface WorkerSetup {
  /** Jobs whose modules the worker loads before its first task. */
  readonly preload: readonly string[];
}

export type ToWorker =
  | { readonly kind: 'task'; readonly id: number; readonly job: string; readonly input: unknown }
  | { readonly kind: 'reply'; readonly id: number; readonly value?: unknown; readonly error?: ErrorData }
  /** The worker is about to be ended: what its jobs hold outside the thread (a browser) is let go first. */
  | { readonly kind: 'close' };

export type FromWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'call'; readonly task: number; readonly id: number; readonly name: string; readonly args: readonly unknown[] }
  | { readonly kind: 'done'; readonly value: unknown }
  | { readonly kind: 'failed'; readonly error: ErrorData };

export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
  readonly code?: ErrorCode | undefined;
  readonly data?: Record<string, string> | undefined;
}

export function errorData(error: unknown): ErrorData {
  if (error instanceof GlanceError) return { name: error.name, message: error.message, code: error.code, data: error.data };
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: 'Error', message: String(error) };
}

/** The error again on this side: a GlanceError as it was thrown, any other with the thrower's stack. */
export function errorFrom(data: ErrorData): Error {
  if (data.code) return new GlanceError(data.code, data.message, data.data ? { data: data.data } : {});
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack) error.stack = data.stack;
  return error;
}
