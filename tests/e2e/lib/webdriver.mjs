// A small W3C WebDriver client for tauri-driver (which forwards to WebKitWebDriver on Linux).
//
//   const wd = new WebDriver('http://127.0.0.1:4444');
//   await wd.newSession({ 'tauri:options': { application: bin } });
//   const el = await wd.waitFor('.tab', { timeoutMs: 10_000 });
//   await wd.click(el); await wd.sendKeys(el, 'text'); await wd.deleteSession();
//
// tauri-driver now and then drops a connection without answering: it forwards each request to
// WebKitWebDriver over a pooled connection, with hyper's retry of canceled requests turned off,
// and a connection WebKitWebDriver has already closed fails with "SendRequest ... Connection
// reset by peer". Such a request never reached WebKitWebDriver, so it is sent again here; a
// request that got an answer, even an error answer, is never repeated.
// Connections to tauri-driver are kept alive: a `Connection: close` on every request (forwarded
// as is to WebKitWebDriver) made these drops happen in every run (5 of 5 full runs) instead of
// rarely (0 in 3).

import http from 'node:http';

import { poll } from './poll.mjs';

export const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/** WebDriver key codes (https://w3c.github.io/webdriver/#keyboard-actions). */
export const Key = {
  Backspace: '\uE003', Tab: '\uE004', Enter: '\uE007', Shift: '\uE008', Control: '\uE009', Alt: '\uE00A',
  Escape: '\uE00C', End: '\uE010', Home: '\uE011', Left: '\uE012', Up: '\uE013', Right: '\uE014',
  Down: '\uE015', Delete: '\uE017',
};

const REQUEST_TIMEOUT_MS = 30_000;
const ATTEMPTS = 4;

export class WebDriverError extends Error {
  constructor(method, path, status, value) {
    super(`WebDriver ${method} ${path}: HTTP ${status} ${value?.error ?? ''}: ${value?.message ?? JSON.stringify(value)}`);
    this.status = status;
    this.error = value?.error;
  }
}

/** A stale element (the page replaced it) reads as "not there yet"; any other error stands. */
function staleAsFalse(err) {
  if (err instanceof WebDriverError && err.error === 'stale element reference') return false;
  throw err;
}

const agent = new http.Agent({ keepAlive: true });

/** One HTTP exchange; rejects with `dropped: true` when the connection ends without a response. */
function exchange(url, method, body, timeoutMs) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(url, {
      method,
      agent,
      headers: {
        ...(payload ? { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length } : {}),
      },
    });
    let connected = false;
    let answered = false;
    req.on('socket', (sock) => {
      if (!sock.connecting) connected = true;
      else sock.once('connect', () => (connected = true));
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { timedOut: true }));
    }, timeoutMs);
    req.on('response', (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      if (connected && !answered && !err.timedOut) err.dropped = true;
      reject(err);
    });
    req.end(payload);
  });
}

export class WebDriver {
  constructor(baseUrl, { log = () => {} } = {}) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.sessionId = null;
    this.log = log;
    /** How many requests had to be sent again after a dropped connection (for the report). */
    this.retries = 0;
  }

  async request(method, path, body, { timeoutMs = REQUEST_TIMEOUT_MS, attempts = ATTEMPTS } = {}) {
    const url = this.baseUrl + path;
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await exchange(url, method, body, timeoutMs);
      } catch (err) {
        if (err.dropped && attempt < attempts) {
          this.retries++;
          this.log(`webdriver: ${method} ${path}: connection dropped (${err.code ?? err.message}), sending it again`);
          continue;
        }
        throw new Error(`WebDriver ${method} ${path}: ${err.message}`, { cause: err });
      }
      let json;
      try {
        json = res.text ? JSON.parse(res.text) : {};
      } catch {
        throw new WebDriverError(method, path, res.status, { message: res.text });
      }
      if (res.status >= 400) throw new WebDriverError(method, path, res.status, json.value);
      return json.value;
    }
  }

  s(path) {
    if (!this.sessionId) throw new Error('no WebDriver session');
    return `/session/${this.sessionId}${path}`;
  }

  /** Not retried: callers poll it while the driver starts. */
  async status() {
    return this.request('GET', '/status', undefined, { timeoutMs: 5_000, attempts: 1 });
  }

  async newSession(alwaysMatch, { timeoutMs = 60_000 } = {}) {
    const value = await this.request('POST', '/session', { capabilities: { alwaysMatch } }, { timeoutMs });
    this.sessionId = value.sessionId;
    return value;
  }

  async deleteSession() {
    if (!this.sessionId) return;
    const id = this.sessionId;
    this.sessionId = null;
    await this.request('DELETE', `/session/${id}`, undefined, { timeoutMs: 10_000 });
  }

  execute(script, args = []) {
    return this.request('POST', this.s('/execute/sync'), { script, args });
  }

  async find(css) {
    return (await this.request('POST', this.s('/element'), { using: 'css selector', value: css }))[ELEMENT_KEY];
  }

  async findAll(css) {
    const els = await this.request('POST', this.s('/elements'), { using: 'css selector', value: css });
    return els.map((e) => e[ELEMENT_KEY]);
  }

  click(id) {
    return this.request('POST', this.s(`/element/${id}/click`), {});
  }

  sendKeys(id, text) {
    return this.request('POST', this.s(`/element/${id}/value`), { text });
  }

  text(id) {
    return this.request('GET', this.s(`/element/${id}/text`));
  }

  displayed(id) {
    return this.request('GET', this.s(`/element/${id}/displayed`));
  }

  title() {
    return this.request('GET', this.s('/title'));
  }

  /** The page as PNG bytes. */
  async screenshot() {
    return Buffer.from(await this.request('GET', this.s('/screenshot')), 'base64');
  }

  /** Polls `probe` with a deadline (lib/poll.mjs). */
  until(probe, opts) {
    return poll(probe, opts);
  }

  /** The first element matching `css` that is displayed, once there is one. */
  waitFor(css, opts = {}) {
    return this.until(async () => {
      const [id] = await this.findAll(css);
      return id && (await this.displayed(id)) ? id : null;
    }, { what: `a displayed ${css}`, ...opts });
  }

  /**
   * Clicks the element matching `css` (the `index`th, the first by default) once it is displayed,
   * found again if the page replaced it between the find and the click (a "stale element
   * reference": the page drew it anew, and a user's click lands on what is there now).
   */
  clickOn(css, { index = 0, ...opts } = {}) {
    return this.until(async () => {
      const id = (await this.findAll(css))[index];
      if (!id || !(await this.displayed(id).catch(staleAsFalse))) return null;
      return this.click(id).then(() => true, staleAsFalse);
    }, { what: `a displayed ${css} clicked`, ...opts });
  }

  /** Resolves once no element matches `css`. */
  waitGone(css, opts = {}) {
    return this.until(async () => (await this.findAll(css)).length === 0, { what: `no ${css}`, ...opts });
  }
}
