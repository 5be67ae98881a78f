import { decodeXmlRequest, encodeJson, encodeXml, failure, responseFormat, success } from '@topup/envelope';

const balance = success('Balance found', {
  channels: [{ type: 'Agent Float', currency: 'KES', balance: '1500.00' }],
});
console.log(encodeJson(balance));
// {"status":{"type":"SUCCESS","code":"0000","message":"Balance found"},"data":{"errors":[],"channels":[{"type":"Agent Float","currency":"KES","balance":1500.00}]}}

console.log(encodeXml(failure('3000', ["'mobile is required.'"])));
// <?xml version="1.0" encoding="utf-8"?><xml><status><type>FAIL</type><code>3000</code><message>Missing or Invalid Parameters</message></status><data><errors><error>&apos;mobile is required.&apos;</error></errors></data></xml>

console.log(decodeXmlRequest('<xml><amount>0100</amount></xml>')); // { ok: true, value: { amount: '0100' } }
console.log(responseFormat('text/xml;q=0.9, application/json;q=0.5')); // 'xml'
