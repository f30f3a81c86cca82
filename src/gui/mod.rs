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
//! its slot only once its request has come, so silent sockets keep nobody out), each
//! page's daemon in table size and threads, the replies a connection holds for a client
//! that does not read (see [`session`]), and nothing is written to disk.

pub mod http;
pub mod session;

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// Connections served at once; more are refused until one ends. A connection takes its
/// slot once its request head has come: a silent connection holds none.
pub const MAX_CONNECTIONS: usize = 16;
/// Connections whose request head has not come yet (each waits at most
/// `http::REQUEST_TIME` on a thread of its own); more are refused at once.
pub const MAX_WAITING: usize = 256;

/// Binds the server to 127.0.0.1 on `port` (0: any free port) and returns the listener and
/// the address it got.
pub fn bind(port: u16) -> io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
    let address = listener.local_addr()?;
    Ok((listener, address))
}

/// Serves the page and its WebSockets on `listener` for ever, one thread a connection.
pub fn serve(listener: TcpListener) -> io::Result<()> {
    let port = listener.local_addr()?.port();
    let open = Arc::new(AtomicUsize::new(0));
    let waiting = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            continue;
        };
        if waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
            waiting.fetch_sub(1, Ordering::SeqCst);
            http::refuse_busy(stream);
            continue;
        }
        let (open, done_waiting) = (Arc::clone(&open), Arc::clone(&waiting));
        let spawned = thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                let request = http::peek_request(&stream);
                done_waiting.fetch_sub(1, Ordering::SeqCst);
                match request {
                    Err(status) => http::refuse(stream, status),
                    Ok(request) => {
                        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                            http::refuse_busy(stream);
                        } else {
                            http::handle(stream, &request, port);
                        }
                        open.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            });
        if let Err(error) = spawned {
            waiting.fetch_sub(1, Ordering::SeqCst);
            log::warn!("gui: no thread for a connection: {error}");
        }
    }
    Ok(())
}
