//! `ternion tables`: builds Egara-guti's exact tables, looks into them, checks them and
//! draws data from them (see `ternion::games::egaraguti::tablebase`).

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};
use ternion::arena::record::parse_records;
use ternion::core::printable::plies;
use ternion::core::{Outcome, Player, Wdl};
use ternion::games::Variant;
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::egaraguti::tablebase::build::{BuildConfig, build};
use ternion::games::egaraguti::tablebase::compact::compact_set;
use ternion::games::egaraguti::tablebase::compare::{Comparison, Selection, compare_sets};
use ternion::games::egaraguti::tablebase::file::{self, file_sha256};
use ternion::games::egaraguti::tablebase::index::MAX_MEN;
use ternion::games::egaraguti::tablebase::index::Material;
use ternion::games::egaraguti::tablebase::material::{levels_of_total, parts};
use ternion::games::egaraguti::tablebase::probe_cost::{probe_costs, search_probe_cost};
use ternion::games::egaraguti::tablebase::runs::READ_WEIGHT;
use ternion::games::egaraguti::tablebase::verify::{Coverage, verify};
use ternion::games::egaraguti::tablebase::{Tablebase, line, men_of, sample};
use ternion::protocol::format::result_word;
use ternion::rules::{Notation, Rules};

use super::position::PositionArgs;
use super::teach::{self, DataArgs, OnePlyArgs};

#[derive(Debug, Args)]
pub struct TablesArgs {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(Debug, Subcommand)]
enum TablesCommand {
    /// Solve every level of at most --men men, fewest first, into --dir.
    ///
    /// Levels already in the directory are kept; an interrupted build goes on where it
    /// stopped. Prints one line per level on stderr (positions, time, win/draw/loss shares,
    /// the longest forced capture, the time left) and a summary on stdout.
    Build(BuildArgs),
    /// Print what the tables in --dir say of a position.
    ///
    /// Prints "<win|draw|loss> for the side to move", the distance to the capture or
    /// block that decides it where stored, and whether the value is exact at the
    /// position's 40-ply counter.
    Probe(ProbeArgs),
    /// Print every legal move's value by the tables and a line of perfect play.
    ///
    /// Loads every table of --dir. Prints the position's value, then each legal move with
    /// its value for the side that plays it and the plies to the capture, block or end that
    /// decides it, then the moves the tables rank first (the shortest way for the side the
    /// value favours over the men count, the longest for the other) to the end of the game,
    /// with its result.
    Line(LineArgs),
    /// Audit one player's moves in recorded games by the tables.
    ///
    /// Reads the records of `ternion match --records`; in each game the player whose P1 or
    /// P2 tag contains --player is audited: its value at the game's start, the result it
    /// got, and every move of its that was worth less than its best move by the tables.
    /// Prints a line per game and a summary; exits with status 1 when a move gave value
    /// away or a game was lost from a start worth a draw or better.
    Audit(AuditArgs),
    /// Check built tables independently, level by level.
    ///
    /// Every file's header and checksum are checked; then, for sampled positions, the
    /// stored value and distance must follow from one ply of the rules over the stored
    /// figures of the positions after it (captures in the lower levels). Needs a build
    /// with --distances. Prints, per level, the positions checked and the disagreements,
    /// and exits with status 1 on any.
    Verify(VerifyArgs),
    /// Write the compact form of the whole set in --dir into --out.
    ///
    /// Each table keeps only what a probe reads: the values of the positions without a
    /// capture (the others come from one ply over the lower levels) and the distances
    /// where the value is not the men count's verdict, run-coded in blocks read in place.
    /// Tables already in --out are kept. Prints a line per table on stderr and the sizes
    /// on stdout; `tables compare` checks the result position by position.
    Compact(CompactArgs),
    /// Check that two whole sets, packed or compact, agree on every position.
    ///
    /// Compares the value and distance of every canonical position of every table, as
    /// the engine reads them. Prints a line per table and exits with status 1 on any
    /// disagreement.
    Compare(CompareArgs),
    /// Time the probes of every table of --dir, packed or compact, or of a search.
    ///
    /// Probes --positions seeded random positions of each table's material (most with a
    /// capture, which a compact table values through the lower levels) once untimed, then
    /// three times timed; prints each table's median cost a probe, and the mean over the
    /// tables. With --search-nodes, a search of the position given (the start by default)
    /// records the positions it probes, which are then probed again in order: the cost of
    /// a probe in the search.
    Bench(BenchArgs),
    /// Print the SHA-256 of every table file of --dir, fewest men first.
    ///
    /// One line a file, "<sum>  <file name>", the form `sha256sum -c` reads: compare a
    /// build with the sums docs/rules/egaraguti.md publishes, byte for byte.
    Sums(SumsArgs),
    /// Print seeded random positions of one level that the tables value as asked.
    ///
    /// One position string a line, each at counter 0, in play, and valued --value for
    /// the side to move by the tables of --dir: the starts of `ternion match --starts`, to
    /// measure play where the value is known (how often a drawn start is won against a
    /// weaker player, say). Fewer than --count when the level holds too few.
    Starts(StartsArgs),
    /// Write positions of every level labelled with their exact values, for `ternion train`.
    ///
    /// Draws --positions positions in play from each level of --dir, at counter 0 (or, with
    /// --any-counter, at any counter where the tables know the value), and writes each as
    /// "<result> <position> ; <score>" from the first player's side: the result the tables'
    /// value (1, 0.5, 0), the score the same with the distance (a nearer win scores
    /// higher). The data of a network that learns the solved game.
    Data(DataArgs),
    /// Measure how often an evaluation's one-ply choice keeps a position's value.
    ///
    /// Draws --positions positions in play at counter 0 from each level of --dir; in those
    /// where some legal move gives the value away, counts how often the move that looks
    /// best one ply ahead keeps it, by the hand-written terms and, with --eval-file, by a
    /// network. Prints a row per level and a total.
    OnePly(OnePlyArgs),
}

