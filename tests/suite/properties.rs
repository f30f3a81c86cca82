//! Property tests of the doors: whatever comes in, it is read or refused with one line, and
//! nothing panics.
//!
//! - the command grammar: a command printed and parsed again is the same command; any line
//!   at all reads as a command or fails with one line, and a daemon fed any lines answers
//!   and goes on;
//! - every variant's position and move strings: any text is read or refused, and a
//!   position read prints back to a string that reads as the same position;
//! - the network loader: random bytes, and one-byte changes of a valid file (with and
//!   without the checksum made right again), are refused or loaded, and a network loaded
//!   never evaluates beyond the evaluation's range;
//! - the table files: one-byte changes of a valid table are refused by a checked read, and
//!   a mapped read (which checks the header alone) never panics;
//! - the AbstractPlay bot's endpoint: any body, signed, and one-byte changes of a valid
//!   move request are answered 200, 202 or 400, never a panic; a request signed for other
//!   bytes is refused.
//!
//! The default run is a few seconds: 256 cases a property (`PROPTEST_CASES` sets more,
//! for example `PROPTEST_CASES=20000 cargo test --release --test suite properties::`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use proptest::prelude::*;
use ternion::core::Player;
use ternion::eval::network::Activation;
use ternion::eval::network::file::{self, NetworkKind};
use ternion::eval::{EVAL_LIMIT, Evaluate, Evaluator, network_or_terms};
use ternion::games::egaraguti::tablebase::index::Material;
use ternion::games::egaraguti::tablebase::table::Table;
use ternion::games::lielow::Lielow8;
use ternion::games::{Playable, Variant};
use ternion::protocol::command::{Command, GoCommand, PositionCommand, Query};
use ternion::protocol::daemon::{Daemon, Sink};
use ternion::rules::{Notation, Rules};
use ternion::tune::train::model::{Params, Shape};

const TERNION: &str = env!("CARGO_BIN_EXE_ternion");

// ---- The command grammar ----

/// A word that is no keyword of any command: a move, an option's word, a position's field.
fn word() -> impl Strategy<Value = String> {
    "[a-z0-9/*.:_-]{1,8}".prop_filter("a keyword", |w| {
        !matches!(
            w.as_str(),
            "moves" | "value" | "fen" | "startpos" | "variant" | "name" | "perft"
        )
    })
}

fn words(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(word(), 0..max)
}

/// A move as the games write them (no keyword of `go` can look like one).
fn move_text() -> impl Strategy<Value = String> {
    "[a-i][1-9][a-i][1-9]"
}

fn go_command() -> impl Strategy<Value = GoCommand> {
    (
        (
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            any::<Option<u32>>(),
        ),
        (
            any::<Option<u64>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
            any::<Option<u32>>(),
        ),
        prop::collection::vec(move_text(), 0..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                (p1time, p2time, p1inc, p2inc, movestogo),
                (movetime, depth, nodes, mate),
                searchmoves,
                ponder,
                infinite,
            )| GoCommand {
                p1time,
                p2time,
                p1inc,
                p2inc,
                movestogo,
                movetime,
                depth,
                nodes,
                mate,
                searchmoves,
                ponder,
                infinite,
                skipped: Vec::new(),
            },
        )
}

fn query() -> impl Strategy<Value = Query> {
    prop_oneof![
        Just(Query::GameOver),
        Just(Query::P1Turn),
        Just(Query::P2Turn),
        Just(Query::Result),
        Just(Query::LegalMoves),
        move_text().prop_map(Query::IsLegal),
        Just(Query::Fen),
        Just(Query::Variant),
        Just(Query::Svg),
        Just(Query::Reason),
        Just(Query::Tables),
        "unknown[a-z]{0,6}".prop_map(Query::Unknown),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let option_name = prop::collection::vec(word(), 1..3).prop_map(|w| w.join(" "));
    let option_value = prop::option::of(words(3).prop_map(|w| w.join(" ")));
    let position = (
        prop::option::of(word()),
        prop::option::of(prop::collection::vec(word(), 1..5).prop_map(|w| w.join(" "))),
        prop::collection::vec(move_text(), 0..6),
    )
        .prop_map(|(variant, fen, moves)| {
            Command::Position(PositionCommand {
                variant,
                fen,
                moves,
            })
        });
    prop_oneof![
        Just(Command::Ugi),
        Just(Command::Uci),
        Just(Command::IsReady),
        (option_name, option_value).prop_map(|(name, value)| Command::SetOption { name, value }),
        Just(Command::NewGame),
        position,
        go_command().prop_map(Command::Go),
        (0u32..=8).prop_map(Command::GoPerft),
        Just(Command::Stop),
        Just(Command::Quit),
        query().prop_map(Command::Query),
        Just(Command::Display),
        Just(Command::Eval),
        prop::option::of(1u32..=20).prop_map(Command::Bench),
        Just(Command::Help),
        Just(Command::PonderHit),
        Just(Command::Ignored),
    ]
}

/// Any line: printable text, control characters, and the words of the protocol mixed in.
fn any_line() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        "[ -~]{0,12}",
        prop::sample::select(vec![
            "go",
            "position",
            "setoption",
            "name",
            "value",
            "query",
            "fen",
            "moves",
            "perft",
            "depth",
            "nodes",
            "searchmoves",
            "startpos",
            "variant",
            "bench",
            "infinite",
            "movetime",
            "p1time",
            "-1",
            "99999999999999999999999",
            "\t",
            "\0",
            "\u{feff}",
        ])
        .prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.join(" "))
}

