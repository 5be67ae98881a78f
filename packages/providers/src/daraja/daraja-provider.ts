// M-Pesa through Safaricom's Daraja as a provider. It carries agent float as a B2B payment from our short
// code to the agent's store number (experimental: Daraja documents no agent-float product, so the command
// is configurable). B2B takes no id of ours, so a submission whose acknowledgement is lost cannot be told
// from one never made: it is never sent again (`idempotentSubmissions: false`), and a submission with no
// recorded ConversationID cannot be asked about, which leaves it to reconciliation and an operator. Results
// come only pushed, to ResultURL; asking about a submission sends a Transaction Status query whose answer
// comes the same way, so `query` answers `pending` and the pushed Result settles it.

import type { Store, TransactionRecord } from '@topup/ledger';
import type { Provider, ProviderStatus, SubmitResult } from '../provider.js';
import { providerTablesReady } from '../provider-migrations.js';
import { createSharedAccessToken } from '../shared-access-token.js';
import { recordSubmissionId, submissionIdOf, type SubmissionId } from '../submission-ids.js';
import { callDaraja, issueDarajaToken, type DarajaAnswer, type DarajaEndpoint } from './daraja-client.js';
import { b2bPaymentRequest, transactionStatusRequest, type DarajaInitiator } from './initiator-requests.js';
import { darajaWebhooks } from './daraja-webhooks.js';
import { textOf } from '../tolerant-json.js';

/**
 * What the Daraja provider is made from: the app's credentials, the initiator that makes B2B and status
 * calls, and where Daraja sends their Results.
 *
 * @example
 * ```ts
 * import type { DarajaProviderOptions } from '@topup/providers';
 *
 * const options: Omit<DarajaProviderOptions, 'store'> = {
 *   endpoint: { baseUrl: 'https://api.safaricom.co.ke', timeoutMs: 8_000 },
 *   credentials: { consumerKey: 'key', consumerSecret: 'secret' },
 *   shortCode: '600992', initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==',
 *   b2bCommandId: 'BusinessBuyGoods', webhookUrl: 'https://topup.example/providers/daraja/0123456789abcdef0123456789abcdef',
 * };
 * ```
 */
export interface DarajaProviderOptions {
  readonly store: Store;
  readonly endpoint: DarajaEndpoint;
  readonly credentials: { readonly consumerKey: string; readonly consumerSecret: string };
  readonly shortCode: string;
  readonly initiatorName: string;
  /** `securityCredential(initiatorPassword, certificate)`. */
  readonly securityCredential: string;
  /** B2B's CommandID for agent float, `BusinessBuyGoods` unless Safaricom says otherwise. */
  readonly b2bCommandId: string;
  /** `{PUBLIC_BASE_URL}/providers/daraja/{PROVIDER_WEBHOOK_TOKEN}`: `/result` and `/timeout` are added. */
  readonly webhookUrl: string;
  readonly now?: () => Date;
}

const name = 'daraja';

/** The reason a caller reads when Daraja refused a call at once; its code goes with it. */
const REFUSED = 'refused by M-Pesa';
/** The reason a caller reads when Daraja did not take a call, so nothing can come of it. */
const NOT_TAKEN = 'M-Pesa did not take the transaction';

/** The ids of an accepted initiator call, or what Daraja answered instead. */
function acknowledged(
  answer: DarajaAnswer,
):
  { conversationId: string; originatorConversationId: string } | Exclude<SubmitResult, { kind: 'accepted' }> {
  if (answer.kind === 'not_sent') return { kind: 'unavailable', reason: NOT_TAKEN, taken: false };
  if (answer.kind === 'no_answer')
    return { kind: 'unavailable', reason: 'the provider did not answer in time' };
  if (answer.kind === 'error') {
    const { status, errorCode } = answer.error;
    // 4xx: the request was refused as written, so nothing was taken; 5xx and gateways may have taken it.
    if (status >= 400 && status < 500) {
      return { kind: 'refused', reason: REFUSED, providerCode: errorCode || `HTTP ${String(status)}` };
    }
    return { kind: 'unavailable', reason: 'the provider failed to take the transaction' };
  }
  const code = textOf(answer.body['ResponseCode']) ?? '';
  const conversationId = textOf(answer.body['ConversationID']) ?? '';
  if (code !== '0') return { kind: 'refused', reason: REFUSED, providerCode: code || 'no ResponseCode' };
  if (conversationId === '') return { kind: 'unavailable', reason: NOT_TAKEN };
  return {
    conversationId,
    originatorConversationId: textOf(answer.body['OriginatorConversationID']) ?? '',
  };
}

