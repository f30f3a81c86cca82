//! ternion as WebAssembly: the protocol pipe that `worker.js` drives in a Web Worker.
//!
//! The worker hands in the text the page sends ([`Engine::write`]) and, while a search
//! runs, steps it ([`Engine::step`]) in slices short enough that a `stop` is read between
//! two of them; each call returns the lines the engine wrote, joined by line feeds. The
//! protocol is the daemon's on stdin and stdout, with these differences: one search thread
//! (`Threads` is fixed at 1), no files (`EvalFile` is refused; the networks are the built-in
//! ones) and no exact tables.

use std::time::Duration;

use ternion::games::Variant;
use ternion::protocol::pipe::Pipe;
use wasm_bindgen::prelude::wasm_bindgen;

/// The measured Elo of every skill level of every variant, as `ternion gui` serves it at
/// `/levels.json`: for the page's strength list.
#[wasm_bindgen]
pub fn levels() -> String {
    ternion::games::strength::levels_json()
}

/// One engine: a daemon of its own, in slices.
#[wasm_bindgen]
pub struct Engine {
    pipe: Pipe,
}

#[wasm_bindgen]
impl Engine {
    /// An engine at Lielow's start position, as the native daemon starts.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // a JavaScript constructor, not a Rust value
    pub fn new() -> Engine {
        Engine {
            pipe: Pipe::new(Variant::Lielow),
        }
    }

    /// Reads `text` as protocol lines (the last one whole even without its line feed);
    /// the lines written meanwhile.
    pub fn write(&mut self, text: &str) -> String {
        self.pipe.write_lines(text);
        self.taken()
    }

    /// Searches for one slice of about `ms` milliseconds (or gives the best move, once it
    /// is due); the lines written meanwhile.
    pub fn step(&mut self, ms: u32) -> String {
        self.pipe.step(Duration::from_millis(u64::from(ms)));
        self.taken()
    }

    /// Whether a search runs: step it.
    pub fn busy(&self) -> bool {
        self.pipe.busy()
    }

    /// Whether `quit` was read: the engine reads nothing more.
    #[wasm_bindgen(js_name = hasQuit)]
    pub fn has_quit(&self) -> bool {
        self.pipe.has_quit()
    }

    fn taken(&mut self) -> String {
        self.pipe.take().join("\n")
    }
}
