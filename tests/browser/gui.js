// End-to-end check of `ternion gui` in headless Chromium, driven by playwright-core. Run by
// tests/suite/gui_browser.rs (which finds the tools), or by hand:
//
//   npm ci --prefix tests/browser
//   node tests/browser/gui.js target/release/ternion [chromium] [screenshot dir] [--web folder]
//
// With --web, the page is the web edition's (the folder scripts/build-web.sh writes), served
// by a local static server, its engine the worker's; the same checks run but the tables'
// (the web edition has none), and then web.js's: whole games, `stop`, a session against the
// binary, the worker's speed.
//
// For every variant it plays moves by clicking the board, the engine answering as the second
// player; after every turn it checks the page against a daemon of its own, run beside the
// server: the move list must be that position's legal moves and the board must draw that
// position's pieces. The engine plays at the weakest level, set on the page, and its lines
// must show it (a weakened level searches four root lines). Then it takes a move back, shows
// the first ply by a click on the move list, plays a new line from there, and loads a
// position string, checking again. Then the study tools: the analysis of the shown position
// (its lines must be legal lines of it, the best move drawn, the bar set), the graph of every
// ply, and a game recorded by `ternion match --records` loaded and stepped through. Last, a
// finished game must say its result and why, and the exact tables' panel must show what
// `ternion tables line` says of a position, the engine playing from them when told to.
// It prints the page's load time and the time from a click to the engine's reply, and saves
// a screenshot of each board.
"use strict";
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const webAt = args.indexOf('--web');
const webFolder = webAt >= 0 ? args.splice(webAt, 2)[1] : null;
const [binary, browserPath = '/usr/bin/chromium', shots = 'target'] = args;
if (!binary || (webAt >= 0 && !webFolder)) {
  console.error('usage: node tests/browser/gui.js <ternion binary> [chromium] [screenshot dir] [--web folder]');
  process.exit(2);
}
const web = require('./web.js');
const VARIANTS = ['lielow', 'lielow9', 'egaraguti', 'lerontenin'];
const MOVE_TIME_MS = 200;

function check(condition, what) { if (!condition) throw new Error('failed: ' + what); }

// Egara-guti's tables of up to 6 men (well under a second to build), for the server.
const TABLES = path.join(shots, 'tables');
execFileSync(binary, ['tables', 'build', 'egaraguti', '--men', '6', '--dir', TABLES, '--distances'],
  { stdio: 'ignore' });

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(binary, ['gui', '--port', '0', '--tables', TABLES],
      { stdio: ['ignore', 'pipe', 'inherit'] });
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

// The tables' panel against `ternion tables line` on the same tables: the position's value
// and distance, and every legal move's, in the same order. The page cannot point the
// daemon at tables of its own, and the engine plays the tables' first move when told to.
async function checkTables(page) {
  await page.selectOption('#engine-side', 'none');
  if ((await page.inputValue('#variant')) !== 'egaraguti') {
    await redrawn(page, () => page.selectOption('#variant', 'egaraguti'));
  }
  check(await page.isHidden('#tables-panel'), 'no tables panel at the start (11 men a side)');
  const fen = '5/1b1/b2/1/3/1w1/w1b1w w 0 1';
  await page.fill('#fen', fen);
  await redrawn(page, () => page.click('#load'));
  check(await page.isVisible('#tables-panel'), 'the tables panel for 3 men against 3');
  await page.screenshot({ path: path.join(shots, 'gui-tables-egaraguti.png') });
  const line = execFileSync(binary, ['tables', 'line', 'egaraguti', '--dir', TABLES, '--fen', fen])
    .toString().split('\n');
  const head = line[0].match(/^(win|draw|loss) for the side to move(?:, decided within (\d+) plies?)?$/);
  check(head, `tables line's first line: ${line[0]}`);
  const shown = await page.evaluate(() => ({
    value: $("tables-value").dataset.value, distance: $("tables-value").dataset.distance,
    moves: [...document.querySelectorAll('#tables-moves .table-move')]
      .map((row) => `${row.dataset.move} ${row.dataset.value} ${row.dataset.distance}`),
  }));
  check(shown.value === head[1] && shown.distance === (head[2] || '0'),
    `the value: page ${shown.value} ${shown.distance}, tables line ${line[0]}`);
  const rank = { win: 2, draw: 1, loss: 0 };
  const expected = line.filter((l) => l.startsWith('move ')).map((l) => {
    const [, move, value, distance] = l.match(/^move (\S+) (win|draw|loss) in (\d+) plies?$/);
    return { move, value, distance: Number(distance) };
  });
  // tables line lists the moves in generation order; the page ranks them best first.
  check(shown.moves.length === expected.length, `${shown.moves.length} moves shown, ${expected.length} legal`);
  for (const move of expected) {
    check(shown.moves.includes(`${move.move} ${move.value} ${move.distance}`), `move ${move.move} as tables line values it`);
  }
  const values = shown.moves.map((m) => rank[m.split(' ')[1]]);
  check(values.every((v, i) => i === 0 || values[i - 1] >= v), `best first: ${shown.moves}`);
  const best = line.find((l) => l.startsWith('line ')).split(' ')[1];
  check(shown.moves[0].startsWith(best + ' '), `the first move shown is the line's: ${best}`);
  // A page cannot set TablePath: its daemon's tables are the server's.
  const refused = await web.optionRefusal(page, 'setoption name TablePath value /etc');
  check(refused.includes("opens no files"), `TablePath refused: ${refused}`);
  // Played from the tables, the engine's move is the tables' first.
  await page.check('#table-play');
  await page.selectOption('#skill', '20');
  // The board is drawn anew once the position after the engine's move is shown: only then
  // is the page done with it.
  await redrawn(page, () => page.selectOption('#engine-side', 'p1'));
  check(await page.evaluate(() => game.moves.length === 1 && !game.thinking), 'one engine move');
  const played = await page.evaluate(() => game.moves[0]);
  check(played === best, `the engine played ${played} from the tables, the line's ${best}`);
  await page.selectOption('#engine-side', 'none');
  await page.uncheck('#table-play');
  console.log(`the tables' values shown as tables line gives them (${expected.length} moves), ` +
    `the engine playing from them`);
}

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

