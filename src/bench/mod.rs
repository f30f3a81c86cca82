//! The bench: fixed positions of every variant searched to a fixed depth, one thread, from a
//! cleared table. Its total node count is a signature of the search's behaviour: the same on
//! every run and every machine, changing only when the search changes. With several threads
//! it measures the team's speed; the node count then varies from run to run.
//!
//! [`tables`]: what a probe of Egara-guti's tables costs (`ternion tables bench`).

pub mod tables;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::core::clock::Instant;

use crate::games::{Playable, Variant};
use crate::search::{Limits, Score, Searcher};

/// A bench position: variant, position string (`None` for the start) and depth.
const POSITIONS: &[(Variant, Option<&str>, u32)] = &[
    (Variant::Lielow, None, 6),
    (
        Variant::Lielow,
        Some("1r3*6/3r1r1r12/r2r24r2r2/8/8/3b23b2/b22b11b11b1/6b3*1 b"),
        6,
    ),
    (Variant::Lielow, Some("7r2*/3r14/8/8/3b3*4/8/8/b2b26 b"), 7),
    (Variant::Lielow9, None, 5),
    (Variant::Egaraguti, None, 14),
    (
        Variant::Egaraguti,
        Some("bwbbb/2b/bbb/1/ww1/2w/wwwww b 0 5"),
        10,
    ),
    (Variant::Lerontenin, None, 9),
    (
        Variant::Lerontenin,
        Some(
            "L S@67+1#38,D@22,T@39,Q@96,Paa=1@97,Pab=1@96,Pb=3@98,X@36+3,H@70+1 \
             S@18#36,D@44+2,T@90,Q@32,P@90,X@24+4,H@91+4 0/0 384",
        ),
        9,
    ),
];

/// The table size of the bench, in MiB.
const HASH_MIB: usize = 16;

/// What the bench found at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position's place in the list, from 1.
    pub index: usize,
    pub variant: Variant,
    pub depth: u32,
    /// The search's time: the table's allocation and the threads' start are left out.
    pub time: Duration,
    pub nodes: u64,
    pub score: Score,
    /// The best move and the line, in notation.
    pub best: Option<String>,
    pub pv: Vec<String>,
}

/// The bench totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchTotals {
    pub nodes: u64,
    pub nps: u64,
    /// Whether every position was searched in full (not ended by the stop flag): only then
    /// is `nodes` the signature.
    pub complete: bool,
}

/// Runs the bench on `threads` search threads, passing what each position found to `out`;
/// `depth` replaces every position's own depth.
pub fn run(depth: Option<u32>, threads: usize, out: &mut dyn FnMut(BenchLine)) -> BenchTotals {
    run_until(depth, threads, &AtomicBool::new(false), out)
}

/// [`run`] that ends as soon as `stop` is set, with the totals so far.
pub fn run_until(
    depth: Option<u32>,
    threads: usize,
    stop: &AtomicBool,
    out: &mut dyn FnMut(BenchLine),
) -> BenchTotals {
    let started = Instant::now();
    let mut nodes = 0;
    for (index, &(variant, position, own_depth)) in POSITIONS.iter().enumerate() {
        let depth = depth.unwrap_or(own_depth);
        let line =
            crate::with_game!(variant, G => search_position::<G>(position, depth, threads, stop));
        nodes += line.nodes;
        if stop.load(Ordering::Relaxed) {
            break;
        }
        out(BenchLine {
            index: index + 1,
            ..line
        });
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-6);
    BenchTotals {
        nodes,
        nps: (nodes as f64 / seconds) as u64,
        complete: !stop.load(Ordering::Relaxed),
    }
}

/// Searches one bench position (`None`: the start) to `depth` on a new searcher.
fn search_position<G: Playable>(
    position: Option<&str>,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> BenchLine {
    let game = match position {
        Some(text) => G::parse_position(text).expect("bench positions are valid"),
        None => G::start(),
    };
    let mut searcher = Searcher::<G>::new(HASH_MIB);
    searcher.set_threads(threads);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let started = Instant::now();
    let result = searcher.search(&game, &limits, stop, &mut |_| {});
    BenchLine {
        index: 0,
        variant: G::VARIANT,
        depth,
        time: started.elapsed(),
        nodes: result.nodes,
        score: result.score,
        best: result.best.map(|mv| game.move_string(mv)),
        pv: game.line_notation(&result.pv),
    }
}