/**
 * The Daraja provider: agent float by B2B, results pushed to `webhookUrl`, asked about by Transaction
 * Status.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createDarajaProvider } from '@topup/providers';
 *
 * const daraja = createDarajaProvider({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   endpoint: { baseUrl: 'https://api.safaricom.co.ke', timeoutMs: 8_000 },
 *   credentials: { consumerKey: 'key', consumerSecret: 'secret' },
 *   shortCode: '600992', initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==',
 *   b2bCommandId: 'BusinessBuyGoods', webhookUrl: 'https://topup.example/providers/daraja/0123456789abcdef0123456789abcdef',
 * });
 * daraja.idempotentSubmissions; // false
 * ```
 */
export function createDarajaProvider(options: DarajaProviderOptions): Provider {
  const { store, endpoint } = options;
  const now = options.now ?? (() => new Date());
  const tokens = createSharedAccessToken({
    store,
    provider: name,
    issue: () => issueDarajaToken(endpoint, options.credentials),
    now,
  });
  const initiator: DarajaInitiator = {
    initiatorName: options.initiatorName,
    securityCredential: options.securityCredential,
    shortCode: options.shortCode,
    resultUrl: `${options.webhookUrl}/result`,
    queueTimeoutUrl: `${options.webhookUrl}/timeout`,
  };
  /** Records the ids of an acknowledged call, which its Result will name. */
  const remember = (
    ids: { conversationId: string; originatorConversationId: string },
    reference: string,
    purpose: SubmissionId['purpose'],
  ) =>
    recordSubmissionId(
      store,
      {
        provider: name,
        providerId: ids.conversationId,
        reference,
        purpose,
        otherId: ids.originatorConversationId,
      },
      now(),
    );

  return {
    name,
    idempotentSubmissions: false,
    webhooks: darajaWebhooks,

    async submit(transaction: TransactionRecord): Promise<SubmitResult> {
      if (transaction.type !== 'Agent Float') {
        return { kind: 'unavailable', reason: NOT_TAKEN, taken: false };
      }
      const { reference, recipient } = transaction;
      let body;
      try {
        body = b2bPaymentRequest({
          ...initiator,
          commandId: options.b2bCommandId,
          storeNumber: recipient.store_number,
          agentNumber: recipient.agent_number,
          amountMinor: transaction.amountMinor,
          remarks: `Float ${reference}`,
        });
      } catch {
        return { kind: 'refused', reason: 'M-Pesa moves whole shillings only', providerCode: 'AMOUNT' };
      }
      await providerTablesReady(store);
      const answer = acknowledged(await callDaraja(endpoint, tokens, '/mpesa/b2b/v1/paymentrequest', body));
      if ('kind' in answer) return answer;
      await remember(answer, reference, 'submission');
      return { kind: 'accepted' };
    },

    // Every result is pushed; none waits to be pulled.
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),

    async query(reference: string): Promise<ProviderStatus> {
      await providerTablesReady(store);
      const submitted = await submissionIdOf(store, name, reference);
      if (submitted === undefined) {
        throw new Error(
          `Expected a ConversationID recorded for ${reference}, found none: Daraja cannot be asked about a call whose acknowledgement never arrived.`,
        );
      }
      const body = transactionStatusRequest({
        ...initiator,
        about: { originatorConversationId: submitted.otherId || submitted.providerId },
      });
      const answer = acknowledged(
        await callDaraja(endpoint, tokens, '/mpesa/transactionstatus/v1/query', body),
      );
      if ('kind' in answer) {
        throw new Error(
          `Daraja did not take a status query about ${reference}: ${answer.kind === 'refused' ? answer.providerCode : answer.reason}.`,
        );
      }
      await remember(answer, reference, 'status');
      return { kind: 'pending' };
    },
  };
}