fn cases(default: u32) -> ProptestConfig {
    // PROPTEST_CASES, when set, is the config's default; else a few seconds' worth. A
    // failure is printed with its smallest input; no file keeps it (the seeds here are
    // drawn afresh on every run, so a long run keeps finding new cases).
    let config = match std::env::var("PROPTEST_CASES") {
        Ok(_) => ProptestConfig::default(),
        Err(_) => ProptestConfig::with_cases(default),
    };
    ProptestConfig {
        failure_persistence: None,
        ..config
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn a_printed_command_parses_back_to_itself(command in command()) {
        let printed = command.to_string();
        prop_assert_eq!(Command::parse(&printed), Ok(command), "{}", printed);
    }

    #[test]
    fn any_line_reads_as_a_command_or_fails_with_one_line(line in any_line()) {
        match Command::read(&line) {
            Ok(reading) => {
                // What was read prints as a line that reads the same.
                let printed = reading.command.to_string();
                prop_assert!(!printed.contains('\n'));
                if !matches!(reading.command, Command::Go(ref go) if !go.skipped.is_empty()) {
                    prop_assert_eq!(Command::parse(&printed), Ok(reading.command));
                }
            }
            Err(error) => {
                let said = error.to_string();
                prop_assert!(!said.contains('\n') && !said.contains('\r'), "{:?}", said);
            }
        }
    }
}

/// A daemon whose lines are collected.
fn daemon() -> (Daemon, Arc<Mutex<Vec<String>>>) {
    let output = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&output);
    let sink: Sink = Arc::new(move |line| collected.lock().unwrap().push(line));
    (Daemon::new(Variant::Lielow, sink), output)
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn a_daemon_fed_any_lines_answers_and_goes_on(lines in prop::collection::vec(any_line(), 1..6)) {
        let (mut daemon, output) = daemon();
        for line in &lines {
            // A line that asks to quit may; nothing else ends the daemon.
            let going = daemon.handle(line);
            prop_assert!(going || Command::parse(line) == Ok(Command::Quit), "{:?}", line);
            // A search the lines started ends with its best move, and nothing hangs.
            daemon.stop_search();
        }
        prop_assert!(daemon.handle("isready"));
        let said = output.lock().unwrap();
        prop_assert_eq!(said.last().map(String::as_str), Some("readyok"));
        prop_assert!(said.iter().all(|line| !line.contains('\n')));
    }
}

// ---- Position and move strings ----

/// Reads `text` as a position of `G`; a position read prints back to a string that reads
/// as the same position.
fn position_round_trip<G: Playable>(text: &str) -> Result<(), TestCaseError> {
    if let Ok(game) = G::parse_position(text) {
        let printed = game.position_string();
        let again = G::parse_position(&printed);
        prop_assert_eq!(again.as_ref(), Ok(&game), "{} printed {}", text, printed);
        // Any move text is read or refused; a move read is legal and prints back.
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        for &mv in &moves {
            let notation = game.move_string(mv);
            prop_assert_eq!(game.parse_move(&notation), Ok(mv));
        }
    }
    Ok(())
}

/// Positions of `G` reached by `plies` random moves from its start, as strings.
fn played_position<G: Playable>(seed: u64, plies: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = G::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.generate_moves(&mut moves);
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.make_move(moves[rng.usize(..moves.len())]);
    }
    game.position_string()
}

