//! The network at the protocol's door: `EvalFile` loads a network of the current variant,
//! refuses whatever is not one (another variant's, damaged, cut, not a network, endless)
//! with one line and changes nothing, `Use NNUE` chooses between the network and the
//! terms, and `eval` shows which one the search plays with.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use ternion::eval::network::file::{self, NetworkKind};
use ternion::games::Variant;
use ternion::games::lielow::Lielow8;
use ternion::protocol::daemon::{Daemon, Sink};
use ternion::tune::train::model::{Params, Shape};

/// A daemon whose output is collected.
struct Harness {
    daemon: Daemon,
    output: Arc<Mutex<Vec<String>>>,
}

impl Harness {
    fn new() -> Self {
        let output = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&output);
        let sink: Sink = Arc::new(move |line| collected.lock().expect("the output").push(line));
        Harness {
            daemon: Daemon::new(Variant::Lielow, sink),
            output,
        }
    }

    /// Sends a line; returns what it printed.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.output.lock().expect("the output").clear();
        assert!(self.daemon.handle(line), "{line:?} ended the daemon");
        self.output.lock().expect("the output").clone()
    }

    /// The last lines of `eval`: the network's (if shown) and the value the search uses.
    fn eval_tail(&mut self) -> Vec<String> {
        let lines = self.send("eval");
        let from = (lines.iter())
            .position(|line| line.starts_with("Terms: "))
            .expect("a Terms line");
        lines[from + 1..].to_vec()
    }
}

/// A directory of this test's own for files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ternion-network-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A seeded random network of `variant`'s inputs, as a file's bytes.
fn network_bytes(variant: &str, inputs: usize, seed: u64) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let shape = Shape::plain(inputs, 16);
    let network = Params::random(shape, &mut rng).quantise();
    // Every game's inputs are of their first layout; one output layer reads for any game.
    let kind = NetworkKind {
        variant,
        layout: 1,
        buckets: 1,
    };
    file::to_bytes(&network, kind)
}

