//! Self-play data, the tuner and the network trainer: the data is well formed and repeats
//! exactly from its seed, a fit never ends worse on the held-out positions than where it
//! started, and a trained network learns, repeats under its seed, and keeps the float
//! model's values once quantised.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ternion::arena::schedule::Shard;
use ternion::eval::network::SCALE;
use ternion::eval::{Evaluate, Evaluator};
use ternion::games::lielow::Lielow8;
use ternion::games::{Playable, Variant};
use ternion::rules::Rules;
use ternion::tune::data::parse_line;
use ternion::tune::selfplay::{SelfplayConfig, run_selfplay};
use ternion::tune::texel::{TuneConfig, tune};
use ternion::tune::train::model::Scratch;
use ternion::tune::train::samples::{
    DataReader, HOLD_OUT_BLOCK, Mirror, TrainingData, is_held_out,
};
use ternion::tune::train::{TrainConfig, train};

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
    selfplay_with(variant, games, seed, concurrency, shard, None)
}

fn selfplay_with(
    variant: Variant,
    games: u64,
    seed: u64,
    concurrency: usize,
    shard: Shard,
    evaluator: Option<Evaluator>,
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
        evaluator,
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

/// The data of the network tests: Lielow games at 400 nodes a move, on one thread, so that
/// the lines come in the games' order and the same lines are held out every time, played
/// with the hand-written evaluation, so that the data stays the same when a new network is
/// built in.
fn lielow_data() -> String {
    selfplay_with(
        Variant::Lielow,
        200,
        21,
        1,
        Shard::WHOLE,
        Some(Evaluator::Terms),
    )
}

fn tiny_config(threads: usize) -> TrainConfig {
    let mut config = TrainConfig::new(Variant::Lielow);
    config.hidden = 16;
    config.epochs = 30;
    config.batch = 64;
    config.rate = 0.003;
    config.decay = 0.95;
    config.seed = 5;
    config.threads = threads;
    config
}

#[test]
fn training_a_tiny_network_lowers_its_validation_loss_and_repeats_exactly() {
    let data = lielow_data();
    let sources = [("data", data.as_str())];
    let mut lines = 0;
    let report = train(&tiny_config(2), &sources, &mut |_| lines += 1).expect("training runs");
    assert_eq!(
        lines,
        2 + 30,
        "a line when the data is read, one at the start and one an epoch"
    );
    assert_eq!(report.training + report.validation, data.lines().count());
    let kept = report.epochs[report.best as usize - 1].validation_loss;
    // The stated amount: 15% of the starting loss at least (from games at 400 nodes a
    // move, whose results are noisy labels).
    assert!(
        kept <= 0.85 * report.start_loss,
        "validation loss {kept} from {}",
        report.start_loss
    );
    // The same data, settings and seed: the same network, however many threads.
    let again = train(&tiny_config(1), &sources, &mut |_| {}).expect("training runs");
    assert_eq!(again.network, report.network);
    // Another seed, another network.
    let mut other = tiny_config(2);
    other.seed = 6;
    let other = train(&other, &sources, &mut |_| {}).expect("training runs");
    assert_ne!(other.network, report.network);
}

#[test]
fn a_given_scale_replaces_the_fitted_one() {
    let data = lielow_data();
    let sources = [("data", data.as_str())];
    let mut config = tiny_config(2);
    config.epochs = 1;
    let fitted = train(&config, &sources, &mut |_| {}).expect("training runs");
    let fitted_scale = fitted.scale.expect("the data has scores");
    config.scale = Some(2.0 * fitted_scale);
    let given = train(&config, &sources, &mut |_| {}).expect("training runs");
    assert_eq!(given.scale, Some(2.0 * fitted_scale));
    // The targets changed with the scale, and with them the network.
    assert_ne!(given.network, fitted.network);
}

/// With one output layer and with Lielow's output buckets (each position read by its
/// bucket's layer in both the float model and the engine).
#[test]
fn the_quantised_network_stays_near_the_float_model_on_held_out_positions() {
    let data = lielow_data();
    for output_buckets in [false, true] {
        let mut config = tiny_config(2);
        config.output_buckets = output_buckets;
        // The quantiser's test, on the network it has always measured: trained on the
        // positions alone. (With their mirrors, twice the steps an epoch grow this tiny
        // network's weights, and with them the rounding: 10.5 cp at most, 3.0 on average.)
        config.mirror = false;
        let report = train(&config, &[("data", &data)], &mut |_| {}).expect("training runs");
        let buckets = if output_buckets {
            Lielow8::OUTPUT_BUCKETS
        } else {
            1
        };
        assert_eq!(report.network.buckets(), buckets);
        let evaluator = Evaluator::Network(Arc::new(report.network.clone()));
        let mut scratch = Scratch::new(report.params.hidden, report.params.layer2);
        let (mut worst, mut total) = (0.0f32, 0.0f32);
        let mut compared = 0;
        // The held-out lines: the first block of every ten.
        for (index, line) in data.lines().enumerate() {
            if !is_held_out(index, HOLD_OUT_BLOCK) {
                continue;
            }
            let game = parse_line::<Lielow8>(line).expect("a data line").game;
            let side = game.side_to_move();
            let inputs = |perspective| {
                let mut on = Vec::new();
                game.inputs(perspective, |input| on.push(input as u16));
                on
            };
            let bucket = report.params.bucket(game.output_bucket());
            let float = (report.params).forward(
                &inputs(side),
                &inputs(side.opponent()),
                bucket,
                &mut scratch,
            ) * SCALE as f32;
            let integer = game.evaluate_by(&evaluator) as f32;
            worst = worst.max((float - integer).abs());
            total += (float - integer).abs();
            compared += 1;
        }
        assert!(compared > 100, "{compared} held-out positions");
        // The stated bounds, in centipawns: at most 10 apart, 3 on average (the input
        // layer's rounding to 1/255, over a few dozen inputs on, is most of it).
        let mean = total / compared as f32;
        assert!(
            worst <= 10.0 && mean <= 3.0,
            "{buckets} buckets: {worst} cp apart at most, {mean} on average"
        );
    }
}

#[test]
fn a_network_is_refused_bad_data() {
    let error = train(
        &tiny_config(1),
        &[("bad.txt", "3 8/8/8/8/8/8/8/b1*7 b ; 0")],
        &mut |_| {},
    )
    .expect_err("a bad line");
    assert!(error.starts_with("bad.txt:1: bad result"), "{error}");
}

/// The manifest lines of a run of `scripts/selfplay-shards.sh` in `dir`, sorted.
fn manifest(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("manifest.txt")).unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.sort();
    lines
}

