/** What a handler learns about the job it runs. */
export interface JobInfo {
  /** The job's id in the queue (logs). */
  id: string;
  /** The queue's name. */
  name: string;
}

/**
 * Runs one job. `signal` aborts when this process shuts down or the attempt's time
 * (`expireInSeconds`) is up. A throw (or a rejection) is a failed attempt, retried while
 * retries are left.
 */
export type JobHandler<T> = (data: T, signal: AbortSignal, job: JobInfo) => Promise<void>;

export interface WorkOptions<T> {
  /** Jobs of this queue run at once in this process (default 1). */
  concurrency?: number;
  /** Retries after the first attempt (0: none; default 2). */
  retryLimit?: number;
  /** Seconds before the first retry (default 5). */
  retryDelaySeconds?: number;
  /** Each retry waits about twice as long as the one before, with jitter (default true). */
  retryBackoff?: boolean;
  /**
   * How long one attempt may run (default 900 s). A job still active after that — its
   * process died, or the handler hangs — counts as a failed attempt and is retried by any
   * replica.
   */
  expireInSeconds?: number;
  /**
   * Called once, on any replica, when the job has failed for good (retries used up, or the
   * last attempt's process died). Runs as a job itself, so it survives restarts too.
   */
  onFailed?: (data: T, job: JobInfo) => Promise<void>;
}

export interface SendOptions {
  /**
   * One job per key and queue while it is queued, waiting for a retry or running: a second
   * `send` with the same key then adds nothing (and answers null), on any replica.
   */
  singletonKey?: string;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
}

/** Jobs of one queue by state, for /metrics. */
export interface QueueStats {
  /** Waiting to run: new, or waiting for a retry. */
  queued: number;
  active: number;
  /** Failed for good and still kept (until archived). */
  failed: number;
}

/**
 * Durable background work shared by every replica (providers/jobs, docs/ARCHITECTURE.md):
 * a job is a row in PostgreSQL (or PGlite) until it is done; whichever replica is free runs
 * it, failed attempts are retried with a delay, and the jobs of a replica that died are
 * finished by another once their time is up.
 */
export interface JobQueue {
  /** Which implementation runs (logs, tests). */
  readonly name: 'pg-boss';
  /** Creates the queue's tables when missing and starts the workers registered so far. */
  start(): Promise<void>;
  /** Registers a queue's handler (before or after `start`); once per queue and process. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: WorkOptions<T>): void;
  /** Queues a job (any replica may run it); the job's id, or null when `singletonKey` found one already. */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Jobs per queue and state. */
  stats(): Promise<Record<string, QueueStats>>;
  /** Calls `listener` with the queue's name after each failed attempt in this process (metrics). */
  onAttemptFailed(listener: (name: string) => void): void;
  /** Resolves when the queues (all, or these and their failure queues) have nothing waiting or running. */
  idle(names?: string[], timeoutMs?: number): Promise<void>;
  /**
   * Stops: running handlers are aborted (their jobs are retried, after a restart or on
   * another replica); resolves when they have ended and the queue's connections are closed.
   */
  stop(): Promise<void>;
}
