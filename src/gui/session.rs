//! One WebSocket connection of `ternion gui`, driving a daemon of its own: every text
//! message is one or more protocol lines, every line the daemon says is one message.
//!
//! A client that does not read cannot make the server hold its replies: they wait in a
//! queue of at most [`QUEUE_BYTES`], and a write blocks at most [`WRITE_TIME`]. A client
//! that falls further behind is closed and its daemon stopped, as is the daemon of a
//! client that leaves.

use std::io::{Cursor, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use std::time::Instant;

use tungstenite::protocol::WebSocketConfig;
use tungstenite::protocol::frame::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Error, Message};

use super::PageSetup;
use crate::games::Variant;
use crate::protocol::daemon::{Daemon, Sink};
use crate::protocol::input::MAX_LINE;
use crate::protocol::options::{Caps, HashPool};

/// The largest message or frame a client may send.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How often the connection looks for what the daemon said while the client is silent.
const POLL: Duration = Duration::from_millis(10);
/// The most bytes of replies a connection holds for its client (a search's lines and a
/// few pictures take far less): a client that falls further behind is closed.
pub const QUEUE_BYTES: usize = 4 << 20;
/// The longest a write to the client may block.
pub const WRITE_TIME: Duration = Duration::from_secs(10);
/// The tables of all pages together above each one's default `Hash` (16 MiB): 16 pages at
/// the default and a few at the most, 512 MiB of tables in all, however many pages ask.
pub const PAGES_HASH_POOL_MIB: u64 = 256;
static PAGES_HASH_POOL: HashPool = HashPool::new(PAGES_HASH_POOL_MIB);
/// What a page's daemon may take: up to 16 connections share one machine, so each gets a
/// small table (at most 64 MiB, and what is above the default from the pages' shared pool)
/// and few threads.
pub const PAGE_CAPS: Caps = Caps {
    hash_mib: 64,
    threads: 2,
    open_files: false,
    hash_pool: Some(&PAGES_HASH_POOL),
};

/// A connection whose first bytes were read already: reads give those bytes again first,
/// then the socket's (so that the WebSocket handshake reads the whole request); writes go
/// to the socket.
pub struct Replayed {
    read: Cursor<Vec<u8>>,
    stream: TcpStream,
}

impl Replayed {
    /// `stream`, of which `read` was read already.
    pub fn new(read: Vec<u8>, stream: TcpStream) -> Self {
        Replayed {
            read: Cursor::new(read),
            stream,
        }
    }
}

impl Read for Replayed {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if (self.read.position() as usize) < self.read.get_ref().len() {
            return self.read.read(buffer);
        }
        self.stream.read(buffer)
    }
}

impl Write for Replayed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.stream.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stream.flush()
    }
}

/// The WebSocket of a connection.
type Socket = tungstenite::WebSocket<Replayed>;

/// Completes the WebSocket handshake on `stream` and serves the protocol on it, with a
/// daemon set up as `setup` says, until the client leaves, sends `quit`, or sends nothing
/// for `setup.idle`. A handshake the WebSocket library refuses gives the stream back, to
/// be answered.
pub fn run(stream: Replayed, setup: &PageSetup) -> Result<(), TcpStream> {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .max_write_buffer_size(QUEUE_BYTES);
    // The handshake takes the stream: a handle to it answers a request it refuses.
    let answer = stream.stream.try_clone();
    let mut socket = match tungstenite::accept_with_config(stream, Some(config)) {
        Ok(socket) => socket,
        Err(error) => {
            log::info!("gui: a WebSocket handshake failed: {error}");
            return answer.map_or(Ok(()), Err);
        }
    };
    let stream = &socket.get_mut().stream;
    if stream.set_read_timeout(Some(POLL)).is_err()
        || stream.set_write_timeout(Some(WRITE_TIME)).is_err()
    {
        return Ok(());
    }
    let (sink, outbox) = Outbox::new();
    let mut daemon = Daemon::new(Variant::Lielow, sink)
        .with_caps(PAGE_CAPS)
        .with_tables(setup.tables.clone());
    let ending = serve(&mut socket, &mut daemon, &outbox, setup.idle);
    daemon.stop_for_exit();
    match ending {
        Ending::Idle => {
            let seconds = setup.idle.as_secs();
            log::info!("gui: a client sent nothing for {seconds} s: closed");
            close(&mut socket, CloseCode::Away, "idle".into());
        }
        Ending::Behind => {
            log::info!("gui: a client fell {QUEUE_BYTES} bytes behind: closed");
            close(
                &mut socket,
                CloseCode::Policy,
                "too far behind in reading".into(),
            );
        }
        // Too big a message: closed with the code that says so (1009).
        Ending::TooBig(reason) => close(&mut socket, CloseCode::Size, reason),
        Ending::Gone => {
            // What the daemon said last (a `bestmove` after a stop) still goes out.
            let _ = outbox.write_all(&mut socket);
            let _ = socket.close(None);
            let _ = socket.flush();
        }
    }
    Ok(())
}

