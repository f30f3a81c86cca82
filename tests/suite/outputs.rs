//! The files commands write on a user's word: a new path or a regular file, never a device,
//! a FIFO, a directory or the command's own input, each refused in one line before any
//! work and with the node left as it was.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ternion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the ternion binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a path in UTF-8")
}

/// A fresh directory for one test, under target/.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("outputs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The places a careless writer would clobber: a link to a device, a FIFO (whose opening
/// for writing would wait for a reader), a directory.
fn hazards(dir: &Path) -> Vec<PathBuf> {
    let link = dir.join("null-link");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let fifo = dir.join("fifo");
    rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RWXU).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    vec![link, fifo, sub]
}

/// Asserts the command failed with one line on stderr naming `what`, and that every
/// hazard is still what it was.
fn refused(output: &Output, what: &str, dir: &Path) {
    let error = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(error.contains(what), "{what}: {error}");
    assert_eq!(error.lines().count(), 1, "{error}");
    let link = std::fs::symlink_metadata(dir.join("null-link")).unwrap();
    assert!(link.file_type().is_symlink());
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let fifo = std::fs::symlink_metadata(dir.join("fifo")).unwrap();
    assert!(fifo.file_type().is_fifo());
    assert!(dir.join("sub").is_dir());
    assert!(!dir.join("null-link.partial").exists() && !dir.join("fifo.partial").exists());
}

/// A little Lielow self-play data, written by the command that writes it.
fn lielow_data(dir: &Path) -> PathBuf {
    let data = dir.join("lielow.txt");
    let output = ternion(&[
        "selfplay",
        "lielow",
        "--games",
        "2",
        "--nodes",
        "100",
        "--out",
        path_str(&data),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    data
}

#[test]
fn train_writes_only_a_regular_file_that_is_not_its_data() {
    let dir = fresh_dir("train");
    let data = lielow_data(&dir);
    let before = std::fs::read(&data).unwrap();
    let train = |out: &Path| {
        ternion(&[
            "train",
            "lielow",
            "--data",
            path_str(&data),
            "--out",
            path_str(out),
            "--hidden",
            "16",
            "--epochs",
            "1",
            "--hold-out-block",
            "2",
        ])
    };
    let hazards = hazards(&dir);
    for (out, kind) in hazards
        .iter()
        .zip(["character device", "FIFO", "directory"])
    {
        let output = train(out);
        refused(&output, &format!("not a regular file but a {kind}"), &dir);
        // Refused before training: no epoch was run.
        assert!(!text(&output.stderr).contains("epoch"));
    }
    let output = train(&dir.join(".").join("lielow.txt"));
    refused(&output, "also this command's input", &dir);
    assert_eq!(std::fs::read(&data).unwrap(), before);
    // A link to a regular file writes the file; the link stays a link.
    let real = dir.join("real.nnue");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("net-link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let output = train(&link);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read(&real).unwrap().len() > 1000);
}

/// The arguments of a short match between two random movers, with `more`.
fn random_match(more: &[&str]) -> Vec<String> {
    let mut args = vec![
        "match",
        "--engine",
        "ternion --play random",
        "--engine",
        "ternion --play random",
        "--variant",
        "lielow",
        "--games",
        "2",
        "--nodes",
        "10",
    ];
    args.extend_from_slice(more);
    args.into_iter().map(String::from).collect()
}

#[test]
fn every_other_writer_refuses_the_same_places() {
    let dir = fresh_dir("writers");
    let hazards = hazards(&dir);
    let data = lielow_data(&dir);
    let starts = dir.join("starts.txt");
    std::fs::write(&starts, "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b\n").unwrap();
    let mut commands: Vec<(Vec<String>, &str)> = Vec::new();
    for (out, kind) in hazards
        .iter()
        .zip(["character device", "FIFO", "directory"])
    {
        let out = path_str(out).to_owned();
        let kind = match kind {
            "character device" => "a character device",
            "FIFO" => "a FIFO",
            _ => "a directory",
        };
        commands.push((
            [
                "selfplay", "lielow", "--games", "1", "--nodes", "50", "--out", &out,
            ]
            .map(String::from)
            .to_vec(),
            kind,
        ));
        commands.push((
            ["show", "lielow", "--svg", &out].map(String::from).to_vec(),
            kind,
        ));
        commands.push((random_match(&["--records", &out]), kind));
    }
    // Never the command's own input.
    let (data, starts) = (path_str(&data).to_owned(), path_str(&starts).to_owned());
    commands.push((
        random_match(&["--starts", &starts, "--records", &starts]),
        "also this command's input",
    ));
    for (args, what) in commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = ternion(&args);
        refused(&output, what, &dir);
        assert!(text(&output.stdout).is_empty(), "{args:?}");
    }
    assert!(
        std::fs::read_to_string(&starts)
            .unwrap()
            .starts_with("8/r1")
    );
    assert!(!std::fs::read_to_string(&data).unwrap().is_empty());
}