#[derive(Debug, Args)]
struct StartsArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The men of each side, the first player's first: 4+4, 5+3.
    #[arg(long, value_name = "P1+P2", value_parser = parse_men)]
    men: [usize; 2],
    /// The value for the side to move: win, draw or loss.
    #[arg(long, value_parser = parse_wdl)]
    value: Wdl,
    /// How many positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// The seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_men(text: &str) -> Result<[usize; 2], String> {
    let side = |part: &str| match part.trim().parse::<usize>() {
        Ok(men @ 1..=MAX_MEN) => Ok(men),
        _ => Err(format!("'{part}' is not 1 to {MAX_MEN} men")),
    };
    let (first, second) = text
        .split_once('+')
        .ok_or_else(|| format!("'{text}' is not <men>+<men>"))?;
    Ok([side(first)?, side(second)?])
}

/// A table's name, the side to move's men first: `8v9`.
fn parse_table(text: &str) -> Result<Material, String> {
    let side = |part: &str| match part.parse::<usize>() {
        Ok(men @ 1..=MAX_MEN) => Some(men),
        _ => None,
    };
    text.split_once('v')
        .and_then(|(mover, other)| {
            Some(Material {
                mover: side(mover)?,
                other: side(other)?,
            })
        })
        .ok_or_else(|| format!("'{text}' is not a table: <men>v<men>, 1 to {MAX_MEN} each"))
}

fn parse_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(weight) if (0.0..=1000.0).contains(&weight) => Ok(weight),
        _ => Err(format!("'{text}' is not a weight from 0 to 1000")),
    }
}

fn parse_wdl(text: &str) -> Result<Wdl, String> {
    match text {
        "win" => Ok(Wdl::Win),
        "draw" => Ok(Wdl::Draw),
        "loss" => Ok(Wdl::Loss),
        _ => Err(format!("'{text}' is not win, draw or loss")),
    }
}

#[derive(Debug, Args)]
struct SumsArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
}

