//! A stand-in for AbstractPlay, on the loopback address: a token endpoint and `/botQuery`
//! that behave as told (answer, fail, refuse, hang), the webhooks signed with a test key as
//! AbstractPlay signs them, and the bot itself, run as `ternion abstractplay`.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ed25519_dalek::{Signer, SigningKey};

pub const CLIENT_ID: &str = "bot-client-id";
pub const CLIENT_SECRET: &str = "bot-client-secret";
pub const SCOPE: &str = "stand-in/communicate";

/// The stand-in's signing key.
pub fn signing_key() -> SigningKey {
    SigningKey::from_bytes(&[42; 32])
}

/// How the token endpoint answers its next calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenMode {
    Issue,
    /// A token whose `expires_in` is the largest a JSON number of the reply may say.
    IssueForever,
    /// `500`, as a broken endpoint.
    Fail,
    /// `401`, as for credentials it does not know.
    Refuse,
}

/// How `/botQuery` answers its next call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryMode {
    Take,
    /// `401` whatever the token (a token revoked early).
    RefuseToken,
    /// No answer for this long.
    Hang(Duration),
    /// This status, with AbstractPlay's error body: `{"message": ...}`. The real site
    /// answers every refusal of a move 500 (`api/abstractplay.ts`).
    Status(u16, &'static str),
}

/// A move the bot posted.
#[derive(Clone, Debug)]
pub struct Posted {
    pub gameid: String,
    pub meta_game: String,
    pub mv: String,
}

#[derive(Default)]
struct State {
    /// Modes for the next calls, in order; when empty, `Issue` and `Take`.
    token_modes: VecDeque<TokenMode>,
    query_modes: VecDeque<QueryMode>,
    token_calls: u32,
    query_calls: u32,
    issued: Vec<String>,
    posted: HashMap<String, VecDeque<Posted>>,
    /// Calls whose request was not what AbstractPlay's reference client sends.
    malformed: Vec<String>,
}

/// The stand-in's endpoints.
pub struct Api {
    pub address: SocketAddr,
    state: Arc<(Mutex<State>, Condvar)>,
}

