//! What a probe costs (`tables bench`): probes of random positions of each table, or a
//! search's own probes replayed in order, timed alike for a packed and a compact set. On
//! top of the room.

use crate::core::clock::Instant;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::games::egaraguti::EgaraGuti;
use crate::games::egaraguti::tablebase::index::{Material, Men};
use crate::games::egaraguti::tablebase::set::{Tablebase, men_of};
use crate::games::egaraguti::tablebase::table::Table;
use crate::search::{Exact, Limits, Oracle, Searcher};

/// What probes of one table cost.
#[derive(Clone, Debug)]
pub struct ProbeCost {
    pub material: Material,
    pub probes: u64,
    /// The median over the timed passes, in nanoseconds a probe.
    pub nanoseconds: f64,
}

/// The cost of a probe of each table of the whole set in `dir`: `positions` seeded random
/// positions of its material (men placed at random, about 85% of them with a capture from
/// 10 men up), probed once untimed (the pages in memory) and then in three timed passes,
/// the median kept. Random positions share no pages, unlike a search's: the worst case.
pub fn probe_costs(
    dir: &Path,
    positions: usize,
    seed: u64,
    progress: &mut dyn FnMut(&ProbeCost),
) -> Result<Vec<ProbeCost>, String> {
    let set = Tablebase::load_all(dir)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut points: Vec<u32> = (0..crate::games::egaraguti::board::POINTS as u32).collect();
    let mut costs = Vec::new();
    let mut materials: Vec<Material> = set.tables().map(Table::material).collect();
    materials.sort_by_key(|m| (m.total(), std::cmp::Reverse(m.mover)));
    for material in materials {
        let men: Vec<Men> = (0..positions)
            .map(|_| {
                rng.shuffle(&mut points);
                let set = |points: &[u32]| points.iter().fold(0u32, |s, &p| s | 1 << p);
                Men {
                    mover: set(&points[..material.mover]),
                    other: set(&points[material.mover..material.total()]),
                }
            })
            .collect();
        let pass = || {
            set.forget_derived();
            let started = Instant::now();
            let mut sum = 0u64;
            for &position in &men {
                let (value, distance) = set.value_and_distance(position).expect("a whole set");
                sum += value as u64 + u64::from(distance.unwrap_or(0));
            }
            std::hint::black_box(sum);
            started.elapsed().as_secs_f64()
        };
        pass();
        let mut times = [pass(), pass(), pass()];
        times.sort_by(f64::total_cmp);
        let cost = ProbeCost {
            material,
            probes: positions as u64,
            nanoseconds: times[1] * 1e9 / positions.max(1) as f64,
        };
        progress(&cost);
        costs.push(cost);
    }
    Ok(costs)
}

/// The tables as a search's oracle that keeps every position it is asked about.
struct Recording {
    tables: Tablebase,
    probed: Mutex<Vec<EgaraGuti>>,
}

impl Oracle<EgaraGuti> for Recording {
    fn probe(&self, game: &EgaraGuti) -> Option<Exact> {
        self.probed.lock().unwrap().push(game.clone());
        Oracle::probe(&self.tables, game)
    }
}

/// What the probes of a search cost: a search of `game` for `nodes` nodes on one thread with
/// the whole set in `dir` records every position it probes, in order; the probes are then
/// made again in that order, once untimed and three times timed, the median kept (of the
/// positions with a table: those above the set cost a look at an empty slot). The
/// search's own locality (a position's neighbours probed one after another) is kept, and
/// two sets that agree (`tables compare`) see the same probes.
pub fn search_probe_cost(dir: &Path, game: &EgaraGuti, nodes: u64) -> Result<ProbeCost, String> {
    let recording = Arc::new(Recording {
        tables: Tablebase::load_all(dir)?,
        probed: Mutex::new(Vec::new()),
    });
    let mut searcher = Searcher::<EgaraGuti>::new(16);
    searcher.set_oracle(Some(Arc::clone(&recording) as Arc<dyn Oracle<EgaraGuti>>));
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher.search(game, &limits, &AtomicBool::new(false), &mut |_| {});
    drop(searcher);
    let Ok(Recording { tables, probed }) = Arc::try_unwrap(recording) else {
        return Err("the search kept its oracle".into());
    };
    // The probes of positions beyond the set cost a look at an empty slot: left out, so
    // that the figure is what a probe that reads the tables costs.
    let mut probed = probed.into_inner().unwrap();
    probed.retain(|game| tables.get(men_of(game).material()).is_some());
    let pass = || {
        tables.forget_derived();
        let started = Instant::now();
        let known = probed
            .iter()
            .filter(|game| Oracle::probe(&tables, game).is_some())
            .count();
        std::hint::black_box(known);
        started.elapsed().as_secs_f64()
    };
    pass();
    let mut times = [pass(), pass(), pass()];
    times.sort_by(f64::total_cmp);
    Ok(ProbeCost {
        material: men_of(game).material(),
        probes: probed.len() as u64,
        nanoseconds: times[1] * 1e9 / probed.len().max(1) as f64,
    })
}
