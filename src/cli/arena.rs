//! `ternion match`: engine-vs-engine games refereed by the rules library, with progress on
//! stderr (a line per game, and a live line when stderr is a terminal) and the summary on
//! stdout.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use ternion::arena::referee::{self, Patience, TimeControl};
use ternion::arena::stats::Sprt;
use ternion::arena::{EngineSpec, MatchConfig, Progress, Shard, run_match};
use ternion::games::Variant;
use ternion::rules::{Notation, Rules};

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine's command line (run by sh); give it twice. `ternion` itself is the
    /// path of this binary.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// The variant played.
    #[arg(long)]
    variant: String,
    /// The number of games (pairs of games share an opening, colours swapped).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// A clock per side: <seconds>[+<increment seconds>], for example 10+0.1.
    // Hyphens allowed: a negative time is read, and refused, by the clock's own parser.
    #[arg(long, value_name = "SEC+INC", allow_hyphen_values = true)]
    tc: Option<String>,
    /// A fixed time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// A fixed search depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// A fixed node count per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    /// Random plies from the start before the engines take over; each opening is played
    /// twice with colours swapped.
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    openings: u32,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start the games from these positions: a file of position strings of the variant, one
    /// a line (blank lines and lines starting with # are skipped); each pair of games takes
    /// the next, round the file, before its random plies (--openings).
    #[arg(long, value_name = "FILE")]
    starts: Option<PathBuf>,
    /// An engine option, `name=value` for both engines or `1:name=value` / `2:name=value`
    /// for one; may be repeated.
    #[arg(long = "option", value_name = "[N:]NAME=VALUE")]
    options: Vec<String>,
    /// Write every game's record to this file.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Stop when the sequential test decides: elo0=.. elo1=.. alpha=.. beta=..
    #[arg(long, num_args = 1..=4, value_name = "PARAM")]
    sprt: Vec<String>,
    /// Slack in milliseconds past a clock or move time before a flag falls.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    timemargin: u64,
    /// How long to wait for a move under --depth/--nodes, or for readyok, in milliseconds.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    timeout: u64,
    /// Play only part i of n of the match (0 <= i < n): the games whose index is i mod n,
    /// with the openings, colours and numbers the whole match gives them. Merge the shards'
    /// records with `ternion stats`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

/// Runs the command; `Err` carries the one-line message for stderr.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let config = config(args)?;
    // Orphans of engines that leave for a session of their own come here, to be ended.
    if !ternion::arena::reaper::adopt_orphans() {
        log::info!("match: not a child subreaper here: an engine's setsid children may outlive it");
    }
    end_engines_on_signals()?;
    let live = std::io::stderr().is_terminal();
    let summary = run_match(&config, &mut |progress| {
        let mut err = std::io::stderr().lock();
        // On a terminal the live line is rewritten in place; other lines first clear it.
        let clear = if live { "\r\x1b[K" } else { "" };
        let _ = match progress {
            Progress::Game(line) => writeln!(err, "{clear}{line}"),
            Progress::Warning(line) => writeln!(err, "{clear}warning: {line}"),
            Progress::Status(line) if live => write!(err, "{clear}{line}"),
            Progress::Status(_) => Ok(()),
        };
    });
    if live {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    super::print(&summary?.report(), "the summary")
}

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, `kill`, a closed terminal), ends every engine's
/// process group, then exits with 128 + the signal's number, as a shell reports a process
/// the signal ended. Without it the runner would die alone: its engines, each in a group of
/// its own, are out of the reach of a terminal's Ctrl-C.
#[cfg(unix)]
fn end_engines_on_signals() -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| format!("cannot catch signals: {e}"))?;
    std::thread::Builder::new()
        .name("match-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                ternion::arena::process::end_every_engine();
                if std::io::stderr().is_terminal() {
                    let _ = write!(std::io::stderr(), "\r\x1b[K");
                }
                log::info!("match: ended by signal {signal}, with its engines");
                std::process::exit(128 + signal);
            }
        })
        .map_err(|e| format!("cannot catch signals: {e}"))?;
    Ok(())
}

