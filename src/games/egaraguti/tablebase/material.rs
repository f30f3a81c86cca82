//! The levels of material: which tables a level has, which levels its captures lead into,
//! and which tables a set misses.
//!
//! A level is a material pair and its swap (the men of the side to move and of the other,
//! either way round): one solve writes both tables. A level's captures lead into levels of
//! fewer men, whose values its own were solved from, so a set of tables is usable only
//! whole from the bottom: every level of as many men as its largest table or fewer, both
//! ways round. A set with a hole (a level deleted, a shard of a split build forgotten, a
//! copy cut short) is refused wherever a set is loaded, with the missing tables named,
//! rather than served in part: a search that knows some positions exactly and their
//! neighbours not at all plays moves the whole set knows to give value away.

use std::path::Path;

use super::file;
use super::index::{MAX_MEN, Material};

/// The levels of the pairs with `total` men, each as its pair with the larger (or equal)
/// men to move first.
pub fn levels_of_total(total: usize) -> Vec<Material> {
    (total.div_ceil(2)..total)
        .map(|mover| Material {
            mover,
            other: total - mover,
        })
        .filter(|m| m.is_tabled())
        .collect()
}

/// The pairs of a level: one if both sides have as many men, else both ways round.
pub fn parts(level: Material) -> Vec<Material> {
    if level.mover == level.other {
        vec![level]
    } else {
        vec![level, level.swapped()]
    }
}

/// The material pairs a level's captures lead to, which must be solved first.
pub fn lower_materials(level: Material) -> Vec<Material> {
    let mut lower = Vec::new();
    for material in parts(level) {
        // The capturer's men stay; the other side, now to move, has lost at least one man.
        for left in 1..material.other {
            lower.push(Material {
                mover: left,
                other: material.mover,
            });
        }
    }
    lower
}

/// The tables a set whose tables are those `present` says are there lacks to be whole:
/// every table of as many men as its largest or fewer that is not there, fewest men first
/// (none for an empty set).
pub fn missing_tables(present: impl Fn(Material) -> bool) -> Vec<Material> {
    let largest = (2..=2 * MAX_MEN)
        .rev()
        .find(|&total| {
            levels_of_total(total)
                .into_iter()
                .flat_map(parts)
                .any(&present)
        })
        .unwrap_or(0);
    (2..=largest)
        .flat_map(levels_of_total)
        .flat_map(parts)
        .filter(|&material| !present(material))
        .collect()
}

/// Refuses the set of table files in `dir` if it has a hole, with the one line of
/// [`hole_error`]; an empty directory has none.
pub fn refuse_holes(dir: &Path) -> Result<(), String> {
    // A table's name that leads to something else (a device, a directory, a link to
    // nothing) is named for what it is, not counted as missing.
    for mover in 1..=MAX_MEN {
        for other in 1..=MAX_MEN {
            let path = file::path(dir, Material { mover, other });
            let Ok(here) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let what = match std::fs::metadata(&path) {
                Ok(found) if found.is_file() => continue,
                Ok(found) => crate::core::output::kind_name(found.file_type()),
                Err(_) if here.is_symlink() => "a symbolic link that leads nowhere",
                Err(_) => continue,
            };
            return Err(format!(
                "cannot read {}: not a regular file but {what}",
                path.display()
            ));
        }
    }
    let missing = missing_tables(|material| file::path(dir, material).is_file());
    match missing.is_empty() {
        true => Ok(()),
        false => Err(hole_error(&dir.display().to_string(), &missing)),
    }
}

/// The one line that refuses a set of tables in `place` with a hole: the tables
/// `missing` names, at most a few of them, and what a whole set is.
pub fn hole_error(place: &str, missing: &[Material]) -> String {
    const SHOWN: usize = 8;
    let mut names: Vec<String> = (missing.iter().take(SHOWN))
        .map(|m| m.to_string())
        .collect();
    if missing.len() > SHOWN {
        names.push(format!("and {} more", missing.len() - SHOWN));
    }
    let largest = missing.iter().map(|m| m.total()).max().unwrap_or(0);
    format!(
        "the tables in {place} have a hole: {} missing ({} table{}); a set is usable only \
         with every level of as many men as its largest table or fewer, both ways round \
         (here every table of {largest} men or fewer)",
        names.join(", "),
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn material(mover: usize, other: usize) -> Material {
        Material { mover, other }
    }

    /// Every table of `most` men or fewer.
    fn whole(most: usize) -> Vec<Material> {
        (2..=most)
            .flat_map(levels_of_total)
            .flat_map(parts)
            .collect()
    }

    #[test]
    fn a_whole_set_misses_nothing_and_a_hole_is_found_at_any_depth() {
        let set = whole(6);
        // 1v1; 2v1 1v2; 2v2 3v1 1v3; 3v2 2v3 4v1 1v4; 3v3 4v2 2v4 5v1 1v5.
        assert_eq!(set.len(), 15);
        assert!(missing_tables(|m| set.contains(&m)).is_empty());
        assert!(missing_tables(|_| false).is_empty());
        for gone in &set {
            let holed: Vec<Material> = set.iter().copied().filter(|m| m != gone).collect();
            assert_eq!(missing_tables(|m| holed.contains(&m)), vec![*gone]);
        }
        // A forgotten shard of the top level: its tables named, fewest men first.
        let shard: Vec<Material> = set
            .iter()
            .copied()
            .filter(|m| ![material(4, 2), material(2, 4)].contains(m))
            .collect();
        assert_eq!(
            missing_tables(|m| shard.contains(&m)),
            vec![material(4, 2), material(2, 4)]
        );
        // One table far above the rest: every level below it is missing.
        let far = [material(1, 1), material(4, 4)];
        assert_eq!(
            missing_tables(|m| far.contains(&m)).len(),
            whole(8).len() - 2
        );
    }

    #[test]
    fn the_refusal_names_a_few_tables_and_counts_the_rest() {
        let one = hole_error("dir", &[material(3, 3)]);
        assert!(one.contains("have a hole: 3v3 missing (1 table)"), "{one}");
        assert!(one.contains("every table of 6 men or fewer"), "{one}");
        let many: Vec<Material> = whole(8).into_iter().skip(1).collect();
        let text = hole_error("dir", &many);
        assert!(text.contains(", and 19 more missing (27 tables)"), "{text}");
        assert!(!text.contains('\n'));
    }
}
