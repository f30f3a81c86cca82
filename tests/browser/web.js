// The web edition's own checks, run by gui.js with --web <folder> (the folder
// scripts/build-web.sh writes): a local static server for the folder, whole games the
// worker's engine plays against itself in the page, the latency of `stop`, a protocol
// session through the worker against the native binary, and the worker's speed.
"use strict";
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const path = require('path');
const readline = require('readline');

function check(condition, what) { if (!condition) throw new Error('failed: ' + what); }

// Serves `dir` as a plain static host does: files by their names, nothing else.
function serveStatic(folder) {
  const dir = path.resolve(folder);
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
    '.json': 'application/json' };
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://host').pathname);
    const file = path.join(dir, name === '/' ? 'index.html' : path.normalize(name));
    if (!file.startsWith(dir)) { response.writeHead(403); response.end(); return; }
    fs.readFile(file, (error, data) => {
      if (error) { response.writeHead(404); response.end(); return; }
      response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      response.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close(),
  })));
}

// Whole games of each variant in the page, the worker's engine playing both sides; every
// move of each game is played by the reference daemon (which throws on an illegal one)
// and the game it reaches is over.
async function wholeGames(page, reference, variants) {
  await page.fill('#movetime', '10');
  await page.selectOption('#skill', '20');
  for (const variant of variants) {
    await page.selectOption('#engine-side', 'none');
    if ((await page.inputValue('#variant')) !== variant) {
      await page.selectOption('#variant', variant);
    }
    await page.click('#new-game');
    const started = Date.now();
    await page.selectOption('#engine-side', 'both');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Game over'),
      null, { timeout: 600000 });
    const moves = await page.evaluate(() => game.moves);
    await reference.position(variant, null, moves);
    const result = await reference.query('result');
    check(result !== 'none', `${variant}: the reference finds the game over (${result})`);
    const status = await page.textContent('#status');
    console.log(`${variant}: a whole game in the page, ${moves.length} plies at 10 ms a move, `
      + `${Date.now() - started} ms: ${status}`);
  }
  await page.selectOption('#engine-side', 'none');
}

// Runs `session` in a worker of its own in the page: each line is sent once the last one's
// answer is in (`bestmove` after a `go`, the total after `go perft`, else `readyok` after
// an `isready` sent behind it).
function workerSession(page, session) {
  return page.evaluate(async (session) => {
    const worker = new Worker('worker.js', { type: 'module' });
    const lines = [];
    let waiting = null;
    worker.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      lines.push(event.data);
      if (waiting && waiting.done(event.data)) { const resolve = waiting.resolve; waiting = null; resolve(); }
    };
    for (const line of session) {
      const [go, perft] = [line.startsWith('go'), line.startsWith('go perft')];
      const answered = new Promise((resolve) => { waiting = { resolve,
        done: (l) => (perft ? l.startsWith('Nodes searched') : go ? l.startsWith('bestmove') : l === 'readyok') }; });
      worker.postMessage(go ? line : line + '\nisready');
      await answered;
    }
    worker.terminate();
    return lines;
  }, session);
}

// The same session against the native binary, line by line as above.
async function nativeSession(binary, session) {
  const engine = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiting = null;
  readline.createInterface({ input: engine.stdout }).on('line', (line) => {
    lines.push(line);
    if (waiting && waiting.done(line)) { const resolve = waiting.resolve; waiting = null; resolve(); }
  });
  for (const line of session) {
    const [go, perft] = [line.startsWith('go'), line.startsWith('go perft')];
    const answered = new Promise((resolve) => { waiting = { resolve,
      done: (l) => (perft ? l.startsWith('Nodes searched') : go ? l.startsWith('bestmove') : l === 'readyok') }; });
    engine.stdin.write(go ? line + '\n' : line + '\nisready\n');
    await answered;
  }
  engine.stdin.end('quit\n');
  return lines;
}

// A line with what varies from run to run or machine to machine masked: times and speeds,
// and the largest Hash and Threads (the web build takes one thread, and a tab's memory).
function masked(line) {
  if (/^option name (Hash|Threads) /.test(line)) return line.replace(/ max \d+/, ' max *');
  return line.replace(/\b(time|nps) \d+/g, '$1 *');
}

