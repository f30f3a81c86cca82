//! `ternion abstractplay` against a stand-in for AbstractPlay on the loopback address (no
//! network needed): whole games on both boards, each posted move checked against
//! AbstractPlay's own move list; requests that are not AbstractPlay's; a token endpoint and
//! a `/botQuery` that fail, refuse or hang; many games at once; a full queue; the bot
//! killed and started again in the middle of a game; starts refused as unsafe; the bot
//! stopped by a signal. Beside them: the notation (`notation`), the bot behind nginx
//! (`proxy`, ignored by default) and a timing figure (ignored).

mod notation;
mod proxy;
mod rules;
mod standin;

use std::time::Duration;

use standin::{Api, Bot, QueryMode, TokenMode, now, post, post_signed, signature_headers};
use ternion::core::{Outcome, Player};
use ternion::games::lielow::abstractplay::from_abstractplay;
use ternion::games::lielow::geometry::Geometry;
use ternion::games::lielow::geometry::{Board8, Board9};
use ternion::games::lielow::{Lielow, Lielow8};
use ternion::rules::{Notation, Rules};

/// The most a test waits for the bot's move.
const MOVE_WAIT: Duration = Duration::from_secs(60);
thread_local! {
    /// The bot's clock the stand-in reports in this test's move requests, in whole hours.
    static CLOCK_HOURS: std::cell::Cell<u64> = const { std::cell::Cell::new(24) };
}

/// How a test bot plays: fast, and gives up a call after a second.
const FAST: &[&str] = &["--think", "0.02", "--timeout", "1"];

/// The move request of game `gameid` after `history` (AbstractPlay's strings, in order),
/// the bot's clock in whole hours as AbstractPlay rounds it.
fn move_request(gameid: &str, size9: bool, history: &[String], clock_hours: u64) -> String {
    let rounds: Vec<&[String]> = history.chunks(2).collect();
    let variants: &[&str] = if size9 { &["size-9"] } else { &[] };
    serde_json::json!({
        "verb": "move",
        "metaGame": "lielow",
        "variants": variants,
        "gameid": gameid,
        "clockCurr": clock_hours,
        "numPlayers": 2,
        "moves": rounds,
        "context": null,
    })
    .to_string()
}

fn challenge(meta_game: &str, variants: &[&str]) -> String {
    serde_json::json!({
        "verb": "challenge",
        "metaGame": meta_game,
        "variants": variants,
        "clockStart": 72,
        "clockInc": 24,
        "clockMax": 240,
        "challengers": ["a-player-id"],
    })
    .to_string()
}

/// Asks the bot for its move in `gameid` after `history`, checks that the move it posts is
/// in AbstractPlay's own list, and plays it.
fn bots_move<G: Geometry>(
    api: &Api,
    bot: &Bot,
    gameid: &str,
    game: &mut Lielow<G>,
    history: &mut Vec<String>,
) {
    let body = move_request(gameid, G::N == 9, history, CLOCK_HOURS.get());
    let (status, answer) = post_signed(bot.address, &body);
    assert_eq!(status, 202, "{answer}; log:\n{}", bot.log());
    let posted = api
        .next_move(gameid, MOVE_WAIT)
        .unwrap_or_else(|| panic!("no move in {gameid}; log:\n{}", bot.log()));
    assert_eq!(posted.meta_game, "lielow");
    assert_eq!(posted.gameid, gameid);
    let theirs = rules::abstractplay_moves(game);
    assert!(
        theirs.contains(&posted.mv),
        "{gameid}: the bot posted {} in {}; AbstractPlay's moves: {theirs:?}",
        posted.mv,
        game.position_string()
    );
    game.make_move(from_abstractplay(game, &posted.mv).unwrap());
    history.push(posted.mv);
}

/// The stand-in's own move: one of AbstractPlay's moves, at random, but not its own king
/// borne off while it has another move (that loses at once, and the games would be short).
fn random_move<G: Geometry>(
    rng: &mut fastrand::Rng,
    game: &mut Lielow<G>,
    history: &mut Vec<String>,
) {
    let theirs = rules::abstractplay_moves(game);
    let king_off = |text: &&String| {
        let mv = from_abstractplay(game, text).unwrap();
        mv.to().is_none() && game.stack_at(mv.from()).is_some_and(|(_, _, king)| king)
    };
    let keeping: Vec<&String> = theirs.iter().filter(|m| !king_off(m)).collect();
    let mv = match keeping.is_empty() {
        true => theirs[rng.usize(..theirs.len())].clone(),
        false => keeping[rng.usize(..keeping.len())].clone(),
    };
    game.make_move(from_abstractplay(game, &mv).unwrap());
    history.push(mv);
}

