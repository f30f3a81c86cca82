//! The HTTP side of `ternion gui`: one request per connection, its head read (blocking:
//! a connection that waits for its head costs a sleeping thread, no CPU), checked,
//! answered; a WebSocket's handshake reads the head again from [`session::Replayed`].

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::PageSetup;
use super::session::{self, Replayed};
use crate::games::{Variant, strength};

/// The longest request head read; a longer one is refused.
const MAX_REQUEST: usize = 8 * 1024;
/// How long a client may take to send its request head. A connection holds no slot of the
/// server while its head comes (see `serve`), so a silent one costs only a waiting thread.
pub const REQUEST_TIME: Duration = Duration::from_secs(3);
/// The page, embedded in the binary.
const PAGE: &str = include_str!("page.html");

/// What the server reads of a request.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub host: Option<String>,
    pub origin: Option<String>,
    pub upgrade: Option<String>,
    /// `Sec-WebSocket-Key`, which a WebSocket handshake must carry.
    pub websocket_key: Option<String>,
}

/// How many headers a request may carry.
const MAX_HEADERS: usize = 64;

/// What the bytes of a request so far are.
#[derive(Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A whole request head.
    Complete(Request),
    /// A head not yet whole: wait for more.
    Partial,
    /// Not an HTTP/1 request head, with the status that says why (400, or 431 for too many
    /// headers).
    Invalid(u16),
}

/// Reads the head of an HTTP request (the request line and the headers, up to the blank
/// line) with `httparse`, the parser tungstenite's handshake uses.
pub fn parse_request(bytes: &[u8]) -> Parsed {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(bytes) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => return Parsed::Invalid(431),
        Err(_) => return Parsed::Invalid(400),
    };
    let (Some(method), Some(path)) = (parsed.method, parsed.path) else {
        return Parsed::Invalid(400);
    };
    // The page is the path without its query (`/?x=1` is `/`).
    let path = path.split_once('?').map_or(path, |(path, _)| path);
    let mut request = Request {
        method: method.to_owned(),
        path: path.to_owned(),
        ..Request::default()
    };
    for header in parsed.headers.iter() {
        let slot = match header.name.to_ascii_lowercase().as_str() {
            "host" => &mut request.host,
            "origin" => &mut request.origin,
            "upgrade" => &mut request.upgrade,
            "sec-websocket-key" => &mut request.websocket_key,
            _ => continue,
        };
        // A header the server decides by must be there once: with two `Host` headers,
        // which one a proxy or a browser meant is anybody's guess.
        if slot.is_some() {
            return Parsed::Invalid(400);
        }
        match std::str::from_utf8(header.value) {
            Ok(value) => *slot = Some(value.trim().to_owned()),
            Err(_) => return Parsed::Invalid(400),
        }
    }
    Parsed::Complete(request)
}

/// Whether a `Host` header names this server (and not some other name that resolves to
/// the loopback address).
pub fn host_allowed(host: Option<&str>, port: u16) -> bool {
    // Host names are case-insensitive (`LocalHost:8080` is this server too).
    host.is_some_and(|h| {
        h == format!("127.0.0.1:{port}") || h.eq_ignore_ascii_case(&format!("localhost:{port}"))
    })
}

/// Whether an `Origin` header is this server's own page.
pub fn origin_allowed(origin: Option<&str>, port: u16) -> bool {
    origin.is_some_and(|o| {
        o == format!("http://127.0.0.1:{port}") || o == format!("http://localhost:{port}")
    })
}

/// Reads the request on `stream` until its head has come, within [`REQUEST_TIME`]: the
/// request and every byte read (the head and what followed it), or the status to answer.
/// Each read blocks until bytes come: the wait costs no CPU.
pub fn read_request(stream: &mut TcpStream) -> Result<(Request, Vec<u8>), u16> {
    let deadline = Instant::now() + REQUEST_TIME;
    let mut bytes = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(408);
        }
        let read = match stream.read(&mut chunk) {
            Ok(0) => return Err(400),
            Ok(read) => read,
            Err(_) => return Err(408),
        };
        bytes.extend_from_slice(&chunk[..read]);
        match parse_request(&bytes) {
            Parsed::Complete(request) => return Ok((request, bytes)),
            Parsed::Invalid(status) => return Err(status),
            Parsed::Partial if bytes.len() >= MAX_REQUEST => return Err(431),
            Parsed::Partial => {}
        }
    }
}

/// Answers a connection whose request head could not be read with `status`.
pub fn refuse(stream: TcpStream, status: u16) {
    respond(stream, status, "text/plain", "bad request\n");
}