const SESSION = [
  'ugi', 'setoption name UCI_ShowWDL value true', 'position startpos moves d2d3 e7e6',
  'go depth 5', 'query fen', 'query legalmoves', 'eval', 'd', 'go nodes 5000',
  'position variant lielow9 startpos', 'go depth 4', 'position variant egaraguti startpos moves c3d4',
  'setoption name MultiPV value 3', 'go depth 4', 'setoption name MultiPV value 1',
  'position variant lerontenin startpos', 'go depth 3', 'query svg', 'go perft 2',
  'setoption name Skill Level value 5', 'go nodes 20000', 'setoption name Skill Level value 20',
  'position variant lielow fen 8/8/8/3r2*4/8/3b2*4/8/8 b moves d3d5', 'query result', 'go depth 3',
  'setoption name Hash value 64', 'not a command', 'position startpos moves a1a1',
];

async function sessionAgainstNative(page, binary) {
  const [inWorker, native] = [await workerSession(page, SESSION), await nativeSession(binary, SESSION)];
  const [got, expected] = [inWorker.map(masked), native.map(masked)];
  for (let index = 0; index < Math.max(got.length, expected.length); index++) {
    check(got[index] === expected[index],
      `line ${index + 1} of the session: the worker says\n  ${got[index]}\nthe binary says\n  ${expected[index]}`);
  }
  console.log(`a protocol session of ${SESSION.length} commands: the worker's ${got.length} lines `
    + 'are the binary\'s (times, speeds, Hash and Threads maxima masked)');
}

// `stop` during `go infinite`, after a second of search, in each variant: the time from the
// page's posting it to the `bestmove` it reads.
async function stopLatency(page, variants) {
  const latencies = await page.evaluate(async (variants) => {
    const worker = new Worker('worker.js', { type: 'module' });
    let onLine = () => {};
    worker.onmessage = (event) => { if (typeof event.data === 'string') onLine(event.data); };
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const results = [];
    for (const variant of variants) {
      worker.postMessage(`position variant ${variant} startpos`);
      worker.postMessage('go infinite');
      await sleep(1000);
      const answered = new Promise((resolve) => { onLine = (l) => { if (l.startsWith('bestmove')) resolve(); }; });
      const sent = performance.now();
      worker.postMessage('stop');
      await answered;
      results.push(Math.round(performance.now() - sent));
    }
    worker.terminate();
    return results;
  }, variants);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`stop during go infinite answered in ${latencies.join(', ')} ms (${variants.join(', ')})`);
  check(sorted[Math.floor(sorted.length / 2)] <= 200 && sorted[sorted.length - 1] <= 500,
    `stop answered within 200 ms: ${latencies.join(', ')} ms`);
}

// `bench` in the worker and in the native binary (one thread each): the same node count
// (the same search, move for move), and the two speeds side by side.
async function benchAgainstNative(page, binary) {
  const lines = await workerSession(page, ['bench']);
  const total = lines.find((l) => / nodes \d+ nps$/.test(l));
  const native = execFileSync(binary, ['bench']).toString().trim().split('\n').pop();
  const [webNodes, webNps] = total.match(/\d+/g).map(Number);
  const [nodes, nps] = native.match(/\d+/g).map(Number);
  check(webNodes === nodes, `the worker's bench searched ${webNodes} nodes, the binary's ${nodes}`);
  console.log(`bench: ${nodes} nodes in both; ${webNps} nps in the worker, ${nps} native: `
    + `${(webNps / nps).toFixed(2)} of native speed`);
}

// The error the page shows after sending `line` (an option it may not set), once the
// daemon has answered what came after it.
function optionRefusal(page, line) {
  return page.evaluate(async (line) => {
    $("error").textContent = "";
    send(line);
    await query("fen");
    return $("error").textContent;
  }, line);
}

// What the page shows in place of the exact tables, which the web edition has not.
async function noTables(page) {
  await page.selectOption('#engine-side', 'none');
  if ((await page.inputValue('#variant')) !== 'egaraguti') await page.selectOption('#variant', 'egaraguti');
  await page.fill('#fen', '5/1b1/b2/1/3/1w1/w1b1w w 0 1');
  await page.click('#load');
  await page.waitForFunction(() => !game.thinking);
  check(await page.isHidden('#tables-panel'), 'no tables panel in the web edition');
  const refused = await optionRefusal(page, 'setoption name EvalFile value /etc/passwd');
  check(refused.includes('opens no files'), `EvalFile refused: ${refused}`);
  console.log('no tables panel, and no file opened: ' + refused);
}

module.exports = { optionRefusal, serveStatic, wholeGames, sessionAgainstNative, stopLatency, benchAgainstNative, noTables };
