import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressPolicy, parseTarget } from '../../lib/guard/policy.ts';
import { GlanceError } from '../../lib/errors.ts';

const none = AddressPolicy.fromSetting('');

function refusal(url: string, policy = none): string {
  try {
    parseTarget(url, policy);
  } catch (error) {
    assert.ok(error instanceof GlanceError, `${url} threw a foreign error: ${String(error)}`);
    return error.code;
  }
  return 'allowed';
}

describe('parseTarget with no exemptions', () => {
  const forbidden = [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://foo.localhost/',
    'http://[::1]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[::]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'https://192.0.2.10/',
    'https://[2001:db8::1]/',
  ];
  for (const url of forbidden) {
    test(`refuses ${url}`, () => assert.equal(refusal(url), 'EFORBIDDENURL'));
  }

  const invalid = [
    'file:///etc/passwd',
    'gopher://x',
    'data:text/html,x',
    'javascript:alert(1)',
    'ftp://x',
    'ws://example.com/',
    'not a url',
    '/relative/path',
    '',
    '   ',
    `http://${'a'.repeat(64)}.example/`,
    `http://${'abcdefghi.'.repeat(26)}example/`,
    'http://a..b/',
  ];
  for (const url of invalid) {
    test(`rejects ${JSON.stringify(url)} as EINVALURL`, () => assert.equal(refusal(url), 'EINVALURL'));
  }

  test('accepts the longest valid DNS label and an underscore', () => {
    assert.equal(parseTarget(`http://${'a'.repeat(63)}.example/`, none).hostname, `${'a'.repeat(63)}.example`);
    assert.equal(parseTarget('http://_dmarc.example.com/', none).hostname, '_dmarc.example.com');
  });

  test('rejects a missing URL', () => {
    assert.throws(() => parseTarget(undefined, none), { code: 'EINVALURL', statusCode: 400 });
  });

  test('a refusal is a 403 that names the address', () => {
    assert.throws(() => parseTarget('http://2130706433/', none), (error: GlanceError) => {
      assert.equal(error.statusCode, 403);
      assert.match(error.message, /127\.0\.0\.1/);
      return true;
    });
  });

  for (const url of ['http://93.184.216.34/', 'https://[2606:4700::1111]/', 'https://example.com/a?b=c']) {
    test(`allows ${url}`, () => assert.equal(refusal(url), 'allowed'));
  }

  test('returns the WHATWG-normalised URL, IDNs included', () => {
    assert.equal(parseTarget('HTTP://Example.COM:80/a/../b?q#f', none).href, 'http://example.com/b?q#f');
    assert.equal(parseTarget('https://bücher.example/', none).hostname, 'xn--bcher-kva.example');
  });
});

describe('AddressPolicy.allows with no exemptions', () => {
  const refused = [
    '127.0.0.1',
    '0.0.0.0',
    '10.1.2.3',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.127.0.1',
    '198.18.0.1',
    '203.0.113.5',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::7f00:1', // IPv4-compatible
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '64:ff9b:1::808:808', // local-use NAT64 prefix
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
    '2001:db8::1',
    'not an address',
  ];
  for (const ip of refused) {
    test(`refuses ${ip}`, () => assert.equal(none.allows(ip, 'example.com'), false));
  }

  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, client 8.8.8.8
  ];
  for (const ip of allowed) {
    test(`allows ${ip}`, () => assert.equal(none.allows(ip, 'example.com'), true));
  }
});

