//! Replays the example sessions of protocol/transcripts/, and every session and command
//! the documents show (README.md, protocol/PROTOCOL.md, docs/), against the real binary.
//!
//! A transcript is a list of lines: `> text` is sent to the engine; `< text` must be the
//! next line it prints, where a `*` stands for any run of characters (`< bestmove*`: a line
//! starting with `bestmove`; `time * nodes`: any time); `<* text` skips any
//! number of lines starting with `text` (info lines of a search, say); `<.. text` skips
//! lines up to and including one equal to `text` (a `<*` line must be followed by a `<`
//! line, since it waits for the first line that does not match). `#` lines are comments. The info lines of
//! a running search may come between any two replies, so `< text` passes over them unless
//! `text` is itself an info line. After the last line, stdin is closed: the engine must exit with status 0 and
//! print nothing more.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long to wait for an expected line before failing.
const PATIENCE: Duration = Duration::from_secs(30);

fn replay(path: &Path) {
    let name = path.display();
    let script = std::fs::read_to_string(path).expect("a readable transcript");
    let mut engine = Command::new(env!("CARGO_BIN_EXE_ternion"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = engine.stdin.take().expect("stdin");
    let stdout = engine.stdout.take().expect("stdout");
    let (lines, received) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut pending: Option<String> = None;
    let next = |pending: &mut Option<String>| -> Option<String> {
        pending
            .take()
            .or_else(|| received.recv_timeout(PATIENCE).ok())
    };
    for (number, line) in script.lines().enumerate() {
        let at = format!("{name}:{}", number + 1);
        if let Some(sent) = line.strip_prefix("> ") {
            writeln!(stdin, "{sent}").expect("the engine reads");
        } else if let Some(wanted) = line.strip_prefix("<.. ") {
            while next(&mut pending).unwrap_or_else(|| panic!("{at}: no {wanted:?}")) != wanted {}
        } else if let Some(prefix) = line.strip_prefix("<* ") {
            loop {
                match next(&mut pending) {
                    Some(got) if got.starts_with(prefix) => continue,
                    other => {
                        pending = other;
                        break;
                    }
                }
            }
        } else if let Some(expected) = line.strip_prefix("< ").or(line.strip_prefix("<")) {
            // A running search prints its info lines whenever it likes: they may come
            // between any two replies, so they are passed over unless expected.
            let got = loop {
                let got = next(&mut pending)
                    .unwrap_or_else(|| panic!("{at}: no line, expected {expected:?}"));
                if !got.starts_with("info depth ") || expected.starts_with("info depth ") {
                    break got;
                }
            };
            match expected.contains('*') {
                true => assert!(matches(expected, &got), "{at}: {got:?} is not {expected:?}"),
                false => assert_eq!(got, expected, "{at}"),
            }
        }
    }
    drop(stdin);
    let status = engine.wait().expect("the engine exits");
    assert!(status.success(), "{name}: exit status {status}");
    let extra: Vec<String> = pending.into_iter().chain(received.try_iter()).collect();
    assert!(extra.is_empty(), "{name}: unexpected lines {extra:?}");
}

/// Whether `text` matches `pattern`, where each `*` stands for any run of characters (a
/// figure that varies from run to run, such as a time).
fn matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        if index == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

#[test]
fn a_star_in_an_expected_line_stands_for_any_run_of_characters() {
    assert!(matches("bestmove*", "bestmove d2d3"));
    assert!(matches(
        "1 lielow depth 1 time * nodes 49",
        "1 lielow depth 1 time 12 nodes 49"
    ));
    assert!(matches("a*c*e", "abcde"));
    assert!(!matches("a*c*e", "abcd"));
    assert!(!matches("1 time * nodes 49", "1 time 3 nodes 50"));
    assert!(!matches("x*", "y"));
}

#[test]
fn every_transcript_replays() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .expect("the transcripts folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 5, "only {} transcripts", paths.len());
    for path in &paths {
        replay(path);
    }
}

/// The quoted `"name": "value"` pairs of the JSON object that follows `"key": {` in
/// `text` (flat objects of strings only, as the cutegames settings' are).
fn json_pairs(text: &str, key: &str) -> Vec<(String, String)> {
    let start = text
        .find(&format!("\"{key}\": {{"))
        .unwrap_or_else(|| panic!("no {key} object"));
    let body = &text[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.lines()
        .filter_map(|line| {
            let (name, value) = line.trim().trim_end_matches(',').split_once(": ")?;
            let unquote = |s: &str| s.trim().trim_matches('"').to_owned();
            Some((unquote(name), unquote(value)))
        })
        .collect()
}

/// What cutegames says to an engine at the start of a game, as its settings file and its
/// openings file in scripts/cutegames/ make it: every engine of the file, from every
/// opening, is set up without an error and answers the first `go` with a legal move.
#[test]
fn the_cutegames_settings_play() {
    use ternion::games::Variant;
    use ternion::rules::{Notation, Rules};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let settings = std::fs::read_to_string(root.join("scripts/cutegames/settings.json"))
        .expect("the settings");
    let options = json_pairs(&settings, "options");
    let variant = &options
        .iter()
        .find(|(name, _)| name == "UCI_Variant")
        .unwrap()
        .1;
    assert_eq!(variant.parse::<Variant>(), Ok(Variant::Lielow));
    let clock = json_pairs(&settings, "timecontrol");
    let number = |key: &str| &clock.iter().find(|(name, _)| name == key).unwrap().1;
    let go = format!(
        "go p1time {0} p2time {0} p1inc {1} p2inc {1}",
        number("time"),
        number("increment")
    );
    let openings_path = json_pairs(&settings, "openings")
        .into_iter()
        .find(|(name, _)| name == "path")
        .unwrap()
        .1;
    let openings = std::fs::read_to_string(root.join(&openings_path)).expect("the openings");
    // Each engine's command-line parameters (none for the first).
    let engines = &settings[settings.find("\"engines\": [").expect("the engines")..];
    let parameters: Vec<Vec<&str>> = engines
        .split("\"path\": ")
        .skip(1)
        .map(|engine| {
            let words = engine
                .split("\"parameters\": \"")
                .nth(1)
                .filter(|_| engine.find("\"parameters\"") < engine.find('}'))
                .map_or("", |rest| &rest[..rest.find('"').unwrap()]);
            words.split_whitespace().collect()
        })
        .collect();
    assert_eq!(parameters.len(), 2, "{parameters:?}");
    for opening in openings.lines().filter(|line| !line.trim().is_empty()) {
        let game = ternion::games::lielow::Lielow8::parse_position(opening)
            .unwrap_or_else(|e| panic!("{opening}: {e}"));
        assert!(game.outcome().is_none(), "{opening} is over");
        let p1_to_move = game.side_to_move() == ternion::core::Player::P1;
        for args in &parameters {
            let mut input = String::from("ugi\n");
            for (name, value) in &options {
                input.push_str(&format!("setoption name {name} value {value}\n"));
            }
            input.push_str(&format!(
                "isready\nuginewgame\nposition fen {opening}\nquery gameover\nquery p1turn\n{go}\n"
            ));
            let mut engine = Command::new(env!("CARGO_BIN_EXE_ternion"))
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the engine starts");
            let mut stdin = engine.stdin.take().unwrap();
            stdin.write_all(input.as_bytes()).unwrap();
            let mut lines = BufReader::new(engine.stdout.take().unwrap()).lines();
            let mut replies = Vec::new();
            let best = loop {
                let line = lines.next().expect("a bestmove").unwrap();
                if let Some(best) = line.strip_prefix("bestmove ") {
                    break best.split(' ').next().unwrap().to_owned();
                }
                if !line.starts_with("info depth") {
                    replies.push(line);
                }
            };
            drop(stdin);
            assert!(engine.wait().unwrap().success());
            assert!(
                !replies.iter().any(|l| l.contains("error")),
                "{args:?}: {replies:?}"
            );
            let responses: Vec<&String> = replies
                .iter()
                .filter(|l| l.starts_with("response"))
                .collect();
            let turn = format!("response {p1_to_move}");
            assert_eq!(responses, ["response false", turn.as_str()], "{args:?}");
            assert!(
                game.parse_move(&best).is_ok(),
                "{args:?}: {best} in {opening}"
            );
        }
    }
}

/// The code blocks of a document, each as its lines.
fn text_blocks(document: &str) -> Vec<Vec<String>> {
    document
        .split("```")
        .skip(1)
        .step_by(2)
        .filter_map(|block| block.strip_prefix("text\n"))
        .map(|block| block.lines().map(str::to_owned).collect())
        .collect()
}

/// A documented line with the figures that vary from run to run and machine to machine
/// masked: `...` as any text, and the numbers after `time`, `nps` and a spin option's
/// `max` (the machine's memory and cores).
fn masked(line: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for word in line.replace("...", "*").split(' ') {
        let varies = matches!(
            words.last().map(String::as_str),
            Some("time" | "nps" | "max")
        );
        match varies && word.parse::<u64>().is_ok() {
            true => words.push("*".to_owned()),
            false => words.push(word.to_owned()),
        }
    }
    words.join(" ")
}

/// The documents whose examples are checked against the binary.
fn documents() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md"), root.join("protocol/PROTOCOL.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
}

/// Every protocol session the documents show (a `text` block that sends a line with
/// `> `), replayed against the binary with its varying figures masked.
#[test]
fn every_documented_session_is_what_the_engine_says() {
    let mut replayed = 0;
    for path in documents() {
        let document = std::fs::read_to_string(&path).unwrap();
        for (index, block) in text_blocks(&document).into_iter().enumerate() {
            if !block.iter().any(|line| line.starts_with("> ")) {
                continue;
            }
            let name = path.file_stem().unwrap().to_string_lossy();
            let scratch =
                Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("example-{name}-{index}.txt"));
            // `< ...` stands for whatever else the command printed: the lines up to the
            // next one shown, or at the end up to the answer to an `isready`.
            let mut session: Vec<String> = Vec::new();
            let mut lines = block.iter().peekable();
            while let Some(line) = lines.next() {
                match (line.as_str(), lines.peek()) {
                    ("< ...", Some(next)) if next.starts_with("< ") => {
                        session.push(format!("<.. {}", &masked(next)[2..]));
                        lines.next();
                    }
                    ("< ...", _) => session.extend(["> isready".into(), "<.. readyok".into()]),
                    _ => session.push(masked(line)),
                }
            }
            std::fs::write(&scratch, session.join("\n") + "\n").unwrap();
            replay(&scratch);
            replayed += 1;
        }
    }
    assert!(replayed >= 5, "{replayed} sessions");
}

/// Every command the documents show run (a `text` block that starts with `$ ternion`),
/// its output compared line by line with its varying figures masked; a line `...` stands
/// for any number of lines.
#[test]
fn every_documented_command_prints_what_the_document_says() {
    let mut run = 0;
    for path in documents() {
        let document = std::fs::read_to_string(&path).unwrap();
        for block in text_blocks(&document) {
            let Some(command) = block.first().and_then(|l| l.strip_prefix("$ ternion ")) else {
                continue;
            };
            let at = format!("{}: {command}", path.display());
            let args: Vec<&str> = command.split_whitespace().collect();
            let output = Command::new(env!("CARGO_BIN_EXE_ternion"))
                .args(&args)
                .output()
                .unwrap();
            assert!(output.status.success(), "{at}");
            let printed = String::from_utf8(output.stdout).unwrap();
            let mut printed = printed.lines().peekable();
            let expected: Vec<String> = block[1..].iter().map(|l| masked(l)).collect();
            for (index, wanted) in expected.iter().enumerate() {
                if wanted == "*" {
                    // Any lines up to the one the next expected line matches.
                    let next = expected.get(index + 1).expect("a line after `...`");
                    while printed.next_if(|got| !matches(next, got)).is_some() {}
                    continue;
                }
                let got = printed
                    .next()
                    .unwrap_or_else(|| panic!("{at}: no {wanted:?}"));
                assert!(
                    matches(wanted, got) || wanted == got,
                    "{at}: {got:?} is not {wanted:?}"
                );
            }
            assert_eq!(printed.next(), None, "{at}: more lines than documented");
            run += 1;
        }
    }
    assert!(run >= 2, "{run} commands");
}
