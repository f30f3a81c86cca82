//! The games' SVG pictures: well-formed XML for positions of every variant along seeded
//! random games, every piece drawn once, every id unique; and `ternion show`.

use std::collections::HashSet;
use std::process::Command;

use ternion::core::Player;
use ternion::games::Playable;
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::lerontenin::Lerontenin;
use ternion::games::lielow::{Lielow8, Lielow9};
use ternion::rules::{Notation, Picture, Rules};

/// Checks that `text` is one well-formed XML element (with an optional declaration):
/// tags nest and match, attribute values are quoted, `&` starts an entity, `<` only
/// starts a tag. Returns the start tags' names in order.
fn well_formed(text: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut roots = 0;
    let mut rest = text.strip_prefix("<?xml").map_or(text, |after| {
        &after[after.find("?>").expect("the declaration ends") + 2..]
    });
    while let Some(at) = rest.find(['<', '&']) {
        let (content, tail) = rest.split_at(at);
        assert!(!content.is_empty() || at == 0);
        if tail.starts_with('&') {
            let entity = &tail[..tail.find(';').expect("an entity ends with ;") + 1];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity),
                "{entity}"
            );
            rest = &tail[entity.len()..];
            continue;
        }
        // A tag: up to the first '>' outside quotes.
        let mut quoted = false;
        let end = tail
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == '>' && !quoted
            })
            .expect("a tag ends")
            .0;
        let tag = &tail[1..end];
        rest = &tail[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.trim()),
                "mismatched </{name}>"
            );
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body
            .split_whitespace()
            .next()
            .expect("a tag name")
            .to_owned();
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "{name}"
        );
        // Attributes: name="value", the value free of '<' and of bare '&'.
        let mut attributes = &body[name.len()..];
        while !attributes.trim().is_empty() {
            let (key, after) = attributes.split_once("=\"").expect("a quoted attribute");
            assert!(!key.trim().is_empty() && !key.contains('"'), "{tag}");
            let (value, after) = after.split_once('"').expect("a closing quote");
            assert!(!value.contains('<'), "{value}");
            for piece in value.split('&').skip(1) {
                assert!(
                    ["amp;", "lt;", "gt;", "quot;", "apos;"]
                        .iter()
                        .any(|e| piece.starts_with(e)),
                    "{value}"
                );
            }
            attributes = after;
        }
        if open.is_empty() {
            roots += 1;
        }
        names.push(name.clone());
        if !self_closing {
            open.push(name);
        }
    }
    assert!(rest.trim().is_empty(), "text after the root");
    assert!(open.is_empty(), "unclosed {open:?}");
    assert_eq!(roots, 1, "one root element");
    names
}

/// The ids of a picture, checked unique.
fn ids(svg: &str) -> Vec<&str> {
    let ids: Vec<&str> = svg
        .split(" id=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    let unique: HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "ids are unique");
    ids
}

/// Plays seeded random games of `G`, checking the picture after every move with
/// `check(game, svg)`.
fn along_random_games<G: Playable>(seed: u64, games: usize, check: impl Fn(&G, &str)) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = G::start();
        let mut last = None;
        for _ in 0..300 {
            let svg = game.svg(last);
            let names = well_formed(&svg);
            assert_eq!(names[0], "svg");
            check(&game, &svg);
            moves.clear();
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.usize(..moves.len())];
            game.make_move(mv);
            last = Some(mv);
        }
    }
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

#[test]
fn lielow_draws_every_square_and_stack() {
    fn check<const N: usize, G: Playable>(game: &G, svg: &str, stacks: usize, crowned: usize) {
        let ids = ids(svg);
        assert_eq!(ids.iter().filter(|i| i.starts_with("sq-")).count(), N * N);
        assert_eq!(
            ids.iter().filter(|i| i.starts_with("stack-")).count(),
            stacks
        );
        assert_eq!(count(svg, "class=\"crown\""), crowned);
        let _ = game;
    }
    along_random_games::<Lielow8>(1, 6, |game, svg| {
        let stacks: Vec<_> = (0..64).filter_map(|s| game.stack_at(s)).collect();
        let crowned = stacks.iter().filter(|s| s.2).count();
        check::<8, _>(game, svg, stacks.len(), crowned);
    });
    along_random_games::<Lielow9>(2, 4, |game, svg| {
        let stacks: Vec<_> = (0..81).filter_map(|s| game.stack_at(s)).collect();
        let crowned = stacks.iter().filter(|s| s.2).count();
        check::<9, _>(game, svg, stacks.len(), crowned);
    });
}

#[test]
fn egaraguti_draws_every_point_and_man() {
    along_random_games::<EgaraGuti>(3, 10, |game, svg| {
        let ids = ids(svg);
        assert_eq!(ids.iter().filter(|i| i.starts_with("pt-")).count(), 23);
        let men: u32 = Player::BOTH.iter().map(|&p| game.men(p).count_ones()).sum();
        assert_eq!(
            ids.iter().filter(|i| i.starts_with("man-")).count(),
            men as usize
        );
        assert_eq!(
            count(svg, "class=\"man white\""),
            game.men(Player::P1).count_ones() as usize
        );
        // The lines are the 11 of the board, plus the last move's path.
        assert!(count(svg, "<polyline") >= 11);
    });
}

