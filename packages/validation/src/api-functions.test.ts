import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  apiFunctions,
  isApiFunctionName,
  keyedOperations,
  operationCatalog,
  requestJsonSchema,
  requestSchemas,
} from './api-functions.js';
import { parseBuyAirtime } from './buy-airtime.js';
import { parseSendAgentFloat } from './send-agent-float.js';
import { parseSendAirtime } from './send-airtime.js';

const functionNames = [
  'send_agent_float',
  'buy_airtime',
  'send_airtime',
  'get_balance',
  'get_transaction',
  'add_callback_endpoint',
  'list_callback_endpoints',
  'remove_callback_endpoint',
  'rotate_callback_secret',
  'resend_callback',
  'list_callback_deliveries',
  'list_transactions',
  'list_statement',
  'resend_failed_callbacks',
  'send_test_callback',
] as const;

describe('apiFunctions', () => {
  it('has a parser and a schema for every function, and nothing else', () => {
    expect(Object.keys(apiFunctions).sort()).toEqual([...functionNames].sort());
    expect(Object.keys(requestSchemas).sort()).toEqual([...functionNames].sort());
  });

  it('maps the operations to their parse functions', () => {
    expect(apiFunctions.send_agent_float).toBe(parseSendAgentFloat);
    expect(apiFunctions.buy_airtime).toBe(parseBuyAirtime);
    expect(apiFunctions.send_airtime).toBe(parseSendAirtime);
  });

  it('keys the money operations, send_airtime paid from the Airtime balance', () => {
    expect(keyedOperations).toEqual(['send_agent_float', 'buy_airtime', 'send_airtime']);
    expect(operationCatalog.send_airtime).toMatchObject({
      kind: 'money',
      channel: 'airtime',
      paidFromBalance: true,
      clientMethod: 'sendAirtime',
    });
  });

  it('recognises function names, and not names inherited from Object', () => {
    expect(isApiFunctionName('buy_airtime')).toBe(true);
    expect(isApiFunctionName('send_airtime')).toBe(true);
    expect(isApiFunctionName('bulk_airtime')).toBe(false);
    expect(isApiFunctionName('constructor')).toBe(false);
    expect(isApiFunctionName('__proto__')).toBe(false);
  });
});

describe('requestJsonSchema', () => {
  it.each(functionNames)('converts the %s request schema to an object JSON Schema', (name) => {
    expect(requestJsonSchema(name)).toMatchObject({ type: 'object' });
  });

  it('documents send_agent_float fields in the order of the spec, with mobile and amount required', () => {
    const schema = requestJsonSchema('send_agent_float');
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'country',
      'network',
      'name',
      'mobile',
      'email',
      'agent_name',
      'agent_number',
      'store_number',
      'currency',
      'amount',
      'note',
    ]);
    expect(schema.required).toEqual(['mobile', 'amount']);
  });

  it('documents buy_airtime fields in the order of the spec, with its four required fields', () => {
    const schema = requestJsonSchema('buy_airtime');
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'country',
      'network',
      'name',
      'mobile',
      'email',
      'currency',
      'amount',
      'note',
      'payment_network',
      'payment_name',
      'payment_mobile',
      'payment_email',
    ]);
    expect(schema.required).toEqual(['mobile', 'amount', 'payment_network', 'payment_mobile']);
  });

  it('documents send_airtime as a bounded list of buy_airtime recipients and a note', () => {
    const schema = requestJsonSchema('send_airtime');
    expect(Object.keys(schema.properties ?? {})).toEqual(['recipients', 'note']);
    expect(schema.required).toEqual(['recipients']);
    expect(schema.properties?.recipients).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: { type: 'object', required: ['mobile', 'amount'] },
    });
  });

  it('documents integers as a JSON integer or a digit string', () => {
    expect(requestJsonSchema('send_agent_float').properties?.amount).toMatchObject({
      anyOf: [
        { type: 'integer', exclusiveMinimum: 0 },
        { type: 'string', pattern: '^[0-9]+$' },
      ],
    });
  });

  it('documents the networks each operation allows', () => {
    expect(requestJsonSchema('send_agent_float').properties?.network).toMatchObject({
      enum: ['MoneyNetA', 'MoneyNetB', 'MoneyNetC'],
    });
    expect(requestJsonSchema('buy_airtime').properties?.network).toMatchObject({
      enum: ['CarrierA', 'CarrierB', 'CarrierC'],
    });
  });

  it('is what zod produces for the exported schema in input mode', () => {
    expect(requestJsonSchema('add_callback_endpoint')).toEqual(
      z.toJSONSchema(requestSchemas.add_callback_endpoint, { io: 'input' }),
    );
  });
});