// The analysis of the position shown: wait for `lines` lines, each a legal line of it by the
// reference (the reference refuses an illegal move with an error, which throws).
async function checkAnalysis(page, reference, variant, fen, moves, lines) {
  const expected = await reference.position(variant, fen, moves);
  const wanted = Math.min(lines, expected.legal.length);
  await page.waitForFunction((n) => document.querySelector('#lines').textContent
    .split('\n').filter((l) => / \(depth \d+\) /.test(l)).length >= n, wanted);
  const shown = (await page.textContent('#lines')).split('\n');
  for (const line of shown) {
    const pv = line.split(') ')[1].split(' ').filter(Boolean);
    check(pv.length > 0, `${variant}: an analysis line has moves: ${line}`);
    check(expected.legal.includes(pv[0]), `${variant}: ${pv[0]} is legal in the shown position`);
    await reference.position(variant, fen, moves.concat(pv));
  }
  check(await page.$('#board .best-move') !== null, `${variant}: the best move is drawn`);
  const bar = await page.$eval('#evalbar div', (d) => d.style.width);
  check(/^\d+(\.\d+)?%$/.test(bar), `${variant}: the evaluation bar is set (${bar})`);
  return shown.length;
}

async function studyVariant(page, reference, variant, records) {
  // A recorded game, loaded by pasting: the board shows its start, the list its moves.
  // Its first 30 plies, a game in its own right (a Lerontenin game runs to 800).
  const whole = fs.readFileSync(records, 'utf8');
  const start = whole.match(/^\[Start "([^"]*)"\]/m)[1];
  const tags = whole.split('\n').filter((l) => l.startsWith('['));
  const recorded = whole.split('\n').filter((l) => l.trim() && !l.startsWith('['))
    .join(' ').split(/\s+/).filter(Boolean).slice(0, 30);
  const text = tags.join('\n') + '\n' + recorded.join(' ') + '\n';
  await page.fill('#record', text);
  await redrawn(page, () => page.click('#record-load'));
  check((await page.inputValue('#variant')) === variant, `${variant}: the record's variant`);
  check((await historyOf(page)).join(' ') === recorded.join(' '), `${variant}: the record's moves`);
  await checkAgainstReference(page, reference, variant, start, 'a record at its start', []);
  await redrawn(page, () => page.click('#history .ply[data-ply="3"]'));
  await checkAgainstReference(page, reference, variant, start, 'a record at ply 3', recorded.slice(0, 3));

  // The graph over every ply of the record.
  await page.click('#graph-run');
  await page.waitForFunction(() => /plies evaluated/.test(document.querySelector('#graph-state').textContent),
    null, { timeout: 120000 });
  const points = await page.$eval('#graph polyline', (p) => p.getAttribute('points').split(' ').length);
  check(points >= recorded.length, `${variant}: the graph has a point a ply (${points} of ${recorded.length + 1})`);

  // Analysis of that position, three lines, then of the next ply.
  await page.check('#analyse');
  const started = Date.now();
  const lines = await checkAnalysis(page, reference, variant, start, recorded.slice(0, 3), 3);
  const firstLines = Date.now() - started;
  // Lines refreshed per second: info lines counted over one second of analysis (none
  // once the search has proved the result).
  const before = await page.evaluate(() => window.analysisUpdates || 0);
  await page.waitForTimeout(1000);
  const perSecond = (await page.evaluate(() => window.analysisUpdates || 0)) - before;
  await page.screenshot({ path: path.join(shots, `gui-analysis-${variant}.png`) });
  await redrawn(page, () => page.click('#forward'));
  await checkAnalysis(page, reference, variant, start, recorded.slice(0, 4), 3);
  await redrawn(page, () => page.uncheck('#analyse'));
  console.log(`${variant}: ${lines} analysis lines, all shown in ${firstLines} ms, `
    + `${perSecond} line updates a second`);
}