/// Plays game `gameid` from `game` (after `history`) to its end or to ply `plies`, the bot
/// moving when `bot_moves` says, the stand-in at random; returns the game and its moves.
fn play_out<G: Geometry>(
    api: &Api,
    bot: &Bot,
    gameid: &str,
    (seed, plies): (u64, usize),
    (mut game, mut history): (Lielow<G>, Vec<String>),
    bot_moves: impl Fn(usize) -> bool,
) -> (Lielow<G>, Vec<String>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    while game.outcome().is_none() && history.len() < plies {
        if bot_moves(history.len()) {
            bots_move(api, bot, gameid, &mut game, &mut history);
        } else {
            random_move(&mut rng, &mut game, &mut history);
        }
    }
    (game, history)
}

/// A whole game from the challenge to its end; returns its moves and its outcome.
fn whole_game<G: Geometry>(
    api: &Api,
    bot: &Bot,
    gameid: &str,
    seed: u64,
    bot_first: bool,
) -> Vec<String> {
    let variants: &[&str] = if G::N == 9 { &["size-9"] } else { &[] };
    let (status, _) = post_signed(bot.address, &challenge("lielow", variants));
    assert_eq!(status, 200, "the challenge; log:\n{}", bot.log());
    let start = (Lielow::<G>::start(), Vec::new());
    let (game, history) = play_out(api, bot, gameid, (seed, 600), start, |ply| {
        (ply % 2 == 0) == bot_first
    });
    assert!(
        game.outcome().is_some(),
        "{gameid} did not end: {history:?}"
    );
    // The engine against random moves: the bot wins.
    let bot_side = if bot_first { Player::P1 } else { Player::P2 };
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(bot_side)),
        "{gameid}: {history:?}"
    );
    record(G::N, &history);
    history
}

/// Appends a whole game's moves to the file `AP_STANDIN_RECORDS` names, if it is set, as
/// `scripts/abstractplay/gameslib/replay.ts` reads them: the variant (`-` or `size-9`),
/// then the moves. That script replays them through AbstractPlay's own Lielow code.
fn record(size: usize, history: &[String]) {
    let Some(path) = std::env::var_os("AP_STANDIN_RECORDS") else {
        return;
    };
    let variant = if size == 9 { "size-9" } else { "-" };
    let line = format!("{variant} {}\n", history.join(" "));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    std::io::Write::write_all(&mut file, line.as_bytes()).unwrap();
}

#[test]
fn whole_games_on_both_boards_end_by_the_rules() {
    let api = Api::start();
    let bot = Bot::start(&api, FAST);
    let eight = whole_game::<Board8>(&api, &bot, "game-8x8", 1, true);
    let nine = whole_game::<Board9>(&api, &bot, "game-9x9", 2, false);
    eprintln!("8x8, the bot first: {}", eight.join(" "));
    eprintln!("9x9, the bot second: {}", nine.join(" "));
    // One token served every move.
    assert_eq!(api.token_calls(), 1);
    assert!(api.malformed().is_empty(), "{:?}", api.malformed());
    let log = bot.log();
    assert!(
        log.contains("challenge from [\"a-player-id\"]: lielow [\"size-9\"]"),
        "{log}"
    );
    assert!(log.contains("game game-9x9: ply 2, position "), "{log}");
    assert!(
        log.contains("game game-8x8: ") && log.contains(" posted"),
        "{log}"
    );
}

#[test]
fn a_whole_game_at_a_clock_of_zero_hours_thinks_the_stated_floor() {
    // AbstractPlay rounds the clock to whole hours: under half an hour is 0.
    CLOCK_HOURS.set(0);
    let api = Api::start();
    let bot = Bot::start(&api, &["--think", "0.05", "--timeout", "1"]);
    whole_game::<Board8>(&api, &bot, "clock-zero", 5, true);
    let log = bot.log();
    assert!(log.contains("0.050 s to think (clock 0 h)"), "{log}");
    // With more asked, at most 2 s: one move at --think 30.
    let slow = Bot::start(&api, &["--think", "30", "--timeout", "1"]);
    let (status, _) = post_signed(slow.address, &move_request("floor", false, &[], 0));
    assert_eq!(status, 202);
    assert!(
        api.next_move("floor", MOVE_WAIT).is_some(),
        "{}",
        slow.log()
    );
    assert!(
        slow.log().contains("2.000 s to think (clock 0 h)"),
        "{}",
        slow.log()
    );
}

