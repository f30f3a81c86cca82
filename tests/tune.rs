//! Self-play data and the tuner: the data is well formed and repeats exactly from its seed,
//! and a fit never ends worse on the held-out positions than where it started.

use std::sync::atomic::AtomicBool;

use ternion::arena::schedule::Shard;
use ternion::games::{Playable, Variant};
use ternion::tune::selfplay::{SelfplayConfig, run_selfplay};
use ternion::tune::texel::{TuneConfig, tune};

fn selfplay(variant: Variant, games: u64, seed: u64, concurrency: usize) -> String {
    selfplay_shard(variant, games, seed, concurrency, Shard::WHOLE)
}

fn selfplay_shard(
    variant: Variant,
    games: u64,
    seed: u64,
    concurrency: usize,
    shard: Shard,
) -> String {
    let config = SelfplayConfig {
        variant,
        games,
        nodes: 400,
        openings: 6,
        max_plies: 300,
        seed,
        concurrency,
        shard,
    };
    let mut out = Vec::new();
    let totals = run_selfplay(&config, &mut out, &AtomicBool::new(false), &mut |_| {})
        .expect("self-play runs");
    assert_eq!(totals.games, config.games_to_play(), "{variant}");
    let text = String::from_utf8(out).expect("utf-8");
    assert_eq!(text.lines().count() as u64, totals.positions, "{variant}");
    text
}

fn well_formed<G: Playable>(text: &str) {
    for line in text.lines() {
        let (result, rest) = line.split_once(' ').expect("<result> <position> ; <score>");
        assert!(["1", "0", "0.5"].contains(&result), "{line}");
        let (position, score) = rest.rsplit_once(" ; ").expect("a score");
        let score: i32 = score.parse().expect("centipawns");
        assert!(score.abs() < 3000, "{line}: a decided score is no lesson");
        let game = G::parse_position(position).expect("a position the game reads");
        assert!(game.outcome().is_none(), "{line}: a finished game");
        assert_eq!(game.position_string(), position);
    }
}

#[test]
fn self_play_writes_positions_in_play_with_results_and_repeats_from_its_seed() {
    for variant in Variant::ALL {
        let games = if variant == Variant::Lerontenin { 2 } else { 6 };
        let text = selfplay(variant, games, 3, 1);
        assert!(text.lines().count() >= games as usize, "{variant}: {text}");
        ternion::with_game!(variant, G => well_formed::<G>(&text));
        assert_eq!(
            selfplay(variant, games, 3, 1),
            text,
            "{variant}: not repeated"
        );
    }
    // Several threads play the same games (in another order).
    let mut one: Vec<String> = selfplay(Variant::Egaraguti, 8, 9, 1)
        .lines()
        .map(str::to_owned)
        .collect();
    let mut three: Vec<String> = selfplay(Variant::Egaraguti, 8, 9, 3)
        .lines()
        .map(str::to_owned)
        .collect();
    one.sort();
    three.sort();
    assert_eq!(one, three);
    // The shards of a run are the whole run, game for game.
    let mut shards: Vec<String> = (0..3)
        .flat_map(|index| {
            let shard = Shard { index, count: 3 };
            selfplay_shard(Variant::Egaraguti, 8, 9, 1, shard)
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    shards.sort();
    assert_eq!(shards, one);
}

#[test]
fn a_fit_ends_no_worse_on_held_out_positions_than_it_started() {
    let data = selfplay(Variant::Egaraguti, 60, 11, 2);
    let config = TuneConfig {
        variant: Variant::Egaraguti,
        hold_out_every: 5,
        iterations: 300,
        step: 1.0,
    };
    let mut steps = 0;
    let report = tune(&config, &[("data", &data)], &mut |_| steps += 1).expect("the fit runs");
    assert!(steps > 1);
    assert_eq!(report.before.len(), report.after.len());
    assert_eq!(report.training + report.held_out, data.lines().count());
    assert!(report.k > 10.0 && report.k < 10_000.0, "K = {}", report.k);
    // Rounding the kept weights to whole numbers may cost a hair.
    assert!(
        report.held_out_error.1 <= report.held_out_error.0 + 1e-4,
        "{:?}",
        report.held_out_error
    );
    let table = report.table("WEIGHTS");
    assert!(table.contains(&format!("[i32; {}]", report.after.len())));
    assert!(table.contains("// men\n"), "{table}");
}

#[test]
fn bad_data_is_refused_with_its_line() {
    let config = TuneConfig {
        variant: Variant::Lielow,
        hold_out_every: 2,
        iterations: 10,
        step: 1.0,
    };
    let bad = [
        ("2 8/8/8/8/8/8/8/b1*7 b", "bad.txt:2: bad result"),
        ("1 nonsense", "bad.txt:2: bad position"),
        ("1", "bad.txt:2: expected <result> <position>"),
        ("1 8/8/8/8/8/8/8/b1*7 b ; lots", "bad.txt:2: bad score"),
    ];
    // The bad line is named by its file and its line in that file.
    let good = "1 8/8/8/8/8/8/8/b1*7 b ; 120";
    for (data, reason) in bad {
        let second = format!("{good}\n{data}");
        let sources = [("good.txt", good), ("bad.txt", second.as_str())];
        let error = tune(&config, &sources, &mut |_| {}).expect_err(data);
        assert!(error.starts_with(reason), "{data}: {error}");
    }
    let error = tune(&config, &[("empty.txt", "")], &mut |_| {}).expect_err("no data");
    assert!(error.starts_with("too little data"), "{error}");
}