impl Api {
    pub fn start() -> Api {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let state = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let shared = Arc::clone(&state);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&shared);
                thread::spawn(move || serve_call(stream, &shared));
            }
        });
        Api { address, state }
    }

    pub fn token_url(&self) -> String {
        format!("http://{}/oauth2/token", self.address)
    }

    pub fn bot_query_url(&self) -> String {
        format!("http://{}/botQuery", self.address)
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.state.0.lock().unwrap())
    }

    pub fn next_tokens(&self, modes: &[TokenMode]) {
        self.with(|s| s.token_modes.extend(modes));
    }

    pub fn next_queries(&self, modes: &[QueryMode]) {
        self.with(|s| s.query_modes.extend(modes));
    }

    pub fn token_calls(&self) -> u32 {
        self.with(|s| s.token_calls)
    }

    pub fn query_calls(&self) -> u32 {
        self.with(|s| s.query_calls)
    }

    /// Every call that was not as AbstractPlay's reference client makes it.
    pub fn malformed(&self) -> Vec<String> {
        self.with(|s| s.malformed.clone())
    }

    /// The next move posted in `gameid`, waiting at most `limit`.
    pub fn next_move(&self, gameid: &str, limit: Duration) -> Option<Posted> {
        let deadline = Instant::now() + limit;
        let (lock, changed) = &*self.state;
        let mut state = lock.lock().unwrap();
        loop {
            if let Some(posted) = state.posted.get_mut(gameid).and_then(VecDeque::pop_front) {
                return Some(posted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            state = changed.wait_timeout(state, left).unwrap().0;
        }
    }

    /// How many moves were posted in `gameid` and not taken by [`Api::next_move`].
    pub fn unread(&self, gameid: &str) -> usize {
        self.with(|s| s.posted.get(gameid).map_or(0, VecDeque::len))
    }
}

/// Answers one call to the stand-in's endpoints.
fn serve_call(mut stream: TcpStream, shared: &(Mutex<State>, Condvar)) {
    let Some((head, body)) = read_message(&mut stream) else {
        return;
    };
    let first = head.lines().next().unwrap_or_default().to_owned();
    let header = |name: &str| {
        head.lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim().to_owned())
    };
    let (lock, changed) = shared;
    let (status, answer) = if first.starts_with("POST /oauth2/token ") {
        let mut state = lock.lock().unwrap();
        state.token_calls += 1;
        let form: HashMap<String, String> = body
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.replace("%2F", "/")))
            .collect();
        let expected = [
            ("grant_type", "client_credentials"),
            ("client_id", CLIENT_ID),
            ("client_secret", CLIENT_SECRET),
            ("scope", SCOPE),
        ];
        if expected
            .iter()
            .any(|(k, v)| form.get(*k).map(String::as_str) != Some(v))
            || !header("content-type").is_some_and(|t| t.contains("x-www-form-urlencoded"))
        {
            state.malformed.push(format!("token call: {head}{body}"));
        }
        match state.token_modes.pop_front().unwrap_or(TokenMode::Issue) {
            TokenMode::Issue => {
                let token = format!("token-{}", state.token_calls);
                state.issued.push(token.clone());
                (
                    200,
                    format!(
                        r#"{{"access_token":"{token}","expires_in":3600,"token_type":"Bearer"}}"#
                    ),
                )
            }
            TokenMode::IssueForever => {
                let token = format!("token-{}", state.token_calls);
                state.issued.push(token.clone());
                let forever = u64::MAX;
                (
                    200,
                    format!(r#"{{"access_token":"{token}","expires_in":{forever}}}"#),
                )
            }
            TokenMode::Fail => (500, r#"{"error":"internal"}"#.to_owned()),
            TokenMode::Refuse => (401, r#"{"error":"invalid_client"}"#.to_owned()),
        }
    } else if first.starts_with("POST /botQuery ") {
        let mode = {
            let mut state = lock.lock().unwrap();
            state.query_calls += 1;
            state.query_modes.pop_front().unwrap_or(QueryMode::Take)
        };
        let token = header("authorization")
            .and_then(|a| a.strip_prefix("Bearer ").map(str::to_owned))
            .unwrap_or_default();
        match mode {
            QueryMode::Hang(time) => {
                thread::sleep(time);
                return;
            }
            QueryMode::RefuseToken => (401, r#"{"message":"Unauthorized"}"#.to_owned()),
            QueryMode::Status(status, message) => (
                status,
                serde_json::json!({ "message": message }).to_string(),
            ),
            QueryMode::Take => {
                let mut state = lock.lock().unwrap();
                if !state.issued.contains(&token) {
                    (401, r#"{"message":"Unauthorized"}"#.to_owned())
                } else {
                    let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
                    let field = |name: &str| json[name].as_str().map(str::to_owned);
                    match (
                        field("verb"),
                        field("gameid"),
                        field("metaGame"),
                        field("move"),
                    ) {
                        (Some(verb), Some(gameid), Some(meta_game), Some(mv)) if verb == "move" => {
                            let posted = Posted {
                                gameid: gameid.clone(),
                                meta_game,
                                mv,
                            };
                            state.posted.entry(gameid).or_default().push_back(posted);
                            changed.notify_all();
                            (200, r#"{"game":"updated"}"#.to_owned())
                        }
                        _ => {
                            state.malformed.push(format!("botQuery: {body}"));
                            (400, r#"{"error":"bad move body"}"#.to_owned())
                        }
                    }
                }
            }
        }
    } else {
        (404, r#"{"error":"no such endpoint"}"#.to_owned())
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    );
}

/// Reads an HTTP message: its head (as text) and its body (by `Content-Length`).
fn read_message(stream: &mut TcpStream) -> Option<(String, String)> {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(key, _)| key.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((head, String::from_utf8_lossy(&body).into_owned()))
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A nonce never used before in this test process.
pub fn fresh_nonce() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "nonce-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// The signature headers of `body` as AbstractPlay signs it.
pub fn signature_headers(timestamp: u64, nonce: &str, body: &str) -> String {
    let message = format!("{timestamp}.{nonce}.{body}");
    let signature = BASE64.encode(signing_key().sign(message.as_bytes()).to_bytes());
    format!(
        "X-Signature-Timestamp: {timestamp}\r\nX-Signature-Nonce: {nonce}\r\nX-Signature: {signature}\r\n"
    )
}

/// Sends one raw request to `address` and returns the answer's status and body.
pub fn send_raw(address: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_owned());
    (status, body)
}

/// POSTs `body` to the bot with `headers` (the signature's, or others).
pub fn post(address: SocketAddr, headers: &str, body: &str) -> (u16, String) {
    let request = format!(
        "POST /bot HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    );
    send_raw(address, request.as_bytes())
}

/// POSTs `body` to the bot, signed now with a fresh nonce.
pub fn post_signed(address: SocketAddr, body: &str) -> (u16, String) {
    post(
        address,
        &signature_headers(now(), &fresh_nonce(), body),
        body,
    )
}

/// The bot, run as `ternion abstractplay` against the stand-in's `api`.
pub struct Bot {
    pub address: SocketAddr,
    child: Child,
    log: PathBuf,
}

impl Bot {
    /// Starts the bot with `extra` options beside the stand-in's addresses and key.
    pub fn start(api: &Api, extra: &[&str]) -> Bot {
        Bot::try_start(api, extra).unwrap_or_else(|log| panic!("the bot did not start: {log}"))
    }

    /// [`Bot::start`], or what the bot wrote if it did not start.
    pub fn try_start(api: &Api, extra: &[&str]) -> Result<Bot, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ternion-abstractplay-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let key = dir.join("ap-public-key.txt");
        std::fs::write(
            &key,
            BASE64.encode(signing_key().verifying_key().as_bytes()),
        )
        .unwrap();
        let log = dir.join("bot.log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_ternion"));
        command.args(["abstractplay", "--listen", "127.0.0.1:0", "--hash", "4"]);
        command.args(["--scope", SCOPE, "--bot-query-url", &api.bot_query_url()]);
        // The stand-in's token endpoint, unless `extra` names another.
        if !extra.contains(&"--token-url") {
            command.args(["--token-url", &api.token_url()]);
        }
        // The bot's memory of its turns, in its own directory unless `extra` names one.
        if !extra.contains(&"--state") {
            command.arg("--state").arg(dir.join("turns.txt"));
        }
        let mut child = command
            .arg("--public-key")
            .arg(&key)
            .args(extra)
            .env("AP_BOT_CLIENT_ID", CLIENT_ID)
            .env("AP_BOT_CLIENT_SECRET", CLIENT_SECRET)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse();
        let Ok(address) = address else {
            let _ = child.wait();
            let written = std::fs::read_to_string(&log).unwrap_or_default();
            let _ = std::fs::remove_dir_all(&dir);
            return Err(written);
        };
        Ok(Bot {
            address,
            child,
            log,
        })
    }

    /// What the bot logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits at most `limit` for the log to hold `text`.
    pub fn wait_for_log(&self, text: &str, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if self.log().contains(text) {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Sends the bot a signal (`-TERM`, `-INT`), as `systemctl stop` or Ctrl-C does.
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// The bot's exit status once it has exited by itself, waiting at most `limit`.
    pub fn exit_status(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Kills the bot at once, as a crash or a reboot would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = self.log.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