/// Serves one connection whose request head is `request`, `read` being every byte read
/// of it so far: the page, the WebSocket (its daemon set up as `setup` says), or an error.
pub fn handle(stream: TcpStream, request: &Request, read: Vec<u8>, port: u16, setup: &PageSetup) {
    if !host_allowed(request.host.as_deref(), port) {
        return respond(stream, 403, "text/plain", "unknown host\n");
    }
    // HEAD asks for the headers of what GET would give.
    let head_only = request.method == "HEAD";
    if request.method != "GET" && !head_only {
        return respond(stream, 405, "text/plain", "only GET and HEAD\n");
    }
    let page = |stream, content_type, body: &str| match head_only {
        true => respond_head(stream, 200, content_type, body.len()),
        false => respond(stream, 200, content_type, body),
    };
    match request.path.as_str() {
        "/" | "/index.html" => page(stream, "text/html; charset=utf-8", PAGE),
        "/levels.json" => page(stream, "application/json", &levels_json()),
        "/ws" if head_only => respond(stream, 405, "text/plain", "a WebSocket only\n"),
        "/ws" => {
            let upgrade = request
                .upgrade
                .as_deref()
                .is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
            if !upgrade {
                respond(stream, 426, "text/plain", "a WebSocket only\n");
            } else if request.websocket_key.is_none() {
                respond(stream, 400, "text/plain", "no Sec-WebSocket-Key\n");
            } else if !origin_allowed(request.origin.as_deref(), port) {
                respond(stream, 403, "text/plain", "not from this page\n");
            } else {
                // A handshake the WebSocket library refuses is answered plainly.
                if let Err(stream) = session::run(Replayed::new(read, stream), setup) {
                    respond(stream, 400, "text/plain", "not a WebSocket handshake\n");
                }
            }
        }
        _ => respond(stream, 404, "text/plain", "not here\n"),
    }
}

/// The measured Elo of every skill level of every variant, for the page's strength list:
/// `{"lielow":[e0,...,e20],...}`.
pub fn levels_json() -> String {
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|&variant| {
            let elo: Vec<String> = (strength::level_elo(variant).iter())
                .map(u32::to_string)
                .collect();
            format!("\"{variant}\":[{}]", elo.join(","))
        })
        .collect();
    format!("{{{}}}", variants.join(","))
}

/// Refuses a connection beyond the limit.
pub fn refuse_busy(stream: TcpStream) {
    respond(stream, 503, "text/plain", "too many connections\n");
}

/// Answers HEAD with the headers of `status` and a body of `length` bytes, and closes.
fn respond_head(mut stream: TcpStream, status: u16, content_type: &str, length: usize) {
    let head = headers(status, content_type, length);
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.flush();
}

/// How long the server reads what a client sent beyond its request head after an error
/// answer, in all: the answer is whole on the wire by then, and a client that trickles
/// bytes holds its connection (and its slot) no longer than this.
pub const LINGER: Duration = REQUEST_TIME;

/// Answers with `status` and `body`, and closes. After an error the server half-closes
/// and reads what the client sent beyond the head, for at most [`LINGER`] in all and at
/// most 16 heads' bytes: closing on unread bytes would reset the connection and could lose
/// the answer, and a client that never stops sending is cut all the same.
fn respond(mut stream: TcpStream, status: u16, content_type: &str, body: &str) {
    let response = headers(status, content_type, body.len()) + body;
    let _ = stream.write_all(response.as_bytes());
    let _ = stream.flush();
    if status != 200 {
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let until = Instant::now() + LINGER;
        let mut drained = [0u8; 4096];
        let mut total = 0;
        while total < 16 * MAX_REQUEST {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match stream.read(&mut drained) {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    }
}

/// The status line and headers of an answer with a body of `length` bytes.
fn headers(status: u16, content_type: &str, length: usize) -> String {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        426 => "Upgrade Required",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    // A 426 names the protocol to upgrade to, as the standard asks.
    let upgrade = if status == 426 {
        "Upgrade: websocket\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {status} {reason}\r\n{upgrade}Content-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; img-src 'self' data:\r\nConnection: close\r\n\r\n",
        length
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_head_is_read_and_checked() {
        let text = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\norigin: http://localhost:8080\r\n\r\nrest";
        let Parsed::Complete(request) = parse_request(text) else {
            panic!("a whole head");
        };
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("GET", "/ws")
        );
        assert!(host_allowed(request.host.as_deref(), 8080));
        assert!(!host_allowed(request.host.as_deref(), 8081));
        assert!(origin_allowed(request.origin.as_deref(), 8080));
        assert!(!origin_allowed(Some("http://evil.example:8080"), 8080));
        assert!(!host_allowed(Some("evil.example:8080"), 8080));
        assert!(!host_allowed(None, 8080));
        assert_eq!(
            parse_request(b"GET / HTTP/1.1\r\nHost: x\r\n"),
            Parsed::Partial,
            "no blank line yet"
        );
        assert_eq!(
            parse_request(b"GET /\r\n\r\n"),
            Parsed::Invalid(400),
            "no version"
        );
        assert_eq!(
            parse_request(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"),
            Parsed::Invalid(400)
        );
        assert_eq!(
            parse_request(b"GET / HTTP/1.1\r\nHost: \xff\r\n\r\n"),
            Parsed::Invalid(400),
            "a host that is not text"
        );
        let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(
            parse_request(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            Parsed::Invalid(431)
        );
    }
}
