//! `ternion abstractplay`: the bot service that plays Lielow on AbstractPlay (see
//! `ternion::abstractplay`). It listens for AbstractPlay's webhooks (behind a reverse
//! proxy that terminates TLS; see docs/abstractplay.md), and posts its moves back.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use ternion::abstractplay::client::{self, Client, Credentials, Endpoints};
use ternion::abstractplay::service::{self, BotSetup};
use ternion::abstractplay::think::{EngineSetup, Resign, Strength};
use ternion::abstractplay::turns::Turns;
use ternion::abstractplay::verify::{self, Verifier};
use ternion::protocol::options::max_hash_mib;
use ternion::search::max_threads;

#[derive(Debug, Args)]
pub struct AbstractplayArgs {
    /// The address the webhook endpoint listens on: the loopback address, behind a reverse
    /// proxy that terminates TLS (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:8787")]
    listen: SocketAddr,
    /// Listen on an address other than the loopback one: the bot then faces the network
    /// itself, without TLS (which AbstractPlay needs) and with each client held to a few
    /// connections. Refused without this flag.
    #[arg(long)]
    public: bool,
    /// AbstractPlay's `/botQuery` address (`https://<api>/prod/botQuery`). The environment
    /// variables are the names AbstractPlay's reference bot reads.
    #[arg(long, value_name = "URL", env = "BOT_QUERY_URL")]
    bot_query_url: String,
    /// AbstractPlay's token endpoint (production's by default).
    #[arg(long, value_name = "URL", env = "BOT_TOKEN_URL",
          default_value = client::PRODUCTION_TOKEN_URL)]
    token_url: String,
    /// The OAuth scope the token asks for (production's by default).
    #[arg(long, env = "BOT_OAUTH_SCOPE", default_value = client::PRODUCTION_SCOPE)]
    scope: String,
    /// A file holding AbstractPlay's public key (an OpenSSH line, RFC 4716 text, the base64
    /// of either, or PEM: every form AbstractPlay's own verifier reads). Without it: the
    /// key in AP_BOT_PUBLIC_KEY, else the one AbstractPlay publishes, else the one its
    /// reference bot embeds.
    #[arg(long, value_name = "FILE")]
    public_key: Option<PathBuf>,
    /// Seconds to think on a move, when the game's clock allows (never more than a tenth
    /// of what is left of it).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0,
          value_parser = positive_seconds)]
    think: f64,
    /// Games searched at once, one engine each.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    games: u16,
    /// Moves that may wait for an engine; more are answered 503.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=4096))]
    queue: u16,
    /// Search threads of each engine; all the engines' together at most twice this
    /// machine's cores, as the protocol's `Threads`.
    #[arg(long, default_value_t = 1, value_parser = super::search_threads)]
    threads: usize,
    /// Transposition table of each engine, in MiB; all the engines' together at most half
    /// this machine's memory, as the protocol's `Hash`.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = super::hash_mib)]
    hash: usize,
    /// The file that keeps each game's seat and last turn posted across restarts (written
    /// whole after every move). Default: abstractplay-turns.txt in $STATE_DIRECTORY (as
    /// systemd's StateDirectory= sets it), else in $XDG_STATE_HOME/ternion, else in
    /// ~/.local/state/ternion.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// How strong the bot plays: the protocol's Skill Level, 0 to 20 (20, the full engine,
    /// by default). One account, one strength: register an account for each.
    #[arg(long, value_name = "LEVEL", value_parser = skill_level, conflicts_with = "elo")]
    skill: Option<u8>,
    /// How strong the bot plays, as an Elo on the game's scale (the protocol's UCI_Elo: the
    /// level nearest it; docs/strength.md has the table).
    #[arg(long, value_parser = elo)]
    elo: Option<u32>,
    /// Resign when the bot's own score is this many centipawns behind (100 is about one
    /// stack) for --resign-moves of its moves in a row; a proven loss resigns at once.
    #[arg(long, value_name = "CP", default_value_t = Resign::DEFAULT.score,
          value_parser = clap::value_parser!(i32).range(1..=100_000))]
    resign_score: i32,
    /// The bot's moves in a row that must be lost by --resign-score before it resigns.
    #[arg(long, value_name = "MOVES", default_value_t = Resign::DEFAULT.moves,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    resign_moves: u32,
    /// Never resign: play every game to its end.
    #[arg(long, conflicts_with_all = ["resign_score", "resign_moves"])]
    no_resign: bool,
    /// Seconds a stopping bot (SIGTERM, SIGINT) has to search and post the moves it has
    /// taken; the searches share four fifths of it. Keep it below systemd's TimeoutStopSec.
    #[arg(long, value_name = "SECONDS", default_value_t = service::DRAIN_LIMIT.as_secs_f64(),
          value_parser = positive_seconds)]
    drain: f64,
    /// Seconds each call to AbstractPlay may take (the token, a move) before it is given up.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = positive_seconds)]
    timeout: f64,
}

