//! `ternion abstractplay`, the running bot: the endpoint AbstractPlay's webhooks reach,
//! a bounded queue of the moves to find, and a pool of workers that each search one game
//! and post its move.
//!
//! The endpoint answers every request at once (a thread each, at most
//! [`MAX_CONNECTIONS`] at a time, each given [`http::REQUEST_TIME`] to send its request):
//! a move request is put on the queue and answered `202`, or `503` when the queue is full.
//! A move request for a game and a ply already queued or being searched (AbstractPlay
//! sending the same turn twice) is answered `202` and searched once. Each game's seat and
//! last turn posted are kept ([`super::turns`]): a turn delivered again after its move was
//! posted, or at the opponent's seat, is answered `202` and passed over; the same ply after
//! another history is refused `409`.
//!
//! Every challenge, every move (game, ply, position, the move, its score and time) and
//! every failure with its reason goes to the log (`log` at `info`, stderr).
//!
//! AbstractPlay sends each turn once and does not send it again whatever the answer
//! (`lib/botOutbound.ts`): a turn refused, or taken and never posted, leaves its game
//! waiting. So a stopping bot refuses nothing: SIGTERM or SIGINT (`systemctl stop`,
//! Ctrl-C) lets every move taken, before or during the stop, be searched and posted (for
//! at most the drain, [`DRAIN_LIMIT`] by default; the searches cut to their share of it),
//! then the bot exits 0, naming every game it leaves waiting. A second signal ends it at
//! once.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::client::Client;
use super::http::{self, RawRequest};
use super::payload::{MoveRequest, Rebuilt};
use super::think::{self, CutShort, EngineSetup, Resign};
use super::turns::{Turns, Verdict, history_checksum};
use super::verify::{SignatureHeaders, Verifier};
use super::webhook::{self, Reply};
use crate::core::printable::echo;

/// Connections answered at once; one more is refused with `503` at once.
pub const MAX_CONNECTIONS: usize = 64;
/// Connections one client may hold at once when the bot faces clients itself (`--public`,
/// or a peer that is not the loopback address); one more is refused `503` at once. Behind
/// the reverse proxy every peer is the proxy, and only [`MAX_CONNECTIONS`] holds.
pub const MAX_PER_CLIENT: usize = 4;
/// The least time a move is searched, however long it waited in the queue.
const LEAST_THINK: Duration = Duration::from_millis(20);
/// How long a stopping bot waits for the moves it took to be posted, by default.
pub const DRAIN_LIMIT: Duration = Duration::from_secs(60);
/// The part of the drain the searches may take; the rest is for posting.
const DRAIN_SEARCHING: f64 = 0.8;
/// The waits before posting a move again after a failure that may pass (a network error,
/// a server error): three tries in all.
const RETRY_AFTER: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(4)];

/// How the bot plays.
#[derive(Clone, Copy, Debug)]
pub struct BotSetup {
    /// The time to think on a move, when the game's clock allows it.
    pub think: Duration,
    /// The bot faces clients itself, not behind a reverse proxy on the loopback address:
    /// each client holds at most [`MAX_PER_CLIENT`] connections, loopback peers too.
    pub public: bool,
    /// Games searched at once: one worker, one engine session each.
    pub workers: usize,
    /// Moves that may wait for a worker; a move request beyond them is answered `503`.
    pub queue: usize,
    /// Each worker's engine.
    pub engine: EngineSetup,
    /// When to resign a lost game (`None`: never).
    pub resign: Option<Resign>,
    /// How long a stopping bot has to post the moves it took ([`DRAIN_LIMIT`] by default).
    pub drain: Duration,
}

/// A move to find: the request, its game, and when it came.
struct Job {
    request: Box<MoveRequest>,
    game: Rebuilt,
    received: Instant,
}

/// A game and a ply: one turn of one game.
type Turn = (String, usize);

