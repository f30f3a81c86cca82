//! The bot behind the nginx site of `scripts/abstractplay/nginx-site.conf`, as the docs
//! tell to run it: AbstractPlay's webhooks come over HTTPS, nginx ends TLS and passes them
//! to the bot, whose signature checks must still hold on the bytes that arrive. And the
//! bot's own HTTPS calls refuse a server whose certificate does not verify, before its
//! secret is sent.
//!
//! Needs `nginx` and `openssl` on the PATH: left out of the default run, run by `.ci/run`
//! (`cargo test --release --test suite -- --ignored abstractplay::proxy::`), which installs nginx.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ternion::core::{Outcome, Player};
use ternion::games::lielow::Lielow8;
use ternion::games::lielow::abstractplay::from_abstractplay;
use ternion::rules::Rules;

use super::rules::abstractplay_moves;
use super::standin::{self, Api, Bot, fresh_nonce, now, signature_headers};
use super::{FAST, MOVE_WAIT, challenge, move_request};

/// nginx run in the foreground from a directory of its own, ended with the test.
struct Nginx {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // TERM, not KILL: the master ends its workers, which would outlive a killed master
        // (and hold the test's output open).
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A port free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e} (is it installed?)"));
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The documented site, with this test's port, certificate and bot address in place of
/// the examples: each must be there, or the document changed under the test.
fn site(dir: &Path, port: u16, bot: SocketAddr) -> String {
    let documented = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/abstractplay/nginx-site.conf"),
    )
    .unwrap();
    let mut site = documented;
    for (example, ours) in [
        ("listen 443 ssl;", format!("listen 127.0.0.1:{port} ssl;")),
        (
            "/etc/letsencrypt/live/bot.example.org/fullchain.pem",
            dir.join("cert.pem").display().to_string(),
        ),
        (
            "/etc/letsencrypt/live/bot.example.org/privkey.pem",
            dir.join("key.pem").display().to_string(),
        ),
        ("http://127.0.0.1:8787", format!("http://{bot}")),
    ] {
        assert!(
            site.contains(example),
            "the site no longer says {example:?}"
        );
        site = site.replace(example, &ours);
    }
    site
}

/// Starts nginx with the documented site in front of `bot`, on a certificate of its own
/// for 127.0.0.1.
fn nginx_in_front_of(bot: SocketAddr) -> Nginx {
    let dir = std::env::temp_dir().join(format!("ternion-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    run(Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        // A server's certificate, not an authority's: rustls takes no CA as an end entity.
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem")));
    let port = free_port();
    std::fs::write(dir.join("site.conf"), site(&dir, port, bot)).unwrap();
    let temp = |name: &str| dir.join(name).display().to_string();
    let main = format!(
        "daemon off;\nworker_processes 1;\npid {};\nerror_log {};\nevents {{}}\nhttp {{\n\
         access_log off;\nclient_body_temp_path {};\nproxy_temp_path {};\n\
         fastcgi_temp_path {};\nuwsgi_temp_path {};\nscgi_temp_path {};\ninclude {};\n}}\n",
        temp("nginx.pid"),
        temp("error.log"),
        temp("body"),
        temp("proxy"),
        temp("fastcgi"),
        temp("uwsgi"),
        temp("scgi"),
        temp("site.conf"),
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    let child = Command::new("nginx")
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx (is it installed?)");
    let nginx = Nginx { child, dir, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nginx did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    nginx
}

/// An HTTPS client that trusts nginx's certificate alone.
fn https_client(nginx: &Nginx) -> ureq::Agent {
    let pem = std::fs::read(nginx.dir.join("cert.pem")).unwrap();
    let certificate = ureq::tls::Certificate::from_pem(&pem).unwrap();
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(vec![certificate])))
        .build();
    ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .new_agent()
}

/// POSTs `body` over HTTPS with the signature headers in `headers`.
fn post_https(agent: &ureq::Agent, url: &str, headers: &str, body: &str) -> u16 {
    let mut request = agent.post(url).header("Content-Type", "application/json");
    for line in headers.lines() {
        let (name, value) = line.split_once(": ").unwrap();
        request = request.header(name, value.trim());
    }
    request.send(body).unwrap().status().as_u16()
}

#[test]
#[ignore = "needs nginx and openssl; run by .ci/run"]
fn behind_the_documented_nginx_the_webhooks_hold_and_a_game_is_played() {
    let api = Api::start();
    let bot = Bot::start(&api, FAST);
    let nginx = nginx_in_front_of(bot.address);
    let agent = https_client(&nginx);
    let url = format!("https://127.0.0.1:{}/", nginx.port);
    // The ping, a challenge, a forged and a replayed request, all through nginx.
    let ping = agent.get(&url).call().unwrap();
    assert_eq!(ping.status().as_u16(), 200);
    let signed = |body: &str| signature_headers(now(), &fresh_nonce(), body);
    let body = challenge("lielow", &[]);
    let headers = signed(&body);
    assert_eq!(post_https(&agent, &url, &headers, &body), 200);
    assert_eq!(post_https(&agent, &url, &headers, &body), 401, "a replay");
    let tampered = body.replace("72", "73");
    assert_eq!(post_https(&agent, &url, &signed(&body), &tampered), 401);
    // A whole game, the bot first, every webhook through nginx.
    let (mut game, mut history) = (Lielow8::start(), Vec::<String>::new());
    let mut rng = fastrand::Rng::with_seed(5);
    while game.outcome().is_none() && history.len() < 600 {
        let mv = if history.len() % 2 == 0 {
            let body = move_request("proxied", false, &history, 24);
            assert_eq!(
                post_https(&agent, &url, &signed(&body), &body),
                202,
                "{}",
                bot.log()
            );
            let posted = api.next_move("proxied", MOVE_WAIT).expect("the bot's move");
            assert!(abstractplay_moves(&game).contains(&posted.mv), "{posted:?}");
            posted.mv
        } else {
            let theirs = abstractplay_moves(&game);
            theirs[rng.usize(..theirs.len())].clone()
        };
        game.make_move(from_abstractplay(&game, &mv).unwrap());
        history.push(mv);
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(Player::P1)),
        "{history:?}"
    );

    // The log names the client nginx saw, via nginx.
    assert!(
        bot.log().contains("127.0.0.1 via 127.0.0.1:"),
        "{}",
        bot.log()
    );

    // A bot whose token endpoint's certificate does not verify (nginx's, which no public
    // authority signed) never gets as far as sending its secret.
    let token_url = format!("https://127.0.0.1:{}/oauth2/token", nginx.port);
    let doubtful = Bot::start(&api, &[FAST, &["--token-url", &token_url]].concat());
    let calls = api.token_calls();
    let (status, _) = standin::post_signed(
        doubtful.address,
        &move_request("unverified", false, &[], 24),
    );
    assert_eq!(status, 202);
    assert!(
        doubtful.wait_for_log("given up", MOVE_WAIT),
        "{}",
        doubtful.log()
    );
    let log = doubtful.log();
    assert!(log.contains("the token endpoint was not reached"), "{log}");
    assert!(log.to_lowercase().contains("certificate"), "{log}");
    assert_eq!(api.token_calls(), calls);
    assert_eq!(api.unread("unverified"), 0);
}
