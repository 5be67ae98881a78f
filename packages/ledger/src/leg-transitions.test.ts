import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  legRules,
  legTransition,
  type LegEventKind,
  type LegRecord,
  type LegRule,
  type LegSituation,
} from './leg-transitions.js';

const events: readonly LegEventKind[] = [
  'succeeded',
  'failed',
  'differs',
  'still open',
  'never taken',
  'timed out',
  'accepted',
  'refused',
  'call',
  'settled succeeded',
  'settled failed',
];
const records: readonly LegRecord[] = ['none', 'open', 'succeeded', 'failed'];
const flags = [false, true];

/**
 * Every situation the table can be asked about: a whole transaction's one leg with its record, or each leg
 * of a purchase with the record of all three (its first leg is its payment).
 */
function* situations(): Generator<LegSituation> {
  const states = ['requested', 'completed', 'cancelled'] as const;
  const others = { review: flags, collected: flags, callsAsSeen: flags };
  for (const transaction of states)
    for (const review of others.review)
      for (const collected of others.collected)
        for (const callsAsSeen of others.callsAsSeen) {
          const common = { transaction, review, collected, callsAsSeen };
          for (const leg of ['disbursement', 'payment', 'delivery'] as const)
            for (const first of records)
              yield {
                ...common,
                shape: 'whole',
                leg,
                legs: { first, payment: 'none', delivery: 'none', refund: 'none' },
              };
          for (const leg of ['payment', 'delivery', 'refund'] as const)
            for (const payment of records)
              for (const delivery of records)
                for (const refund of records)
                  yield {
                    ...common,
                    shape: 'chain',
                    leg,
                    legs: { first: payment, payment, delivery, refund },
                  };
        }
}

const sections: readonly { title: string; events: readonly LegEventKind[] }[] = [
  { title: 'A result (pushed, or the answer to a query)', events: ['differs', 'succeeded', 'failed'] },
  {
    title: 'An answer that settles nothing yet',
    events: ['accepted', 'still open', 'never taken', 'refused', 'timed out'],
  },
  { title: 'A worker’s wish to call a provider', events: ['call'] },
  { title: 'An operator’s settlement', events: ['settled succeeded', 'settled failed'] },
];

function line(rule: LegRule): string {
  const who =
    rule.leg === 'first'
      ? 'whole transaction'
      : rule.leg === 'any'
        ? 'any leg'
        : rule.shape === 'chain'
          ? `purchase ${rule.leg}`
          : rule.leg;
  const when = rule.when === 'always' ? '' : `, ${rule.when}`;
  return `- ${who}, \`${rule.event}\`${when}: **${rule.then}** (${rule.why})`;
}

/** The table as docs/architecture.md prints it, rule by rule in the order they are tried. */
function rendered(): string {
  return sections
    .map(({ title, events: kinds }) => {
      const rows = legRules.filter((rule) => kinds.includes(rule.event)).map(line);
      return `#### ${title}\n\n${rows.join('\n')}`;
    })
    .join('\n\n');
}

describe('the leg transition table', () => {
  it('decides every event in every situation: no situation is left without a rule', () => {
    let asked = 0;
    for (const situation of situations()) {
      for (const event of events) {
        expect(() => legTransition(situation, event)).not.toThrow();
        asked += 1;
      }
    }
    expect(asked).toBeGreaterThan(10_000);
  });

  it('never moves money on a result that differs from what was asked', () => {
    for (const situation of situations()) {
      expect(legTransition(situation, 'differs').then).toBe('review');
    }
  });

  it('never completes a purchase whose refund was asked for, nor refunds one that completed', () => {
    for (const situation of situations()) {
      if (situation.shape !== 'chain') continue;
      for (const event of events) {
        const { then } = legTransition(situation, event);
        if (situation.legs.refund !== 'none') expect(then).not.toBe('complete');
        if (situation.transaction === 'completed')
          expect(['cancel', 'cancel refunded', 'claim']).not.toContain(then);
      }
    }
  });

  it('claims a call only while nothing waits for an operator', () => {
    for (const situation of situations()) {
      if (situation.review) expect(legTransition(situation, 'call').then).not.toBe('claim');
    }
  });

  it('is printed in docs/architecture.md exactly as the code reads it', () => {
    const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
    const start = doc.indexOf('<!-- leg-transitions:start -->');
    const end = doc.indexOf('<!-- leg-transitions:end -->');
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + '<!-- leg-transitions:start -->'.length, end).trim()).toBe(rendered());
  });
});