/// What the endpoint's threads and the workers share.
struct Bot {
    verifier: Verifier,
    client: Client,
    setup: BotSetup,
    jobs: SyncSender<Job>,
    /// The turns queued or being searched, each with its history's checksum.
    pending: Mutex<HashMap<Turn, u64>>,
    /// Each game's seat and last turn posted, kept across restarts.
    turns: Mutex<Turns>,
    open: AtomicUsize,
    /// The bot's moves in a row each game has been lost by (those games only), for
    /// [`Resign`]: kept in memory alone (a restart counts again).
    lost_in_a_row: Mutex<HashMap<String, u32>>,
    /// The connections each client holds now, for the clients [`MAX_PER_CLIENT`] caps.
    per_client: Mutex<HashMap<std::net::IpAddr, usize>>,
    /// Set by SIGTERM or SIGINT: the bot exits once its moves are posted.
    stopping: Arc<AtomicBool>,
    /// While the bot stops: when the searches that ran at the stop must end.
    cut: CutShort,
    /// While the bot stops: the most a search started since may take.
    drain_share: Mutex<Option<Duration>>,
}

/// Serves AbstractPlay's webhooks on `listener` for ever.
pub fn serve(
    listener: TcpListener,
    verifier: Verifier,
    client: Client,
    setup: BotSetup,
    turns: Turns,
) -> std::io::Result<()> {
    let (jobs, queued) = sync_channel(setup.queue);
    let bot = Arc::new(Bot {
        verifier,
        client,
        setup,
        jobs,
        pending: Mutex::new(HashMap::new()),
        turns: Mutex::new(turns),
        open: AtomicUsize::new(0),
        per_client: Mutex::new(HashMap::new()),
        lost_in_a_row: Mutex::new(HashMap::new()),
        stopping: Arc::new(AtomicBool::new(false)),
        cut: CutShort::new(None),
        drain_share: Mutex::new(None),
    });
    watch_signals(&bot)?;
    let queued = Arc::new(Mutex::new(queued));
    for index in 0..setup.workers.max(1) {
        let (bot, queued) = (Arc::clone(&bot), Arc::clone(&queued));
        thread::Builder::new()
            .name(format!("abstractplay-worker-{index}"))
            .spawn(move || work(&bot, &queued))?;
    }
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            continue;
        };
        let address = stream.peer_addr().ok();
        let peer = address.map_or_else(|| "?".to_owned(), |a| a.to_string());
        let client = address
            .map(|a| a.ip())
            .filter(|ip| bot.setup.public || !ip.is_loopback());
        if let Some(client) = client
            && !bot.hold(client)
        {
            log::warn!("{peer}: refused (503): {MAX_PER_CLIENT} connections of it already open");
            http::respond(stream, 503, r#"{"error":"too many connections"}"#);
            continue;
        }
        if bot.open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            bot.open.fetch_sub(1, Ordering::SeqCst);
            client.inspect(|&client| bot.let_go(client));
            log::warn!("{peer}: refused (503): {MAX_CONNECTIONS} connections already open");
            http::respond(stream, 503, r#"{"error":"too many connections"}"#);
            continue;
        }
        let connection = Arc::clone(&bot);
        let spawned = thread::Builder::new()
            .name("abstractplay-connection".into())
            .spawn(move || {
                connection.answer(stream, &peer);
                connection.open.fetch_sub(1, Ordering::SeqCst);
                client.inspect(|&client| connection.let_go(client));
            });
        if let Err(error) = spawned {
            bot.open.fetch_sub(1, Ordering::SeqCst);
            client.inspect(|&client| bot.let_go(client));
            log::warn!("no thread for a connection: {error}");
        }
    }
    Ok(())
}

