import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { logServedNetworks, servedNetworksLine } from './served-networks.js';

describe('servedNetworksLine', () => {
  it('says the simulator plays every network in sandbox mode', () => {
    expect(servedNetworksLine({ mode: 'sandbox' }, { served: new Map() })).toBe(
      'sandbox mode: the simulator plays every network',
    );
  });

  it('names each served network with its provider in live mode, and what the others answer', () => {
    const served = new Map([
      ['MoneyNetA', 'daraja'],
      ['CarrierA', 'africastalking'],
    ]);
    expect(servedNetworksLine({ mode: 'live' }, { served })).toBe(
      'live mode: MoneyNetA by daraja, CarrierA by africastalking; requests on any other network answer 5000',
    );
  });
});

describe('logServedNetworks', () => {
  it('writes one info line with the mode and the network map as fields', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const served = new Map([['MoneyNetA', 'daraja']]);
    logServedNetworks({ config: { mode: 'live' }, logger, providers: { served } });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      mode: 'live',
      served: { MoneyNetA: 'daraja' },
      msg: 'live mode: MoneyNetA by daraja; requests on any other network answer 5000',
    });
  });
});
