// End-to-end check of `ternion gui` in headless Chromium, driven by playwright-core. Run by
// tests/gui_browser.rs (which finds the tools), or by hand:
//
//   npm ci --prefix tests/browser
//   node tests/browser/gui.js target/release/ternion [chromium] [screenshot dir]
//
// For every variant it plays moves by clicking the board, the engine answering as the second
// player; after every turn it checks the page against a daemon of its own, run beside the
// server: the move list must be that position's legal moves and the board must draw that
// position's pieces. The engine plays at the weakest level, set on the page, and its lines
// must show it (a weakened level searches four root lines). Then it takes a move back, shows
// the first ply by a click on the move list, plays a new line from there, and loads a
// position string, checking again.
// It prints the page's load time and the time from a click to the engine's reply, and saves
// a screenshot of each board.
"use strict";
const { spawn } = require('child_process');
const path = require('path');
const readline = require('readline');
const { chromium } = require('playwright-core');

const [binary, browserPath = '/usr/bin/chromium', shots = 'target'] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node tests/browser/gui.js <ternion binary> [chromium] [screenshot dir]');
  process.exit(2);
}
const VARIANTS = ['lielow', 'lielow9', 'egaraguti', 'lerontenin'];
const MOVE_TIME_MS = 200;

function check(condition, what) { if (!condition) throw new Error('failed: ' + what); }

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(binary, ['gui', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    server.stdout.once('data', (data) => resolve({ server, url: data.toString().trim() }));
    server.once('error', reject);
  });
}

// A daemon of our own, the reference the page is checked against.
class Reference {
  constructor() {
    this.process = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiting = [];
    readline.createInterface({ input: this.process.stdout }).on('line', (line) => {
      if (line.startsWith('info string error')) throw new Error('reference daemon: ' + line);
      if (line.startsWith('response ') && this.waiting.length) this.waiting.shift()(line.slice(9));
    });
  }
  query(what) {
    return new Promise((resolve) => { this.waiting.push(resolve); this.process.stdin.write(`query ${what}\n`); });
  }
  async position(variant, fen, moves) {
    const start = fen ? `fen ${fen}` : 'startpos';
    const tail = moves.length ? ` moves ${moves.join(' ')}` : '';
    this.process.stdin.write(`position variant ${variant} ${start}${tail}\n`);
    const [legal, svg] = await Promise.all([this.query('legalmoves'), this.query('svg')]);
    return { legal: legal === 'none' ? [] : legal.split(' '), pieces: pieceIds(svg) };
  }
  close() { this.process.stdin.end('quit\n'); }
}

// The ids of the pieces a picture draws: Lielow's stacks, Egara-guti's men, Lerontenin's pieces.
function pieceIds(svg) {
  return [...svg.matchAll(/id="((?:stack|man|piece)-[^"]+)"/g)].map((m) => m[1]).sort();
}

const historyOf = async (page) => (await page.textContent('#history'))
  .split(' ').filter((word) => word && !word.endsWith('.'));

// The page's move list and board against the reference's, for the moves the page shows.
async function checkAgainstReference(page, reference, variant, fen, what, played = null) {
  const moves = played || await historyOf(page);
  const expected = await reference.position(variant, fen, moves);
  const shown = await page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));
  check(JSON.stringify(shown.sort()) === JSON.stringify([...expected.legal].sort()),
    `${variant}, ${what}: the move list is the legal moves after "${moves.join(' ')}"`);
  const drawn = (await page.$$eval('#board [id]', (es) => es.map((e) => e.id)))
    .filter((id) => /^(stack|man|piece)-/.test(id)).sort();
  check(JSON.stringify(drawn) === JSON.stringify(expected.pieces),
    `${variant}, ${what}: the board draws the pieces of the position after "${moves.join(' ')}"`);
  return moves;
}

// Plays `move` by clicking, as a person would: the piece, then its target when the piece has
// several moves, then the move's button when several moves join the two (the page plays a
// move as soon as the clicks leave one).
async function clickMove(page, variant, legal, move) {
  let name, piece, target;
  if (variant === 'lerontenin') {
    name = move.match(/^[A-Za-z]+/)[0];
    piece = `#piece-light-${name}`;
  } else {
    [name, target] = [move.slice(0, 2), move.slice(-2)];
    piece = variant === 'egaraguti' ? `#man-${name}` : `#stack-${name}`;
    target = variant === 'egaraguti' ? `#pt-${target}` : `#sq-${target}`;
  }
  // A Lerontenin label is followed by its move's sign; a longer label is another piece.
  const fromPiece = legal.filter((m) => m.startsWith(name)
    && (variant !== 'lerontenin' || !/[a-z]/.test(m[name.length] || '')));
  await page.click(piece, { force: true });
  if (fromPiece.length === 1) return;
  let left = fromPiece;
  if (target) {
    left = fromPiece.filter((m) => m.endsWith(move.slice(-2)));
    await page.click(target, { force: true });
    if (left.length === 1) return;
  }
  await page.click(`#moves button.chosen:text-is("${move}")`);
}