#[derive(Debug, Args)]
struct CompactArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the whole packed set.
    #[arg(long)]
    dir: PathBuf,
    /// The directory of the compact set, another one.
    #[arg(long)]
    out: PathBuf,
    /// Tables compacted at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// What a probe's second read (of a block too long for its 16-byte record) is worth,
    /// in bits an entry: less makes the set smaller and its probes slower.
    #[arg(long, default_value_t = READ_WEIGHT, value_parser = parse_weight)]
    read_weight: f64,
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the whole set.
    #[arg(long)]
    dir: PathBuf,
    /// Positions probed in each table.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
    positions: u32,
    /// The seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time the probes of a search of this many nodes instead.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    search_nodes: Option<u64>,
    /// The position the search starts from (with --search-nodes).
    #[arg(long, value_name = "POSITION", requires = "search_nodes")]
    fen: Option<String>,
}

#[derive(Debug, Args)]
struct CompareArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of one whole set.
    #[arg(long)]
    dir: PathBuf,
    /// The directory of the other.
    #[arg(long)]
    with: PathBuf,
    /// Threads sharing each table's positions.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Compare only the tables of this many men or more: a long comparison stopped part
    /// way goes on from the first level it had not finished.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=2 * MAX_MEN as i64))]
    from_men: u32,
    /// Compare only this table (8v9: the side to move's men first); may be given again.
    /// A comparison can so go on table by table, or be shared out between machines.
    #[arg(long = "table", value_parser = parse_table)]
    tables: Vec<Material>,
    /// Compare only the positions without a capture, the entries a compact table stores:
    /// its coding checked in minutes, where a full comparison takes hours.
    #[arg(long)]
    stored: bool,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Positions checked in each table (all of a smaller one).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    samples: u64,
    /// The seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Check every position of every table, not a sample.
    #[arg(long, conflicts_with_all = ["samples", "seed"])]
    all: bool,
    /// Threads of the check of every position (with --all).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256), requires = "all")]
    threads: u32,
    /// Check only the levels of this many men or more: a long check stopped part way goes
    /// on from the first level it had not finished.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=2 * MAX_MEN as i64))]
    from_men: u32,
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The most men on the board, both sides together (2 to 22).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=2 * MAX_MEN as i64))]
    men: u32,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Threads for the classification pass.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Keep each position's distance to its deciding capture (a byte a position), so that
    /// positions with a 40-ply counter above 0 can be read exactly.
    #[arg(long)]
    distances: bool,
    /// Build only a share of the levels of --men men, as K/N (0 <= K < N): the levels
    /// whose place in the list leaves K when divided by N. The lower tables must be there.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
}

#[derive(Debug, Args)]
#[command(mut_arg("variant", |arg| arg.help("The variant: only egaraguti has tables")))]
struct ProbeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
}

#[derive(Debug, Args)]
#[command(mut_arg("variant", |arg| arg.help("The variant: only egaraguti has tables")))]
struct LineArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The most plies of the line.
    #[arg(long, default_value_t = 2_000)]
    plies: usize,
}

#[derive(Debug, Args)]
struct AuditArgs {
    /// The variant: only egaraguti has tables.
    variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The records file of `ternion match --records`.
    #[arg(long)]
    records: PathBuf,
    /// Text that the audited player's P1 or P2 tag contains (and the other's does not).
    #[arg(long)]
    player: String,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("a shard is K/N with 0 <= K < N, not '{text}'");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index: usize = index.trim().parse().map_err(|_| bad())?;
    let count: usize = count.trim().parse().map_err(|_| bad())?;
    if index >= count {
        return Err(bad());
    }
    Ok((index, count))
}

fn only_egaraguti(variant: Variant) -> Result<(), String> {
    if variant == Variant::Egaraguti {
        Ok(())
    } else {
        Err(format!("only egaraguti has exact tables, not {variant}"))
    }
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &TablesArgs) -> Result<(), String> {
    match &args.command {
        TablesCommand::Build(args) => run_build(args),
        TablesCommand::Probe(args) => run_probe(args),
        TablesCommand::Line(args) => run_line(args),
        TablesCommand::Audit(args) => run_audit(args),
        TablesCommand::Verify(args) => run_verify(args),
        TablesCommand::Sums(args) => run_sums(args),
        TablesCommand::Compact(args) => run_compact(args),
        TablesCommand::Compare(args) => run_compare(args),
        TablesCommand::Bench(args) => run_bench(args),
        TablesCommand::Starts(args) => run_starts(args),
        TablesCommand::Data(args) => {
            only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
            teach::run_data(args)
        }
        TablesCommand::OnePly(args) => {
            only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
            teach::run_one_ply(args)
        }
    }
}

