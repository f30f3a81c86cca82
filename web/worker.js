// ternion's engine in a Web Worker: the protocol on stdin and stdout, as messages.
//
// Post a string of one or more protocol lines; every line the engine writes comes back as
// one message, a string. Once, when the engine is loaded, the worker also posts an object,
// `{ levels }`: the measured Elo of each skill level of each variant (what `ternion gui`
// serves at /levels.json). Lines posted before then wait for it.
//
// A search runs in slices of SLICE_MS: between two slices the worker reads what came, so a
// `stop` is answered within about one slice (docs/web.md says why slices, not a shared
// flag).
import init, { Engine, levels } from "./ternion_web.js";

const SLICE_MS = 50;
let engine = null;
const waiting = [];
// The next slice is a message to ourselves: it queues behind what the page has posted (a
// `setTimeout(0)` would be clamped to 4 ms or more when nested).
const tick = new MessageChannel();
let stepping = false;

function post(text) {
  if (text) for (const line of text.split("\n")) postMessage(line);
}

// Runs `work` on the engine; a fault of the engine's (a trap: a bug, never the input) is
// said as an error line and a fresh engine takes over, so the page is never left waiting.
function guarded(work) {
  try {
    post(work());
  } catch (fault) {
    const busy = stepping;
    engine = new Engine();
    postMessage("info string error internal: " + String(fault).split("\n")[0]);
    if (busy) postMessage("bestmove (none)");
  }
}

function schedule() {
  if (!stepping && engine && engine.busy()) {
    stepping = true;
    tick.port2.postMessage(0);
  }
}

tick.port1.onmessage = () => {
  guarded(() => engine.step(SLICE_MS));
  stepping = false;
  schedule();
};

function write(text) {
  guarded(() => engine.write(text));
  if (engine.hasQuit()) close();
  else schedule();
}

onmessage = (event) => {
  const text = String(event.data);
  if (engine) write(text);
  else waiting.push(text);
};

init().then(() => {
  engine = new Engine();
  postMessage({ levels: JSON.parse(levels()) });
  for (const text of waiting.splice(0)) write(text);
}, (error) => {
  postMessage("info string error internal: the engine did not load: " + String(error));
});