#[test]
fn turns_delivered_again_are_passed_over_even_after_a_restart_and_a_rewritten_ply_refused() {
    let api = Api::start();
    let dir = std::env::temp_dir().join(format!("ternion-ap-turns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("turns.txt");
    let state_arg = state.display().to_string();
    let args = [FAST, &["--state", &state_arg]].concat();
    let mut bot = Bot::start(&api, &args);
    let gameid = "twice";
    let (status, _) = post_signed(bot.address, &challenge("lielow", &[]));
    assert_eq!(status, 200);
    let (mut game, mut history) = (Lielow8::start(), Vec::new());
    let mut rng = fastrand::Rng::with_seed(17);
    // The bot second: AbstractPlay delivers each of its turns twice, the second time after
    // the move landed, rebuilt from the game as it then is (the opponent to move).
    let mut passed_over = 0;
    while game.outcome().is_none() && history.len() < 600 {
        if history.len() % 2 == 0 {
            random_move(&mut rng, &mut game, &mut history);
            continue;
        }
        let before = history.clone();
        bots_move(&api, &bot, gameid, &mut game, &mut history);
        // (The move may land before the bot has heard that it did: the turn is then still
        // being played, and is answered once all the same.)
        let after = (game.outcome().is_none()).then_some(&history);
        for again in [Some(&before), after].into_iter().flatten() {
            let (status, body) = post_signed(bot.address, &move_request(gameid, false, again, 24));
            assert_eq!(status, 202, "{body}");
            passed_over += 1;
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(Player::P2)),
        "{history:?}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        api.unread(gameid),
        0,
        "a turn delivered again was played again"
    );
    let log = bot.log();
    let answered_once = log.matches("passed over").count() + log.matches("answered once").count();
    assert_eq!(answered_once, passed_over, "{log}");
    assert!(
        log.contains("is the opponent's (the bot moves at even plies)"),
        "{log}"
    );
    // A restarted bot remembers: the last turn again is passed over, and the same ply
    // after another history is refused.
    bot.signal("-TERM");
    assert_eq!(bot.exit_status(MOVE_WAIT), Some(0));
    let bot = Bot::start(&api, &args);
    assert!(bot.log().contains("1 game(s) remembered"), "{}", bot.log());
    let last = history.len() - 1 - (history.len() % 2 == 1) as usize;
    let (status, _) = post_signed(
        bot.address,
        &move_request(gameid, false, &history[..last], 24),
    );
    assert_eq!(status, 202);
    let mut other = Lielow8::start();
    let mut rewritten = Vec::new();
    while rewritten.len() < last {
        random_move(&mut rng, &mut other, &mut rewritten);
    }
    let (status, body) = post_signed(bot.address, &move_request(gameid, false, &rewritten, 24));
    assert_eq!(status, 409, "{body}; log:\n{}", bot.log());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(api.unread(gameid), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens `count` connections to `bot` that send nothing.
fn idle_connections(bot: &Bot, count: usize) -> Vec<std::net::TcpStream> {
    (0..count)
        .map(|_| std::net::TcpStream::connect(bot.address).unwrap())
        .collect()
}

/// Pings `bot` until it answers 200, for at most `limit`; whether it did.
fn ping_within(bot: &Bot, limit: Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while std::time::Instant::now() < deadline {
        if standin::send_raw(bot.address, b"GET / HTTP/1.1\r\n\r\n").0 == 200 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn slow_clients_lose_their_slots_within_seconds_and_one_client_holds_only_a_few() {
    let api = Api::start();
    // Every slot held by a client that sends nothing: each is let go once its head is
    // 2 s late, long before the 10 s a whole request may take.
    let bot = Bot::start(&api, FAST);
    let idle = idle_connections(&bot, 64);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        standin::send_raw(bot.address, b"GET / HTTP/1.1\r\n\r\n").0,
        503
    );
    assert!(ping_within(&bot, Duration::from_secs(8)), "{}", bot.log());
    drop(idle);
    assert!(bot.log().contains("refused (408)"), "{}", bot.log());
    // Facing clients itself, the bot gives one client 4 connections at once.
    let public = Bot::start(&api, &[FAST, &["--public"]].concat());
    let idle = idle_connections(&public, 4);
    std::thread::sleep(Duration::from_millis(300));
    let (status, body) = standin::send_raw(public.address, b"GET / HTTP/1.1\r\n\r\n");
    assert_eq!(status, 503, "{body}");
    assert!(
        public.log().contains("4 connections of it already open"),
        "{}",
        public.log()
    );
    drop(idle);
    assert!(
        ping_within(&public, Duration::from_secs(8)),
        "{}",
        public.log()
    );
}

#[test]
fn a_bot_losing_game_resigns_and_one_told_not_to_plays_on() {
    use ternion::abstractplay::payload::Rebuilt;
    use ternion::abstractplay::think::{EngineSetup, Strength, choose};
    // The bot at Skill Level 0 against the full engine, resigning when 3 stacks behind for
    // two of its moves in a row.
    let api = Api::start();
    let weak = [
        "--skill",
        "0",
        "--resign-score",
        "300",
        "--resign-moves",
        "2",
    ];
    let bot = Bot::start(&api, &[FAST, &weak].concat());
    let strong = EngineSetup {
        threads: 1,
        hash_mib: 4,
        strength: Strength::FULL,
    };
    let gameid = "resigned";
    let (mut game, mut history, mut ternion_moves) = (Lielow8::start(), Vec::new(), Vec::new());
    let mut resigned = false;
    while game.outcome().is_none() && history.len() < 400 {
        if history.len() % 2 == 0 {
            let rebuilt = Rebuilt {
                variant: ternion::games::Variant::Lielow,
                moves: ternion_moves.clone(),
            };
            let chosen = choose(&rebuilt, Duration::from_millis(40), strong).unwrap();
            game.make_move(game.parse_move(&chosen.ternion).unwrap());
            history.push(chosen.abstractplay);
            ternion_moves.push(chosen.ternion);
            continue;
        }
        let (status, _) = post_signed(bot.address, &move_request(gameid, false, &history, 24));
        assert_eq!(status, 202, "{}", bot.log());
        let posted = api.next_move(gameid, MOVE_WAIT).expect("the bot's move");
        if posted.mv == "resign" {
            resigned = true;
            break;
        }
        let mv = from_abstractplay(&game, &posted.mv).unwrap();
        ternion_moves.push(game.move_string(mv));
        game.make_move(mv);
        history.push(posted.mv);
    }
    assert!(
        resigned,
        "the bot played a lost game out: {history:?}\n{}",
        bot.log()
    );
    assert!(bot.log().contains(": resigns ("), "{}", bot.log());
    assert!(game.outcome().is_none());
    // Told never to resign, a bot in the same position plays a move.
    let stubborn = Bot::start(&api, &[FAST, &["--skill", "0", "--no-resign"]].concat());
    let request = move_request("stubborn", false, &history, 24);
    assert_eq!(post_signed(stubborn.address, &request).0, 202);
    let posted = api.next_move("stubborn", MOVE_WAIT).expect("a move");
    assert!(
        rules::abstractplay_moves(&game).contains(&posted.mv),
        "{}",
        posted.mv
    );
}

#[test]
fn requests_that_are_not_abstractplays_are_refused_and_change_nothing() {
    let api = Api::start();
    let bot = Bot::start(&api, FAST);
    let address = bot.address;
    let request = |gameid: &str| move_request(gameid, false, &[], 24);
    // The ping.
    let (status, body) = standin::send_raw(address, b"GET /bot HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!((status, body.as_str()), (200, r#"{"operational":true}"#));
    let (status, body) = standin::send_raw(address, b"HEAD /bot HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!((status, body.as_str()), (200, ""));
    // Not signed, signed by another key, signed for another body, too old, from the future.
    let body = request("refused");
    let other = ed25519_dalek::SigningKey::from_bytes(&[1; 32]);
    let forged = {
        use base64::Engine as _;
        use ed25519_dalek::Signer;
        let (ts, nonce) = (now(), standin::fresh_nonce());
        let signature = base64::engine::general_purpose::STANDARD.encode(
            other
                .sign(format!("{ts}.{nonce}.{body}").as_bytes())
                .to_bytes(),
        );
        format!(
            "X-Signature-Timestamp: {ts}\r\nX-Signature-Nonce: {nonce}\r\nX-Signature: {signature}\r\n"
        )
    };
    let for_another = signature_headers(now(), &standin::fresh_nonce(), &request("other"));
    let old = signature_headers(now() - 301, &standin::fresh_nonce(), &body);
    let future = signature_headers(now() + 301, &standin::fresh_nonce(), &body);
    for headers in ["", &forged, &for_another, &old, &future] {
        assert_eq!(post(address, headers, &body).0, 401, "{headers}");
    }
    // A nonce twice: the second is a replay.
    let once = signature_headers(now(), "the-same-nonce", &body);
    assert_eq!(post(address, &once, &body).0, 202);
    assert_eq!(post(address, &once, &body).0, 401);
    assert!(api.next_move("refused", MOVE_WAIT).is_some());
    // Signed, but not what the bot can act on: 400, logged, nothing posted.
    let illegal = move_request("illegal", false, &["a2-a3".into(), "a7-a5".into()], 24);
    let cases = [
        ("not json at all".to_owned(), 400),
        (r#"{"verb":"move","gameid":"g"}"#.to_owned(), 400),
        (r#"{"verb":"resign"}"#.to_owned(), 400),
        (challenge("abande", &[]), 400),
        (challenge("lielow", &["size-10"]), 400),
        (
            move_request("unknown", false, &[], 24).replace("lielow", "abande"),
            400,
        ),
        (illegal, 400),
        (challenge("lielow", &[]), 200),
    ];
    for (body, status) in cases {
        assert_eq!(post_signed(address, &body).0, status, "{body}");
    }
    // A request cut short, a body larger than any webhook, a chunked body.
    let (status, _) = standin::send_raw(
        address,
        b"POST /bot HTTP/1.1\r\nContent-Length: 400000\r\n\r\n",
    );
    assert_eq!(status, 413);
    let chunked = b"POST /bot HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    assert_eq!(standin::send_raw(address, chunked).0, 411);
    assert_eq!(
        standin::send_raw(address, b"DELETE /bot HTTP/1.1\r\n\r\n").0,
        405
    );
    assert_eq!(
        standin::send_raw(address, b"\x16\x03\x01\x02\x00\x01\x00\r\n\r\n").0,
        400
    );
    // Nothing was posted for any of them, and the log says why each was refused.
    std::thread::sleep(Duration::from_millis(300));
    for game in ["g", "unknown", "illegal", "other"] {
        assert_eq!(api.unread(game), 0, "{game}");
    }
    assert_eq!(api.query_calls(), 1);
    let log = bot.log();
    for reason in [
        "refused (401): ",
        "the nonce was seen before",
        "refused (400): game 'illegal': round 1",
        "challenge declined",
        "refused (413)",
    ] {
        assert!(log.contains(reason), "{reason:?} not in the log:\n{log}");
    }
    // And the bot still plays.
    let (status, _) = post_signed(address, &request("after"));
    assert_eq!(status, 202);
    assert!(api.next_move("after", MOVE_WAIT).is_some());
}

#[test]
fn a_failing_or_refusing_token_endpoint_is_retried_and_a_refused_token_replaced() {
    let api = Api::start();
    // The first token is fetched at the start.
    let bot = Bot::start(&api, FAST);
    assert_eq!(api.token_calls(), 1);
    // `/botQuery` refuses it, then the token endpoint fails once and refuses once: the
    // third try of the move goes.
    api.next_queries(&[QueryMode::RefuseToken]);
    api.next_tokens(&[TokenMode::Fail, TokenMode::Refuse]);
    assert_eq!(
        post_signed(bot.address, &move_request("t1", false, &[], 24)).0,
        202
    );
    assert!(api.next_move("t1", MOVE_WAIT).is_some(), "{}", bot.log());
    assert_eq!(api.token_calls(), 4);
    let log = bot.log();
    assert!(log.contains("the token endpoint answered 500"), "{log}");
    assert!(log.contains("refused the credentials (401)"), "{log}");
    // `/botQuery` refuses the kept token: a new one, and the move posted at once.
    api.next_queries(&[QueryMode::RefuseToken]);
    assert_eq!(
        post_signed(bot.address, &move_request("t2", false, &[], 24)).0,
        202
    );
    assert!(api.next_move("t2", MOVE_WAIT).is_some(), "{}", bot.log());
    assert_eq!(api.token_calls(), 5);
    assert!(bot.log().contains("/botQuery refused the token (401)"));
    // The kept token refused, and a token endpoint that then gives none: the move is given
    // up after three tries, and the bot goes on answering.
    api.next_queries(&[QueryMode::RefuseToken]);
    api.next_tokens(&[TokenMode::Refuse; 3]);
    assert_eq!(
        post_signed(bot.address, &move_request("t3", false, &[], 24)).0,
        202
    );
    assert!(bot.wait_for_log("given up", MOVE_WAIT), "{}", bot.log());
    assert_eq!(api.unread("t3"), 0);
    assert_eq!(
        post_signed(bot.address, &move_request("t4", false, &[], 24)).0,
        202
    );
    assert!(api.next_move("t4", MOVE_WAIT).is_some(), "{}", bot.log());
    assert!(api.malformed().is_empty(), "{:?}", api.malformed());
}

#[test]
fn a_botquery_that_hangs_is_given_up_and_tried_again() {
    let api = Api::start();
    let bot = Bot::start(&api, FAST);
    api.next_queries(&[QueryMode::Hang(Duration::from_secs(5))]);
    assert_eq!(
        post_signed(bot.address, &move_request("slow", false, &[], 24)).0,
        202
    );
    // The call gives up after its second (`--timeout 1`); the next try a second later goes.
    assert!(api.next_move("slow", MOVE_WAIT).is_some(), "{}", bot.log());
    assert!(
        bot.log().contains("not posted: /botQuery not reached"),
        "{}",
        bot.log()
    );
    assert_eq!(api.query_calls(), 2);
}

#[test]
fn a_move_abstractplay_refuses_is_not_posted_again_and_a_gateway_failure_is() {
    let api = Api::start();
    let bot = Bot::start(&api, FAST);
    // The real site's refusal: 500 and a message. Logged, never tried again.
    api.next_queries(&[QueryMode::Status(500, "not your turn")]);
    let calls = api.query_calls();
    assert_eq!(
        post_signed(bot.address, &move_request("refused", false, &[], 24)).0,
        202
    );
    assert!(bot.wait_for_log("given up", MOVE_WAIT), "{}", bot.log());
    assert!(
        bot.log().contains("/botQuery answered 500: not your turn"),
        "{}",
        bot.log()
    );
    // Another move goes through in the meantime: the refused one was not tried again.
    assert_eq!(
        post_signed(bot.address, &move_request("next", false, &[], 24)).0,
        202
    );
    assert!(api.next_move("next", MOVE_WAIT).is_some(), "{}", bot.log());
    assert_eq!(api.query_calls(), calls + 2);
    assert_eq!(api.unread("refused"), 0);
    // A gateway's failures (502, 503, 504) and 429 may pass: tried again.
    api.next_queries(&[QueryMode::Status(502, "Bad Gateway")]);
    assert_eq!(
        post_signed(bot.address, &move_request("gateway", false, &[], 24)).0,
        202
    );
    assert!(
        api.next_move("gateway", MOVE_WAIT).is_some(),
        "{}",
        bot.log()
    );
    assert!(
        bot.log()
            .contains("answered 502: Bad Gateway; again in 1 s")
    );
}

#[test]
fn a_token_of_endless_life_is_kept_a_day_and_wrong_credentials_stop_the_start() {
    let api = Api::start();
    // expires_in 18446744073709551615: the bot neither panics nor trusts it.
    api.next_tokens(&[TokenMode::IssueForever]);
    let bot = Bot::start(&api, FAST);
    for gameid in ["forever-1", "forever-2"] {
        let (status, _) = post_signed(bot.address, &move_request(gameid, false, &[], 24));
        assert_eq!(status, 202, "{}", bot.log());
        assert!(api.next_move(gameid, MOVE_WAIT).is_some(), "{}", bot.log());
    }
    assert!(bot.log().contains("valid 86400 s"), "{}", bot.log());
    assert_eq!(api.token_calls(), 1);
    // Credentials the token endpoint refuses: the bot does not start, and says why.
    api.next_tokens(&[TokenMode::Refuse]);
    let log = Bot::try_start(&api, FAST)
        .err()
        .expect("a bot with refused credentials");
    let why: Vec<&str> = log.lines().filter(|l| l.starts_with("ternion: ")).collect();
    assert_eq!(why.len(), 1, "{log}");
    assert!(why[0].contains("refused the credentials (401)"), "{log}");
    // A token endpoint that fails at the start is asked again at the first move.
    api.next_tokens(&[TokenMode::Fail]);
    let bot = Bot::start(&api, FAST);
    assert!(bot.log().contains("no token at the start"), "{}", bot.log());
    let (status, _) = post_signed(bot.address, &move_request("later", false, &[], 24));
    assert_eq!(status, 202);
    assert!(api.next_move("later", MOVE_WAIT).is_some(), "{}", bot.log());
}

#[test]
fn many_games_at_once_each_get_their_moves() {
    let api = Api::start();
    let bot = Bot::start(&api, &["--think", "0.02", "--games", "3"]);
    std::thread::scope(|scope| {
        for index in 0..8u64 {
            let (api, bot) = (&api, &bot);
            scope.spawn(move || {
                let gameid = format!("many-{index}");
                match index % 2 {
                    0 => drop(whole_game::<Board8>(
                        api,
                        bot,
                        &gameid,
                        index,
                        index % 4 == 0,
                    )),
                    _ => drop(whole_game::<Board9>(
                        api,
                        bot,
                        &gameid,
                        index,
                        index % 4 == 1,
                    )),
                }
            });
        }
    });
    assert_eq!(api.token_calls(), 1);
}

#[test]
fn a_full_queue_answers_busy_and_a_turn_asked_twice_is_played_once() {
    let api = Api::start();
    // One engine, one move waiting, each move a second long.
    let bot = Bot::start(&api, &["--think", "1", "--games", "1", "--queue", "1"]);
    let statuses: Vec<u16> = (0..4)
        .map(|index| {
            post_signed(
                bot.address,
                &move_request(&format!("q{index}"), false, &[], 24),
            )
            .0
        })
        .collect();
    assert_eq!(statuses[0], 202);
    assert!(statuses.contains(&503), "{statuses:?}");
    // The same turn again while it is played: answered, played once.
    let again = post_signed(bot.address, &move_request("q0", false, &[], 24)).0;
    assert_eq!(again, 202);
    for (index, status) in statuses.iter().enumerate() {
        let gameid = format!("q{index}");
        match status {
            202 => assert!(api.next_move(&gameid, MOVE_WAIT).is_some(), "{gameid}"),
            _ => assert_eq!(api.unread(&gameid), 0, "{gameid}"),
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(api.unread("q0"), 0, "the turn asked twice was played twice");
    assert!(bot.log().contains("refused (503)"), "{}", bot.log());
}

#[test]
fn a_bot_killed_mid_game_picks_it_up_from_the_next_webhook() {
    let api = Api::start();
    let second_player = |ply: usize| ply % 2 == 1;
    let first = Bot::start(&api, FAST);
    // Eight plies in (of the first seed whose random moves do not lose by then)...
    let (seed, part) = (9..)
        .map(|seed| {
            let start = (Lielow8::start(), Vec::new());
            let gameid = format!("restart-{seed}");
            (
                seed,
                play_out(&api, &first, &gameid, (seed, 8), start, second_player),
            )
        })
        .find(|(_, (game, _))| game.outcome().is_none())
        .unwrap();
    // ...the bot dies; a new one, on another port, knows nothing of the game.
    first.kill();
    let second = Bot::start(&api, FAST);
    let gameid = format!("restart-{seed}");
    let (game, history) = play_out(
        &api,
        &second,
        &gameid,
        (seed + 100, 600),
        part,
        second_player,
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(Player::P2)),
        "{history:?}"
    );
}

#[test]
fn a_bot_that_cannot_run_safely_says_why_in_one_line_and_does_not_start() {
    let dir = std::env::temp_dir().join(format!("ternion-ap-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_a_key = dir.join("not-a-key.txt");
    std::fs::write(&not_a_key, "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ").unwrap();
    let key_arg = not_a_key.display().to_string();
    let dir_arg = dir.display().to_string();
    let query = ["--bot-query-url", "http://127.0.0.1:9/botQuery"];
    // The machine's bounds, as the protocol's options give them.
    let most_hash = ternion::protocol::options::max_hash_mib();
    let most_threads = ternion::search::max_threads();
    let (one_table, one_engine) = (most_hash.to_string(), most_threads.to_string());
    let over_hash = (most_hash + 1).to_string();
    let over_threads = (most_threads + 1).to_string();
    let cases: [(&[&str], bool, &str); 13] = [
        (&query, false, "AP_BOT_CLIENT_ID is not set"),
        (
            &["--bot-query-url", "http://bots.example.org/botQuery"],
            true,
            "plain http",
        ),
        (
            &[&query[..], &["--token-url", "ftp://127.0.0.1/t"]].concat(),
            true,
            "not an https://",
        ),
        (
            &[&query[..], &["--public-key", &key_arg]].concat(),
            true,
            "not-a-key.txt",
        ),
        (
            &[&query[..], &["--public-key", &dir_arg]].concat(),
            true,
            "directory",
        ),
        (
            &[&query[..], &["--think", "0"]].concat(),
            true,
            "seconds above 0",
        ),
        // A strength beyond the protocol's bounds, or two at once.
        (
            &[&query[..], &["--skill", "21"]].concat(),
            true,
            "Skill Level",
        ),
        (
            &[&query[..], &["--skill", "3", "--elo", "1000"]].concat(),
            true,
            "cannot be used with",
        ),
        // Facing the network without a proxy needs saying so.
        (
            &[&query[..], &["--listen", "0.0.0.0:0"]].concat(),
            true,
            "not the loopback address",
        ),
        // One table beyond half the memory, or two within it that together are not.
        (
            &[&query[..], &["--hash", &over_hash]].concat(),
            true,
            "Hash",
        ),
        (
            &[&query[..], &["--games", "2", "--hash", &one_table]].concat(),
            true,
            "MiB of tables",
        ),
        (
            &[&query[..], &["--threads", &over_threads]].concat(),
            true,
            "Threads",
        ),
        (
            &[&query[..], &["--games", "2", "--threads", &one_engine]].concat(),
            true,
            "search threads",
        ),
    ];
    for (args, credentials, reason) in cases {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ternion"));
        command
            .arg("abstractplay")
            .args(args)
            .env_remove("RUST_LOG");
        for name in [
            "AP_BOT_CLIENT_ID",
            "AP_BOT_CLIENT_SECRET",
            "BOT_QUERY_URL",
            "BOT_TOKEN_URL",
        ] {
            command.env_remove(name);
        }
        if credentials {
            command
                .env("AP_BOT_CLIENT_ID", "id")
                .env("AP_BOT_CLIENT_SECRET", "secret");
        }
        let output = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} started");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("s3cr3t-value"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asks `bot` for the first move of `gameid` and waits until it is queued.
fn queue_first_move(bot: &Bot, gameid: &str) {
    let (status, _) = post_signed(bot.address, &move_request(gameid, false, &[], 24));
    assert_eq!(status, 202, "{}", bot.log());
    let queued = format!("game {gameid}: ply 1 queued");
    assert!(bot.wait_for_log(&queued, MOVE_WAIT), "{}", bot.log());
}

#[test]
fn a_stopped_bot_posts_every_move_it_takes_then_exits() {
    let api = Api::start();
    let mut bot = Bot::start(&api, &["--think", "1.5"]);
    queue_first_move(&bot, "taken");
    bot.signal("-TERM");
    assert!(
        bot.wait_for_log("SIGTERM: stopping once the 1 move(s) taken", MOVE_WAIT),
        "{}",
        bot.log()
    );
    // AbstractPlay sends a turn once: while the bot stops, a new move is still taken.
    let late = post_signed(bot.address, &move_request("late", false, &[], 24)).0;
    assert_eq!(late, 202, "{}", bot.log());
    // Both are posted, and then it exits by itself, status 0.
    assert!(api.next_move("taken", MOVE_WAIT).is_some(), "{}", bot.log());
    assert!(api.next_move("late", MOVE_WAIT).is_some(), "{}", bot.log());
    assert_eq!(bot.exit_status(MOVE_WAIT), Some(0), "{}", bot.log());
    assert!(bot.log().contains("stopped"), "{}", bot.log());
}

#[test]
fn a_stop_cuts_the_searches_to_the_drain_and_names_the_games_it_leaves_waiting() {
    let api = Api::start();
    // Three moves of 30 s on one engine, and 6 s to stop: each search gets its share.
    let args = [
        "--think",
        "30",
        "--games",
        "1",
        "--drain",
        "6",
        "--timeout",
        "1",
    ];
    let mut bot = Bot::start(&api, &args);
    for gameid in ["drain-1", "drain-2", "drain-3"] {
        queue_first_move(&bot, gameid);
    }
    bot.signal("-TERM");
    assert_eq!(bot.exit_status(MOVE_WAIT), Some(0), "{}", bot.log());
    for gameid in ["drain-1", "drain-2", "drain-3"] {
        assert!(
            api.next_move(gameid, Duration::ZERO).is_some(),
            "{gameid}: {}",
            bot.log()
        );
    }
    assert!(
        bot.log().contains("at most 1.6 s a search, 6 s in all"),
        "{}",
        bot.log()
    );
    assert!(bot.log().contains("stopped\n"), "{}", bot.log());
    // A move that cannot be posted in time: its game is named.
    let mut bot = Bot::start(&api, &["--think", "0.02", "--drain", "1", "--timeout", "5"]);
    api.next_queries(&[QueryMode::Hang(Duration::from_secs(10))]);
    queue_first_move(&bot, "stuck");
    bot.signal("-TERM");
    assert_eq!(bot.exit_status(MOVE_WAIT), Some(0), "{}", bot.log());
    assert!(
        bot.log()
            .contains("game stuck: ply 1 left waiting: its move was not posted"),
        "{}",
        bot.log()
    );
}

#[test]
fn a_second_signal_ends_a_stopping_bot_at_once() {
    let api = Api::start();
    let mut bot = Bot::start(&api, &["--think", "30"]);
    queue_first_move(&bot, "long");
    bot.signal("-INT");
    assert!(
        bot.wait_for_log("SIGINT: stopping", MOVE_WAIT),
        "{}",
        bot.log()
    );
    bot.signal("-TERM");
    assert_eq!(
        bot.exit_status(Duration::from_secs(10)),
        Some(1),
        "{}",
        bot.log()
    );
}

/// A figure, not a check of the default run: how fast a burst of 400 move requests is
/// answered `202` while the engines play, and how long until every move is posted.
#[test]
#[ignore = "a timing figure (seconds): run with --ignored --nocapture"]
fn a_burst_of_requests_is_answered_at_once() {
    let api = Api::start();
    let bot = Bot::start(
        &api,
        &["--think", "0.01", "--queue", "4096", "--games", "2"],
    );
    let mut answered = Vec::new();
    for index in 0..400 {
        let body = move_request(&format!("burst-{index}"), false, &[], 24);
        let asked = std::time::Instant::now();
        assert_eq!(post_signed(bot.address, &body).0, 202);
        answered.push(asked.elapsed().as_secs_f64() * 1000.0);
    }
    let last = std::time::Instant::now();
    for index in 0..400 {
        assert!(
            api.next_move(&format!("burst-{index}"), MOVE_WAIT)
                .is_some()
        );
    }
    answered.sort_by(f64::total_cmp);
    eprintln!(
        "400 requests answered 202 in {:.2} ms median, {:.2} ms at the 99th percentile, \
         {:.2} ms at most; every move posted {:.1} s after the last request",
        answered[200],
        answered[396],
        answered[399],
        last.elapsed().as_secs_f64()
    );
}
