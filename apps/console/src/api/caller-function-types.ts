// What each caller API function the console calls takes and answers (the envelope's `data`), as
// @topup/envelope and @topup/validation define them. Listings page by `cursor`, the previous page's
// `next_cursor`; `from` and `to` are ISO 8601 dates or date-times, a date without an offset in the
// service's time zone, `from` inclusive and `to` exclusive.

import type {
  AddedCallbackEndpointData,
  BalanceData,
  CallbackDeliveriesData,
  CallbackEndpointsData,
  ChannelType,
  FoundTransactionData,
  RemovedCallbackEndpointData,
  ResentCallbackData,
  ResentFailedCallbacksData,
  RotatedCallbackSecretData,
  SentTestCallbackData,
  StatementData,
  TransactionsData,
  TransactionState,
  TransactionType,
} from '@topup/envelope';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The filters of list_transactions, and of its CSV export. */
export interface TransactionFilters {
  type?: TransactionType;
  state?: TransactionState;
  from?: string;
  to?: string;
  reference?: string;
  idempotency_key?: string;
  mobile?: string;
}

export interface StatementFilters {
  channel: ChannelType;
  from?: string;
  to?: string;
}

export interface DeliveryFilters {
  reference?: string;
  status?: DeliveryStatus;
  endpoint_id?: string;
  from?: string;
  to?: string;
}

interface Paging {
  cursor?: string;
  /** 1 to 100; the server's default is 50. */
  limit?: number;
}

export interface CallerFunctions {
  get_balance: { request: Record<string, never>; answer: BalanceData };
  get_transaction: { request: { reference: string }; answer: FoundTransactionData };
  list_transactions: { request: TransactionFilters & Paging; answer: TransactionsData };
  list_statement: { request: StatementFilters & Paging; answer: StatementData };
  list_callback_endpoints: { request: Record<string, never>; answer: CallbackEndpointsData };
  list_callback_deliveries: { request: DeliveryFilters & Paging; answer: CallbackDeliveriesData };
  add_callback_endpoint: {
    request: { url: string; format: 'json' | 'xml'; description?: string };
    answer: AddedCallbackEndpointData;
  };
  remove_callback_endpoint: { request: { endpoint_id: string }; answer: RemovedCallbackEndpointData };
  rotate_callback_secret: { request: { endpoint_id: string }; answer: RotatedCallbackSecretData };
  resend_callback: { request: { reference: string; endpoint_id?: string }; answer: ResentCallbackData };
  resend_failed_callbacks: {
    request: { since: string; endpoint_id?: string };
    answer: ResentFailedCallbacksData;
  };
  send_test_callback: { request: { endpoint_id: string }; answer: SentTestCallbackData };
}

export type CallerFunctionName = keyof CallerFunctions;