describe('AddressPolicy.fromSetting exemptions', () => {
  test('an exempt IP and an exempt host name', () => {
    const policy = AddressPolicy.fromSetting(' 127.0.0.1 , Localhost ');
    assert.equal(policy.allows('127.0.0.1', 'anything.example'), true);
    assert.equal(policy.allows('::ffff:127.0.0.1', 'anything.example'), true);
    assert.equal(policy.allows('127.0.0.2', 'anything.example'), false);
    assert.equal(policy.allows('10.0.0.1', 'localhost'), true);
    assert.equal(policy.allows('10.0.0.1', 'LOCALHOST.'), true);
    assert.equal(parseTarget('http://localhost:3000/', policy).host, 'localhost:3000');
    assert.equal(parseTarget('http://127.0.0.1/', policy).hostname, '127.0.0.1');
    assert.equal(refusal('http://foo.localhost/', policy), 'EFORBIDDENURL');
  });

  test('a CIDR range', () => {
    const policy = AddressPolicy.fromSetting('127.0.0.0/8');
    assert.equal(policy.allows('127.5.6.7', 'x.example'), true);
    assert.equal(policy.allows('128.0.0.1', 'x.example'), true); // public anyway
    assert.equal(policy.allows('10.0.0.1', 'x.example'), false);
    assert.equal(refusal('http://2130706433/', policy), 'allowed');
  });

  test('an IPv6 address and range', () => {
    const policy = AddressPolicy.fromSetting('::1,fd00::/8');
    assert.equal(policy.allows('::1', 'x.example'), true);
    assert.equal(policy.allows('fd12::5', 'x.example'), true);
    assert.equal(policy.allows('fe80::1', 'x.example'), false);
    assert.equal(policy.allows('127.0.0.1', 'x.example'), false);
    assert.equal(refusal('http://[::1]:8080/', policy), 'allowed');
  });

  test('an IPv4-mapped range exempts the IPv4 range', () => {
    const policy = AddressPolicy.fromSetting('::ffff:10.0.0.0/104');
    assert.equal(policy.allows('10.9.9.9', 'x.example'), true);
    assert.equal(policy.allows('11.0.0.1', 'x.example'), true);
    assert.equal(policy.allows('192.168.0.1', 'x.example'), false);
  });

  test('host names are exact: no subdomains, IDNs compared in punycode', () => {
    const policy = AddressPolicy.fromSetting('intranet.example,bücher.example');
    assert.equal(policy.allows('10.0.0.1', 'intranet.example'), true);
    assert.equal(policy.allows('10.0.0.1', 'www.intranet.example'), false);
    assert.equal(policy.allows('10.0.0.1', 'xn--bcher-kva.example'), true);
  });

  test('an empty setting exempts nothing', () => {
    assert.equal(AddressPolicy.fromSetting(' , ').allows('127.0.0.1', 'localhost'), false);
  });

  for (const bad of ['10.0.0.0/33', 'host:8080', 'http://x/', 'a b']) {
    test(`rejects the entry ${JSON.stringify(bad)}`, () => {
      assert.throws(() => AddressPolicy.fromSetting(bad), RangeError);
    });
  }
});

describe('bad ports', () => {
  const exempt = AddressPolicy.fromSetting('127.0.0.1,localhost');
  test('the Fetch Standard\'s bad ports and service ports are refused, exempt hosts included', () => {
    for (const port of [1, 21, 22, 25, 110, 143, 587, 6000, 6667, 10080, 6379, 11211, 3306, 5432, 27017, 9200]) {
      assert.equal(refusal(`http://example.com:${port}/`), 'EFORBIDDENURL', `${port}`);
      assert.equal(refusal(`https://127.0.0.1:${port}/`, exempt), 'EFORBIDDENURL', `exempt ${port}`);
    }
  });
  test('web ports and the high ports test servers use are allowed', () => {
    for (const url of ['http://example.com/', 'https://example.com:443/', 'http://example.com:8080/', 'https://example.com:8443/']) {
      assert.equal(refusal(url), 'allowed', url);
    }
    assert.equal(refusal('http://127.0.0.1:41234/', exempt), 'allowed');
  });
});

describe('the refusal of a private target', () => {
  const refusal = (policy: AddressPolicy, url: string): string => {
    try {
      parseTarget(url, policy);
    } catch (error) {
      assert.ok(error instanceof GlanceError && error.code === 'EFORBIDDENURL');
      return error.message;
    }
    assert.fail(`${url} was accepted`);
  };

  test('on one machine, tells the developer how to allow their own pages', () => {
    const message = refusal(AddressPolicy.fromSetting('', { local: true }), 'http://127.0.0.1:8080/');
    assert.match(message, /not a public address/);
    assert.match(message, /GLANCE_ALLOW_HOSTS=127\.0\.0\.1/);
  });

  test('deployed, says only that the address is not public', () => {
    const message = refusal(AddressPolicy.fromSetting(''), 'http://127.0.0.1:8080/');
    assert.match(message, /not a public address/);
    assert.doesNotMatch(message, /GLANCE_ALLOW_HOSTS/);
  });
});
