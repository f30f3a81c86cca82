//! `tables verify`, `tables compare`, `tables sums` and `tables audit`: the checks, of a
//! set against the rules, of two sets against each other, of the files' bytes against the
//! published sums, and of a player's recorded moves against the tables. A check that runs
//! and finds a fault ends with exit status 1; bad input ends with 2, as everywhere.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use ternion::arena::record::{ParsedRecord, parse_records};
use ternion::core::{Player, Wdl};
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::egaraguti::tablebase::Tablebase;
use ternion::games::egaraguti::tablebase::compare::{Comparison, Selection, compare_sets};
use ternion::games::egaraguti::tablebase::file::{self, file_sha256};
use ternion::games::egaraguti::tablebase::index::{MAX_MEN, Material};
use ternion::games::egaraguti::tablebase::line::{self, Audit, AuditSummary};
use ternion::games::egaraguti::tablebase::material::{levels_of_total, parts};
use ternion::games::egaraguti::tablebase::verify::{Coverage, verify};
use ternion::protocol::format::player_word;
use ternion::rules::Notation;

use super::{existing_dir, parse_table};
use crate::cli::{found_fault, print};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
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
    /// Check only the levels of this many men or fewer: with --from-men, the levels of
    /// one number of men, a task of its own (every level reads only the lower ones, which
    /// are built: all of them can be checked at once).
    #[arg(long, default_value_t = 2 * MAX_MEN as u32, value_parser = clap::value_parser!(u32).range(2..=2 * MAX_MEN as i64))]
    to_men: u32,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
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
pub struct SumsArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
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

/// Checks the set level by level, a line a level; exit status 1 on any disagreement.
pub fn run_verify(args: &VerifyArgs) -> Result<(), String> {
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
    // The lines go out as each level ends, the report of a check of hours; a reader that
    // went away does not stop the check.
    let men = args.from_men as usize..=args.to_men as usize;
    let checks = verify(&args.dir, coverage, men, &mut |check| {
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
    drop(out);
    match disagreements {
        0 => Ok(()),
        _ => found_fault(&format!(
            "the tables disagree with the rules on {disagreements} positions"
        )),
    }
}

/// Compares two sets table by table, a line a table; exit status 1 on any disagreement.
pub fn run_compare(args: &CompareArgs) -> Result<(), String> {
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
    drop(out);
    match disagreements {
        0 => Ok(()),
        _ => found_fault(&format!("the sets disagree on {disagreements} positions")),
    }
}

/// Prints the SHA-256 of every table file, fewest men first, as `sha256sum` does.
pub fn run_sums(args: &SumsArgs) -> Result<(), String> {
    existing_dir(&args.dir)?;
    let mut out = String::new();
    for material in (2..=2 * MAX_MEN).flat_map(levels_of_total).flat_map(parts) {
        if let Some(sum) = file_sha256(&args.dir, material)? {
            out.push_str(&format!("{sum}  {}\n", file::file_name(material)));
        }
    }
    match out.is_empty() {
        true => Err(format!("no tables in {}", args.dir.display())),
        false => print(&out, "the sums"),
    }
}

/// Audits the player's moves game by game, a line a game and the summary; exit status 1
/// when it gave value away.
pub fn run_audit(args: &AuditArgs) -> Result<(), String> {
    let text = ternion::core::files::read_text(&args.records)?;
    let records = parse_records(&text)?;
    let tables = Tablebase::load_all(&args.dir)?;
    let mut out = String::new();
    let mut summary = AuditSummary::default();
    for record in &records {
        let number = record.tag("Game").unwrap_or("?");
        let (side, audit, result) = audit_game(record, &args.player, &tables)
            .map_err(|what| format!("game {number}: {what}"))?;
        summary.add(&audit, result);
        out.push_str(&format!(
            "game {number}: {}\n",
            game_line(side, &audit, result)
        ));
    }
    out.push_str(&summary_lines(&summary));
    print(&out, "the output")?;
    match summary.failed() {
        true => found_fault("the audited player gave value away"),
        false => Ok(()),
    }
}

/// One recorded game's audit: the side whose tag names `player`, what the tables say of
/// its moves, and the result it got. The error says what in the record is wrong.
fn audit_game(
    record: &ParsedRecord,
    player: &str,
    tables: &Tablebase,
) -> Result<(Player, Audit, Wdl), String> {
    // A record of another game says so, before its start fails to read as this one's.
    match record.tag("Variant") {
        Some("egaraguti") => {}
        Some(other) => {
            let other = ternion::core::echo(other);
            return Err(format!("a game of {other}, not egaraguti"));
        }
        None => return Err("no Variant tag".into()),
    }
    let seat = |tag: &str| record.tag(tag).is_some_and(|name| name.contains(player));
    let side = match (seat("P1"), seat("P2")) {
        (true, false) => Player::P1,
        (false, true) => Player::P2,
        _ => return Err(format!("not one seat's tag contains '{player}'")),
    };
    let start = EgaraGuti::parse_position(record.tag("Start").unwrap_or_default())
        .map_err(|e| format!("start: {e}"))?;
    let outcome = record.outcome().ok_or("no result")?;
    let audit = line::audit(&start, &record.moves, side, tables)?;
    Ok((side, audit, Wdl::of(outcome, side)))
}

/// A game's line of the audit, after its number.
fn game_line(side: Player, audit: &Audit, result: Wdl) -> String {
    let got = match result {
        Wdl::Win => "won",
        Wdl::Draw => "drew",
        Wdl::Loss => "lost",
    };
    let mut line = format!(
        "{} started {}, {got} the game; {} moves checked, {} unknown",
        player_word(side),
        audit.start_value.map_or("unknown", Wdl::name),
        audit.moves_checked,
        audit.moves_unknown,
    );
    for (ply, mv, best, played) in &audit.drops {
        line.push_str(&format!(
            "; ply {ply} {mv} {} where {} was there",
            played.name(),
            best.name()
        ));
    }
    line
}

/// The audit's two summary lines: the results by start, then the moves.
fn summary_lines(summary: &AuditSummary) -> String {
    let wdl = |row: [u32; 3]| format!("{}/{}/{}", row[2], row[1], row[0]);
    let from = |start: Wdl| wdl(summary.by_start[start as usize]);
    format!(
        "{} games, W/D/L {} for the audited player; from won starts {}, drawn starts {}, lost starts {}, starts the tables do not know {}\n\
         {} moves checked, {} unknown, {} gave value away; {} games lost from a start worth a draw or better\n",
        summary.games(),
        wdl(summary.results()),
        from(Wdl::Win),
        from(Wdl::Draw),
        from(Wdl::Loss),
        wdl(summary.by_start[AuditSummary::UNKNOWN_START]),
        summary.moves_checked,
        summary.moves_unknown,
        summary.drops,
        summary.lost_holding,
    )
}
