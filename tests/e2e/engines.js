// The three browser engines the page targets, from Debian, behind one small
// driver: Chromium through playwright-core (the Chrome DevTools Protocol),
// Firefox ESR through puppeteer-core (WebDriver BiDi), and WebKitGTK,
// Safari's engine, through its WebKitWebDriver and MiniBrowser (classic
// WebDriver, with selenium-webdriver). Firefox and WebKit run on a virtual
// display (Xvfb): headless Firefox has no WebGL here, and MiniBrowser always
// draws to a display. Used by the end-to-end tests and bench/page.js.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

// Headless and self-contained: no GPU (speedscope's WebGL runs on SwiftShader),
// no sandbox (CI runs as root), and none of Chromium's own network traffic.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Firefox's own traffic off: updates, telemetry, studies, safe browsing lists.
const FIREFOX_PREFS = {
  'app.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'app.normandy.enabled': false,
  'network.captive-portal-service.enabled': false,
  'browser.download.useDownloadDir': true,
};

export const VIEWPORT = { width: 1280, height: 800 };

/** Why `engine` cannot run here, or false. */
export function engineSkip(engine) {
  const needs = {
    chromium: [CHROMIUM],
    firefox: [FIREFOX, XVFB],
    webkit: [WEBKIT_DRIVER, MINIBROWSER, XVFB],
  }[engine];
  const missing = needs.filter((path) => !existsSync(path));
  return missing.length
    ? `${engine}: ${missing.join(', ')} missing (build-scripts/bootstrap.sh installs them from Debian)`
    : false;
}

/** Resident memory (bytes) of each process of the engine's that runs pages and workers. */
export function contentProcessMemory(engine) {
  const marker = { chromium: '--type=renderer', firefox: '-contentproc', webkit: 'WebKitWebProcess' }[engine];
  return execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' }).split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]) * 1024);
}

// One virtual display for the process, started on first need.
let display = null;

async function virtualDisplay() {
  if (!display) {
    display = new Promise((resolve, reject) => {
      const server = spawn(XVFB, ['-displayfd', '1', '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'],
        { stdio: ['ignore', 'pipe', 'ignore'] });
      server.unref();
      server.stdout.once('data', (data) => resolve({ name: `:${String(data).trim()}`, server }));
      server.once('error', reject);
      server.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    });
    process.once('exit', () => display.then(({ server }) => server.kill(), () => {}));
  }
  return (await display).name;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Starts `engine`: {name, version, newPage(), close()}; a page is the driver-neutral Page below. */
export async function launchEngine(engine) {
  if (engine === 'chromium') return launchChromium();
  if (engine === 'firefox') return launchFirefox();
  if (engine === 'webkit') return launchWebKit();
  throw new Error(`no engine ${engine}`);
}

async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    browser,
    async newPage() {
      const context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
      const page = await context.newPage();
      return new Page('chromium', {
        goto: (url) => page.goto(url),
        evaluate: (source) => page.evaluate(source),
        setFiles: (selector, paths) => page.setInputFiles(selector, paths),
        screenshot: (path) => page.screenshot({ path }),
        hover: (x, y) => page.mouse.move(x, y),
        press: (selector) => page.click(selector),
        close: () => context.close(),
      }, page);
    },
    close: () => browser.close(),
  };
}

async function launchFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    protocol: 'webDriverBiDi',
    headless: false,
    env: { ...process.env, DISPLAY: await virtualDisplay() },
    extraPrefsFirefox: FIREFOX_PREFS,
    defaultViewport: VIEWPORT,
  });
  return {
    name: 'firefox',
    version: (await browser.version()).replace(/^firefox\//i, 'Firefox ESR '),
    browser,
    async newPage() {
      const page = await browser.newPage();
      await page.setViewport(VIEWPORT);
      return new Page('firefox', {
        goto: (url) => page.goto(url),
        evaluate: (source) => page.evaluate(source),
        setFiles: async (selector, paths) => (await page.$(selector)).uploadFile(...[paths].flat()),
        screenshot: (path) => page.screenshot({ path }),
        hover: (x, y) => page.mouse.move(x, y),
        press: (selector) => page.click(selector),
        close: () => page.close(),
      }, page);
    },
    close: () => browser.close(),
  };
}

// WebKitWebDriver now and then never answers a new session's request (seen
// about once a run of the page's tests, which then waited out its whole
// timeout); asked again, it answers. Both that and quitting are bounded and
// said on stderr; a session that does not begin is asked for once more.
const WEBKIT_QUIT_MS = 15_000;
const WEBKIT_SESSION_MS = 30_000;

