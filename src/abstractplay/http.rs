//! The bot endpoint's side of the HTTP door (`crate::http`): a request's head within
//! [`HEAD_TIME`] and the whole within [`REQUEST_TIME`], its body read whole as its
//! `Content-Length` says (at most [`MAX_BODY`]: a longer one is refused before a byte of
//! it is read), the signature's headers each once; then one JSON answer and the connection
//! closed.

use std::net::TcpStream;
use std::time::Duration;

use super::payload::MAX_BODY;
use crate::http::{Answer, Door, Refused};

/// How long a client may take to send its whole request.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);
/// How long a client may take to send the head of its request: a webhook comes whole from
/// the reverse proxy (or from AbstractPlay) at once, and a client that trickles its head
/// holds one of the endpoint's few slots.
pub const HEAD_TIME: Duration = Duration::from_secs(2);

/// What the endpoint takes of a request.
const DOOR: Door = Door {
    max_head: 16 * 1024,
    max_body: MAX_BODY,
    head_time: HEAD_TIME,
    request_time: REQUEST_TIME,
    single_headers: &["x-signature-timestamp", "x-signature-nonce", "x-signature"],
};

/// A request as read off the connection: the door's, with the signature's parts and the
/// forwarding proxy's word taken out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RawRequest {
    pub method: String,
    pub path: String,
    pub timestamp: Option<String>,
    pub nonce: Option<String>,
    pub signature: Option<String>,
    /// `X-Forwarded-For`, as a reverse proxy sets it: for the log alone (anyone can send
    /// it; nothing is decided by it).
    pub forwarded_for: Option<String>,
    /// The body, byte for byte as sent (the signature covers it).
    pub body: Vec<u8>,
}

/// Reads one request from `stream`: its head within [`HEAD_TIME`], the whole within
/// [`REQUEST_TIME`].
pub fn read_request(stream: &mut TcpStream) -> Result<RawRequest, Refused> {
    let request = crate::http::read_request(stream, &DOOR)?;
    let header = |name: &str| request.header(name).map(str::to_owned);
    Ok(RawRequest {
        timestamp: header("x-signature-timestamp"),
        nonce: header("x-signature-nonce"),
        signature: header("x-signature"),
        forwarded_for: request
            .header("x-forwarded-for")
            .map(crate::core::printable::echo),
        method: request.method,
        path: request.path,
        body: request.body,
    })
}

/// Writes an answer of `status` with the JSON `body` and closes the connection.
pub fn respond(stream: TcpStream, status: u16, body: &str) {
    write_answer(stream, status, body, false);
}

/// Answers a `HEAD` request: the head of the answer a `GET` would get, without its body.
pub fn respond_head(stream: TcpStream, status: u16, body: &str) {
    write_answer(stream, status, body, true);
}

fn write_answer(stream: TcpStream, status: u16, body: &str, head_only: bool) {
    let answer = Answer {
        status,
        content_type: "application/json",
        body,
        headers: "",
        head_only,
        linger: None,
    };
    crate::http::respond(stream, &answer, REQUEST_TIME);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_post_is_read_with_its_signature_and_length() {
        let text = "POST /bot HTTP/1.1\r\nHost: x\r\nX-Signature-Timestamp: 17\r\n\
                    x-signature-nonce: n1\r\nX-Signature: c2ln\r\nContent-Length: 12\r\n\r\n";
        let head = crate::http::parse_head(text.as_bytes(), &DOOR)
            .unwrap()
            .unwrap();
        assert_eq!(head.request.header("x-signature-timestamp"), Some("17"));
        assert_eq!(head.request.header("x-signature-nonce"), Some("n1"));
        assert_eq!(head.body_length, 12);
        let twice = "POST / HTTP/1.1\r\nX-Signature: a\r\nX-Signature: b\r\n\r\n";
        let refused = crate::http::parse_head(twice.as_bytes(), &DOOR).unwrap_err();
        assert_eq!(refused.status, 400);
        let huge = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        let refused = crate::http::parse_head(huge.as_bytes(), &DOOR).unwrap_err();
        assert_eq!(refused.status, 413);
    }
}