/// Seconds since the Unix epoch, as the signatures count them.
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Bot {
    /// Takes one of `client`'s connection slots; `false` if it holds them all.
    fn hold(&self, client: std::net::IpAddr) -> bool {
        let mut held = self
            .per_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(client).or_insert(0);
        if *count >= MAX_PER_CLIENT {
            return false;
        }
        *count += 1;
        true
    }

    /// Gives back one of `client`'s connection slots.
    fn let_go(&self, client: std::net::IpAddr) {
        let mut held = self
            .per_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&client);
            }
        }
    }

    /// Reads one request from `stream` and answers it.
    fn answer(&self, mut stream: TcpStream, peer: &str) {
        let request = match http::read_request(&mut stream) {
            Ok(request) => request,
            Err(refused) => {
                log::warn!("{peer}: refused ({}): {}", refused.status, refused.reason);
                let body = serde_json::json!({ "error": refused.reason }).to_string();
                return http::respond(stream, refused.status, &body);
            }
        };
        let peer = match &request.forwarded_for {
            Some(client) => format!("{client} via {peer}"),
            None => peer.to_owned(),
        };
        let peer = peer.as_str();
        let reply = webhook::answer(&self.verifier, as_webhook(&request), unix_now());
        let (status, body) = match reply {
            Reply::Queued(request, game) => self.enqueue(request, game, peer),
            reply => {
                log_reply(&reply, peer);
                (reply.status(), reply.body())
            }
        };
        match request.method.as_str() {
            "HEAD" => http::respond_head(stream, status, &body),
            _ => http::respond(stream, status, &body),
        }
    }

    /// Queues the search of `game` for `request`; the status and body to answer.
    fn enqueue(&self, request: Box<MoveRequest>, game: Rebuilt, peer: &str) -> (u16, String) {
        let turn = (request.gameid.clone(), game.moves.len());
        let history = history_checksum(&game.moves);
        let queued = (202, r#"{"queued":true}"#.to_owned());
        let conflict = |why: &str| {
            log::warn!("game {}: refused (409): {why}", turn.0);
            let body = serde_json::json!({ "error": why }).to_string();
            (409, body)
        };
        let verdict = self.turns().judge(&turn.0, turn.1, history);
        match verdict {
            Verdict::Play => {}
            Verdict::PassOver(why) => {
                log::info!("game {}: {why}: passed over ({peer})", turn.0);
                return (202, r#"{"queued":false}"#.to_owned());
            }
            Verdict::Conflict(why) => return conflict(&why),
        }
        match self.pending().entry(turn.clone()) {
            Entry::Occupied(taken) if *taken.get() == history => {
                log::info!(
                    "game {}: ply {} asked again while it is being played: answered once",
                    turn.0,
                    turn.1 + 1
                );
                return queued;
            }
            Entry::Occupied(_) => {
                return conflict(&format!(
                    "ply {} is being played after another history",
                    turn.1 + 1
                ));
            }
            Entry::Vacant(free) => {
                free.insert(history);
            }
        }
        self.turns().take_seat(&turn.0, turn.1, unix_now());
        let job = Job {
            request,
            game,
            received: Instant::now(),
        };
        match self.jobs.try_send(job) {
            Ok(()) => {
                log::info!("game {}: ply {} queued ({peer})", turn.0, turn.1 + 1);
                queued
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.pending().remove(&turn);
                log::warn!(
                    "game {}: ply {} refused (503): {} moves already wait",
                    turn.0,
                    turn.1 + 1,
                    self.setup.queue
                );
                (
                    503,
                    r#"{"error":"busy: too many moves waiting"}"#.to_owned(),
                )
            }
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<Turn, u64>> {
        // No thread panics while it holds the lock: a poisoned map is still whole.
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn turns(&self) -> std::sync::MutexGuard<'_, Turns> {
        // Likewise: a record is whole before the lock is let go.
        self.turns.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Searches `job`'s game and posts the move.
    fn play(&self, job: &Job) {
        let (gameid, ply) = (job.request.gameid.as_str(), job.game.moves.len() + 1);
        // The clock ran while the move waited in the queue; and the longer the queue, the
        // shorter each move, so that a busy hour does not fill it.
        let budget = under_load(self.setup.think, self.setup.workers, self.pending().len());
        let allowed = job.request.think_time(budget);
        log::info!(
            "game {gameid}: ply {ply}: {:.3} s to think (clock {} h)",
            allowed.as_secs_f64(),
            job.request.clock_curr
        );
        let mut think = allowed
            .saturating_sub(job.received.elapsed())
            .max(LEAST_THINK);
        // A search started while the bot stops takes its share of the drain; one that was
        // running when the stop came is cut short at the time the stop set.
        let share = *self
            .drain_share
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let no_cut = CutShort::new(None);
        let cut = match share {
            Some(share) => {
                think = think.min(share).max(LEAST_THINK);
                &no_cut
            }
            None => &self.cut,
        };
        let chosen = match think::choose_until(&job.game, think, self.setup.engine, cut) {
            Ok(chosen) => chosen,
            Err(why) => return log::warn!("game {gameid}: ply {ply}: no move: {why}"),
        };
        log::info!(
            "game {gameid}: ply {ply}, position {}: plays {} ({}), {}, {:.2} s",
            job.game.position(),
            chosen.abstractplay,
            chosen.ternion,
            chosen.score.as_deref().unwrap_or("no score"),
            chosen.took.as_secs_f64()
        );
        let mv = match self.resigns(gameid, chosen.value) {
            true => {
                log::info!(
                    "game {gameid}: ply {ply}: resigns ({})",
                    chosen.score.as_deref().unwrap_or("no score")
                );
                RESIGN
            }
            false => chosen.abstractplay.as_str(),
        };
        let meta_game = job.request.meta_game.as_str();
        let mut waits = RETRY_AFTER.iter();
        loop {
            match self.client.post_move(gameid, meta_game, mv) {
                Ok(()) => {
                    log::info!("game {gameid}: {mv} posted");
                    let history = history_checksum(&job.game.moves);
                    let recorded = self.turns().record(gameid, ply - 1, history, unix_now());
                    if let Err(why) = recorded {
                        log::warn!("game {gameid}: the turn is not kept across a restart: {why}");
                    }
                    return;
                }
                Err(error) => match waits.next() {
                    Some(wait) if error.is_transient() => {
                        log::warn!(
                            "game {gameid}: {mv} not posted: {error}; again in {} s",
                            wait.as_secs()
                        );
                        thread::sleep(*wait);
                    }
                    _ => {
                        return log::warn!("game {gameid}: {mv} not posted: {error}; given up");
                    }
                },
            }
        }
    }
}

/// What the bot posts to resign, as AbstractPlay takes it (`api/abstractplay.ts`,
/// `handleMove`).
const RESIGN: &str = "resign";
/// The most games whose lost moves in a row are counted at once.
const MAX_LOSING_GAMES: usize = 10_000;

impl Bot {
    /// Counts a move of `value` in `gameid` towards resigning; whether the bot resigns now.
    fn resigns(&self, gameid: &str, value: Option<crate::search::Score>) -> bool {
        let Some(resign) = self.setup.resign else {
            return false;
        };
        let mut counts = self
            .lost_in_a_row
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !resign.is_lost(value) {
            counts.remove(gameid);
            return false;
        }
        if counts.len() >= MAX_LOSING_GAMES && !counts.contains_key(gameid) {
            counts.clear();
        }
        let count = counts.entry(gameid.to_owned()).or_insert(0);
        *count += 1;
        let now = resign.now(value, *count);
        if now {
            counts.remove(gameid);
        }
        now
    }
}

/// Starts the thread that stops the bot on SIGTERM or SIGINT (see the module's notes); a
/// second signal while it stops ends the process at once (status 1).
fn watch_signals(bot: &Arc<Bot>) -> std::io::Result<()> {
    for signal in [SIGTERM, SIGINT] {
        signal_hook::flag::register_conditional_shutdown(signal, 1, Arc::clone(&bot.stopping))?;
    }
    let mut signals = Signals::new([SIGTERM, SIGINT])?;
    let bot = Arc::clone(bot);
    thread::Builder::new()
        .name("abstractplay-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                bot.stop(if signal == SIGTERM {
                    "SIGTERM"
                } else {
                    "SIGINT"
                });
            }
        })?;
    Ok(())
}