/// Elsewhere (Windows) the engines share the runner's console, so a Ctrl-C reaches them
/// with it, and nothing is caught.
#[cfg(not(unix))]
fn end_engines_on_signals() -> Result<(), String> {
    Ok(())
}

fn config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let [first, second] = args.engines.as_slice() else {
        return Err("give exactly two --engine commands".into());
    };
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let mut engines = [first, second].map(|command| EngineSpec {
        command: command.clone(),
        options: Vec::new(),
    });
    for option in &args.options {
        let (targets, setting) = match option.split_once(':') {
            Some(("1", rest)) => (&mut engines[..1], rest),
            Some(("2", rest)) => (&mut engines[1..], rest),
            Some((engine, _)) if engine.trim().parse::<u64>().is_ok() => {
                return Err(format!(
                    "--option '{option}': there is no engine {engine} (1 or 2, or none for both)"
                ));
            }
            _ => (&mut engines[..], option.as_str()),
        };
        let (name, value) = setting
            .split_once('=')
            .filter(|(name, _)| !name.trim().is_empty())
            .ok_or_else(|| format!("--option '{option}' is not [N:]name=value"))?;
        if name.trim().eq_ignore_ascii_case("UCI_Variant") {
            return Err(format!(
                "--option '{option}': the variant of every game is --variant's"
            ));
        }
        for engine in targets {
            engine
                .options
                .push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    // Before any game: the records go to a new path or a regular file, never the starts.
    if let Some(records) = &args.records {
        let inputs: Vec<&Path> = args.starts.iter().map(PathBuf::as_path).collect();
        ternion::core::output::target(records, &inputs)
            .map_err(|e| format!("cannot write records to {}: {e}", records.display()))?;
    }
    Ok(MatchConfig {
        engines,
        variant,
        games: args.games,
        limits: limits(args)?,
        concurrency: args.concurrency as usize,
        opening_plies: args.openings,
        starts: match &args.starts {
            Some(path) => read_starts(path, variant)?,
            None => Vec::new(),
        },
        seed: args.seed,
        sprt: (!args.sprt.is_empty())
            .then(|| Sprt::parse(&args.sprt))
            .transpose()?,
        records: args.records.clone(),
        patience: Patience {
            time_margin: Duration::from_millis(args.timemargin),
            answer_timeout: Duration::from_millis(args.timeout.max(1)),
        },
        handshake_timeout: Duration::from_millis(args.timeout.max(1)),
        shard: args
            .shard
            .as_deref()
            .map_or(Ok(Shard::WHOLE), Shard::parse)?,
    })
}

/// The position strings of `path`, each checked to read as a position of `variant` in play;
/// the error names the line.
fn read_starts(path: &Path, variant: Variant) -> Result<Vec<String>, String> {
    let text = ternion::core::files::read_text(path)?;
    let mut starts = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| format!("{}:{}: {what}", path.display(), number + 1);
        let over = ternion::with_game!(variant, G => {
            G::parse_position(line).map(|game| game.outcome().is_some())
        })
        .map_err(|e| at(format!("not a position of {variant}: {e}")))?;
        if over {
            return Err(at("the game is over there".into()));
        }
        starts.push(line.to_owned());
    }
    if starts.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(starts)
}

/// Exactly one of --tc, --movetime, --depth, --nodes.
fn limits(args: &MatchArgs) -> Result<TimeControl, String> {
    let mut given = Vec::new();
    if let Some(tc) = &args.tc {
        given.push(referee::parse_clock(tc)?);
    }
    if let Some(ms) = args.movetime {
        given.push(TimeControl::MoveTime(Duration::from_millis(ms.max(1))));
    }
    if let Some(depth) = args.depth {
        given.push(TimeControl::Depth(depth.max(1)));
    }
    if let Some(nodes) = args.nodes {
        given.push(TimeControl::Nodes(nodes.max(1)));
    }
    match given.as_slice() {
        [one] => Ok(*one),
        [] => Err("give a limit: --tc, --movetime, --depth or --nodes".into()),
        _ => Err("give only one of --tc, --movetime, --depth, --nodes".into()),
    }
}