/// A variant and a position string: one reached in play with one character changed,
/// dropped or doubled, or any text at all.
fn position_text() -> impl Strategy<Value = (Variant, String)> {
    let variant = prop::sample::select(Variant::ALL.to_vec());
    (
        variant,
        any::<u64>(),
        0usize..120,
        any::<usize>(),
        any::<char>(),
        0u8..4,
        any::<String>(),
    )
        .prop_map(|(variant, seed, plies, at, ch, how, text)| {
            let played = ternion::with_game!(variant, G => played_position::<G>(seed, plies));
            let mut chars: Vec<char> = played.chars().collect();
            let at = at % chars.len().max(1);
            match how {
                0 if !chars.is_empty() => chars[at] = ch,
                1 if !chars.is_empty() => {
                    chars.remove(at);
                }
                2 if !chars.is_empty() => chars.insert(at, chars[at]),
                _ => return (variant, text),
            }
            (variant, chars.into_iter().collect())
        })
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn any_position_text_is_read_or_refused(input in position_text()) {
        let (variant, text) = input;
        ternion::with_game!(variant, G => position_round_trip::<G>(&text))?;
    }

    #[test]
    fn any_move_text_is_read_or_refused(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        seed in any::<u64>(),
        text in prop_oneof!["[a-i]?[0-9]{0,2}[a-i]?[0-9]{0,2}[*:x+=-]?[0-9a-z]{0,3}", any::<String>()],
    ) {
        ternion::with_game!(variant, G => {
            let game = G::parse_position(&played_position::<G>(seed, 30)).unwrap();
            if let Ok(mv) = game.parse_move(&text) {
                let mut moves = Vec::new();
                game.generate_moves(&mut moves);
                prop_assert!(moves.contains(&mv), "{} read as an illegal move", text);
            }
        });
    }
}

// ---- The network loader ----

/// A valid network file of Lielow's inputs (16 units; on the terms or alone; with a second
/// layer or not; with one output layer or Lielow's buckets; of squared activations where
/// `squared` and there is no second layer).
fn network_file(
    seed: u64,
    layer2: usize,
    buckets: usize,
    on_terms: bool,
    squared: bool,
) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let shape = Shape {
        layer2,
        buckets,
        activation: match squared && layer2 == 0 {
            true => Activation::SquaredClippedRelu,
            false => Activation::ClippedRelu,
        },
        ..Shape::plain(1152, 16)
    };
    let network = Params::random(shape, &mut rng)
        .quantise()
        .with_terms(on_terms);
    file::to_bytes(&network, NetworkKind::of::<Lielow8>("lielow"))
}

/// FNV-1a, as the file's checksum: to make a changed file's sum right again.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whatever the bytes, the loader answers: a network that evaluates within the range, or
/// one line.
fn load_answers(bytes: &[u8]) -> Result<bool, TestCaseError> {
    match file::from_bytes(bytes, NetworkKind::of::<Lielow8>("lielow")) {
        Ok(network) => {
            if network.inputs() != 1152 {
                return Ok(true);
            }
            let game = <ternion::games::lielow::Lielow8 as ternion::rules::Rules>::start();
            let evaluator = Evaluator::Network(Arc::new(network));
            let network = evaluator.network().unwrap();
            let mut on = [Vec::new(), Vec::new()];
            for (perspective, inputs) in Player::BOTH.iter().zip(&mut on) {
                ternion::eval::Evaluate::inputs(&game, *perspective, |i| inputs.push(i));
            }
            let accumulator = network.accumulator([&on[0], &on[1]]);
            let value = network_or_terms(&game, &evaluator, &accumulator, || 50);
            prop_assert!(value.abs() <= EVAL_LIMIT, "{}", value);
            // Every bucket's layer evaluates, within what weights in the trainer's range
            // can give (about 51,000 at 32 units a side).
            for side in Player::BOTH {
                for bucket in 0..network.buckets() {
                    let value = network.evaluate(&accumulator, side, bucket);
                    prop_assert!(value.abs() <= 10 * EVAL_LIMIT, "{}", value);
                }
            }
            Ok(true)
        }
        Err(error) => {
            prop_assert!(!error.contains('\n'), "{}", error);
            Ok(false)
        }
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn random_bytes_are_refused_with_one_line(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        load_answers(&bytes)?;
    }

    #[test]
    fn a_changed_byte_is_refused_or_loads_a_sane_network(
        seed in any::<u64>(),
        layer2 in prop::sample::select(vec![0usize, 8]),
        buckets in prop::sample::select(vec![1usize, Lielow8::OUTPUT_BUCKETS]),
        on_terms in any::<bool>(),
        squared in any::<bool>(),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
        resum in any::<bool>(),
    ) {
        let mut bytes = network_file(seed, layer2, buckets, on_terms, squared);
        let body = bytes.len() - 8;
        let at = at.index(if resum { body } else { bytes.len() });
        bytes[at] ^= flip;
        if resum {
            let sum = fnv(&bytes[..body]);
            bytes[body..].copy_from_slice(&sum.to_le_bytes());
        } else {
            // The checksum catches every change of one byte.
            prop_assert!(file::from_bytes(&bytes, NetworkKind::of::<Lielow8>("lielow")).is_err());
        }
        load_answers(&bytes)?;
    }
}

// ---- The table files ----

/// Egara-guti's tables of up to 4 men, built once.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("properties-tables");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let built = std::process::Command::new(TERNION)
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
        assert!(built.status.success(), "{built:?}");
        dir
    })
}