impl Bot {
    /// Waits for every move taken to be posted (at most the drain), and exits. The
    /// searches share the drain: those running end within a share of it, and each started
    /// since thinks at most that share, so that the moves waiting are all played in time.
    /// Every game still waiting at the end is named in the log.
    fn stop(&self, signal: &str) -> ! {
        let started = Instant::now();
        self.stopping.store(true, Ordering::SeqCst);
        let pending = self.pending().len();
        let rounds = pending.div_ceil(self.setup.workers.max(1)).max(1) as u32;
        let share = self.setup.drain.mul_f64(DRAIN_SEARCHING) / rounds;
        *self
            .drain_share
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(share);
        *self.cut.lock().unwrap_or_else(PoisonError::into_inner) = Some(started + share);
        log::info!(
            "{signal}: stopping once the {pending} move(s) taken, and any taken meanwhile, are \
             posted: at most {:.1} s a search, {:.0} s in all",
            share.as_secs_f64(),
            self.setup.drain.as_secs_f64()
        );
        let deadline = started + self.setup.drain;
        while !self.pending().is_empty() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        let mut left: Vec<Turn> = self.pending().keys().cloned().collect();
        left.sort();
        for (gameid, ply) in &left {
            log::warn!(
                "game {gameid}: ply {} left waiting: its move was not posted",
                ply + 1
            );
        }
        match left.len() {
            0 => log::info!("stopped"),
            left => log::warn!("stopped with {left} move(s) not posted"),
        }
        std::process::exit(0)
    }
}

