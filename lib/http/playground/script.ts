/**
 * The playground's script, as source text (the project compiles without the DOM library, as lib/browser/inpage.ts
 * explains), inlined in the page and allowed by its hash in the CSP. The answer is page metadata a stranger wrote,
 * so it only ever reaches the page through textContent and attributes (the CSP's Trusted Types rule makes any
 * innerHTML throw), and a URL from it is used only when it is http(s).
 *
 * The request URL is built as @microlink/mql builds it (`url`, then `data.*` rules, then the other options
 * flattened to dotted keys), so the URL shown and the snippet shown are the same request
 * (tests/http/playground.test.ts compares them with mql.getApiUrl).
 */
export const SCRIPT = String.raw`
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const endpoint = location.origin + location.pathname;
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

  /** The options object an mql call would take, from the form. */
  function options() {
    const opts = {};
    const overlay = {};
    if ($('overlay').value) overlay.browser = $('overlay').value;
    const background = $('background').value.trim();
    if (background) overlay.background = background;
    if (Object.keys(overlay).length) opts.screenshot = { overlay };
    else if ($('screenshot').checked) opts.screenshot = true;
    if ($('pdf').checked) opts.pdf = true;
    const rule = {};
    const selector = $('rule-selector').value.trim();
    const attr = $('rule-attr').value.trim();
    if (selector) rule.selector = selector;
    if (attr) rule.attr = attr;
    if (Object.keys(rule).length) {
      const name = $('rule-name').value.trim() || 'value';
      opts.data = {};
      opts.data[name] = rule;
    }
    return opts;
  }

  function flatten(value, prefix, pairs) {
    for (const [key, item] of Object.entries(value)) {
      const path = prefix ? prefix + '.' + key : key;
      if (item !== null && typeof item === 'object') flatten(item, path, pairs);
      else pairs.push([path, String(item)]);
    }
    return pairs;
  }

  function query(url, opts) {
    const pairs = [['url', url]];
    const rest = Object.assign({}, opts);
    delete rest.data;
    if (opts.data) flatten(opts.data, 'data', pairs);
    return new URLSearchParams(flatten(rest, '', pairs)).toString();
  }

  const quote = (text) => "'" + JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'") + "'";

  function literal(value, depth) {
    if (value === null || typeof value !== 'object') return typeof value === 'string' ? quote(value) : String(value);
    const pad = '  '.repeat(depth + 1);
    const entries = Object.entries(value).map(([key, item]) => pad + (IDENTIFIER.test(key) ? key : quote(key)) + ': ' + literal(item, depth + 1));
    return '{\n' + entries.join(',\n') + '\n' + '  '.repeat(depth) + '}';
  }

  function snippet(url, opts) {
    const call = Object.assign({}, opts);
    if ($('key')) call.apiKey = 'YOUR_API_KEY';
    call.endpoint = endpoint;
    return "import mql from '@microlink/mql'\n\nconst { data } = await mql(" + quote(url) + ', ' + literal(call, 0) + ')\n';
  }

  /** A URL from the answer, only when it is http(s): never javascript:, data: or anything else. */
  function web(value) {
    if (typeof value !== 'string') return null;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }

  const text = (value) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

  function element(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (content) node.textContent = content;
    return node;
  }

  function image(value, className, alt) {
    const src = web(value && value.url);
    if (!src) return null;
    const node = element('img', className);
    node.alt = alt;
    node.referrerPolicy = 'no-referrer';
    node.src = src;
    return node;
  }

  function card(data) {
    const root = $('card');
    root.replaceChildren();
    const href = web(data.url);
    if (href) root.href = href;
    else root.removeAttribute('href');
    const picture = image(data.image, 'card-image', '');
    if (picture) root.append(picture);
    const body = element('div', 'card-body');
    body.append(element('div', 'card-title', text(data.title) || 'Untitled'));
    if (text(data.description)) body.append(element('div', 'card-description', text(data.description)));
    const footer = element('div', 'card-footer');
    const logo = image(data.logo, 'card-logo', '');
    if (logo) footer.append(logo);
    const host = href ? new URL(href).host : '';
    footer.append(element('span', '', [text(data.publisher), host].filter(Boolean).join(' · ')));
    body.append(footer);
    root.append(body);
  }

  function media(data) {
    const shot = web(data.screenshot && data.screenshot.url);
    const pdf = web(data.pdf && data.pdf.url);
    if (shot) $('shot').src = shot;
    else $('shot').removeAttribute('src');
    $('shot').hidden = !shot;
    if (pdf) $('pdf-link').href = pdf;
    $('pdf-line').hidden = !pdf;
    $('media').hidden = !shot && !pdf;
  }

  function status(message, failed) {
    $('status').textContent = message;
    $('status').classList.toggle('failed', Boolean(failed));
  }

  async function submit(event) {
    event.preventDefault();
    const url = $('url').value.trim();
    const opts = options();
    const address = endpoint + '?' + query(url, opts);
    $('request').value = address;
    $('snippet').textContent = snippet(url, opts);
    $('json').textContent = '';
    $('card').replaceChildren();
    media({});
    $('result').hidden = true;
    $('submit').disabled = true;
    status('Loading…');
    const headers = {};
    if ($('key') && $('key').value) headers['x-api-key'] = $('key').value;
    const started = performance.now();
    try {
      const response = await fetch(address, { headers });
      const raw = await response.text();
      let answer;
      try {
        answer = JSON.parse(raw);
      } catch {
        answer = undefined;
      }
      $('json').textContent = answer === undefined ? raw : JSON.stringify(answer, null, 2);
      const took = Math.round(performance.now() - started) + ' ms';
      const cache = response.headers.get('x-cache-status');
      const ok = answer && answer.status === 'success';
      const summary = [String(response.status), ok ? 'success' : text(answer && answer.code) || 'failed', took, cache ? 'cache ' + cache : ''];
      status(summary.filter(Boolean).join(' · ') + (ok ? '' : ': ' + (text(answer && answer.message) || 'not a Glance answer')), !ok);
      $('preview').hidden = !ok;
      if (ok && answer.data) {
        card(answer.data);
        media(answer.data);
      }
      $('result').hidden = false;
    } catch (error) {
      status('The request failed: ' + (error && error.message ? error.message : String(error)), true);
    } finally {
      $('submit').disabled = false;
    }
  }

  async function copy(event) {
    const button = event.currentTarget;
    const source = $(button.dataset.copy);
    const value = 'value' in source ? source.value : source.textContent;
    try {
      await navigator.clipboard.writeText(value);
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      if (source.select) source.select();
      button.textContent = 'Selected';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  }

  $('form').addEventListener('submit', submit);
  $('overlay').addEventListener('change', () => { if ($('overlay').value) $('screenshot').checked = true; });
  for (const button of document.querySelectorAll('[data-copy]')) button.addEventListener('click', copy);
})();
`;
