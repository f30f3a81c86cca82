//! `ternion gui` from the outside: the page, the checks on where a request comes from, and
//! a short game over the protocol WebSocket.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ternion::games::{Variant, strength};
use ternion::gui::{
    self,
    session::{self, QUEUE_BYTES},
};
use ternion::protocol::options::DEFAULT_HASH_MIB;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The server's stated bound on memory with four clients that never read: each
/// connection's daemon with its table, its queue full and its socket's write buffer full,
/// and the server itself (before the queue was bounded, four such clients took 553 MiB).
const MEMORY_BOUND_MIB: u64 = 32 + 4 * (DEFAULT_HASH_MIB + 2 * (QUEUE_BYTES as u64 >> 20));

/// The server's stated bound on memory with every page open: the server, each page's
/// table at the default, the pages' shared pool above it, and each page's replies queued
/// and in its socket's buffer.
const PAGES_BOUND_MIB: u64 = 32
    + gui::MAX_CONNECTIONS as u64 * (DEFAULT_HASH_MIB + 2 * (QUEUE_BYTES as u64 >> 20))
    + session::PAGES_HASH_POOL_MIB;

/// The server as a child process, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    start_with(&[])
}

/// The server with these further arguments.
fn start_with(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(["gui", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .trim_start_matches("http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|_| panic!("an address, not {line:?}"));
    Server { child, port }
}

/// A plain HTTP request with these headers; returns the whole response.
fn get(port: u16, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\n{headers}\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn connect(port: u16, origin: &str) -> Result<WebSocket<MaybeTlsStream<TcpStream>>, String> {
    let mut request = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Origin", origin.parse().unwrap());
    tungstenite::connect(request)
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// Every message up to and including the first that starts with `prefix`.
fn until(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, prefix: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut lines = Vec::new();
    while Instant::now() < deadline {
        match socket.read().expect("the server answers") {
            Message::Text(text) => {
                let done = text.starts_with(prefix);
                lines.push(text.to_string());
                if done {
                    return lines;
                }
            }
            _ => continue,
        }
    }
    panic!("no {prefix} within 30 s: {lines:?}");
}

#[test]
fn the_page_is_served_to_this_host_only() {
    let server = start();
    let port = server.port;
    let page = get(port, "/", &format!("Host: 127.0.0.1:{port}\r\n"));
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    assert!(page.contains("<title>ternion</title>"));
    assert!(page.contains("ws://${location.host}/ws"));
    // Another name for the loopback address (DNS rebinding), or none at all.
    for headers in ["Host: evil.example\r\n".to_owned(), String::new()] {
        let refused = get(port, "/", &headers);
        assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    }
    let missing = get(port, "/secret", &format!("Host: localhost:{port}\r\n"));
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    let huge = get(
        port,
        "/",
        &format!("Host: 127.0.0.1:{port}\r\nX: {}\r\n", "a".repeat(20_000)),
    );
    assert!(huge.starts_with("HTTP/1.1 431"), "{huge}");
}

#[test]
fn the_levels_elo_are_served_for_the_strength_list() {
    let server = start();
    let port = server.port;
    let response = get(port, "/levels.json", &format!("Host: 127.0.0.1:{port}\r\n"));
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    let body = response.split("\r\n\r\n").nth(1).expect("a body");
    for variant in Variant::ALL {
        let table = strength::level_elo(variant);
        let elo: Vec<String> = table.iter().map(u32::to_string).collect();
        let entry = format!("\"{variant}\":[{}]", elo.join(","));
        assert!(body.contains(&entry), "{entry} in {body}");
    }
}

#[test]
fn a_socket_from_another_origin_is_refused() {
    let server = start();
    let error = connect(server.port, "http://evil.example").unwrap_err();
    assert!(error.contains("403"), "{error}");
}

/// A socket from the server's own page, after `ugi`: the socket, the origin and the
/// handshake's lines.
fn page_socket(server: &Server) -> (WebSocket<MaybeTlsStream<TcpStream>>, String, Vec<String>) {
    let origin = format!("http://127.0.0.1:{}", server.port);
    let mut socket = connect(server.port, &origin).unwrap();
    socket.send(Message::text("ugi")).unwrap();
    let handshake = until(&mut socket, "ugiok");
    (socket, origin, handshake)
}

#[test]
fn a_short_game_over_the_socket() {
    let server = start();
    let (mut socket, origin, handshake) = page_socket(&server);
    assert!(
        handshake
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant"))
    );
    // Several lines in one message, as a page may send them.
    socket
        .send(Message::text(
            "setoption name UCI_Variant value egaraguti\nposition startpos moves e3e4 e5e3\nquery legalmoves",
        ))
        .unwrap();
    assert_eq!(
        until(&mut socket, "response").last().unwrap(),
        "response e2e4"
    );
    socket.send(Message::text("go depth 3")).unwrap();
    assert_eq!(
        until(&mut socket, "bestmove").last().unwrap(),
        "bestmove e2e4"
    );
    socket.send(Message::text("query svg")).unwrap();
    let picture = until(&mut socket, "response").pop().unwrap();
    assert!(picture.starts_with("response <?xml"), "{picture}");
    assert!(picture.contains("id=\"man-e3\"") && !picture.contains('\n'));
    // A second connection has a daemon of its own.
    let mut other = connect(server.port, &origin).unwrap();
    other.send(Message::text("query variant")).unwrap();
    assert_eq!(
        until(&mut other, "response").last().unwrap(),
        "response lielow"
    );
    // A message over the cap ends that connection, with the code that says so (1009), not
    // the server.
    let _ = other.send(Message::text("x".repeat(100_000)));
    let mut code = None;
    for _ in 0..100 {
        match other.read() {
            Ok(Message::Close(frame)) => {
                code = frame.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    assert_eq!(
        code,
        Some(1009),
        "the oversized message closed the socket as too big"
    );
    socket.send(Message::text("query variant")).unwrap();
    assert_eq!(
        until(&mut socket, "response").last().unwrap(),
        "response egaraguti"
    );
    // `quit` ends the session.
    socket.send(Message::text("quit")).unwrap();
    let closed = (0..100).any(|_| matches!(socket.read(), Err(_) | Ok(Message::Close(_))));
    assert!(closed);
}

/// The CPU time the server has used so far, in clock ticks (user and system).
fn cpu_ticks(server: &Server) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", server.child.id())).unwrap();
    // The fields after the command's closing parenthesis; utime and stime are the 12th
    // and 13th of them.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn silent_connections_keep_nobody_out_and_cost_nothing() {
    let server = start();
    let port = server.port;
    // More silent sockets than the server keeps waiting: the oldest make room.
    let silent: Vec<TcpStream> = (0..gui::MAX_WAITING + 40)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let page = get(port, "/", &format!("Host: 127.0.0.1:{port}\r\n"));
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    // Waiting costs no CPU: each waiting thread sleeps in a read (polling every 5 ms, 250
    // of them once took 1.6 s of CPU in 3.6 s).
    let before = cpu_ticks(&server);
    std::thread::sleep(Duration::from_secs(2));
    let spent = cpu_ticks(&server) - before;
    assert!(spent < 20, "{spent} ticks of CPU in 2 s of waiting");
    drop(silent);
}

#[test]
fn an_idle_socket_is_closed_and_frees_its_place() {
    let server = start_with(&["--idle", "1"]);
    let (mut socket, _, _) = page_socket(&server);
    let deadline = Instant::now() + Duration::from_secs(20);
    let closed = loop {
        match socket.read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) if Instant::now() < deadline => {}
            Ok(_) => break false,
        }
    };
    assert!(closed, "an idle socket stays open");
    // A socket that talks stays.
    let (mut talking, _, _) = page_socket(&server);
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(400));
        talking.send(Message::text("query variant")).unwrap();
        assert_eq!(
            until(&mut talking, "response").last().unwrap(),
            "response lielow"
        );
    }
}

#[test]
fn requests_the_server_cannot_trust_or_serve_are_answered_plainly() {
    let server = start();
    let port = server.port;
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    // Two Host headers: which one was meant is anybody's guess.
    let twice = get(port, "/", &format!("Host: evil.example\r\n{host}"));
    assert!(twice.starts_with("HTTP/1.1 400"), "{twice}");
    // /ws without a WebSocket upgrade, and an upgrade without its key.
    let plain = get(port, "/ws", &host);
    assert!(plain.starts_with("HTTP/1.1 426"), "{plain}");
    assert!(plain.contains("\r\nUpgrade: websocket\r\n"), "{plain}");
    let origin = format!("Origin: http://127.0.0.1:{port}\r\n");
    let keyless = get(
        port,
        "/ws",
        &format!("{host}{origin}Upgrade: websocket\r\nConnection: Upgrade\r\n"),
    );
    assert!(keyless.starts_with("HTTP/1.1 400"), "{keyless}");
    // A query string is still the page.
    let page = get(port, "/?x=1", &host);
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    // A handshake that the WebSocket library refuses (no version) is answered too.
    let versionless = get(
        port,
        "/ws",
        &format!(
            "{host}{origin}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        ),
    );
    assert!(versionless.starts_with("HTTP/1.1 400"), "{versionless}");
}

/// A plain HTTP request of any method; returns the whole response.
fn request(port: u16, method: &str, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "{method} {path} HTTP/1.1\r\n{headers}\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn head_asks_for_the_headers_and_host_names_ignore_case() {
    let server = start();
    let port = server.port;
    let page = get(port, "/", &format!("Host: 127.0.0.1:{port}\r\n"));
    let head = request(port, "HEAD", "/", &format!("Host: 127.0.0.1:{port}\r\n"));
    let (page_head, _) = page.split_once("\r\n\r\n").unwrap();
    assert_eq!(
        head,
        format!("{page_head}\r\n\r\n"),
        "the page's headers, no body"
    );
    let post = request(port, "POST", "/", &format!("Host: 127.0.0.1:{port}\r\n"));
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    let shouted = get(port, "/", &format!("Host: LocalHost:{port}\r\n"));
    assert!(shouted.starts_with("HTTP/1.1 200 OK\r\n"), "{shouted}");
}

#[test]
fn a_page_daemon_takes_a_small_table_and_few_threads() {
    let server = start();
    let (mut socket, _, handshake) = page_socket(&server);
    assert!(
        handshake
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 64"),
        "{handshake:?}"
    );
    socket
        .send(Message::text("setoption name Hash value 4096\nisready"))
        .unwrap();
    let replies = until(&mut socket, "readyok");
    assert_eq!(
        replies[0],
        "info string error bad-option-value: Hash 4096 (this daemon takes at most 64)"
    );
    socket
        .send(Message::text("setoption name Threads value 3\nisready"))
        .unwrap();
    let replies = until(&mut socket, "readyok");
    assert!(
        replies[0].starts_with("info string error bad-option-value: Threads 3"),
        "{replies:?}"
    );
}

/// The server's peak resident memory so far, in MiB.
fn peak_mib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .expect("VmHWM in /proc/<pid>/status");
    kib / 1024
}

#[test]
fn clients_that_do_not_read_cannot_fill_the_server() {
    // Four clients each send one full message of `query svg` lines (about 6,500 pictures
    // owed) and never read. Each connection's replies wait in a bounded queue: one that
    // falls that far behind is closed and its daemon stopped.
    let server = start();
    let lines = "query svg\n".repeat(session::MAX_MESSAGE / 10 - 1);
    let mut clients = Vec::new();
    for _ in 0..4 {
        let mut socket = page_socket(&server).0;
        socket.send(Message::text(lines.clone())).unwrap();
        clients.push(socket);
    }
    // Long enough for every daemon to answer every line, were nothing bounded.
    std::thread::sleep(Duration::from_secs(3));
    let peak = peak_mib(&server);
    assert!(peak < MEMORY_BOUND_MIB, "the server peaked at {peak} MiB");
    drop(clients);
    // The server still serves.
    let (mut socket, _, _) = page_socket(&server);
    socket.send(Message::text("query variant")).unwrap();
    assert_eq!(until(&mut socket, "response"), ["response lielow"]);
}

#[test]
fn the_servers_tables_reach_every_page_and_no_page_sets_its_own() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-tables");
    let _ = std::fs::remove_dir_all(&dir);
    let built = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args([
            "tables",
            "build",
            "egaraguti",
            "--men",
            "4",
            "--distances",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(built.status.success());
    let server = start_with(&["--tables", dir.to_str().unwrap()]);
    for _ in 0..2 {
        let (mut socket, _, _) = page_socket(&server);
        socket
            .send(Message::text(
                "setoption name UCI_Variant value egaraguti\n\
                 position fen 5/3/3/1/3/1w1/w1b1b w 0 1\nquery tables",
            ))
            .unwrap();
        let answer = until(&mut socket, "response").pop().unwrap();
        assert!(answer.starts_with("response "), "{answer}");
        assert_ne!(answer, "response none");
        socket
            .send(Message::text(
                "setoption name TablePath value /etc\nisready",
            ))
            .unwrap();
        let replies = until(&mut socket, "readyok");
        assert_eq!(
            replies[0],
            "info string error bad-option-value: TablePath: this daemon opens no files (a \
             page's engine: any tables are its server's)"
        );
        // Refused, the tables stay.
        socket.send(Message::text("query tables")).unwrap();
        assert_eq!(until(&mut socket, "response").pop().unwrap(), answer);
    }
    // A directory without tables is no server.
    let refused = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(["gui", "--port", "0", "--tables", "/no/such/dir"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).starts_with("ternion: "),
        "{refused:?}"
    );
}

#[test]
fn clients_that_trickle_after_an_error_are_cut_and_free_their_slots() {
    let server = start();
    let port = server.port;
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    let patience = Instant::now() + Duration::from_secs(60);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Every slot taken by a client that asks for nothing there, then sends a byte every
    // 40 ms for as long as the server takes them (until the test is done).
    let tricklers: Vec<_> = (0..ternion::gui::MAX_CONNECTIONS)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            write!(stream, "GET /nothing HTTP/1.1\r\n{host}\r\n").unwrap();
            let mut reader = stream.try_clone().unwrap();
            let done = std::sync::Arc::clone(&done);
            let trickling = std::thread::spawn(move || {
                while !done.load(std::sync::atomic::Ordering::Relaxed)
                    && stream.write_all(b"x").is_ok()
                {
                    std::thread::sleep(Duration::from_millis(40));
                }
            });
            // The answer comes at once, trickle or not (a server that reads the trickle
            // first never answers), and before the next client: each holds a slot.
            reader
                .set_read_timeout(Some(Duration::from_secs(30)))
                .unwrap();
            let mut status = [0u8; 12];
            reader
                .read_exact(&mut status)
                .expect("an answer while trickling");
            assert_eq!(&status, b"HTTP/1.1 404");
            trickling
        })
        .collect();
    // The page is served again once the tricklers are cut (at the documented 3 s); a
    // refusal meanwhile holds no slot of its own.
    let served = loop {
        let page = get(port, "/", &host);
        if page.starts_with("HTTP/1.1 200 OK\r\n") || Instant::now() > patience {
            break page;
        }
        assert!(page.starts_with("HTTP/1.1 503"), "{page}");
        std::thread::sleep(Duration::from_millis(100));
    };
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(served.starts_with("HTTP/1.1 200 OK\r\n"), "{served}");
    for trickler in tricklers {
        trickler.join().unwrap();
    }
}

#[test]
fn the_pages_share_one_bounded_pool_of_table_memory() {
    // Every page asks for the most `Hash`: the pages' pool gives the excess over the
    // default to as many as it holds, refuses the rest in one line, and takes a closed
    // page's share back.
    let server = start();
    let per_page = 64 - DEFAULT_HASH_MIB;
    let fits = (session::PAGES_HASH_POOL_MIB / per_page) as usize;
    let mut pages = Vec::new();
    let mut refused = 0;
    for _ in 0..gui::MAX_CONNECTIONS {
        let (mut socket, _, _) = page_socket(&server);
        socket
            .send(Message::text("setoption name Hash value 64\nisready"))
            .unwrap();
        let replies = until(&mut socket, "readyok");
        if replies.len() > 1 {
            assert!(
                replies[0].starts_with(
                    "info string error bad-option-value: Hash 64 (the pages share 256 MiB"
                ),
                "{replies:?}"
            );
            refused += 1;
        }
        pages.push(socket);
    }
    assert_eq!(refused, gui::MAX_CONNECTIONS - fits);
    let peak = peak_mib(&server);
    assert!(peak < PAGES_BOUND_MIB, "the server peaked at {peak} MiB");
    // One page at 64 MiB goes: the next one may take its place.
    pages.swap_remove(0).close(None).unwrap();
    let patience = Instant::now() + Duration::from_secs(60);
    let origin = format!("http://127.0.0.1:{}", server.port);
    loop {
        // Its slot frees as its share comes back: until then a new page may be refused.
        if let Ok(mut socket) = connect(server.port, &origin) {
            socket
                .send(Message::text("setoption name Hash value 64\nisready"))
                .unwrap();
            if until(&mut socket, "readyok").len() == 1 {
                break;
            }
        }
        assert!(
            Instant::now() < patience,
            "the closed page's share never came back"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn boards_holding_every_slot_never_keep_the_page_from_loading() {
    // Every board slot held by an open WebSocket: the page (and the levels) are still
    // served at once, and one more board is refused.
    let server = start();
    let host = format!("Host: 127.0.0.1:{}\r\n", server.port);
    let boards: Vec<_> = (0..gui::MAX_CONNECTIONS)
        .map(|_| page_socket(&server))
        .collect();
    for _ in 0..12 {
        let page = get(server.port, "/", &host);
        assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    }
    assert!(get(server.port, "/levels.json", &host).starts_with("HTTP/1.1 200 OK\r\n"));
    let origin = format!("http://127.0.0.1:{}", server.port);
    let refused = connect(server.port, &origin).expect_err("a board beyond the slots");
    assert!(refused.contains("503"), "{refused}");
    drop(boards);
}
