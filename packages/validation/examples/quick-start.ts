import { apiFunctions, detectNetwork, normalizeMobile, parseSendAgentFloat } from '@topup/validation';

console.log(
  parseSendAgentFloat({
    mobile: '0712345678',
    amount: '500',
    agent_number: '123456',
    store_number: '654321',
  }),
);
// { ok: true, value: { mobile: '254712345678', agent_number: '123456', store_number: '654321',
//                      amount: 500, country: 'KE', currency: 'KES', network: 'MoneyNetA' } }

console.log(parseSendAgentFloat({ network: 'MoneyNetA', amount: 'x' }));
// { ok: false, errors: ["'mobile is required.'", "'agent_number is required.'",
//                       "'store_number is required.'", "'amount is invalid'"] }

console.log(normalizeMobile('+254 712 345 678')); // '254712345678'
console.log(detectNetwork('254712345678'));
// { country: 'KE', currency: 'KES', operator: 'Safaricom', carrier: 'CarrierA', moneyNetwork: 'MoneyNetA' }

// Every function's parser, by its name in /api/<function_name>:
console.log(apiFunctions.buy_airtime({}).ok); // false
