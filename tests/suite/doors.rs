//! Every path the engine opens on a user's word refuses what is not a regular file, at once
//! and with one line: a FIFO no one writes to (whose opening would block for good), a
//! device of endless bytes, a directory. And the commands that write check first that they
//! can.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ternion::games::Variant;
use ternion::protocol::daemon::{Daemon, Sink};

const TERNION: &str = env!("CARGO_BIN_EXE_ternion");

/// How long a refusal may take before the test calls it a hang: far beyond a refusal's
/// milliseconds, so that only a command that waits on its file fails.
const PATIENCE: Duration = Duration::from_secs(120);

/// Runs `ternion args`, killing it (and failing) if it has not ended within [`PATIENCE`].
fn ternion(args: &[&str]) -> Output {
    let mut child = Command::new(TERNION)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ternion binary runs");
    let started = Instant::now();
    while child.try_wait().expect("the child").is_none() {
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("ternion {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the child's output")
}

/// A scratch directory with a FIFO in it (named `name`) that nothing ever writes to.
fn with_fifo(test: &str, name: &str) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("doors-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join(name);
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    (dir, fifo)
}

/// The command failed at once with exit status 2 and one line on stderr that says `why`.
fn refused(output: &Output, why: &str) {
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains(why), "{said}");
    assert_eq!(said.trim_end().lines().count(), 1, "{said}");
}

#[test]
fn data_files_must_be_regular_files() {
    let (_dir, fifo) = with_fifo("data", "data.fifo");
    let fifo = fifo.to_str().unwrap();
    for path in [fifo, "/dev/zero", "/dev/stdin"] {
        refused(
            &ternion(&["train", "lielow", "--data", path, "--out", "/tmp/x.nnue"]),
            "not a regular file",
        );
        refused(
            &ternion(&["tune", "lielow", "--data", path]),
            "not a regular file",
        );
    }
    refused(
        &ternion(&["selfplay", "lielow", "--games", "1", "--eval-file", fifo]),
        "not a regular file",
    );
    refused(&ternion(&["stats", fifo]), "not a regular file");
    refused(
        &ternion(&["show", "lielow", "--record", fifo, "--game", "1"]),
        "not a regular file",
    );
}

#[test]
fn a_line_without_an_end_is_refused_at_its_limit() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doors-long-line");
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("long.txt");
    std::fs::write(&long, vec![b'1'; (1 << 20) + 10]).unwrap();
    refused(
        &ternion(&[
            "train",
            "lielow",
            "--data",
            long.to_str().unwrap(),
            "--out",
            "/tmp/x.nnue",
        ]),
        "line 1 is longer than 1048576 bytes",
    );
}

#[test]
fn train_checks_its_output_before_it_trains_and_names_a_bad_rate() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doors-train");
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    std::fs::write(&data, "1 8/8/8/8/8/8/8/b1*7 b ; 0\n").unwrap();
    let data = data.to_str().unwrap();
    // No such directory: refused before the data is read (whose one line would not do).
    refused(
        &ternion(&[
            "train",
            "lielow",
            "--data",
            data,
            "--out",
            "/no/such/dir/x.nnue",
        ]),
        "cannot write /no/such/dir/x.nnue",
    );
    let out = dir.join("net.nnue");
    let output = ternion(&[
        "train",
        "lielow",
        "--data",
        data,
        "--out",
        out.to_str().unwrap(),
    ]);
    // Too little data: nothing is left behind, not even the file the network would have
    // gone to first.
    refused(&output, "too little data");
    assert!(String::from_utf8_lossy(&output.stderr).contains("the first block of every ten"));
    assert!(
        std::fs::read_dir(&dir).unwrap().count() == 1,
        "a file left behind"
    );
    for rate in ["inf", "0", "-1", "NaN"] {
        let rate = format!("--rate={rate}");
        refused(
            &ternion(&["train", "lielow", "--data", data, "--out", "/tmp/x", &rate]),
            "the rate must be a finite number above 0",
        );
    }
}

#[test]
fn match_starts_and_audit_records_must_be_regular_files() {
    let (_dir, fifo) = with_fifo("starts", "starts.fifo");
    let fifo = fifo.to_str().unwrap();
    refused(
        &ternion(&[
            "match",
            "--engine",
            TERNION,
            "--engine",
            TERNION,
            "--variant",
            "lielow",
            "--games",
            "2",
            "--depth",
            "1",
            "--starts",
            fifo,
        ]),
        "not a regular file",
    );
    refused(
        &ternion(&[
            "tables",
            "audit",
            "egaraguti",
            "--dir",
            "/tmp",
            "--records",
            fifo,
            "--player",
            "x",
        ]),
        "not a regular file",
    );
}

#[test]
fn table_path_refuses_a_fifo_among_its_tables() {
    let (dir, _fifo) = with_fifo("tables", "egaraguti-1v1.egt");
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line| collected.lock().unwrap().push(line));
    // On another thread, so that a daemon that blocks fails the test instead of hanging it.
    let (done, answered) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut daemon = Daemon::new(Variant::Egaraguti, sink);
        daemon.handle(&format!("setoption name TablePath value {}", dir.display()));
        daemon.handle("isready");
        let _ = done.send(());
    });
    answered
        .recv_timeout(PATIENCE)
        .expect("the daemon answers at once");
    let said = output.lock().unwrap();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("info string error bad-option-value: TablePath")
            && said[0].contains("not a regular file"),
        "{said:?}"
    );
    assert_eq!(said[1], "readyok");
}

#[test]
fn a_table_that_leads_to_a_device_is_named_for_what_it_is() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doors-table-links");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("egaraguti-1v1.egt");
    std::os::unix::fs::symlink("/dev/zero", &table).unwrap();
    let dir_text = dir.to_str().unwrap();
    let probe = [
        "tables",
        "probe",
        "egaraguti",
        "--dir",
        dir_text,
        "--fen",
        "5/3/3/1/3/1w1/b4 w 0 1",
    ];
    let output = ternion(&probe);
    refused(&output, "not a regular file but a character device");
    // The whole set, as TablePath and --tables load it: named too, not "missing".
    let output = ternion(&["analyze", "egaraguti", "--depth", "1", "--tables", dir_text]);
    refused(&output, "not a regular file but a character device");
    // A link that leads nowhere says so too, rather than "missing".
    std::fs::remove_file(&table).unwrap();
    std::os::unix::fs::symlink(dir.join("gone"), &table).unwrap();
    let output = ternion(&probe);
    refused(&output, "a symbolic link that leads nowhere");
}
