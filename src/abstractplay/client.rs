//! The bot's calls to AbstractPlay: an OAuth client-credentials token, kept and reused
//! until a minute before it expires, and the moves posted to `/botQuery` with it. A `401`
//! from `/botQuery` throws the token away and tries once more with a new one, as
//! AbstractPlay's reference client does.
//!
//! The id and the secret come from the environment only (never from a file in the
//! repository or a command line that `ps` shows), and go only over HTTPS: a plain `http://`
//! address is taken for the loopback interface alone (a local stand-in, a test).

use std::io::Read;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The environment variable holding the bot's client id.
pub const CLIENT_ID_VARIABLE: &str = "AP_BOT_CLIENT_ID";
/// The environment variable holding the bot's client secret.
pub const CLIENT_SECRET_VARIABLE: &str = "AP_BOT_CLIENT_SECRET";
/// AbstractPlay's production token endpoint (its stage configuration).
pub const PRODUCTION_TOKEN_URL: &str = "https://botauth.abstractplay.com/oauth2/token";
/// AbstractPlay's production OAuth scope for bots.
pub const PRODUCTION_SCOPE: &str = "default-m2m-resource-server-zssvzy/communicate";
/// How long before its expiry a token is fetched again.
const REFRESH_EARLY: Duration = Duration::from_secs(60);
/// The most of a reply's body that is read (a token, or `/botQuery`'s game JSON).
const MAX_REPLY: u64 = 4 * 1024 * 1024;
/// How the error of a token refused for the credentials begins.
const REFUSED: &str = "the token endpoint refused the credentials";
/// The longest life a token is kept for, in seconds, whatever the token endpoint says.
const MAX_TOKEN_LIFE: u64 = 24 * 3600;
/// How much of a refusal's body goes into an error message.
const QUOTED: usize = 300;

/// The bot's client id and secret. `Debug` never shows the secret.
#[derive(Clone)]
pub struct Credentials {
    pub client_id: String,
    client_secret: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &self.client_id)
            .field("client_secret", &"<hidden>")
            .finish()
    }
}

impl Credentials {
    pub fn new(client_id: String, client_secret: String) -> Credentials {
        Credentials {
            client_id,
            client_secret,
        }
    }

    /// The id and secret from [`CLIENT_ID_VARIABLE`] and [`CLIENT_SECRET_VARIABLE`].
    pub fn from_environment() -> Result<Credentials, String> {
        let read = |name: &str| match std::env::var(name) {
            Ok(value) if !value.trim().is_empty() => Ok(value.trim().to_owned()),
            Ok(_) => Err(format!("{name} is empty")),
            Err(_) => Err(format!(
                "{name} is not set (the bot's credentials come from the environment only)"
            )),
        };
        Ok(Credentials::new(
            read(CLIENT_ID_VARIABLE)?,
            read(CLIENT_SECRET_VARIABLE)?,
        ))
    }
}

/// Where the bot's calls go.
#[derive(Clone, Debug)]
pub struct Endpoints {
    pub token_url: String,
    pub scope: String,
    pub bot_query_url: String,
}

/// Why a move was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum PostError {
    /// No token: the token endpoint failed or refused the credentials.
    Token(String),
    /// `/botQuery` answered with this status and body.
    Refused { status: u16, body: String },
    /// The call did not complete (no connection, a timeout, a broken reply).
    Network(String),
}

impl PostError {
    /// Whether trying the same call again later may succeed: a network failure, a token
    /// not had, too many calls (429) or a gateway that failed (502, 503, 504). Not a 500:
    /// AbstractPlay answers every refusal of a move with 500 and a message ("not your
    /// turn", "Unable to apply move"; `api/abstractplay.ts`), and a late retry could land
    /// on a new position.
    pub fn is_transient(&self) -> bool {
        match self {
            PostError::Network(_) | PostError::Token(_) => true,
            PostError::Refused { status, .. } => matches!(status, 429 | 502..=504),
        }
    }
}

impl std::fmt::Display for PostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PostError::Token(why) => write!(f, "no token: {why}"),
            PostError::Refused { status, body } => match message_of(body) {
                Some(message) => write!(f, "/botQuery answered {status}: {}", quoted(&message)),
                None => write!(f, "/botQuery answered {status}: {}", quoted(body)),
            },
            PostError::Network(why) => write!(f, "/botQuery not reached: {why}"),
        }
    }
}

