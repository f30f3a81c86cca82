//! The HTTP side of `ternion gui`: one request per connection, its head read (blocking:
//! a connection that waits for its head costs a sleeping thread, no CPU), checked,
//! answered; a WebSocket's handshake reads the head again from [`session::Replayed`].

use std::net::TcpStream;
use std::time::Duration;

use super::PageSetup;
use super::session::{self, Replayed};
use crate::games::strength;
use crate::http::{Answer, Door, Refused, Request};

/// How long a client may take to send its request head. A connection holds no slot of the
/// server while its head comes (see `serve`), so a silent one costs only a waiting thread.
pub const REQUEST_TIME: Duration = Duration::from_secs(3);
/// The page, embedded in the binary.
const PAGE: &str = include_str!("page.html");

/// What the board's server takes of a request: a head of 8 KiB at most, and the headers it
/// decides by each once.
const DOOR: Door = Door {
    max_head: 8 * 1024,
    max_body: 8 * 1024,
    head_time: REQUEST_TIME,
    request_time: REQUEST_TIME,
    single_headers: &["host", "origin", "upgrade", "sec-websocket-key"],
};

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

/// Reads the request on `stream` within [`REQUEST_TIME`]: the request (with every byte
/// read of it), or why it was refused.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, Refused> {
    crate::http::read_request(stream, &DOOR)
}

/// Answers a connection whose request could not be read.
pub fn refuse(stream: TcpStream, refused: Refused) {
    respond(stream, refused.status, "text/plain", "bad request\n");
}

/// Serves one connection whose request is `request`: the page, the WebSocket (its daemon
/// set up as `setup` says), or an error.
pub fn handle(stream: TcpStream, request: Request, port: u16, setup: &PageSetup) {
    if !host_allowed(request.header("host"), port) {
        return respond(stream, 403, "text/plain", "unknown host\n");
    }
    // HEAD asks for the headers of what GET would give.
    let head_only = request.method == "HEAD";
    if request.method != "GET" && !head_only {
        return respond(stream, 405, "text/plain", "only GET and HEAD\n");
    }
    let page = |stream, content_type, body: &str| match head_only {
        true => answer(stream, 200, content_type, body, true),
        false => respond(stream, 200, content_type, body),
    };
    match page_path(&request) {
        "/" | "/index.html" => page(stream, "text/html; charset=utf-8", PAGE),
        "/levels.json" => page(stream, "application/json", &strength::levels_json()),
        "/ws" if head_only => respond(stream, 405, "text/plain", "a WebSocket only\n"),
        "/ws" => {
            let upgrade =
                (request.header("upgrade")).is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
            if !upgrade {
                respond(stream, 426, "text/plain", "a WebSocket only\n");
            } else if request.header("sec-websocket-key").is_none() {
                respond(stream, 400, "text/plain", "no Sec-WebSocket-Key\n");
            } else if !origin_allowed(request.header("origin"), port) {
                respond(stream, 403, "text/plain", "not from this page\n");
            } else {
                // A handshake the WebSocket library refuses is answered plainly.
                if let Err(stream) = session::run(Replayed::new(request.read, stream), setup) {
                    respond(stream, 400, "text/plain", "not a WebSocket handshake\n");
                }
            }
        }
        _ => respond(stream, 404, "text/plain", "not here\n"),
    }
}

/// The page a request asks for: its path without the query (`/?x=1` is `/`).
pub fn page_path(request: &Request) -> &str {
    let path = request.path.as_str();
    path.split_once('?').map_or(path, |(path, _)| path)
}

/// Refuses a connection beyond the limit.
pub fn refuse_busy(stream: TcpStream) {
    respond(stream, 503, "text/plain", "too many connections\n");
}

/// How long the server reads what a client sent beyond its request head after an error
/// answer, in all: the answer is whole on the wire by then, and a client that trickles
/// bytes holds its connection (and its slot) no longer than this.
pub const LINGER: Duration = REQUEST_TIME;

/// The page's own headers: no sniffing, and a content policy that lets the page reach
/// only this server.
const PAGE_HEADERS: &str = "X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; img-src 'self' data:\r\n";

/// Answers with `status` and `body`, and closes; after an error, reads what the client
/// sent beyond the head for at most [`LINGER`] (closing on unread bytes would reset the
/// connection and could lose the answer).
fn respond(stream: TcpStream, status: u16, content_type: &str, body: &str) {
    answer(stream, status, content_type, body, false);
}

fn answer(stream: TcpStream, status: u16, content_type: &str, body: &str, head_only: bool) {
    // A 426 names the protocol to upgrade to, as the standard asks.
    let headers = match status {
        426 => format!("Upgrade: websocket\r\n{PAGE_HEADERS}"),
        _ => PAGE_HEADERS.to_owned(),
    };
    let answer = Answer {
        status,
        content_type,
        body,
        headers: &headers,
        head_only,
        linger: Some(LINGER),
    };
    crate::http::respond(stream, &answer, REQUEST_TIME);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::parse_head;

    #[test]
    fn a_request_head_is_read_and_checked() {
        let text = b"GET /ws?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\norigin: http://localhost:8080\r\n\r\nrest";
        let request = parse_head(text, &DOOR).unwrap().unwrap().request;
        assert_eq!(
            (request.method.as_str(), page_path(&request)),
            ("GET", "/ws")
        );
        assert!(host_allowed(request.header("host"), 8080));
        assert!(!host_allowed(request.header("host"), 8081));
        assert!(origin_allowed(request.header("origin"), 8080));
        assert!(!origin_allowed(Some("http://evil.example:8080"), 8080));
        assert!(!host_allowed(Some("evil.example:8080"), 8080));
        assert!(!host_allowed(None, 8080));
        let status = |text: &[u8]| parse_head(text, &DOOR).err().map(|e| e.status);
        assert!(matches!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n", &DOOR),
            Ok(None)
        ));
        assert_eq!(status(b"GET /\r\n\r\n"), Some(400), "no version");
        assert_eq!(status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), Some(400));
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nHost: \xff\r\n\r\n"),
            Some(400),
            "a host that is not text"
        );
        let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(
            status(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            Some(431)
        );
    }
}