proptest! {
    #![proptest_config(cases(128))]

    #[test]
    fn a_table_with_a_changed_byte_is_refused(
        mover in 1usize..=3,
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let material = Material { mover, other: 4 - mover };
        let name = format!("egaraguti-{}v{}.egt", material.mover, material.other);
        let whole = std::fs::read(tables().join(&name)).unwrap();
        let mut bytes = whole.clone();
        let at = at.index(bytes.len());
        bytes[at] ^= flip;
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("properties-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(&name), &bytes).unwrap();
        // The checked read refuses it with one line; the mapped one reads the header alone
        // and never panics.
        match Table::read(&dir, material) {
            Ok(_) => prop_assert!(false, "byte {} changed, still read", at),
            Err(error) => prop_assert!(!error.contains('\n'), "{}", error),
        }
        let _ = Table::map(&dir, material);
        std::fs::remove_dir_all(&dir).ok();
    }
}

// ---- The AbstractPlay bot's endpoint ----

#[cfg(feature = "abstractplay")]
mod endpoint {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as BASE64;
    use ed25519_dalek::{Signer, SigningKey};
    use proptest::prelude::*;
    use ternion::abstractplay::verify::{SignatureHeaders, Verifier};
    use ternion::abstractplay::webhook::{Request, answer};

    const NOW: u64 = 1_800_000_000;
    const MOVE: &str = r#"{"verb":"move","metaGame":"lielow","variants":["size-9"],"gameid":"g","clockCurr":3.5,"numPlayers":2,"moves":[["b3-c4","g9-h8"],["i1-h2"]],"context":null}"#;

    /// The status `body` gets, signed with nonce `nonce` for `signed` (the body itself,
    /// or other bytes).
    fn status(verifier: &Verifier, nonce: &str, body: &[u8], signed: &[u8]) -> u16 {
        let key = SigningKey::from_bytes(&[3; 32]);
        let mut message = format!("{NOW}.{nonce}.").into_bytes();
        message.extend_from_slice(signed);
        let signature = BASE64.encode(key.sign(&message).to_bytes());
        let timestamp = NOW.to_string();
        let headers = SignatureHeaders {
            timestamp: Some(&timestamp),
            nonce: Some(nonce),
            signature: Some(&signature),
        };
        let request = Request {
            method: "POST",
            headers,
            body,
        };
        answer(verifier, request, NOW).status()
    }

    fn verifier() -> Verifier {
        Verifier::new(SigningKey::from_bytes(&[3; 32]).verifying_key())
    }

    proptest! {
        #![proptest_config(super::cases(256))]

        #[test]
        fn any_signed_body_is_answered_never_a_panic(body in prop::collection::vec(any::<u8>(), 0..400)) {
            let answered = status(&verifier(), "n", &body, &body);
            prop_assert!(matches!(answered, 200 | 202 | 400), "{}", answered);
        }

        #[test]
        fn a_changed_byte_of_a_move_request_is_answered_or_refused(at in 0..MOVE.len(), byte in any::<u8>()) {
            let mut body = MOVE.as_bytes().to_vec();
            body[at] = byte;
            let verifier = verifier();
            // The request as sent is a move to play (a 9x9 game three plies in).
            prop_assert_eq!(status(&verifier, "valid", MOVE.as_bytes(), MOVE.as_bytes()), 202);
            // Signed as it is: read, or refused as no webhook or no game; never a panic.
            let answered = status(&verifier, "signed", &body, &body);
            prop_assert!(matches!(answered, 200 | 202 | 400), "{}", answered);
            // Signed before the change: refused whatever it says.
            if body != MOVE.as_bytes() {
                prop_assert_eq!(status(&verifier, "changed", &body, MOVE.as_bytes()), 401);
            }
        }
    }
}