fn run_starts(args: &StartsArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    if !args.dir.is_dir() {
        return Err(format!("no directory {}", args.dir.display()));
    }
    let tables = Tablebase::load_all(&args.dir)?;
    let [first, second] = args.men;
    let (level, other) = (first.max(second), first.min(second));
    if tables
        .get(Material {
            mover: level,
            other,
        })
        .is_none()
    {
        return Err(format!(
            "no table of {first}+{second} men in {}",
            args.dir.display()
        ));
    }
    let found = sample::positions_of_value(
        &tables,
        args.men,
        args.value,
        args.count as usize,
        args.seed,
    );
    let mut out = String::new();
    for game in &found {
        out.push_str(&game.position_string());
        out.push('\n');
    }
    super::print(&out, "the output")?;
    match found.len() < args.count as usize {
        true => Err(format!(
            "only {} positions of {first}+{second} men are worth a {} to the side to move",
            found.len(),
            args.value.name()
        )),
        false => Ok(()),
    }
}

fn run_compact(args: &CompactArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let megabytes = |bytes: usize| bytes as f64 / 1e6;
    let reports = compact_set(
        &args.dir,
        &args.out,
        args.threads as usize,
        args.read_weight,
        &|report| {
            let time = match report.seconds {
                Some(seconds) => format!("{seconds:.1} s"),
                None => "there already".to_string(),
            };
            eprintln!(
                "{}: values {:.2} -> {:.2} MB, distances {:.2} -> {:.2} MB, {time}",
                report.material,
                megabytes(report.packed.0),
                megabytes(report.compact.0),
                megabytes(report.packed.1),
                megabytes(report.compact.1),
            );
        },
    )?;
    let mut out = String::from(
        "table entries values_packed values_compact bits_a_value distances_packed distances_compact bits_a_distance\n",
    );
    let mut sums = [0f64; 5];
    for report in &reports {
        let bits = |bytes: usize| bytes as f64 * 8.0 / report.entries as f64;
        out.push_str(&format!(
            "{} {} {} {} {:.4} {} {} {:.4}\n",
            report.material,
            report.entries,
            report.packed.0,
            report.compact.0,
            bits(report.compact.0),
            report.packed.1,
            report.compact.1,
            bits(report.compact.1),
        ));
        for (sum, part) in sums.iter_mut().zip([
            report.entries as usize,
            report.packed.0,
            report.compact.0,
            report.packed.1,
            report.compact.1,
        ]) {
            *sum += part as f64;
        }
    }
    out.push_str(&format!(
        "all {} tables, {:.0} entries: values {:.1} -> {:.1} MB ({:.4} bits an entry), distances {:.1} -> {:.1} MB ({:.4} bits an entry)\n",
        reports.len(),
        sums[0],
        sums[1] / 1e6,
        sums[2] / 1e6,
        sums[2] * 8.0 / sums[0],
        sums[3] / 1e6,
        sums[4] / 1e6,
        sums[4] * 8.0 / sums[0],
    ));
    super::print(&out, "the output")
}