/// The think time of a move when `pending` moves (those being searched included) share
/// `workers` engines: the whole `think` while every move has an engine, else the share
/// that would clear the queue in the time one round of moves takes.
fn under_load(think: Duration, workers: usize, pending: usize) -> Duration {
    let workers = workers.max(1);
    match pending <= workers {
        true => think,
        false => think.mul_f64(workers as f64 / pending as f64),
    }
}

/// One worker: takes the queued moves one by one, for ever.
fn work(bot: &Bot, queued: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let receiver = queued.lock().unwrap_or_else(PoisonError::into_inner);
            match receiver.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        // A panic in one search costs its move, not the worker.
        if catch_unwind(AssertUnwindSafe(|| bot.play(&job))).is_err() {
            log::error!("game {}: the search failed", job.request.gameid);
        }
        let turn = (job.request.gameid.clone(), job.game.moves.len());
        bot.pending().remove(&turn);
    }
}

/// `request` as the webhook's answer reads it.
fn as_webhook(request: &RawRequest) -> webhook::Request<'_> {
    webhook::Request {
        method: &request.method,
        headers: SignatureHeaders {
            timestamp: request.timestamp.as_deref(),
            nonce: request.nonce.as_deref(),
            signature: request.signature.as_deref(),
        },
        body: &request.body,
    }
}

/// Signed words for the log, each echoed (cut, on one line), at most eight of them.
fn echoed(words: &[String]) -> Vec<String> {
    words.iter().take(8).map(|word| echo(word)).collect()
}

/// The log line of an answer given at once.
fn log_reply(reply: &Reply, peer: &str) {
    match reply {
        Reply::Operational => log::info!("{peer}: ping: operational"),
        Reply::Accepted(challenge) => log::info!(
            "challenge from {:?}: {} {:?}, clock {} h + {} h (at most {} h): accepted",
            echoed(&challenge.challengers),
            echo(&challenge.meta_game),
            echoed(&challenge.variants),
            challenge.clock_start,
            challenge.clock_inc,
            challenge.clock_max
        ),
        Reply::Declined(why) => log::info!("challenge declined: {why}"),
        Reply::Unauthorized(why) => log::warn!("{peer}: refused (401): {why}"),
        Reply::BadRequest(why) => log::warn!("{peer}: refused (400): {why}"),
        Reply::MethodNotAllowed => log::warn!("{peer}: refused (405): not GET or POST"),
        Reply::Queued(..) => {}
    }
}

/// Binds the endpoint to `address`.
pub fn bind(address: SocketAddr) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(address)?;
    let bound = listener.local_addr()?;
    Ok((listener, bound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_think_less_as_the_queue_grows() {
        let five = Duration::from_secs(5);
        assert_eq!(under_load(five, 2, 0), five);
        assert_eq!(under_load(five, 2, 2), five);
        assert_eq!(under_load(five, 2, 4), Duration::from_millis(2500));
        assert_eq!(under_load(five, 2, 66), five.mul_f64(2.0 / 66.0));
        assert_eq!(under_load(five, 0, 3), five.mul_f64(1.0 / 3.0));
    }
}