#[test]
fn eval_file_loads_a_network_of_its_variant_and_refuses_anything_else() {
    let dir = scratch_dir("load");
    let good = dir.join("good.nnue");
    std::fs::write(&good, network_bytes("lielow", 1152, 1)).unwrap();
    let mut harness = Harness::new();

    let said = harness.send(&format!("setoption name EvalFile value {}", good.display()));
    assert_eq!(
        said,
        [format!(
            "info string EvalFile {}: a network of lielow, 1152 inputs x 16 hidden",
            good.display()
        )]
    );
    let loaded = harness.eval_tail();
    assert!(
        loaded[0].starts_with("Network: ") && loaded[0].ends_with(&good.display().to_string()),
        "{loaded:?}"
    );
    assert!(loaded[1].ends_with("by the network"), "{loaded:?}");

    // Each refused with one line, the network loaded before kept.
    let mut damaged = network_bytes("lielow", 1152, 1);
    damaged[100] ^= 0x10;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "foreign.nnue",
            network_bytes("lielow9", 1620, 2),
            "a network of lielow9, not of lielow",
        ),
        (
            "shape.nnue",
            network_bytes("lielow", 1000, 3),
            "a network of 1000 inputs",
        ),
        ("damaged.nnue", damaged, "checksum"),
        (
            "cut.nnue",
            network_bytes("lielow", 1152, 1)[..500].to_vec(),
            "checksum",
        ),
        (
            "text.nnue",
            b"1 8/8/8/8/8/8/8/b1*7 b ; 0\n".to_vec(),
            "not a network file",
        ),
        ("empty.nnue", Vec::new(), "too short"),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let said = harness.send(&format!("setoption name EvalFile value {}", path.display()));
        assert_eq!(said.len(), 1, "{name}: {said:?}");
        assert!(
            said[0].starts_with("info string error bad-option-value: EvalFile")
                && said[0].contains(reason),
            "{name}: {said:?}"
        );
        assert_eq!(harness.eval_tail(), loaded, "{name} changed the evaluation");
    }
    // Values no trainer writes, under a right checksum: the output bias at i32::MAX.
    let mut rng = fastrand::Rng::with_seed(1);
    let shape = Shape::plain(1152, 16);
    let mut absurd = Params::random(shape, &mut rng);
    absurd.output_bias = vec![1e9];
    let absurd_path = dir.join("absurd.nnue");
    std::fs::write(
        &absurd_path,
        file::to_bytes(&absurd.quantise(), NetworkKind::of::<Lielow8>("lielow")),
    )
    .unwrap();
    let absurd_path = absurd_path.display().to_string();
    let directory = dir.display().to_string();
    for (path, reason) in [
        ("/no/such/file.nnue", "cannot open it"),
        ("/dev/zero", "not a regular file"),
        (directory.as_str(), "not a regular file"),
        (absurd_path.as_str(), "values no trainer writes"),
    ] {
        let said = harness.send(&format!("setoption name EvalFile value {path}"));
        assert!(
            said.len() == 1 && said[0].contains(reason),
            "{path}: {said:?}"
        );
        assert_eq!(harness.eval_tail(), loaded, "{path} changed the evaluation");
    }

    // The terms when told, the network again when told.
    harness.send("setoption name Use NNUE value false");
    let terms = harness.eval_tail();
    assert_eq!(terms[0], loaded[0], "the network is still shown");
    assert!(terms[1].ends_with("by the terms"), "{terms:?}");
    harness.send("setoption name Use NNUE value true");
    assert_eq!(harness.eval_tail(), loaded);

    // Another variant plays with its own; coming back finds the file's network again.
    harness.send("setoption name UCI_Variant value lielow9");
    assert!(!harness.eval_tail()[0].contains("good.nnue"));
    harness.send("setoption name UCI_Variant value lielow");
    assert_eq!(harness.eval_tail(), loaded);

    // Another game refuses the file: it is a network of Lielow, not of Egara-guti.
    harness.send("setoption name UCI_Variant value egaraguti");
    let said = harness.send(&format!("setoption name EvalFile value {}", good.display()));
    assert!(
        said.len() == 1 && said[0].contains("a network of lielow, not of egaraguti"),
        "{said:?}"
    );
    let own = harness.eval_tail();
    assert!(
        own[0].ends_with("built in") && own[1].ends_with("by the network"),
        "{own:?}"
    );

    let said = harness.send("setoption name EvalFile value");
    assert_eq!(
        said,
        ["info string EvalFile <empty>: egaraguti plays its built-in network"]
    );
    assert_eq!(harness.eval_tail(), own);

    // `<empty>`: the one built in (or the terms, in a variant with none).
    harness.send("setoption name UCI_Variant value lielow");
    let said = harness.send("setoption name EvalFile value <empty>");
    assert_eq!(
        said,
        ["info string EvalFile <empty>: lielow plays its built-in network"]
    );
    assert!(!harness.eval_tail()[0].contains("good.nnue"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_file_never_waits_on_a_fifo_or_a_stream() {
    let dir = scratch_dir("fifo");
    let fifo = dir.join("network.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    // On another thread, so that a daemon that blocks fails the test instead of hanging it.
    let (done, answers) = std::sync::mpsc::channel();
    let fifo_name = fifo.display().to_string();
    std::thread::spawn(move || {
        let mut harness = Harness::new();
        for path in [fifo_name.as_str(), "/dev/stdin", "/dev/zero", "/dev/tty"] {
            let said = harness.send(&format!("setoption name EvalFile value {path}"));
            done.send((path.to_owned(), said)).unwrap();
        }
        let _ = done.send(("isready".to_owned(), harness.send("isready")));
    });
    for _ in 0..5 {
        let (path, said) = answers
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the daemon answers at once, and never waits on the file");
        assert_eq!(said.len(), 1, "{path}: {said:?}");
        if path == "isready" {
            assert_eq!(said, ["readyok"]);
        } else {
            // Not a regular file; or, if the test's own input is one, not a network.
            assert!(
                said[0].starts_with("info string error bad-option-value: EvalFile"),
                "{path}: {said:?}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[cfg(feature = "gui")]
fn a_page_of_the_board_cannot_choose_a_file() {
    let dir = scratch_dir("page");
    let good = dir.join("good.nnue");
    std::fs::write(&good, network_bytes("lielow", 1152, 1)).unwrap();
    let mut harness = Harness::new();
    let daemon = std::mem::replace(&mut harness.daemon, Daemon::new(Variant::Lielow, noop()));
    harness.daemon = daemon.with_caps(ternion::gui::session::PAGE_CAPS);
    let built_in = harness.eval_tail();
    // Neither a network nor a missing path: the answer tells nothing of the files.
    for path in [good.display().to_string(), "/no/such/file".to_owned()] {
        let said = harness.send(&format!("setoption name EvalFile value {path}"));
        assert_eq!(
            said,
            [
                "info string error bad-option-value: EvalFile: this daemon opens no files (a \
                 page's engine): it plays the built-in networks"
            ]
        );
        assert_eq!(harness.eval_tail(), built_in);
    }
    // The built-in network may always be asked for again.
    let said = harness.send("setoption name EvalFile value <empty>");
    assert_eq!(
        said,
        ["info string EvalFile <empty>: lielow plays its built-in network"]
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A sink that drops every line.
#[cfg(feature = "gui")]
fn noop() -> Sink {
    Arc::new(|_| {})
}

#[test]
fn a_search_with_a_loaded_network_plays_a_legal_move() {
    let dir = scratch_dir("search");
    let good = dir.join("good.nnue");
    std::fs::write(&good, network_bytes("lielow", 1152, 4)).unwrap();
    let mut harness = Harness::new();
    harness.send(&format!("setoption name EvalFile value {}", good.display()));
    harness.send("position startpos moves a2a3");
    harness.send("go depth 4");
    let mut lines = Vec::new();
    for _ in 0..2_000 {
        lines = harness.output.lock().expect("the output").clone();
        if lines.iter().any(|line| line.starts_with("bestmove ")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let best = (lines.iter())
        .find_map(|line| line.strip_prefix("bestmove "))
        .expect("a best move");
    let legal = harness.send("query legalmoves");
    assert!(
        legal[0].split_whitespace().any(|mv| mv == best),
        "{best} in {legal:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