fn run_bench(args: &BenchArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let mut out = io::stdout().lock();
    if let Some(nodes) = args.search_nodes {
        let game = match &args.fen {
            Some(fen) => {
                EgaraGuti::parse_position(fen).map_err(|e| format!("bad position: {e}"))?
            }
            None => EgaraGuti::start(),
        };
        let cost = search_probe_cost(&args.dir, &game, nodes)?;
        let _ = writeln!(
            out,
            "a search of {nodes} nodes: {} probes of the tables, {:.1} ns a probe",
            cost.probes, cost.nanoseconds
        );
        return Ok(());
    }
    let costs = probe_costs(&args.dir, args.positions as usize, args.seed, &mut |cost| {
        let _ = writeln!(
            out,
            "{}: {} probes, {:.1} ns a probe",
            cost.material, cost.probes, cost.nanoseconds
        );
    })?;
    let mean = costs.iter().map(|c| c.nanoseconds).sum::<f64>() / costs.len().max(1) as f64;
    let _ = writeln!(
        out,
        "{} tables, {mean:.1} ns a probe on average",
        costs.len()
    );
    Ok(())
}

fn run_compare(args: &CompareArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let mut out = io::stdout().lock();
    let started = std::time::Instant::now();
    let mut report = |c: &Comparison| {
        let first = match &c.first {
            Some(position) => format!(" (the first: {position})"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{}: {} positions compared, {} disagreements{first}, {:.1} s so far",
            c.material,
            c.positions,
            c.disagreements,
            started.elapsed().as_secs_f64()
        );
    };
    let selection = Selection {
        from_men: args.from_men as usize,
        tables: args.tables.clone(),
        stored_only: args.stored,
    };
    let threads = args.threads as usize;
    let comparisons = compare_sets(&args.dir, &args.with, threads, &selection, &mut report)?;
    let positions: u64 = comparisons.iter().map(|c| c.positions).sum();
    let disagreements: u64 = comparisons.iter().map(|c| c.disagreements).sum();
    let _ = writeln!(
        out,
        "{} tables, {positions} positions compared, {disagreements} disagreements",
        comparisons.len()
    );
    match disagreements {
        0 => Ok(()),
        _ => Err(format!("the sets disagree on {disagreements} positions")),
    }
}

fn run_sums(args: &SumsArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    if !args.dir.is_dir() {
        return Err(format!("no directory {}", args.dir.display()));
    }
    let mut out = io::stdout().lock();
    let mut files = 0;
    for material in (2..=2 * MAX_MEN).flat_map(levels_of_total).flat_map(parts) {
        if let Some(sum) = file_sha256(&args.dir, material)? {
            writeln!(out, "{sum}  {}", file::file_name(material))
                .map_err(|e| format!("cannot write: {e}"))?;
            files += 1;
        }
    }
    match files {
        0 => Err(format!("no tables in {}", args.dir.display())),
        _ => Ok(()),
    }
}

fn run_verify(args: &VerifyArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let mut out = io::stdout().lock();
    let coverage = match args.all {
        true => Coverage::All {
            threads: args.threads as usize,
        },
        false => Coverage::Sampled {
            samples: args.samples,
            seed: args.seed,
        },
    };
    let checks = verify(&args.dir, coverage, args.from_men as usize, &mut |check| {
        let _ = writeln!(
            out,
            "{}: {} positions checked ({} decided exactly by the positions after them), {} disagreements, {:.1} s",
            check.level, check.checked, check.exact, check.disagreements, check.seconds
        );
        for example in &check.examples {
            let _ = writeln!(out, "  {example}");
        }
    })?;
    if checks.is_empty() {
        return Err(format!("no complete level in {}", args.dir.display()));
    }
    let checked: u64 = checks.iter().map(|c| c.checked).sum();
    let disagreements: u64 = checks.iter().map(|c| c.disagreements).sum();
    let _ = writeln!(
        out,
        "{} levels, {checked} positions checked, {disagreements} disagreements",
        checks.len()
    );
    if disagreements > 0 {
        let _ = out.flush();
        std::process::exit(1);
    }
    Ok(())
}

fn run_build(args: &BuildArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let config = BuildConfig {
        dir: args.dir.clone(),
        men: args.men as usize,
        threads: args.threads as usize,
        distances: args.distances,
        shard: args.shard,
    };
    let done = build(&config, &mut |line| eprintln!("{line}"))?;
    let solved: Vec<_> = done.iter().filter_map(|d| d.report.as_ref()).collect();
    if solved.is_empty() {
        return writeln!(
            io::stdout().lock(),
            "nothing to build: the {} levels of at most {} men are in {}",
            done.len(),
            args.men,
            args.dir.display()
        )
        .map_err(|e| format!("cannot write the summary: {e}"));
    }
    let positions: u64 = solved.iter().map(|r| r.positions).sum();
    let seconds: f64 = solved.iter().map(|r| r.seconds).sum();
    let longest = solved.iter().map(|r| r.longest).max().unwrap_or(0);
    let beyond: u64 = solved.iter().map(|r| r.beyond_limit).sum();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} levels, {} solved now: {positions} positions in {seconds:.1} s, longest forced capture {longest} plies, {beyond} positions beyond the 40-ply limit",
        done.len(),
        solved.len(),
    )
    .map_err(|e| format!("cannot write the summary: {e}"))
}