/// `--skill`: within the bounds of the protocol's `Skill Level`.
fn skill_level(text: &str) -> Result<u8, String> {
    ternion::protocol::options::read_spin("Skill Level", text).map(|level| level as u8)
}

/// `--elo`: within the bounds of the protocol's `UCI_Elo`.
fn elo(text: &str) -> Result<u32, String> {
    ternion::protocol::options::read_spin("UCI_Elo", text).map(|elo| elo as u32)
}

/// A number of seconds above zero and below a day.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "'{text}' is not a number of seconds above 0, at most 86400"
        )),
    }
}

/// Refuses engines the machine cannot hold: `--games` tables of `--hash` MiB beyond the
/// protocol's bound on one table (half the memory), or `--games` engines of `--threads`
/// beyond its bound on one search's threads (twice the cores). Checked before the bot
/// takes a move, so that it never dies at a move allocating a table.
fn check_engines(args: &AbstractplayArgs) -> Result<(), String> {
    let games = usize::from(args.games);
    let (hash, most_hash) = (games * args.hash, max_hash_mib() as usize);
    if hash > most_hash {
        return Err(format!(
            "--games {games} x --hash {} is {hash} MiB of tables, more than this machine \
             allows ({most_hash} MiB, half its memory)",
            args.hash
        ));
    }
    let (threads, most_threads) = (games * args.threads, max_threads());
    if threads > most_threads {
        return Err(format!(
            "--games {games} x --threads {} is {threads} search threads, more than this \
             machine allows ({most_threads}, twice its cores)",
            args.threads
        ));
    }
    Ok(())
}

/// Runs the bot until it is killed; `Err` carries the one-line message for stderr.
pub fn run(args: &AbstractplayArgs) -> Result<(), String> {
    check_engines(args)?;
    if !args.listen.ip().is_loopback() && !args.public {
        return Err(format!(
            "--listen {} is not the loopback address: the bot belongs behind a reverse proxy \
             that terminates TLS (docs/abstractplay.md); give --public to listen there anyway",
            args.listen
        ));
    }
    let credentials = Credentials::from_environment()?;
    let timeout = Duration::from_secs_f64(args.timeout);
    let endpoints = Endpoints {
        token_url: args.token_url.clone(),
        scope: args.scope.clone(),
        bot_query_url: args.bot_query_url.clone(),
    };
    let client = Client::new(endpoints, credentials, timeout)?;
    let verifier = load_key(args.public_key.as_deref())?;
    // Last of the checks: it is the one that calls AbstractPlay.
    client.check_credentials()?;
    let turns = open_turns(args.state.as_deref())?;
    let (listener, address) =
        service::bind(args.listen).map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let setup = BotSetup {
        think: Duration::from_secs_f64(args.think),
        public: args.public,
        workers: usize::from(args.games),
        queue: usize::from(args.queue),
        drain: Duration::from_secs_f64(args.drain),
        resign: (!args.no_resign).then_some(Resign {
            score: args.resign_score,
            moves: args.resign_moves,
        }),
        engine: EngineSetup {
            threads: args.threads,
            hash_mib: args.hash,
            strength: match (args.skill, args.elo) {
                (_, Some(elo)) => Strength::Elo(elo),
                (Some(level), None) => Strength::Skill(level),
                (None, None) => Strength::FULL,
            },
        },
    };
    log::info!(
        "listening on http://{address}/: {} games at once, {} s a move, {} thread(s) and {} MiB each, {}",
        args.games,
        args.think,
        args.threads,
        args.hash,
        match setup.engine.strength {
            Strength::Skill(level) => format!("Skill Level {level}"),
            Strength::Elo(elo) => format!("the level nearest Elo {elo}"),
        }
    );
    // The address on stdout alone, for scripts that started the bot on port 0.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "http://{address}/").and_then(|()| out.flush());
    drop(out);
    service::serve(listener, verifier, client, setup, turns)
        .map_err(|e| format!("the endpoint stopped: {e}"))
}