/// A field of a manifest line.
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    (line.split(' '))
        .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("{name} in {line}"))
}

/// Starts `scripts/selfplay-shards.sh` on four small Lielow shards into `dir`, in a
/// process group of its own.
fn shards_run(dir: &std::path::Path) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/selfplay-shards.sh"
    ));
    command
        .args(["--dir", dir.to_str().unwrap(), "lielow"])
        .env("TERNION", env!("CARGO_BIN_EXE_ternion"))
        .envs([
            ("SHARDS", "4"),
            ("GAMES", "6"),
            ("NODES", "400"),
            ("JOBS", "1"),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    command
}

#[test]
fn sharded_self_play_killed_midway_keeps_only_whole_shards_and_finishes_the_rest() {
    let scratch = std::env::temp_dir().join(format!("ternion-shards-{}", std::process::id()));
    let (whole, killed) = (scratch.join("whole"), scratch.join("killed"));
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(shards_run(&whole).status().unwrap().success());
    let expected = manifest(&whole);
    assert_eq!(expected.len(), 4, "{expected:?}");

    // Killed (the whole group, at once) while the second shard plays: the manifest holds
    // the first shard alone, whole.
    let mut child = shards_run(&killed).spawn().unwrap();
    let started = std::time::Instant::now();
    while manifest(&killed).is_empty() {
        assert!(started.elapsed().as_secs() < 300, "no shard finished");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let group = format!("-{}", child.id());
    let killed_ok = std::process::Command::new("kill")
        .args(["-KILL", "--", &group])
        .status()
        .unwrap();
    assert!(killed_ok.success());
    let _ = child.wait();
    let partial = manifest(&killed);
    assert!(!partial.is_empty() && partial.len() < 4, "{partial:?}");
    for line in &partial {
        assert!(
            expected.contains(line),
            "{line}: not the uninterrupted run's shard"
        );
    }
    // Run again: the rest is played, and the run is the uninterrupted one, shard for shard.
    assert!(shards_run(&killed).status().unwrap().success());
    let finished = manifest(&killed);
    let sums = |lines: &[String]| -> Vec<(String, String)> {
        (lines.iter())
            .map(|l| (field(l, "shard").to_owned(), field(l, "sha256").to_owned()))
            .collect()
    };
    assert_eq!(sums(&finished), sums(&expected));
    for line in &finished {
        let data = std::fs::read_to_string(killed.join(field(line, "file"))).unwrap();
        assert_eq!(data.lines().count().to_string(), field(line, "positions"));
        ternion::tune::data::parse_line::<Lielow8>(data.lines().next().unwrap()).unwrap();
    }
    let left: Vec<_> = std::fs::read_dir(&killed)
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    // A run with other settings in the same directory is refused.
    let mut other = shards_run(&killed);
    other.env("NODES", "500");
    assert!(!other.status().unwrap().success());
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Reads `text` as Lielow data on `threads` threads, in sources of at most `lines` lines.
fn read_lielow(text: &str, threads: usize, lines: usize) -> TrainingData {
    let mut reader = DataReader::<Lielow8>::new(true, HOLD_OUT_BLOCK, threads);
    let all: Vec<&str> = text.lines().collect();
    for (k, source) in all.chunks(lines).enumerate() {
        reader
            .add(&format!("part {k}"), &source.join("\n"))
            .unwrap();
    }
    reader.finish(0.5, None).unwrap()
}

#[test]
fn the_compact_data_holds_every_lines_inputs_and_reads_alike_on_any_threads_and_files() {
    let text = lielow_data();
    let data = read_lielow(&text, 1, usize::MAX);
    for (threads, lines) in [(2, usize::MAX), (7, usize::MAX), (3, 101), (1, 1)] {
        assert!(
            read_lielow(&text, threads, lines) == data,
            "{threads} threads, {lines}"
        );
    }
    // Each position as it was stored: the inputs of its line's position, from the side to
    // move's side then the other's, and its mirror's inputs the mirrored ones.
    let mirror = Mirror::of::<Lielow8>().expect("Lielow mirrors");
    let (mut trained, mut held) = (0, 0);
    let (mut own, mut other) = (Vec::new(), Vec::new());
    for (index, line) in text.lines().enumerate() {
        let game = parse_line::<Lielow8>(line).unwrap().game;
        let sample = match is_held_out(index, HOLD_OUT_BLOCK) {
            true => (data.validation.get(held), held += 1).0,
            false => (data.training.get(trained), trained += 1).0,
        };
        let inputs = |game: &Lielow8, perspective| {
            let mut on = Vec::new();
            game.inputs(perspective, |input| on.push(u16::try_from(input).unwrap()));
            on
        };
        let side = game.side_to_move();
        assert_eq!(sample.own, inputs(&game, side), "{line}");
        assert_eq!(sample.other, inputs(&game, side.opponent()), "{line}");
        assert_eq!(sample.offset, game.evaluate() as f32 / SCALE as f32);
        assert_eq!(sample.bucket, game.output_bucket());
        mirror.apply(&sample, &mut own, &mut other);
        let mirrored = game.mirrored().unwrap();
        let sorted = |mut on: Vec<u16>| (on.sort_unstable(), on).1;
        assert_eq!(
            sorted(own.clone()),
            sorted(inputs(&mirrored, side)),
            "{line}"
        );
        let theirs = inputs(&mirrored, side.opponent());
        assert_eq!(sorted(other.clone()), sorted(theirs), "{line}");
    }
    assert_eq!(
        (trained, held),
        (data.training.len(), data.validation.len())
    );
    assert!(held > 0 && trained > held);
}

#[test]
fn mirrored_training_differs_from_plain_training_and_still_learns() {
    let data = lielow_data();
    let sources = [("data", data.as_str())];
    let mut config = tiny_config(2);
    config.epochs = 10;
    let mirrored = train(&config, &sources, &mut |_| {}).expect("training runs");
    config.mirror = false;
    let plain = train(&config, &sources, &mut |_| {}).expect("training runs");
    assert_ne!(mirrored.params, plain.params, "the mirrors changed nothing");
    let best = |report: &ternion::tune::train::TrainReport| {
        report.epochs[report.best as usize - 1].validation_loss
    };
    assert!(best(&mirrored) < mirrored.start_loss);
    assert!(best(&plain) < plain.start_loss);
}

/// A fresh path for a checkpoint of this test process (none there yet).
fn checkpoint_path(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("ternion-{name}-{}.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_training_stopped_between_epochs_goes_on_to_the_network_it_would_have_made() {
    let data = lielow_data();
    let sources = [("data", data.as_str())];
    let mut config = tiny_config(2);
    config.epochs = 5;
    let unstopped = train(&config, &sources, &mut |_| {}).expect("training runs");

    // Stopped after epoch 2 (its checkpoint is all that is left of it), then run again.
    let path = checkpoint_path("resume");
    config.checkpoint = Some(path.clone());
    config.epochs = 2;
    let first = train(&config, &sources, &mut |_| {}).expect("training runs");
    assert_eq!(first.epochs.len(), 2);
    config.epochs = 5;
    let mut lines = Vec::new();
    let resumed = train(&config, &sources, &mut |line| lines.push(line)).expect("it goes on");
    assert!(
        lines.iter().any(|l| l.ends_with("after epoch 2")),
        "it says where it goes on from: {lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("epoch ")).count(),
        3,
        "three epochs left to train: {lines:?}"
    );
    assert_eq!(resumed.network, unstopped.network);
    assert_eq!(resumed.params, unstopped.params);
    assert_eq!(resumed.best, unstopped.best);
    assert_eq!(resumed.start_loss, unstopped.start_loss);
    let losses = |report: &ternion::tune::train::TrainReport| -> Vec<(u32, f64, f64)> {
        let epochs = report.epochs.iter();
        epochs
            .map(|e| (e.number, e.training_loss, e.validation_loss))
            .collect()
    };
    assert_eq!(losses(&resumed), losses(&unstopped));

    // A finished training run again trains nothing and gives its network again.
    let mut lines = 0;
    let again = train(&config, &sources, &mut |_| lines += 1).expect("nothing to train");
    assert_eq!(again.network, unstopped.network);
    assert_eq!(
        lines, 3,
        "the data, where it goes on from, the start; no epoch"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_checkpoint_of_another_training_or_damaged_is_refused_and_left_alone() {
    let data = lielow_data();
    let sources = [("data", data.as_str())];
    let path = checkpoint_path("refused");
    let mut config = tiny_config(2);
    config.epochs = 1;
    config.checkpoint = Some(path.clone());
    train(&config, &sources, &mut |_| {}).expect("training runs");
    let saved = std::fs::read(&path).expect("the checkpoint is written");

    let refusal = |config: &TrainConfig, sources: &[(&str, &str)]| {
        let error = train(config, sources, &mut |_| {}).expect_err("refused");
        assert_eq!(std::fs::read(&path).expect("still there"), saved, "{error}");
        error
    };
    let mut wider = config.clone();
    wider.hidden = 32;
    let error = refusal(&wider, &sources);
    assert!(error.contains("(hidden=16, here hidden=32)"), "{error}");
    let mut reseeded = config.clone();
    reseeded.seed = 9;
    assert!(refusal(&reseeded, &sources).contains("(seed=5, here seed=9)"));
    // The same settings, a line less of data.
    let fewer = data.split_once('\n').expect("many lines").1;
    let error = refusal(&config, &[("data", fewer)]);
    assert!(error.contains("trained on other data"), "{error}");
    // A bit flipped anywhere.
    let mut damaged = saved.clone();
    damaged[saved.len() / 2] ^= 4;
    std::fs::write(&path, &damaged).expect("written");
    let error = train(&config, &sources, &mut |_| {}).expect_err("damaged");
    assert!(error.contains("it is damaged"), "{error}");
    std::fs::write(&path, b"TNTRCK01 and then nothing").expect("written");
    let error = train(&config, &sources, &mut |_| {}).expect_err("cut short");
    assert!(
        error.starts_with("cannot go on from the checkpoint"),
        "{error}"
    );
    let _ = std::fs::remove_file(&path);
}