/// A finished game's value for the side to move, as a word.
fn value_of_finished(game: &EgaraGuti, outcome: Outcome) -> &'static str {
    match outcome.winner() {
        None => "draw",
        Some(winner) if winner == game.side_to_move() => "win",
        Some(_) => "loss",
    }
}

fn run_line(args: &LineArgs) -> Result<(), String> {
    only_egaraguti(args.position.variant()?)?;
    let game: EgaraGuti = args.position.position()?;
    if let Some(outcome) = game.outcome() {
        // As probe says it, then the empty line and its result.
        let text = format!(
            "{} for the side to move: the game is over\nline \nresult {} after {}\n",
            value_of_finished(&game, outcome),
            result_word(Some(outcome)),
            plies(0u64)
        );
        return super::print(&text, "the output");
    }
    if !args.dir.is_dir() {
        return Err(format!("no directory {}", args.dir.display()));
    }
    let tables = Tablebase::load_all(&args.dir)?;
    let probe = tables.probe(&game).ok_or_else(|| {
        format!(
            "no table for {} in {}",
            men_of(&game).material(),
            args.dir.display()
        )
    })?;
    let mut out = format!("{} for the side to move", probe.value.name());
    if let Some(distance) = probe.distance {
        out.push_str(&format!(", decided within {}", plies(distance)));
    }
    out.push('\n');
    let values = line::move_values(&game, &tables)?;
    for value in &values {
        out.push_str(&format!(
            "move {} {} in {}\n",
            game.move_string(value.mv),
            value.value.name(),
            plies(value.distance)
        ));
    }
    let (moves, outcome) = line::perfect_line(&game, &tables, args.plies)?;
    out.push_str(&format!("line {}\n", game.line_notation(&moves).join(" ")));
    let result = match outcome {
        Some(Outcome::Win(Player::P1)) => "p1win",
        Some(Outcome::Win(Player::P2)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "unfinished",
    };
    out.push_str(&format!(
        "result {result} after {}\n",
        plies(moves.len() as u64)
    ));
    super::print(&out, "the output")
}

fn run_audit(args: &AuditArgs) -> Result<(), String> {
    only_egaraguti(args.variant.parse().map_err(|e| format!("{e}"))?)?;
    let text = ternion::core::files::read_text(&args.records)?;
    let records = parse_records(&text)?;
    let tables = Tablebase::load_all(&args.dir)?;
    let mut out = String::new();
    // The audited side's results, by its value at the start: [start][result], each as
    // loss/draw/win, and a row for starts the tables do not know.
    let mut by_start = [[0u32; 3]; 4];
    let (mut checked, mut unknown, mut drops, mut lost_holding) = (0, 0, 0, 0);
    for record in &records {
        let number = record.tag("Game").unwrap_or("?");
        let at = |what: String| format!("game {number}: {what}");
        // A record of another game says so, before its start fails to read as this one's.
        match record.tag("Variant") {
            Some("egaraguti") => {}
            Some(other) => {
                return Err(at(format!(
                    "a game of {}, not egaraguti",
                    ternion::core::echo(other)
                )));
            }
            None => return Err(at("no Variant tag".into())),
        }
        let seat = |tag: &str| {
            record
                .tag(tag)
                .is_some_and(|name| name.contains(&args.player))
        };
        let side = match (seat("P1"), seat("P2")) {
            (true, false) => Player::P1,
            (false, true) => Player::P2,
            _ => return Err(at(format!("not one seat's tag contains '{}'", args.player))),
        };
        let start = EgaraGuti::parse_position(record.tag("Start").unwrap_or_default())
            .map_err(|e| at(format!("start: {e}")))?;
        let outcome = record.outcome().ok_or_else(|| at("no result".into()))?;
        let result = match outcome.winner() {
            None => Wdl::Draw,
            Some(winner) if winner == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        };
        let audit = line::audit(&start, &record.moves, side, &tables).map_err(at)?;
        let row = audit.start_value.map_or(3, |v| v as usize);
        by_start[row][result as usize] += 1;
        checked += audit.moves_checked;
        unknown += audit.moves_unknown;
        drops += audit.drops.len();
        lost_holding += (audit.start_value >= Some(Wdl::Draw) && result == Wdl::Loss) as u32;
        out.push_str(&format!(
            "game {number}: {} started {}, {} the game; {} moves checked, {} unknown{}\n",
            if side == Player::P1 { "p1" } else { "p2" },
            audit.start_value.map_or("unknown", Wdl::name),
            match result {
                Wdl::Win => "won",
                Wdl::Draw => "drew",
                Wdl::Loss => "lost",
            },
            audit.moves_checked,
            audit.moves_unknown,
            audit
                .drops
                .iter()
                .map(|(ply, mv, best, played)| format!(
                    "; ply {ply} {mv} {} where {} was there",
                    played.name(),
                    best.name()
                ))
                .collect::<String>(),
        ));
    }
    let wdl = |row: [u32; 3]| format!("{}/{}/{}", row[2], row[1], row[0]);
    let total = by_start.iter().fold([0; 3], |sum, row| {
        [sum[0] + row[0], sum[1] + row[1], sum[2] + row[2]]
    });
    out.push_str(&format!(
        "{} games, W/D/L {} for the audited player; from won starts {}, drawn starts {}, lost starts {}, starts the tables do not know {}\n",
        records.len(),
        wdl(total),
        wdl(by_start[2]),
        wdl(by_start[1]),
        wdl(by_start[0]),
        wdl(by_start[3]),
    ));
    out.push_str(&format!(
        "{checked} moves checked, {unknown} unknown, {drops} gave value away; {lost_holding} games lost from a start worth a draw or better\n"
    ));
    super::print(&out, "the output")?;
    if drops > 0 || lost_holding > 0 {
        return Err("the audited player gave value away".into());
    }
    Ok(())
}

fn run_probe(args: &ProbeArgs) -> Result<(), String> {
    only_egaraguti(args.position.variant()?)?;
    let game: EgaraGuti = args.position.position()?;
    let mut line = match game.outcome() {
        Some(outcome) => {
            let value = value_of_finished(&game, outcome);
            format!("{value} for the side to move: the game is over")
        }
        None => {
            if !args.dir.is_dir() {
                return Err(format!("no directory {}", args.dir.display()));
            }
            let mut tables = Tablebase::new(&args.dir);
            let material = men_of(&game).material();
            if !tables.load(material)? {
                return Err(format!("no table for {material} in {}", args.dir.display()));
            }
            // A compact table values a capture by the lower levels: load the whole set.
            let probe = match tables.probe(&game) {
                Some(probe) => probe,
                None => Tablebase::load_all(&args.dir)?
                    .probe(&game)
                    .ok_or_else(|| {
                        format!("the tables in {} miss a lower level", args.dir.display())
                    })?,
            };
            let mut line = format!("{} for the side to move", probe.value.name());
            if let Some(distance) = probe.distance {
                line.push_str(&format!(", decided within {}", plies(distance)));
            }
            if !probe.exact {
                line.push_str(&format!(
                    "; not exact at the counter {}: the value holds at counter 0",
                    game.quiet_plies()
                ));
            }
            line
        }
    };
    line.push('\n');
    super::print(&line, "the output")
}
