// End-to-end check of `ternion gui` in headless Chromium, driven by playwright-core:
// for every variant it plays moves by clicking the board, lets the engine answer, and
// checks the move list; it prints the page's load time and the time from a click to the
// engine's reply, and saves a screenshot of each board under target/.
//
//   npm install playwright-core      (once, anywhere on NODE_PATH)
//   node scripts/gui-e2e.js target/release/ternion [/usr/bin/chromium]
const { spawn } = require('child_process');
const { chromium } = require('playwright-core');

const [binary, browserPath = '/usr/bin/chromium'] = process.argv.slice(2);
if (!binary) { console.error('usage: node scripts/gui-e2e.js <ternion binary> [chromium]'); process.exit(2); }

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(binary, ['gui', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    server.stdout.once('data', (data) => resolve({ server, url: data.toString().trim() }));
    server.once('error', reject);
  });
}

function check(condition, what) { if (!condition) throw new Error('failed: ' + what); }

(async () => {
  const { server, url } = await startServer();
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox',
    '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const started = Date.now();
    await page.goto(url);
    await page.waitForSelector('#board svg');
    console.log(`page and first board: ${Date.now() - started} ms`);
    await page.fill('#movetime', '200');
    for (const variant of ['lielow', 'lielow9', 'egaraguti', 'lerontenin']) {
      await page.selectOption('#variant', variant);
      await page.waitForFunction(() => document.querySelector('#history').textContent === ''
        && document.querySelectorAll('#moves button').length > 0);
      const replies = [];
      for (let turn = 0; turn < 3; turn++) {
        const before = (await page.textContent('#history')).split(' ').filter((w) => w && !w.endsWith('.')).length;
        const moves = await page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));
        const clicked = Date.now();
        if (variant === 'lerontenin') {
          // A piece, then one of its moves from the list the click filtered.
          const move = moves[0];
          const label = move.match(/^[A-Za-z]+/)[0];
          await page.click(`#piece-light-${label}`, { force: true });
          // A piece with one move plays it at once; else its moves are listed.
          const button = await page.$(`#moves button.chosen:text-is("${move}")`);
          if (button) await button.click();
        } else {
          const move = moves.find((m) => !m.endsWith('off'));
          const [from, to] = [move.slice(0, 2), move.slice(-2)];
          const piece = variant === 'egaraguti' ? `#man-${from}` : `#stack-${from}`;
          const target = variant === 'egaraguti' ? `#pt-${to}` : `#sq-${to}`;
          await page.click(piece, { force: true });
          const left = await page.$$eval('#moves button', (bs) => bs.length);
          if (left > 1) await page.click(target, { force: true });
          else await page.waitForTimeout(0);
        }
        // The engine plays the second player: its reply follows the click.
        await page.waitForFunction((n) => document.querySelector('#history').textContent
          .split(' ').filter((w) => w && !w.endsWith('.')).length >= n + 2
          || !document.querySelector('#status').textContent.includes('to move'), before);
        replies.push(Date.now() - clicked);
        if (!(await page.textContent('#status')).includes('to move')) break;
      }
      const played = (await page.textContent('#history')).trim();
      check(played.length > 0, `${variant}: moves were played`);
      check((await page.textContent('#info')).startsWith('info depth'), `${variant}: the engine's info line`);
      await page.screenshot({ path: `target/gui-${variant}.png` });
      console.log(`${variant}: ${played} | click to engine reply (200 ms a move): ${replies.join(', ')} ms`);
    }
  } finally {
    await browser.close();
    server.kill();
  }
})().catch((error) => { console.error(error.message); process.exit(1); });
