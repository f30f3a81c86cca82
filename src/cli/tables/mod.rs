//! `ternion tables`: builds Egara-guti's exact tables, looks into them, checks them and
//! draws data from them (see `ternion::games::egaraguti::tablebase`). One file a job:
//! `build` (build, compact), `look` (probe, line, starts), `check` (verify, compare, sums,
//! audit) and `data` (data, one-ply, bench). This file reads the variant, once for every
//! command, and the argument forms and texts the jobs share.

mod build;
mod check;
mod data;
mod look;

use std::path::Path;

use clap::{Args, Subcommand};
use ternion::core::Wdl;
use ternion::core::printable::plies;
use ternion::games::Variant;
use ternion::games::egaraguti::tablebase::Probe;
use ternion::games::egaraguti::tablebase::index::{MAX_MEN, Material};

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
    Build(build::BuildArgs),
    /// Print what the tables in --dir say of a position.
    ///
    /// Prints "<win|draw|loss> for the side to move", the distance to the capture or
    /// block that decides it where stored, and whether the value is exact at the
    /// position's 40-ply counter.
    Probe(look::ProbeArgs),
    /// Print every legal move's value by the tables and a line of perfect play.
    ///
    /// Loads every table of --dir. Prints the position's value, then each legal move with
    /// its value for the side that plays it and the plies to the capture, block or end that
    /// decides it, then the moves the tables rank first (the shortest way for the side the
    /// value favours over the men count, the longest for the other) to the end of the game,
    /// with its result.
    Line(look::LineArgs),
    /// Audit one player's moves in recorded games by the tables.
    ///
    /// Reads the records of `ternion match --records`; in each game the player whose P1 or
    /// P2 tag contains --player is audited: its value at the game's start, the result it
    /// got, and every move of its that was worth less than its best move by the tables.
    /// Prints a line per game and a summary; exits with status 1 when a move gave value
    /// away or a game was lost from a start worth a draw or better.
    Audit(check::AuditArgs),
    /// Check built tables independently, level by level.
    ///
    /// Every file's header and checksum are checked; then, for sampled positions, the
    /// stored value and distance must follow from one ply of the rules over the stored
    /// figures of the positions after it (captures in the lower levels). Needs a build
    /// with --distances. Prints, per level, the positions checked and the disagreements,
    /// and exits with status 1 on any.
    Verify(check::VerifyArgs),
    /// Write the compact form of the whole set in --dir into --out.
    ///
    /// Each table keeps only what a probe reads: the values of the positions without a
    /// capture (the others come from one ply over the lower levels) and the distances
    /// where the value is not the men count's verdict, run-coded in blocks read in place.
    /// Tables already in --out are kept. Prints a line per table on stderr and the sizes
    /// on stdout; `tables compare` checks the result position by position.
    Compact(build::CompactArgs),
    /// Check that two whole sets, packed or compact, agree on every position.
    ///
    /// Compares the value and distance of every canonical position of every table, as
    /// the engine reads them. Prints a line per table and exits with status 1 on any
    /// disagreement.
    Compare(check::CompareArgs),
    /// Time the probes of every table of --dir, packed or compact, or of a search.
    ///
    /// Probes --positions seeded random positions of each table's material (most with a
    /// capture, which a compact table values through the lower levels) once untimed, then
    /// three times timed; prints each table's median cost a probe, and the mean over the
    /// tables. With --search-nodes, a search of the position given (the start by default)
    /// records the positions it probes, which are then probed again in order: the cost of
    /// a probe in the search.
    Bench(data::BenchArgs),
    /// Print the SHA-256 of every table file of --dir, fewest men first.
    ///
    /// One line a file, "<sum>  <file name>", the form `sha256sum -c` reads: compare a
    /// build with the sums docs/rules/egaraguti.md publishes, byte for byte.
    Sums(check::SumsArgs),
    /// Print seeded random positions of one level that the tables value as asked.
    ///
    /// One position string a line, each at counter 0, in play, and valued --value for
    /// the side to move by the tables of --dir: the starts of `ternion match --starts`, to
    /// measure play where the value is known (how often a drawn start is won against a
    /// weaker player, say). Fewer than --count when the level holds too few.
    Starts(look::StartsArgs),
    /// Write positions of every level labelled with their exact values, for `ternion train`.
    ///
    /// Draws --positions positions in play from each level of --dir, at counter 0 (or, with
    /// --any-counter, at any counter where the tables know the value), and writes each as
    /// "<result> <position> ; <score>" from the first player's side: the result the tables'
    /// value (1, 0.5, 0), the score the same with the distance (a nearer win scores
    /// higher). The data of a network that learns the solved game.
    Data(data::DataArgs),
    /// Measure how often an evaluation's one-ply choice keeps a position's value.
    ///
    /// Draws --positions positions in play at counter 0 from each level of --dir; in those
    /// where some legal move gives the value away, counts how often the move that looks
    /// best one ply ahead keeps it, by the hand-written terms and, with --eval-file, by a
    /// network. Prints a row per level and a total.
    OnePly(data::OnePlyArgs),
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &TablesArgs) -> Result<(), String> {
    let command = &args.command;
    only_egaraguti(command.variant())?;
    match command {
        TablesCommand::Build(args) => build::run_build(args),
        TablesCommand::Compact(args) => build::run_compact(args),
        TablesCommand::Probe(args) => look::run_probe(args),
        TablesCommand::Line(args) => look::run_line(args),
        TablesCommand::Starts(args) => look::run_starts(args),
        TablesCommand::Verify(args) => check::run_verify(args),
        TablesCommand::Compare(args) => check::run_compare(args),
        TablesCommand::Sums(args) => check::run_sums(args),
        TablesCommand::Audit(args) => check::run_audit(args),
        TablesCommand::Data(args) => data::run_data(args),
        TablesCommand::OnePly(args) => data::run_one_ply(args),
        TablesCommand::Bench(args) => data::run_bench(args),
    }
}

