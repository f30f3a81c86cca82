//! The processes an engine leaves behind by leaving its process group for a session of its
//! own (`setsid`), which ending the group cannot reach.
//!
//! On Linux the match runner makes itself a child subreaper: an engine's orphans are then
//! reparented to the runner rather than to init, and after every engine it ends the runner
//! ends those of its children that live in another session than its own (an engine is
//! started in the runner's session, in a group of its own, and a process started beside the
//! runner by whoever called it stays in the runner's session too). Elsewhere such an orphan
//! outlives the match (README.md, "Platforms"): there both calls do nothing.

#[cfg(target_os = "linux")]
pub use linux::{adopt_orphans, end_orphans};

/// Makes this process the reaper of its descendants' orphans: not on this system.
#[cfg(not(target_os = "linux"))]
pub fn adopt_orphans() -> bool {
    false
}

/// Ends the orphans engines left in sessions of their own: none are known on this system.
#[cfg(not(target_os = "linux"))]
pub fn end_orphans() {}

#[cfg(target_os = "linux")]
mod linux {
    use rustix::process::{Pid, Signal, WaitOptions};

    /// Makes this process the reaper of its descendants' orphans; whether the system allowed it.
    pub fn adopt_orphans() -> bool {
        rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok()
    }

    /// Ends and reaps every child of this process that left this process's session: the
    /// orphans of engines that called `setsid`, reparented here by [`adopt_orphans`].
    pub fn end_orphans() {
        let me = rustix::process::getpid();
        let Ok(my_session) = rustix::process::getsid(None) else {
            return;
        };
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in entries.flatten() {
            let Some(pid) = (entry.file_name().to_str())
                .and_then(|name| name.parse::<i32>().ok())
                .and_then(Pid::from_raw)
            else {
                continue;
            };
            let escaped = parent_of(pid) == Some(me)
                && rustix::process::getsid(Some(pid)).is_ok_and(|session| session != my_session);
            if escaped {
                log::info!(
                    "match: ending process {} that an engine left behind",
                    pid.as_raw_nonzero()
                );
                let _ = rustix::process::kill_process(pid, Signal::KILL);
                let _ = rustix::process::waitpid(Some(pid), WaitOptions::empty());
            }
        }
    }

    /// The parent of `pid`, from `/proc/<pid>/stat` (its fourth field, after the command's
    /// name in parentheses, which may itself hold spaces and parentheses).
    fn parent_of(pid: Pid) -> Option<Pid> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero())).ok()?;
        let after_name = &stat[stat.rfind(')')? + 1..];
        let parent = after_name.split_whitespace().nth(1)?.parse::<i32>().ok()?;
        Pid::from_raw(parent)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_parent_is_read_past_a_name_with_spaces() {
            let me = rustix::process::getpid();
            // A process's name in /proc/<pid>/stat is its program's file name, here one
            // with spaces and parentheses that a naive split would read wrong.
            let dir = std::env::temp_dir().join(format!("ternion-reaper-{}", me.as_raw_nonzero()));
            std::fs::create_dir_all(&dir).unwrap();
            let odd = dir.join("a (b) c");
            let _ = std::fs::remove_file(&odd);
            std::os::unix::fs::symlink("/bin/sleep", &odd).unwrap();
            let child = std::process::Command::new(&odd).arg("5").spawn().unwrap();
            let pid = Pid::from_raw(child.id() as i32).unwrap();
            assert_eq!(parent_of(pid), Some(me));
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
            std::fs::remove_dir_all(&dir).ok();
            // A child in this process's session is left alone.
            let mut stays = std::process::Command::new("sleep")
                .arg("5")
                .spawn()
                .unwrap();
            end_orphans();
            assert!(stays.try_wait().unwrap().is_none());
            let _ = stays.kill();
            let _ = stays.wait();
        }
    }
}