/// The `message` of an AbstractPlay error body (`{"message": "..."}`), if it has one.
fn message_of(body: &str) -> Option<String> {
    let json: serde_json::Value = serde_json::from_str(body).ok()?;
    json.get("message")?.as_str().map(str::to_owned)
}

/// A token and when to stop using it.
struct Token {
    value: String,
    refresh_at: Instant,
}

/// The bot's client of AbstractPlay. Shared by every worker: one token for all.
pub struct Client {
    agent: ureq::Agent,
    endpoints: Endpoints,
    credentials: Credentials,
    token: Mutex<Option<Token>>,
}

impl Client {
    /// A client whose every call gives up after `timeout`; refuses an address that would
    /// send the secret unencrypted over a network.
    pub fn new(
        endpoints: Endpoints,
        credentials: Credentials,
        timeout: Duration,
    ) -> Result<Client, String> {
        check_address(&endpoints.token_url)?;
        check_address(&endpoints.bot_query_url)?;
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            // Statuses are answers to read, not errors: a 401 is handled, a 400 logged.
            .http_status_as_error(false)
            .user_agent(concat!("ternion/", env!("CARGO_PKG_VERSION")))
            .build()
            .new_agent();
        Ok(Client {
            agent,
            endpoints,
            credentials,
            token: Mutex::new(None),
        })
    }

    /// Posts `mv` in game `gameid` of `meta_game`; `Ok` is `/botQuery`'s `200`.
    pub fn post_move(&self, gameid: &str, meta_game: &str, mv: &str) -> Result<(), PostError> {
        let body = serde_json::json!({
            "verb": "move",
            "gameid": gameid,
            "metaGame": meta_game,
            "move": mv,
        })
        .to_string();
        let token = self.token(None).map_err(PostError::Token)?;
        match self.post_query(&token, &body)? {
            (401, _) => {
                log::info!("/botQuery refused the token (401): fetching a new one");
                let token = self.token(Some(&token)).map_err(PostError::Token)?;
                match self.post_query(&token, &body)? {
                    (200..=299, _) => Ok(()),
                    (status, body) => Err(PostError::Refused { status, body }),
                }
            }
            (200..=299, _) => Ok(()),
            (status, body) => Err(PostError::Refused { status, body }),
        }
    }

    /// One `/botQuery` call: its status and body.
    fn post_query(&self, token: &str, body: &str) -> Result<(u16, String), PostError> {
        let response = self
            .agent
            .post(&self.endpoints.bot_query_url)
            .header("Authorization", format!("Bearer {token}"))
            .header("Content-Type", "application/json")
            .send(body)
            .map_err(|e| PostError::Network(e.to_string()))?;
        read_reply(response).map_err(PostError::Network)
    }

    /// The token to use: the kept one while it is fresh and is not `stale`, else a new one.
    /// The lock is held while a token is fetched, so that workers wanting one at the same
    /// moment ask the token endpoint once.
    fn token(&self, stale: Option<&str>) -> Result<String, String> {
        let mut kept = self.token.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(token) = kept.as_ref()
            && Instant::now() < token.refresh_at
            && stale != Some(token.value.as_str())
        {
            return Ok(token.value.clone());
        }
        *kept = None;
        let fetched = self.fetch_token()?;
        let value = fetched.value.clone();
        *kept = Some(fetched);
        Ok(value)
    }

    /// Fetches the first token, so that credentials the token endpoint refuses (a 4xx)
    /// stop the bot at its start, not at its first move; an endpoint that cannot be
    /// reached or fails now is only logged, and asked again at the first move.
    pub fn check_credentials(&self) -> Result<(), String> {
        match self.token(None) {
            Ok(_) => Ok(()),
            Err(why) if why.starts_with(REFUSED) => Err(why),
            Err(why) => {
                log::warn!("no token at the start ({why}): asked again at the first move");
                Ok(())
            }
        }
    }