/// The bot's memory of its turns, from `file` or the default place (module doc of
/// `ternion::abstractplay::turns`).
fn open_turns(file: Option<&std::path::Path>) -> Result<Turns, String> {
    let path = match file {
        Some(file) => file.to_owned(),
        None => default_state_file()
            .ok_or("no place for the bot's memory of its turns: give --state FILE")?,
    };
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let turns = Turns::open(&path)?;
    log::info!(
        "turns: {} game(s) remembered, kept in {}",
        turns.len(),
        path.display()
    );
    Ok(turns)
}

/// `abstractplay-turns.txt` in systemd's state directory, else in the user's.
fn default_state_file() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = var("STATE_DIRECTORY")
        .or_else(|| var("XDG_STATE_HOME").map(|d| d.join("ternion")))
        .or_else(|| var("HOME").map(|d| d.join(".local/state/ternion")))?;
    Some(dir.join("abstractplay-turns.txt"))
}

/// AbstractPlay's key: from `file`, else the environment, else fetched from where
/// AbstractPlay publishes it, else the one its reference verifier embeds.
fn load_key(file: Option<&std::path::Path>) -> Result<Verifier, String> {
    if let Some(file) = file {
        let text = ternion::core::files::read_text(file)?;
        let verifier =
            Verifier::from_key_text(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        log::info!("AbstractPlay's key: from {}", file.display());
        return Ok(verifier);
    }
    if let Ok(text) = std::env::var(verify::KEY_VARIABLE)
        && !text.trim().is_empty()
    {
        let verifier =
            Verifier::from_key_text(&text).map_err(|e| format!("{}: {e}", verify::KEY_VARIABLE))?;
        log::info!("AbstractPlay's key: from {}", verify::KEY_VARIABLE);
        return Ok(verifier);
    }
    match fetch_published_key() {
        Ok(verifier) => {
            log::info!("AbstractPlay's key: from {}", verify::PUBLISHED_KEY_URL);
            Ok(verifier)
        }
        Err(why) => {
            log::warn!(
                "AbstractPlay's key could not be fetched ({why}): using the key its reference \
                 bot embeds"
            );
            Verifier::from_key_text(verify::EMBEDDED_KEY)
        }
    }
}

/// The key at [`verify::PUBLISHED_KEY_URL`].
fn fetch_published_key() -> Result<Verifier, String> {
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .new_agent();
    let text = agent
        .get(verify::PUBLISHED_KEY_URL)
        .call()
        .map_err(|e| e.to_string())?
        .into_body()
        .with_config()
        .limit(64 * 1024)
        .read_to_string()
        .map_err(|e| e.to_string())?;
    Verifier::from_key_text(&text)
}
