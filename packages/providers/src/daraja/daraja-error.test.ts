import { describe, expect, it } from 'vitest';
import { darajaErrorOf, isStillProcessing, isTokenRejected } from './daraja-error.js';

describe('darajaErrorOf', () => {
  it('reads Daraja’s error body', () => {
    expect(
      darajaErrorOf(
        400,
        '{"requestId":"11728-2929992-1","errorCode":"400.002.02","errorMessage":"Bad Request - Invalid Amount"}',
      ),
    ).toEqual({
      status: 400,
      requestId: '11728-2929992-1',
      errorCode: '400.002.02',
      errorMessage: 'Bad Request - Invalid Amount',
    });
  });

  it('reads a gateway’s HTML page or an empty body as an error without a code, saying what came', () => {
    expect(darajaErrorOf(502, '<html>\n<body>Bad   Gateway</body></html>')).toEqual({
      status: 502,
      requestId: '',
      errorCode: '',
      errorMessage: 'HTTP 502 with a body that is not JSON: "<html> <body>Bad Gateway</body></html>"',
    });
    expect(darajaErrorOf(503, '').errorMessage).toBe('HTTP 503 with a body that is not JSON: ""');
  });
});

describe('isTokenRejected', () => {
  it.each(['404.001.03', '400.003.01', '401.002.01'])('is true for %s', (errorCode) => {
    expect(isTokenRejected({ status: 400, requestId: '', errorCode, errorMessage: '' })).toBe(true);
  });

  it('is true for a bare 401, and false for a refused request', () => {
    expect(isTokenRejected(darajaErrorOf(401, 'Unauthorized'))).toBe(true);
    expect(
      isTokenRejected(darajaErrorOf(400, '{"errorCode":"400.002.02","errorMessage":"Bad Request"}')),
    ).toBe(false);
  });
});

describe('isStillProcessing', () => {
  it('reads STK Query’s “being processed” as pending, and the same code’s other meanings as not', () => {
    const processing = darajaErrorOf(
      500,
      '{"requestId":"1","errorCode":"500.001.1001","errorMessage":"The transaction is being processed"}',
    );
    expect(isStillProcessing(processing)).toBe(true);
    const locked = darajaErrorOf(
      500,
      '{"requestId":"1","errorCode":"500.001.1001","errorMessage":"Unable to lock subscriber, a transaction is already in process for the current subscriber"}',
    );
    expect(isStillProcessing(locked)).toBe(false);
  });
});