    /// A new token from the token endpoint.
    fn fetch_token(&self) -> Result<Token, String> {
        let asked = Instant::now();
        let response = self
            .agent
            .post(&self.endpoints.token_url)
            .send_form([
                ("grant_type", "client_credentials"),
                ("client_id", self.credentials.client_id.as_str()),
                ("client_secret", self.credentials.client_secret.as_str()),
                ("scope", self.endpoints.scope.as_str()),
            ])
            .map_err(|e| format!("the token endpoint was not reached: {e}"))?;
        let (status, body) = read_reply(response)?;
        if (400..=499).contains(&status) {
            return Err(format!("{REFUSED} ({status}): {}", quoted(&body)));
        }
        if !(200..=299).contains(&status) {
            return Err(format!(
                "the token endpoint answered {status}: {}",
                quoted(&body)
            ));
        }
        let reply: TokenReply = serde_json::from_str(&body)
            .map_err(|e| format!("the token endpoint's answer is not a token: {e}"))?;
        if reply.access_token.is_empty() {
            return Err("the token endpoint's answer holds no access_token".to_owned());
        }
        // As the reference client: at least a minute of life, a minute kept in hand; and at
        // most a day, whatever the endpoint says (a life of 2^64 - 1 s is no instant).
        let life = Duration::from_secs(reply.expires_in.unwrap_or(3600).clamp(60, MAX_TOKEN_LIFE));
        log::info!(
            "token: fetched, valid {} s, used until a minute before that",
            life.as_secs()
        );
        Ok(Token {
            value: reply.access_token,
            refresh_at: asked + life - REFRESH_EARLY,
        })
    }
}

/// What the token endpoint answers.
#[derive(serde::Deserialize)]
struct TokenReply {
    access_token: String,
    expires_in: Option<u64>,
}

/// A reply's status and body (at most [`MAX_REPLY`] bytes of it).
fn read_reply(response: ureq::http::Response<ureq::Body>) -> Result<(u16, String), String> {
    let status = response.status().as_u16();
    let mut body = String::new();
    response
        .into_body()
        .into_reader()
        .take(MAX_REPLY)
        .read_to_string(&mut body)
        .map_err(|e| format!("the answer could not be read: {e}"))?;
    Ok((status, body))
}

/// `text` cut to its first [`QUOTED`] characters, control characters shown as `?`.
fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(QUOTED).collect();
    crate::core::printable::visible(cut.trim())
}

/// Refuses an address that is neither `https://` nor plain `http://` to the loopback
/// interface.
fn check_address(url: &str) -> Result<(), String> {
    if let Some(rest) = url.strip_prefix("https://") {
        return match rest.is_empty() {
            true => Err(format!("{url}: no host")),
            false => Ok(()),
        };
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(format!("{url}: not an https:// address"));
    };
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => authority
            .rsplit_once(':')
            .map_or(authority, |(host, _)| host),
    };
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match loopback {
        true => Ok(()),
        false => Err(format!(
            "{url}: plain http is taken only to the loopback address; the secret would cross \
             the network unencrypted"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_goes_only_over_https_or_to_this_machine() {
        for ok in [
            "https://botauth.abstractplay.com/oauth2/token",
            "http://127.0.0.1:9000/token",
            "http://localhost:80/botQuery",
            "http://[::1]:8080/x",
            "http://127.5.6.7/",
        ] {
            assert_eq!(check_address(ok), Ok(()), "{ok}");
        }
        for refused in [
            "http://example.com/token",
            "http://127.0.0.1.example.com/token",
            "http://10.0.0.1:80/",
            "ftp://127.0.0.1/",
            "https://",
            "botauth.abstractplay.com",
        ] {
            assert!(check_address(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn the_secret_is_never_shown() {
        let credentials = Credentials::new("bot-id".into(), "s3cr3t".into());
        let shown = format!("{credentials:?}");
        assert!(
            shown.contains("bot-id") && !shown.contains("s3cr3t"),
            "{shown}"
        );
    }

    #[test]
    fn only_failures_that_may_pass_are_tried_again() {
        assert!(PostError::Network("timed out".into()).is_transient());
        assert!(PostError::Token("the token endpoint answered 500".into()).is_transient());
        let refused = |status| PostError::Refused {
            status,
            body: r#"{"message":"not your turn"}"#.into(),
        };
        for status in [429, 502, 503, 504] {
            assert!(refused(status).is_transient(), "{status}");
        }
        // AbstractPlay's refusals of a move are 500s: never tried again.
        for status in [400, 403, 404, 409, 500, 501] {
            assert!(!refused(status).is_transient(), "{status}");
        }
        assert_eq!(
            refused(500).to_string(),
            "/botQuery answered 500: not your turn"
        );
    }
}
