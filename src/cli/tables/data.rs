//! `tables data`, `tables one-ply` and `tables bench`: Egara-guti's tables as a network's
//! teacher (see `tune::exact::distill`), labelled positions of every level for `ternion
//! train` and how often an evaluation's one-ply choice keeps a position's value, and the
//! cost of a probe.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use ternion::bench::tables::{probe_costs, search_probe_cost};
use ternion::eval::Evaluator;
use ternion::eval::network::file::{self, NetworkKind};
use ternion::games::egaraguti::EgaraGuti;
use ternion::games::egaraguti::tablebase::Tablebase;
use ternion::games::egaraguti::tablebase::index::{MAX_MEN, Material};
use ternion::games::egaraguti::tablebase::material::levels_of_total;
use ternion::games::egaraguti::tablebase::sample::RandomPositions;
use ternion::rules::{Notation, Rules};
use ternion::tune::exact::distill::{Keeping, labelled_positions};

use crate::cli::print;

#[derive(Debug, Args)]
pub struct DataArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Positions drawn from each level (fewer where a level has fewer in play).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
    positions: u32,
    /// The seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw each position's 40-ply counter from 0 to 39 (the label is its value at that
    /// counter, where the tables know it), not only 0: what a network needs to know the
    /// 40-ply rule.
    #[arg(long)]
    any_counter: bool,
    /// Where to write the lines (stdout if not given).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
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
pub struct OnePlyArgs {
    /// The variant: only egaraguti has tables.
    pub variant: String,
    /// The directory of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Positions drawn from each level.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    positions: u32,
    /// The seed of the draw (use another than the data's to measure on unseen positions).
    #[arg(long, default_value_t = 2)]
    seed: u64,
    /// A network of egaraguti to measure beside the hand-written terms.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<PathBuf>,
}

/// Every level of the set, fewest men first, each as its pair with the side that has more
/// men first: the levels present, the set being whole from the bottom.
fn levels(tables: &Tablebase) -> Vec<Material> {
    (2..=2 * MAX_MEN)
        .flat_map(levels_of_total)
        .filter(|&level| tables.get(level).is_some())
        .collect()
}

/// Writes labelled positions of every level, as `ternion train` reads them.
pub fn run_data(args: &DataArgs) -> Result<(), String> {
    let tables = Tablebase::load_all(&args.dir)?;
    let levels = levels(&tables);
    if levels.is_empty() {
        return Err(format!("no tables in {}", args.dir.display()));
    }
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(
            ternion::core::output::create(path, &[])
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let mut positions = RandomPositions::new(args.seed);
    let mut written = 0;
    for level in &levels {
        let men = [level.mover, level.other];
        let count = args.positions as usize;
        let labelled = labelled_positions(&tables, men, count, args.any_counter, &mut positions);
        for label in &labelled {
            writeln!(out, "{}", label.training_line()).map_err(|e| format!("cannot write: {e}"))?;
        }
        written += labelled.len();
        note!("{level}: {} positions", labelled.len());
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    note!("{written} positions of {} levels", levels.len());
    Ok(())
}

/// Prints, per level, how often the terms' one-ply choice (and the network's, if given)
/// keeps the position's value where some move gives it away.
pub fn run_one_ply(args: &OnePlyArgs) -> Result<(), String> {
    let tables = Tablebase::load_all(&args.dir)?;
    let levels = levels(&tables);
    if levels.is_empty() {
        return Err(format!("no tables in {}", args.dir.display()));
    }
    let mut evaluators = vec![("terms".to_string(), Evaluator::Terms)];
    if let Some(path) = &args.eval_file {
        let inputs = <EgaraGuti as ternion::eval::Evaluate>::INPUTS;
        let network = file::load(path, NetworkKind::of::<EgaraGuti>("egaraguti"), inputs)
            .map_err(|reason| format!("{}: {reason}", path.display()))?;
        evaluators.push(("network".to_string(), Evaluator::Network(Arc::new(network))));
    }
    let mut header = format!("{:>6} {:>9} {:>9}", "level", "positions", "choices");
    for (name, _) in &evaluators {
        header.push_str(&format!(" {:>9}", format!("{name} %")));
    }
    print(&format!("{header}\n"), "the output")?;
    let mut totals = vec![Keeping::default(); evaluators.len()];
    let mut positions = RandomPositions::new(args.seed);
    for level in &levels {
        let men = [level.mover, level.other];
        let count = args.positions as usize;
        let labelled = labelled_positions(&tables, men, count, false, &mut positions);
        let mut row = vec![Keeping::default(); evaluators.len()];
        for label in &labelled {
            for (keeping, (_, evaluator)) in row.iter_mut().zip(&evaluators) {
                keeping.add(&tables, &label.game, evaluator)?;
            }
        }
        print_row(&level.to_string(), &row)?;
        for (total, keeping) in totals.iter_mut().zip(&row) {
            total.positions += keeping.positions;
            total.choices += keeping.choices;
            total.kept += keeping.kept;
        }
    }
    print_row("all", &totals)
}

/// Prints a level's row (or the total's) as it is done: the level, its positions, the
/// choices that matter, and each evaluation's share of them kept.
fn print_row(name: &str, row: &[Keeping]) -> Result<(), String> {
    let mut line = format!("{name:>6} {:>9} {:>9}", row[0].positions, row[0].choices);
    for keeping in row {
        line.push_str(&format!(" {:>9.1}", keeping.percent()));
    }
    line.push('\n');
    print(&line, "the output")
}

/// Times the probes of every table, or of a search, a line a table.
pub fn run_bench(args: &BenchArgs) -> Result<(), String> {
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
