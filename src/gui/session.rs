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
use crate::protocol::options::Caps;

/// The largest message or frame a client may send.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How often the connection looks for what the daemon said while the client is silent.
const POLL: Duration = Duration::from_millis(10);
/// The most bytes of replies a connection holds for its client (a search's lines and a
/// few pictures take far less): a client that falls further behind is closed.
pub const QUEUE_BYTES: usize = 4 << 20;
/// The longest a write to the client may block.
pub const WRITE_TIME: Duration = Duration::from_secs(10);
/// What a page's daemon may take: up to 16 connections share one machine, so each gets a
/// small table and few threads (16 x 64 MiB at most, not 16 x 4 GiB).
pub const PAGE_CAPS: Caps = Caps {
    hash_mib: 64,
    threads: 2,
    open_files: false,
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

/// Completes the WebSocket handshake on `stream` and serves the protocol on it, with a
/// daemon set up as `setup` says, until the client leaves, sends `quit`, or sends nothing
/// for `setup.idle`. A handshake the WebSocket library refuses gives the stream back, to
/// be answered.
pub fn run(stream: Replayed, setup: &PageSetup) -> Result<(), TcpStream> {
    let idle = setup.idle;
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
    // The replies not yet written, in bytes, and whether the client fell too far behind.
    let queued = Arc::new(AtomicUsize::new(0));
    let behind = Arc::new(AtomicBool::new(false));
    let (said, to_send) = mpsc::channel::<String>();
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
    let mut daemon = Daemon::new(Variant::Lielow, sink)
        .with_caps(PAGE_CAPS)
        .with_tables(setup.tables.clone());
    let mut last_message = Instant::now();
    'session: loop {
        let mut wrote = false;
        while let Ok(line) = to_send.try_recv() {
            queued.fetch_sub(line.len(), Ordering::SeqCst);
            if socket.write(Message::text(line)).is_err() {
                break 'session;
            }
            wrote = true;
        }
        if behind.load(Ordering::SeqCst) {
            break;
        }
        if last_message.elapsed() >= idle {
            log::info!(
                "gui: a client sent nothing for {} s: closed",
                idle.as_secs()
            );
            let frame = CloseFrame {
                code: CloseCode::Away,
                reason: "idle".into(),
            };
            daemon.stop_for_exit();
            let _ = socket.close(Some(frame));
            let _ = socket.flush();
            return Ok(());
        }
        if wrote && socket.flush().is_err() {
            break;
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
                    } else if !daemon.handle(line) || behind.load(Ordering::SeqCst) {
                        break 'session;
                    }
                }
            }
            Ok(Message::Close(_)) => break,
            Err(Error::Capacity(error)) => {
                // Too big a message: closed with the code that says so (1009).
                let frame = CloseFrame {
                    code: CloseCode::Size,
                    reason: format!("{error}").into(),
                };
                let _ = socket.close(Some(frame));
                let _ = socket.flush();
                break;
            }
            // Pings are answered by the socket itself; binary messages mean nothing here.
            Ok(_) => {}
            Err(Error::Io(error))
                if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    daemon.stop_for_exit();
    if behind.load(Ordering::SeqCst) {
        log::info!("gui: a client fell {QUEUE_BYTES} bytes behind: closed");
        let frame = CloseFrame {
            code: CloseCode::Policy,
            reason: "too far behind in reading".into(),
        };
        let _ = socket.close(Some(frame));
        let _ = socket.flush();
        return Ok(());
    }
    // What the daemon said last (a `bestmove` after a stop) still goes out.
    while let Ok(line) = to_send.try_recv() {
        if socket.write(Message::text(line)).is_err() {
            break;
        }
    }
    let _ = socket.close(None);
    let _ = socket.flush();
    Ok(())
}
