// The ticks and bars of a trading day that is over never change, so their answer is serialized once and kept,
// bounded by its bytes, the least recently used going first. A day is over once the Taipei calendar has moved past
// it: the stock day ends by 14:30 and the futures day at 13:45 (its night session belongs to the next day's date).

import type { FastifyReply } from 'fastify';
import { type Clock, taipeiDate } from '../domain/time.js';

/** Bytes of answers kept: room for a few dozen all-day tick answers of the busiest stocks (about 2 MB each). */
export const FINISHED_DAY_BUDGET_BYTES = 64 * 1024 * 1024;

export class FinishedDayAnswers {
  private readonly answers = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly budgetBytes = FINISHED_DAY_BUDGET_BYTES,
  ) {}

  /**
   * Sends the kept answer of a query whose days all end by `lastDay`, or computes, serializes (with the route's own
   * serializer), keeps and sends it. Queries that reach today or later, or name no day, are computed every time.
   */
  async send<T>(
    reply: FastifyReply,
    key: string,
    lastDay: string | undefined,
    compute: () => Promise<T>,
  ): Promise<T | undefined> {
    if (lastDay === undefined || lastDay >= taipeiDate(this.clock.now())) return compute();
    let answer = this.take(key);
    if (answer === undefined) {
      answer = Buffer.from(reply.serialize(await compute()) as string);
      this.keep(key, answer);
    }
    reply.type('application/json; charset=utf-8').send(answer);
    return undefined;
  }

  private take(key: string): Buffer | undefined {
    const answer = this.answers.get(key);
    if (answer !== undefined) {
      this.answers.delete(key);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private keep(key: string, answer: Buffer): void {
    if (answer.length > this.budgetBytes / 8) return;
    this.answers.set(key, answer);
    this.bytes += answer.length;
    for (const [oldest, kept] of this.answers) {
      if (this.bytes <= this.budgetBytes) break;
      this.answers.delete(oldest);
      this.bytes -= kept.length;
    }
  }
}
