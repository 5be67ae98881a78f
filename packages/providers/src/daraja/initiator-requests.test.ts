import { describe, expect, it } from 'vitest';
import { b2bPaymentRequest, reversalRequest, transactionStatusRequest } from './initiator-requests.js';

const initiator = {
  initiatorName: 'topupapi',
  securityCredential: 'EnCrYpTeD==',
  shortCode: '600992',
  resultUrl: 'https://topup.example/providers/daraja/t/result',
  queueTimeoutUrl: 'https://topup.example/providers/daraja/t/timeout',
};

describe('initiator requests', () => {
  it('pays an agent’s store number by B2B, the agent number as account reference, in Daraja’s spelling', () => {
    expect(
      b2bPaymentRequest({
        ...initiator,
        commandId: 'BusinessBuyGoods',
        storeNumber: '000000',
        agentNumber: '123456',
        amountMinor: 150_000n,
        remarks: 'Float TX1',
      }),
    ).toEqual({
      Initiator: 'topupapi',
      SecurityCredential: 'EnCrYpTeD==',
      CommandID: 'BusinessBuyGoods',
      SenderIdentifierType: '4',
      RecieverIdentifierType: '4',
      Amount: 1500,
      PartyA: '600992',
      PartyB: '000000',
      AccountReference: '123456',
      Remarks: 'Float TX1',
      QueueTimeOutURL: 'https://topup.example/providers/daraja/t/timeout',
      ResultURL: 'https://topup.example/providers/daraja/t/result',
    });
  });

  it('reverses a paid prompt by its receipt, back through our short code', () => {
    expect(
      reversalRequest({
        ...initiator,
        receipt: 'NLJ7RT61SV',
        amountMinor: 5_000n,
        remarks: 'Airtime not delivered',
      }),
    ).toMatchObject({
      CommandID: 'TransactionReversal',
      TransactionID: 'NLJ7RT61SV',
      Amount: 50,
      ReceiverParty: '600992',
      RecieverIdentifierType: '11',
    });
  });

  it('asks the status of a call by receipt, or by conversation id when no receipt is known', () => {
    expect(transactionStatusRequest({ ...initiator, about: { receipt: 'NLJ7RT61SV' } })).toMatchObject({
      CommandID: 'TransactionStatusQuery',
      TransactionID: 'NLJ7RT61SV',
      PartyA: '600992',
      IdentifierType: '4',
    });
    const byConversation = transactionStatusRequest({
      ...initiator,
      about: { originatorConversationId: '626f6ddf-ab37-4650-b882-b1de92ec9aa4' },
    });
    expect(byConversation).toMatchObject({ OriginalConversationID: '626f6ddf-ab37-4650-b882-b1de92ec9aa4' });
    expect(byConversation).not.toHaveProperty('TransactionID');
  });

  it('refuses part of a shilling, which M-Pesa cannot move', () => {
    expect(() => reversalRequest({ ...initiator, receipt: 'R', amountMinor: 5_001n, remarks: '' })).toThrow(
      'Expected whole shillings for an M-Pesa payment, received 5001 cents.',
    );
  });
});
