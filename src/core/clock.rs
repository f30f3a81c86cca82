//! The engine's clock: `std::time::Instant` everywhere but in WebAssembly, where the
//! standard library has no clock (`Instant::now` panics on `wasm32-unknown-unknown`) and
//! `web-time` reads the browser's `performance.now()` behind the same API. Every part of
//! the engine that a browser build runs (the search, the daemon, self-play) takes its
//! `Instant` from here.

#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;
#[cfg(target_family = "wasm")]
pub use web_time::Instant;
