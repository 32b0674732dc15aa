//! Lower CPU priorities for the server's own work, so that answering requests comes first: a
//! solve started from the page runs at niceness [`SOLVE`], a live search at [`LIVE_SEARCH`] (above
//! the solve, below requests). Linux gives each thread its own niceness, and a thread started
//! from one inherits it (a live search's threads inherit its).

/// A page-started solve's niceness. A waking request handler at niceness 0 takes the core from
/// it, and beside other busy programs it still gets about a tenth of a core. The idle class
/// (`SCHED_IDLE`) starved it instead: with both cores held by another program, a solve started
/// from the page never ended.
pub const SOLVE: u8 = 10;

/// A live search's niceness: requests first, then the searches people wait for, then solves.
pub const LIVE_SEARCH: u8 = 5;

/// Sets the calling thread's niceness to `niceness` (0 to 19), in the ordinary scheduling class.
/// Elsewhere than Linux a no-op: the work then shares the CPU evenly.
pub fn set_niceness(niceness: u8) {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
        };
        // The crate maps its 0..=99 onto niceness 19..=-20.
        let value = (u32::from(19 - niceness.min(19)) * 99 / 39) as u8;
        if let Ok(value) = ThreadPriorityValue::try_from(value) {
            let _ = thread_priority::set_thread_priority_and_policy(
                thread_priority::thread_native_id(),
                ThreadPriority::Crossplatform(value),
                ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other),
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = niceness;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// This thread's niceness and scheduling policy, from `/proc`.
    fn niceness_and_policy() -> (String, String) {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The fields after the command's closing parenthesis start at the third; niceness is
        // the 19th and the scheduling policy the 41st (0: ordinary, 5: idle).
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        (fields[19 - 3].to_string(), fields[41 - 3].to_string())
    }

    #[test]
    fn a_thread_gets_the_niceness_asked_for_and_its_threads_inherit_it() {
        std::thread::spawn(|| {
            for niceness in [super::LIVE_SEARCH, super::SOLVE] {
                super::set_niceness(niceness);
                assert_eq!(niceness_and_policy(), (niceness.to_string(), "0".to_string()));
                let inherited = std::thread::spawn(niceness_and_policy).join().unwrap();
                assert_eq!(inherited.0, niceness.to_string());
            }
        })
        .join()
        .unwrap();
    }
}