#[test]
fn lerontenin_draws_every_square_and_piece() {
    along_random_games::<Lerontenin>(4, 4, |game, svg| {
        let ids = ids(svg);
        assert_eq!(ids.iter().filter(|i| i.starts_with("sq-")).count(), 97);
        assert!(ids.contains(&"start") && ids.contains(&"end"));
        for (player, side) in Player::BOTH.into_iter().zip(["light", "dark"]) {
            let pieces = game.army(player).pieces().len();
            let prefix = format!("piece-{side}-");
            assert_eq!(
                ids.iter().filter(|i| i.starts_with(&prefix)).count(),
                pieces
            );
        }
    });
}

fn ternion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ternion"))
        .args(args)
        .output()
        .expect("the ternion binary runs")
}

#[test]
fn show_prints_the_diagram_or_writes_the_picture() {
    let output = ternion(&["show", "egaraguti", "--moves", "e3e4"]);
    assert!(output.status.success());
    let diagram = String::from_utf8(output.stdout).unwrap();
    let game = EgaraGuti::parse_position("bbbbb/bbb/bbb/w/w1w/www/wwwww b 0 1").unwrap();
    // The picture, then whose turn it is.
    assert_eq!(diagram, game.diagram().join("\n") + "\nSide to move: p2\n");
    let finished = ternion(&[
        "show",
        "egaraguti",
        "--fen",
        "5/3/3/w/b1b/1b1/5 w 0 1",
        "--moves",
        "e4c2g2e4",
    ]);
    let text = String::from_utf8(finished.stdout).unwrap();
    assert!(text.ends_with("\nResult: p1win\n"), "{text}");

    let dir = std::env::temp_dir().join(format!("ternion-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("egaraguti.svg");
    let output = ternion(&[
        "show",
        "egaraguti",
        "--moves",
        "e3e4 e5e3",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let svg = std::fs::read_to_string(&file).unwrap();
    well_formed(&svg);
    assert!(svg.contains("id=\"last-move\""));

    // A recorded game, one picture per ply from the start.
    let records = dir.join("games.txt");
    let output = ternion(&[
        "match",
        "--engine",
        env!("CARGO_BIN_EXE_ternion"),
        "--engine",
        env!("CARGO_BIN_EXE_ternion"),
        "--variant",
        "lielow",
        "--depth",
        "1",
        "--openings",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&records).unwrap();
    let plies: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("[Plies \""))
        .and_then(|l| l.trim_end_matches("\"]").parse().ok())
        .unwrap();
    let pictures = dir.join("pictures");
    let output = ternion(&[
        "show",
        "lielow",
        "--record",
        records.to_str().unwrap(),
        "--game",
        "1",
        "--svg-dir",
        pictures.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let drawn = std::fs::read_dir(&pictures).unwrap().count();
    // The two opening plies, the engines' plies, and the start.
    assert_eq!(drawn, 2 + plies + 1);
    // Without --svg-dir, the diagrams on stdout: every ply's, or one.
    let shown = |more: &[&str]| {
        let mut args = vec![
            "show",
            "lielow",
            "--record",
            records.to_str().unwrap(),
            "--game",
            "1",
        ];
        args.extend_from_slice(more);
        let output = ternion(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let every = shown(&[]);
    let headings: Vec<&str> = every
        .lines()
        .filter(|l| l.starts_with("game 1, ply "))
        .collect();
    assert_eq!(headings.len(), 2 + plies + 1, "{every}");
    assert_eq!(headings[0], "game 1, ply 0 (the start)");
    let start = Lielow8::start();
    assert!(
        every.contains(&start.diagram().join("\n")),
        "the start's diagram"
    );
    let one = shown(&["--ply", "1"]);
    assert_eq!(
        one.lines()
            .filter(|l| l.starts_with("game 1, ply "))
            .count(),
        1,
        "{one}"
    );
    assert!(one.starts_with("game 1, ply 1: "), "{one}");
    let beyond = ternion(&[
        "show",
        "lielow",
        "--record",
        records.to_str().unwrap(),
        "--game",
        "1",
        "--ply",
        "9999",
    ]);
    assert_eq!(beyond.status.code(), Some(2));
    for (args, why) in [
        (
            vec![
                "show",
                "egaraguti",
                "--record",
                records.to_str().unwrap(),
                "--game",
                "1",
                "--svg-dir",
                "x",
            ],
            "not egaraguti",
        ),
        (
            vec![
                "show",
                "lielow",
                "--record",
                records.to_str().unwrap(),
                "--game",
                "9",
                "--svg-dir",
                "x",
            ],
            "no game 9",
        ),
        (vec!["show", "lielow", "--moves", "z9"], "bad move"),
    ] {
        let output = ternion(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8(output.stderr).unwrap();
        assert!(error.contains(why), "{error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
