//! The answer to one request at the bot's endpoint, before any network code: a ping, a
//! challenge taken or declined at once, a move request queued for the background, or a
//! refusal with its reason. Every `POST` is verified before its body is parsed.
//!
//! | request | answer |
//! |---|---|
//! | `GET` (AbstractPlay's ping) | `200 {"operational": true}` |
//! | `POST` whose signature, age or nonce fails | `401`, nothing changes |
//! | `POST` that is no webhook | `400` |
//! | challenge to `lielow` (8x8 or `size-9`) | `200`: taken |
//! | any other challenge | `400`: declined |
//! | move request whose game replays | `202`: queued, the move comes later |
//! | move request of another game, or whose history does not replay | `400`, logged |
//! | any other method | `405` |

use super::payload::{Challenge, MoveRequest, Rebuilt, Webhook, variant_of};
use super::verify::{SignatureHeaders, Verifier};
use crate::core::printable::echo;

/// One request as the server read it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub method: &'a str,
    pub headers: SignatureHeaders<'a>,
    /// The raw body, as signed.
    pub body: &'a [u8],
}

/// What the endpoint answers, and what the server does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The ping: the bot is up.
    Operational,
    /// A challenge taken.
    Accepted(Box<Challenge>),
    /// A challenge declined, with why.
    Declined(String),
    /// A move to find in the background: the request and its game, rebuilt.
    Queued(Box<MoveRequest>, Rebuilt),
    /// A request whose signature does not hold, with why.
    Unauthorized(String),
    /// A request that is not a webhook ternion can act on, with why.
    BadRequest(String),
    /// A method the endpoint does not take.
    MethodNotAllowed,
}

impl Reply {
    /// The HTTP status of the answer.
    pub fn status(&self) -> u16 {
        match self {
            Reply::Operational | Reply::Accepted(_) => 200,
            Reply::Queued(..) => 202,
            Reply::Declined(_) | Reply::BadRequest(_) => 400,
            Reply::Unauthorized(_) => 401,
            Reply::MethodNotAllowed => 405,
        }
    }

    /// The JSON body of the answer.
    pub fn body(&self) -> String {
        let reason = |why: &str| serde_json::json!({ "error": why }).to_string();
        match self {
            Reply::Operational => r#"{"operational":true}"#.to_owned(),
            Reply::Accepted(_) => r#"{"accepted":true}"#.to_owned(),
            Reply::Queued(..) => r#"{"queued":true}"#.to_owned(),
            Reply::Declined(why) | Reply::Unauthorized(why) | Reply::BadRequest(why) => reason(why),
            Reply::MethodNotAllowed => reason("GET or POST only"),
        }
    }
}

/// The answer to `request` at `now` (Unix seconds).
pub fn answer(verifier: &Verifier, request: Request<'_>, now: u64) -> Reply {
    match request.method {
        "GET" | "HEAD" => return Reply::Operational,
        "POST" => {}
        _ => return Reply::MethodNotAllowed,
    }
    if let Err(refusal) = verifier.verify(request.headers, request.body, now) {
        return Reply::Unauthorized(refusal.to_string());
    }
    match Webhook::parse(request.body) {
        Err(why) => Reply::BadRequest(why),
        Ok(Webhook::Challenge(challenge)) => {
            match variant_of(&challenge.meta_game, &challenge.variants) {
                Some(_) => Reply::Accepted(Box::new(challenge)),
                None => Reply::Declined(format!(
                    "ternion plays lielow (8x8, or size-9), not '{}' {:?}",
                    echo(&challenge.meta_game),
                    challenge
                        .variants
                        .iter()
                        .map(|v| echo(v))
                        .collect::<Vec<_>>()
                )),
            }
        }
        Ok(Webhook::Move(request)) => match request.rebuild() {
            Ok(game) => Reply::Queued(Box::new(request), game),
            Err(why) => Reply::BadRequest(format!("game '{}': {why}", echo(&request.gameid))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as BASE64;
    use ed25519_dalek::{Signer, SigningKey};

    const NOW: u64 = 1_800_000_000;

    /// `body` posted as AbstractPlay posts it, signed by `key` with `nonce`.
    fn posted(key: &SigningKey, nonce: &str, body: &[u8], check: impl FnOnce(Request<'_>)) {
        let timestamp = NOW.to_string();
        let mut message = format!("{timestamp}.{nonce}.").into_bytes();
        message.extend_from_slice(body);
        let signature = BASE64.encode(key.sign(&message).to_bytes());
        check(Request {
            method: "POST",
            headers: SignatureHeaders {
                timestamp: Some(&timestamp),
                nonce: Some(nonce),
                signature: Some(&signature),
            },
            body,
        });
    }

    #[test]
    fn each_request_gets_its_answer() {
        let key = SigningKey::from_bytes(&[9; 32]);
        let verifier = Verifier::new(key.verifying_key());
        let unsigned = SignatureHeaders {
            timestamp: None,
            nonce: None,
            signature: None,
        };
        let get = Request {
            method: "GET",
            headers: unsigned,
            body: b"",
        };
        assert_eq!(
            answer(&verifier, get, NOW).body(),
            r#"{"operational":true}"#
        );
        let put = Request {
            method: "PUT",
            ..get
        };
        assert_eq!(answer(&verifier, put, NOW).status(), 405);
        // An unsigned POST is refused before its body is parsed (this one is no JSON).
        let post = Request {
            method: "POST",
            body: b"{{{",
            ..get
        };
        assert_eq!(answer(&verifier, post, NOW).status(), 401);
        let cases: [(&[u8], u16); 6] = [
            (br#"{"verb":"challenge","metaGame":"lielow","variants":[]}"#, 200),
            (br#"{"verb":"challenge","metaGame":"lielow","variants":["size-9"]}"#, 200),
            (br#"{"verb":"challenge","metaGame":"abande","variants":[]}"#, 400),
            (br#"{"verb":"move","metaGame":"lielow","gameid":"g","clockCurr":2,"moves":[["a2-a3"]]}"#, 202),
            (br#"{"verb":"move","metaGame":"lielow","gameid":"g","clockCurr":2,"moves":[["a2-a4"]]}"#, 400),
            (b"not json", 400),
        ];
        for (index, (body, status)) in cases.into_iter().enumerate() {
            posted(&key, &format!("n{index}"), body, |request| {
                let reply = answer(&verifier, request, NOW);
                assert_eq!(
                    reply.status(),
                    status,
                    "{}: {reply:?}",
                    String::from_utf8_lossy(body)
                );
                // The same request again is a replay.
                assert_eq!(answer(&verifier, request, NOW).status(), 401);
            });
        }
        // The queued move carries its game, rebuilt.
        posted(
            &key,
            "queued",
            br#"{"verb":"move","metaGame":"lielow","variants":["size-9"],"gameid":"g9","clockCurr":1,"moves":[]}"#,
            |request| match answer(&verifier, request, NOW) {
                Reply::Queued(request, game) => {
                    assert_eq!(request.gameid, "g9");
                    assert_eq!(game.variant, crate::games::Variant::Lielow9);
                    assert!(game.moves.is_empty());
                }
                other => panic!("{other:?}"),
            },
        );
    }
}