/// Why a connection ended.
enum Ending {
    /// The client left, sent `quit`, or the socket failed.
    Gone,
    /// The client sent nothing for the idle time.
    Idle,
    /// The client fell more than [`QUEUE_BYTES`] behind in reading.
    Behind,
    /// The client sent a message over [`MAX_MESSAGE`]: the library's reason.
    TooBig(String),
}

/// Relays between the client and the daemon until the connection ends: what the daemon
/// said goes out, each line the client sends goes in.
fn serve(socket: &mut Socket, daemon: &mut Daemon, outbox: &Outbox, idle: Duration) -> Ending {
    let mut last_message = Instant::now();
    loop {
        let Ok(wrote) = outbox.write_all(socket) else {
            return Ending::Gone;
        };
        if outbox.behind() {
            return Ending::Behind;
        }
        if last_message.elapsed() >= idle {
            return Ending::Idle;
        }
        if wrote && socket.flush().is_err() {
            return Ending::Gone;
        }
        let read = socket.read();
        if matches!(
            read,
            Ok(Message::Text(_) | Message::Binary(_) | Message::Ping(_))
        ) {
            last_message = Instant::now();
        }
        match read {
            Ok(Message::Text(text)) => {
                for line in text.lines() {
                    if line.len() > MAX_LINE {
                        daemon.line_too_long(MAX_LINE);
                    } else if !daemon.handle(line) || outbox.behind() {
                        return match outbox.behind() {
                            true => Ending::Behind,
                            false => Ending::Gone,
                        };
                    }
                }
            }
            Ok(Message::Close(_)) => return Ending::Gone,
            Err(Error::Capacity(error)) => return Ending::TooBig(format!("{error}")),
            // Pings are answered by the socket itself; binary messages mean nothing here.
            Ok(_) => {}
            Err(Error::Io(error))
                if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Ending::Gone,
        }
    }
}

/// Closes the connection with `code` and `reason`, as far as the client still reads.
fn close(socket: &mut Socket, code: CloseCode, reason: String) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.close(Some(frame));
    let _ = socket.flush();
}

/// The daemon's lines not yet written to the client, at most [`QUEUE_BYTES`] of them, and
/// whether the client fell further behind.
struct Outbox {
    queued: Arc<AtomicUsize>,
    behind: Arc<AtomicBool>,
    lines: mpsc::Receiver<String>,
}

impl Outbox {
    /// The daemon's sink, and the outbox it fills.
    fn new() -> (Sink, Outbox) {
        let queued = Arc::new(AtomicUsize::new(0));
        let behind = Arc::new(AtomicBool::new(false));
        let (said, lines) = mpsc::channel::<String>();
        let sink: Sink = {
            let (queued, behind) = (Arc::clone(&queued), Arc::clone(&behind));
            Arc::new(move |line: String| {
                let size = line.len();
                if queued.fetch_add(size, Ordering::SeqCst) + size > QUEUE_BYTES {
                    queued.fetch_sub(size, Ordering::SeqCst);
                    behind.store(true, Ordering::SeqCst);
                } else if said.send(line).is_err() {
                    queued.fetch_sub(size, Ordering::SeqCst);
                }
            })
        };
        let outbox = Outbox {
            queued,
            behind,
            lines,
        };
        (sink, outbox)
    }

    /// Whether the client fell more than [`QUEUE_BYTES`] behind.
    fn behind(&self) -> bool {
        self.behind.load(Ordering::SeqCst)
    }

    /// Writes every line waiting, a message each; whether any was written, or `Err` when
    /// the socket failed.
    fn write_all(&self, socket: &mut Socket) -> Result<bool, ()> {
        let mut wrote = false;
        while let Ok(line) = self.lines.try_recv() {
            self.queued.fetch_sub(line.len(), Ordering::SeqCst);
            socket.write(Message::text(line)).map_err(|_| ())?;
            wrote = true;
        }
        Ok(wrote)
    }
}