/** `promise`, or after `ms` a rejection that names `what`. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`WebKitWebDriver: ${what} did not answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function launchWebKit() {
  const { Builder, By, Capabilities } = await import('selenium-webdriver');
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`],
    { env: { ...process.env, DISPLAY: await virtualDisplay() }, stdio: 'ignore' });
  const stopDriver = () => driverProcess.kill();
  process.once('exit', stopDriver);
  // The driver listens within a moment of starting.
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; ++tries) {
    try {
      await fetch(`${url}/status`);
      break;
    } catch (error) {
      if (tries > 100) throw new Error(`WebKitWebDriver did not start: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const capabilities = new Capabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  });
  let version = 'WebKitGTK';
  const sessions = [];
  const begin = () => within(new Builder().usingServer(url).withCapabilities(capabilities).build(),
    WEBKIT_SESSION_MS, 'a new session');
  const startSession = async () => {
    const driver = await begin().catch((error) => {
      process.stderr.write(`${error.message}; asking again\n`);
      return begin();
    });
    version = `WebKitGTK ${(await driver.getCapabilities()).get('browserVersion')}`;
    // The window's rectangle holds MiniBrowser's toolbar too: grown by it, the page gets the viewport.
    await driver.manage().window().setRect(VIEWPORT);
    const [width, height] = await driver.executeScript('return [innerWidth, innerHeight]');
    await driver.manage().window().setRect({
      width: 2 * VIEWPORT.width - width,
      height: 2 * VIEWPORT.height - height,
    });
    await driver.manage().setTimeouts({ script: 600_000 });
    sessions.push(driver);
    return driver;
  };
  const first = await startSession();
  return {
    name: 'webkit',
    get version() {
      return version;
    },
    async newPage() {
      // One browser window a session: the first page takes the session already made.
      const driver = sessions.length === 1 && !first.used ? first : await startSession();
      driver.used = true;
      return new Page('webkit', {
        goto: (pageURL) => driver.get(pageURL),
        evaluate: (source) => driver.executeScript(`return ${source}`),
        setFiles: async (selector, paths) => driver.findElement(By.css(selector)).sendKeys([paths].flat().join('\n')),
        screenshot: async (path) => writeFileSync(path, Buffer.from(await driver.takeScreenshot(), 'base64')),
        hover: (x, y) => driver.actions().move({ x: Math.round(x), y: Math.round(y) }).perform(),
        press: (selector) => driver.findElement(By.css(selector)).click(),
        close: async () => {
          sessions.splice(sessions.indexOf(driver), 1);
          await within(driver.quit(), WEBKIT_QUIT_MS, 'quitting a session').catch((error) => {
            process.stderr.write(`${error.message}; going on\n`);
          });
        },
      }, driver);
    },
    async close() {
      for (const driver of sessions.splice(0)) {
        await within(driver.quit(), WEBKIT_QUIT_MS, 'quitting a session').catch(() => {});
      }
      stopDriver();
    },
  };
}

/**
 * A page in any engine. evaluate(fn, arg) runs fn(arg) in the page (fn a
 * function or its source, arg as JSON) and resolves with its awaited,
 * JSON-like result; `native` is the driver's own page, for what only one
 * engine does.
 */
export class Page {
  constructor(engine, driver, native) {
    this.engine = engine;
    this.driver = driver;
    this.native = native;
  }

  goto(url) {
    return this.driver.goto(url);
  }

  evaluate(fn, arg) {
    return this.evaluateSource(`(${fn})(${JSON.stringify(arg ?? null)})`);
  }

  /** Evaluates an expression in the page, as the driver's own script. */
  evaluateSource(source) {
    return this.driver.evaluate(source);
  }

  /** Polls fn(arg) in the page until it is truthy; resolves with it. */
  async waitFor(fn, arg, { timeout = 90_000, interval = 100, what = String(fn) } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(fn, arg);
      if (value) return value;
      if (Date.now() > end) throw new Error(`${this.engine}: timed out after ${timeout} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  }

  setFiles(selector, paths) {
    return this.driver.setFiles(selector, paths);
  }

  screenshot(path) {
    return this.driver.screenshot(path);
  }

  /**
   * Clicks the element `selector` names as a person does, through the
   * driver's input: what the page does then counts as the person's action
   * (a tab it opens is no pop-up to block).
   */
  press(selector) {
    return this.driver.press(selector);
  }

  /** Moves the pointer to (x, y) of the page's viewport. */
  hover(x, y) {
    return this.driver.hover(x, y);
  }

  close() {
    return this.driver.close();
  }
}
