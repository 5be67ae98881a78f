import { describe, expect, it } from 'vitest';
import { servedNetworksLine } from './served-networks.js';

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