impl TablesCommand {
    /// The variant the command names, as given.
    fn variant(&self) -> &str {
        match self {
            TablesCommand::Build(args) => &args.variant,
            TablesCommand::Compact(args) => &args.variant,
            TablesCommand::Probe(args) => args.position.variant_name(),
            TablesCommand::Line(args) => args.position.variant_name(),
            TablesCommand::Starts(args) => &args.variant,
            TablesCommand::Verify(args) => &args.variant,
            TablesCommand::Compare(args) => &args.variant,
            TablesCommand::Sums(args) => &args.variant,
            TablesCommand::Audit(args) => &args.variant,
            TablesCommand::Data(args) => &args.variant,
            TablesCommand::OnePly(args) => &args.variant,
            TablesCommand::Bench(args) => &args.variant,
        }
    }
}

/// Refuses every variant but Egara-guti, the one with tables, in one line.
fn only_egaraguti(name: &str) -> Result<(), String> {
    match name.parse::<Variant>().map_err(|e| format!("{e}"))? {
        Variant::Egaraguti => Ok(()),
        variant => Err(format!("only egaraguti has exact tables, not {variant}")),
    }
}

/// Refuses a directory of tables that is not there, before anything is read from it.
fn existing_dir(dir: &Path) -> Result<(), String> {
    match dir.is_dir() {
        true => Ok(()),
        false => Err(format!("no directory {}", dir.display())),
    }
}

/// A probe's value as `probe` and `line` print it: "<value> for the side to move", and the
/// plies within which it is decided where the tables store them.
fn value_words(probe: &Probe) -> String {
    let mut words = format!("{} for the side to move", probe.value.name());
    if let Some(distance) = probe.distance {
        words.push_str(&format!(", decided within {}", plies(distance)));
    }
    words
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_egaraguti_passes_and_the_rest_are_named() {
        assert_eq!(only_egaraguti("egaraguti"), Ok(()));
        assert_eq!(
            only_egaraguti("lielow9"),
            Err("only egaraguti has exact tables, not lielow9".into())
        );
        let unknown = only_egaraguti("chess").unwrap_err();
        assert_eq!(unknown.lines().count(), 1, "{unknown}");
    }

    #[test]
    fn men_read_as_two_sides_within_the_tables() {
        assert_eq!(parse_men("4+4"), Ok([4, 4]));
        assert_eq!(parse_men(" 5 + 3 "), Ok([5, 3]));
        for bad in ["4", "0+3", "3+12", "a+b", "4+4+4", ""] {
            assert!(parse_men(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_table_reads_as_its_name_and_nothing_else() {
        let table = parse_table("8v9").unwrap();
        assert_eq!((table.mover, table.other), (8, 9));
        assert_eq!(parse_table(&table.to_string()), Ok(table));
        for bad in ["8v", "v9", "0v1", "12v1", "8x9", "8v9v1", " 8v9"] {
            assert!(parse_table(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn weights_values_and_shards_refuse_what_is_out_of_range() {
        assert_eq!(parse_weight("0"), Ok(0.0));
        assert_eq!(parse_weight("1000"), Ok(1000.0));
        for bad in ["-1", "1000.5", "NaN", "inf", "x"] {
            assert!(parse_weight(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_wdl("draw"), Ok(Wdl::Draw));
        assert!(parse_wdl("Draw").is_err());
    }
}
