//! `ternion gui` in a real browser, and the web edition: runs `tests/browser/gui.js`, which
//! plays every variant in headless Chromium by clicking, steps through and analyses a
//! recorded game of each, and checks the page against a daemon of its own; for the web
//! edition, also whole games, `stop`, a session and `bench` against the native binary.
//!
//! It needs Node.js, Chromium and the script's one npm package (`npm ci --prefix
//! tests/browser`), so the default run lists it as ignored rather than pretend it passed;
//! `cargo test --release --test suite gui_browser:: -- --ignored` runs it (`.ci/run` does, after
//! installing the tools), and there a missing tool fails it.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const VARIANTS: [&str; 4] = ["lielow", "lielow9", "egaraguti", "lerontenin"];
/// Far above the 20-40 s the script takes (about 70 s for the web edition, whose games are
/// played whole), for a loaded machine.
const TIME_LIMIT: Duration = Duration::from_secs(600);

fn script_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Chromium: `TERNION_CHROMIUM`, else Debian's or Ubuntu's path.
fn chromium() -> Option<PathBuf> {
    let given = std::env::var_os("TERNION_CHROMIUM").map(PathBuf::from);
    let known = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from);
    given.into_iter().chain(known).find(|path| path.exists())
}

fn node_runs() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// What the test needs and this machine lacks.
fn missing_tools() -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !node_runs() {
        missing.push("node (Node.js)");
    }
    if chromium().is_none() {
        missing.push("chromium (Debian's package, or TERNION_CHROMIUM)");
    }
    if !script_dir()
        .join("node_modules/playwright-core/package.json")
        .exists()
    {
        missing.push("playwright-core (npm ci --prefix tests/browser)");
    }
    missing
}

#[test]
#[ignore = "needs Node.js, Chromium and playwright-core: run with --ignored"]
fn the_page_plays_every_variant_in_headless_chromium() {
    let stdout = run_the_page("gui-browser", None);
    assert!(
        stdout.contains("the tables' values shown as tables line gives them"),
        "{stdout}"
    );
}

/// The web edition (built here by `scripts/build-web.sh`, which also installs the target
/// and wasm-bindgen's command when missing): the same page on a static server, its engine
/// in a Web Worker, and its own checks.
#[test]
#[ignore = "needs Node.js, Chromium, playwright-core and the wasm toolchain: run with --ignored"]
fn the_web_edition_plays_every_variant_in_headless_chromium() {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-edition");
    let built = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/build-web.sh"))
        .arg(&folder)
        .status()
        .expect("scripts/build-web.sh runs");
    assert!(built.success(), "scripts/build-web.sh failed");
    let size: u64 = (fs::read_dir(&folder).unwrap())
        .map(|entry| entry.unwrap().metadata().unwrap().len())
        .sum();
    assert!(
        size < 3 << 20,
        "the web edition is {size} bytes, above 3 MiB"
    );
    let stdout = run_the_page("web-browser", Some(&folder));
    for wanted in [
        "no tables panel, and no file opened",
        "are the binary's (times, speeds, Hash and Threads maxima masked)",
        "stop during go infinite answered in",
        "nodes in both;",
    ] {
        assert!(stdout.contains(wanted), "no '{wanted}' in:\n{stdout}");
    }
    for variant in VARIANTS {
        assert!(
            stdout.contains(&format!("{variant}: a whole game in the page")),
            "{stdout}"
        );
    }
}

/// Runs tests/browser/gui.js against `ternion gui`, or against the web edition in `web`;
/// its output, once it has passed the checks of both.
fn run_the_page(name: &str, web: Option<&Path>) -> String {
    let missing = missing_tools();
    assert!(
        missing.is_empty(),
        "the browser test needs {}",
        missing.join(", ")
    );
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    fs::create_dir_all(&work).unwrap();
    let (out_path, err_path) = (work.join("stdout.txt"), work.join("stderr.txt"));
    let mut node = Command::new("node");
    node.arg(script_dir().join("gui.js"))
        .arg(env!("CARGO_BIN_EXE_ternion"))
        .arg(chromium().unwrap())
        .arg(&work);
    if let Some(folder) = web {
        node.arg("--web").arg(folder);
    }
    let mut child = node
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("node starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser test ran over {TIME_LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(50));
    };
    let stdout = fs::read_to_string(&out_path).unwrap();
    let stderr = fs::read_to_string(&err_path).unwrap();
    // The figures (load time, click to reply) for whoever runs with --nocapture.
    println!("{stdout}");
    assert!(
        status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.starts_with("page and first board: "), "{stdout}");
    for variant in VARIANTS {
        let line = stdout
            .lines()
            .find(|line| line.starts_with(&format!("{variant}: ")))
            .unwrap_or_else(|| panic!("no line for {variant}:\n{stdout}"));
        assert!(line.contains("click to engine reply"), "{line}");
        let shot = work.join(format!("gui-{variant}.png"));
        let bytes = fs::read(&shot).unwrap_or_else(|_| panic!("no screenshot {shot:?}"));
        assert!(bytes.starts_with(b"\x89PNG"), "{shot:?} is a PNG");
    }
    assert!(
        stdout.contains("every variant played, checked against the reference daemon"),
        "{stdout}"
    );
    stdout
}