(async () => {
  // The server gives the levels' Elo the page must show, in either edition.
  const { server, url: serverUrl } = await startServer();
  const site = webFolder ? await web.serveStatic(webFolder) : null;
  const url = site ? site.url : serverUrl;
  const reference = new Reference();
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox',
    '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30000);
    // No error on the console, the page's or its worker's, all the way through.
    const consoleErrors = [];
    page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('worker', (worker) => worker.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push('worker: ' + message.text());
    }));
    const started = Date.now();
    await page.goto(url);
    await page.waitForSelector('#board svg');
    console.log(`page and first board: ${Date.now() - started} ms`);
    await page.fill('#movetime', String(MOVE_TIME_MS));
    await page.selectOption('#skill', '0');
    // Each level is listed with its measured Elo in the game shown (from /levels.json).
    const levels = await (await fetch(new URL('/levels.json', serverUrl))).json();
    await page.waitForFunction(() => /Elo/.test(document.querySelector('#skill option').textContent));
    const variantShown = await page.inputValue('#variant');
    for (const level of [0, 10, 20]) {
      const label = await page.textContent(`#skill option[value="${level}"]`);
      check(label.endsWith(`Elo ${levels[variantShown][level]}`), `level ${level} labelled ${label}`);
    }
    for (const variant of VARIANTS) await playVariant(page, reference, variant);
    console.log('every variant played, checked against the reference daemon');
    for (const variant of VARIANTS) {
      // A game of two random movers, recorded (long enough to step through).
      const records = path.join(shots, `record-${variant}.txt`);
      const random = `${binary} --play random`;
      execFileSync(binary, ['match', '--engine', random, '--engine', random, '--variant', variant,
        '--games', '1', '--depth', '1', '--records', records], { stdio: 'ignore' });
      await studyVariant(page, reference, variant, records);
    }
    console.log('every variant studied: analysis, graph and a recorded game');
    // A pasted record cannot send protocol lines: a tag holding line breaks is no tag, and
    // no command the page sends may hold one.
    const hostile = '[Game "1"]\n[Variant "egaraguti"]\n'
      + '[Start "\nsetoption name TablePath value /etc\nquit"]\n[Result "draw"]\ne3e4\n';
    await page.fill('#record', hostile);
    await redrawn(page, () => page.click('#record-load'));
    check((await historyOf(page)).join(' ') === 'e3e4', 'a hostile record: its move, from the start');
    const guarded = await page.evaluate(() => { send("isready\nquit"); return $("error").textContent; });
    check(guarded === 'not sent: a command may not hold a line break', `a line break refused: ${guarded}`);
    console.log('a hostile record sent no protocol lines');
    if (webFolder) {
      await web.noTables(page);
      await web.sessionAgainstNative(page, binary);
      await web.stopLatency(page, VARIANTS);
      await web.benchAgainstNative(page, binary);
      await web.wholeGames(page, reference, VARIANTS);
    } else {
      await checkTables(page);
    }
    // A finished game says its result and why: Egara-guti's test fact 8, one capture of all.
    await page.selectOption('#engine-side', 'none');
    if ((await page.inputValue('#variant')) !== 'egaraguti') {
      await redrawn(page, () => page.selectOption('#variant', 'egaraguti'));
    }
    await page.fill('#fen', '5/3/3/w/b1b/1b1/5 w 0 1');
    await redrawn(page, () => page.click('#load'));
    await redrawn(page, () => page.click('#moves button:text-is("e4c2g2e4")'));
    const status = await page.textContent('#status');
    check(status === 'Game over: the first player wins (no men left)', `the result and its reason: ${status}`);
    console.log(`a finished game: "${status}"`);
    check(consoleErrors.length === 0, `no console error: ${consoleErrors.join(' | ')}`);
  } finally {
    await browser.close();
    reference.close();
    server.kill();
    if (site) site.stop();
  }
})().catch((error) => { console.error(error.message); process.exit(1); });