// Runs `action`, which makes the page draw its board again, and waits for the new board.
async function redrawn(page, action) {
  const board = await page.$('#board svg');
  await action();
  await page.waitForFunction((old) => !old.isConnected, board);
}

const waitUntilQuiet = (page) => page.waitForFunction(() =>
  !document.querySelector('#status').textContent.includes('thinking'));

async function playVariant(page, reference, variant) {
  if ((await page.inputValue('#variant')) !== variant) {
    await redrawn(page, () => page.selectOption('#variant', variant));
  }
  await page.selectOption('#engine-side', 'p2');
  await checkAgainstReference(page, reference, variant, null, 'the start');
  const replies = [];
  for (let turn = 1; turn <= 3; turn++) {
    const before = await historyOf(page);
    const moves = await page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));
    // A Lielow stack moving off the board has no target square to click.
    const move = moves.find((m) => !m.endsWith('off'));
    const clicked = Date.now();
    await clickMove(page, variant, moves, move);
    await page.waitForFunction((n) => document.querySelector('#history').textContent
      .split(' ').filter((w) => w && !w.endsWith('.')).length >= n + 2
      || !document.querySelector('#status').textContent.includes('to move'), before.length);
    await waitUntilQuiet(page);
    replies.push(Date.now() - clicked);
    const after = await checkAgainstReference(page, reference, variant, null, `turn ${turn}`);
    check(after[before.length] === move, `${variant}, turn ${turn}: ${move} was played by the clicks`);
    if (!(await page.textContent('#status')).includes('to move')) break;
  }
  const info = await page.textContent('#info');
  check(info.startsWith('info depth'), `${variant}: the engine's info line`);
  check(info.includes(' multipv '), `${variant}: the level set on the page reached the engine: ${info}`);
  await page.screenshot({ path: path.join(shots, `gui-${variant}.png`) });
  const played = await historyOf(page);
  console.log(`${variant}: ${played.join(' ')} | click to engine reply (${MOVE_TIME_MS} ms a move): `
    + `${replies.join(', ')} ms`);

  // Take back: the engine plays a side, so its reply goes back with the move before it.
  await redrawn(page, () => page.click('#takeback'));
  const kept = await checkAgainstReference(page, reference, variant, null, 'after take back');
  check(kept.join(' ') === played.slice(0, -2).join(' '), `${variant}: take back undid two plies`);

  // A click on the first move shows the position after it; a move played there starts a
  // new line (the engine plays neither side meanwhile).
  await page.selectOption('#engine-side', 'none');
  const clickedAt = Date.now();
  await redrawn(page, () => page.click('#history .ply[data-ply="1"]'));
  const shownIn = Date.now() - clickedAt;
  await checkAgainstReference(page, reference, variant, null, 'the first ply shown', kept.slice(0, 1));
  check((await historyOf(page)).join(' ') === kept.join(' '), `${variant}: looking back keeps the moves`);
  const legalThere = await page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));
  const branchMove = legalThere.find((m) => !m.endsWith('off'));
  await redrawn(page, () => page.click(`#moves button:text-is("${branchMove}")`));
  const line = await checkAgainstReference(page, reference, variant, null, 'a new line');
  check(line.join(' ') === [kept[0], branchMove].join(' '), `${variant}: the new line is ${line.join(' ')}`);
  console.log(`${variant}: a click on the move list to its position: ${shownIn} ms`);

  // Copy the position string, start again, and load it back.
  const fen = await page.inputValue('#fen');
  await redrawn(page, () => page.click('#new-game'));
  check((await historyOf(page)).length === 0, `${variant}: a new game has no moves`);
  await page.fill('#fen', fen);
  await redrawn(page, () => page.click('#load'));
  await checkAgainstReference(page, reference, variant, fen, 'a loaded position');
  check((await page.textContent('#error')) === '', `${variant}: no error shown`);
}

(async () => {
  const { server, url } = await startServer();
  const reference = new Reference();
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox',
    '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30000);
    const started = Date.now();
    await page.goto(url);
    await page.waitForSelector('#board svg');
    console.log(`page and first board: ${Date.now() - started} ms`);
    await page.fill('#movetime', String(MOVE_TIME_MS));
    await page.selectOption('#skill', '0');
    for (const variant of VARIANTS) await playVariant(page, reference, variant);
    console.log('every variant played, checked against the reference daemon');
  } finally {
    await browser.close();
    reference.close();
    server.kill();
  }
})().catch((error) => { console.error(error.message); process.exit(1); });
