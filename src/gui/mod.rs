//! `ternion gui`: a board in the browser, served on the loopback address.
//!
//! The server hands out one embedded page (`page.html`) and, at `/ws`, a WebSocket that
//! carries the very lines of the protocol: each connection gets a daemon of its own, as if
//! it had started `ternion` and written to its stdin. The page is a client of the protocol
//! and nothing more; it draws the board from `query svg`. Beside it, `/levels.json` gives
//! the measured Elo of each skill level, for the page's strength list.
//!
//! - [`http`]: reading a request, checking where it comes from, the page, the levels'
//!   Elo and the errors;
//! - [`session`]: one WebSocket connection driving one daemon.
//!
//! Security: the server binds only to 127.0.0.1; every request must name this server in
//! its `Host` header (a page of another site that resolves its own name to 127.0.0.1 is
//! refused: no DNS rebinding), and a WebSocket must come from this server's page (`Origin`).
//! Requests and messages are capped in size, connections in number (a connection takes
//! its slot only once its request has come, and the oldest of the connections still
//! waiting for theirs makes room for a new one, so silent sockets keep nobody out), idle
//! WebSockets in time ([`DEFAULT_IDLE`]), each
//! page's daemon in table size and threads, the replies a connection holds for a client
//! that does not read (see [`session`]), and nothing is written to disk.

pub mod http;
pub mod session;

use std::collections::VecDeque;
use std::io;
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::games::LoadedTables;

/// Boards (WebSockets, each with its daemon) served at once; more are refused until one
/// ends. A connection takes a slot once its request head has come and asks for `/ws`: a
/// silent connection holds none, and the page itself (and every other plain request) is
/// answered at once without one, so that clients holding or retaking every slot never keep
/// the page from loading (it then says the board is busy).
pub const MAX_CONNECTIONS: usize = 16;
/// Connections whose request head has not come yet, each waiting at most
/// `http::REQUEST_TIME` on a sleeping thread of its own. When a new connection finds them
/// all taken, the oldest is dropped: silent sockets never keep a real request out.
pub const MAX_WAITING: usize = 256;
/// How long a page's WebSocket may send nothing before it is closed (its daemon stopped,
/// its slot freed); the page then says to reload it.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(15 * 60);

/// What the server gives every page's daemon.
#[derive(Clone, Debug)]
pub struct PageSetup {
    /// How long a page's WebSocket may send nothing before it is closed.
    pub idle: Duration,
    /// The exact tables every page's daemon asks (mapped once, shared by all); a page
    /// cannot set `TablePath` itself.
    pub tables: LoadedTables,
}

impl Default for PageSetup {
    fn default() -> Self {
        PageSetup {
            idle: DEFAULT_IDLE,
            tables: LoadedTables::default(),
        }
    }
}

/// Binds the server to 127.0.0.1 on `port` (0: any free port) and returns the listener and
/// the address it got.
pub fn bind(port: u16) -> io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
    let address = listener.local_addr()?;
    Ok((listener, address))
}

/// The connections waiting for their request head, oldest first, each with its number.
#[derive(Default)]
struct Waiting {
    next: u64,
    queue: VecDeque<(u64, TcpStream)>,
}

impl Waiting {
    /// Adds `stream` (its handle, to drop it if need be), dropping the oldest when all
    /// the waiting places are taken; its number.
    fn admit(&mut self, stream: &TcpStream) -> u64 {
        if self.queue.len() >= MAX_WAITING
            && let Some((_, oldest)) = self.queue.pop_front()
        {
            // Its thread's read ends at once; it answers nobody.
            let _ = oldest.shutdown(Shutdown::Both);
        }
        let number = self.next;
        self.next += 1;
        if let Ok(handle) = stream.try_clone() {
            self.queue.push_back((number, handle));
        }
        number
    }

    /// Connection `number` no longer waits.
    fn leave(&mut self, number: u64) {
        self.queue.retain(|(other, _)| *other != number);
    }
}

/// Serves the page and its WebSockets on `listener` for ever, one thread a connection, each
/// page's daemon set up as `setup` says.
pub fn serve(listener: TcpListener, setup: PageSetup) -> io::Result<()> {
    let setup = Arc::new(setup);
    let port = listener.local_addr()?.port();
    let open = Arc::new(AtomicUsize::new(0));
    let waiting = Arc::new(Mutex::new(Waiting::default()));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            continue;
        };
        // No thread panics while it holds the lock: a poisoned one is still whole.
        let number = waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .admit(&stream);
        let (open, still_waiting) = (Arc::clone(&open), Arc::clone(&waiting));
        let setup = Arc::clone(&setup);
        let spawned = thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                let request = http::read_request(&mut stream);
                still_waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .leave(number);
                match request {
                    Err(refused) => http::refuse(stream, refused),
                    // The page and its files: answered at once, no slot taken.
                    Ok(request) if http::page_path(&request) != "/ws" => {
                        http::handle(stream, request, port, &setup);
                    }
                    Ok(request) => {
                        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                            // The refusal holds no slot while it lingers.
                            open.fetch_sub(1, Ordering::SeqCst);
                            http::refuse_busy(stream);
                        } else {
                            http::handle(stream, request, port, &setup);
                            open.fetch_sub(1, Ordering::SeqCst);
                        }
                    }
                }
            });
        if let Err(error) = spawned {
            waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .leave(number);
            log::warn!("gui: no thread for a connection: {error}");
        }
    }
    Ok(())
}
