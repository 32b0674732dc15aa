//! What a solve started from the page will cost on this machine, said before it starts: its
//! indices, the memory at its peak, the disk its files take, and its time at a rate measured on
//! this machine (this server's own solves, in memory at start-up or from the page). A solve that
//! cannot fit in the memory available or the disk free is refused with the reason.

use std::path::Path;

use perfectplay_core::Game;
use perfectplay_solve::SolvePlan;
use serde_json::{json, Value as JsonValue};

/// Quarter bytes a solve's files take per index, at most: the tier files as it goes and the
/// database written beside them at the end, each at most a byte an index (Nine Men's Morris's
/// database holds 0.13 bytes an index, its largest tier files 0.32), and the marks of a search
/// run first (a quarter of a byte an index, kept until the database is written).
const DISK_QUARTER_BYTES_PER_INDEX: u64 = 9;

/// The share of the memory available a solve from the page may hold (the rest stays for the
/// server's caches and the system).
const MEMORY_SHARE: f64 = 0.8;

/// A solve's rate measured on this machine: `indices` solved in `seconds`.
#[derive(Clone, Debug)]
pub(super) struct Rate {
    pub(super) game: &'static str,
    pub(super) variant: String,
    pub(super) indices: u64,
    pub(super) seconds: f64,
}

impl Rate {
    fn per_second(&self) -> f64 {
        self.indices as f64 / self.seconds.max(1e-3)
    }
}

/// A solve's cost, counted before it starts.
#[derive(Clone, Debug)]
pub(super) struct Cost {
    /// The solve's size where known before it starts (not for a game whose positions are found by
    /// discovering them).
    pub(super) plan: Option<SolvePlan>,
    /// The memory a solve from the page may hold, and the disk free where its files go.
    pub(super) memory_limit: u64,
    pub(super) disk_free: Option<u64>,
    /// The rate the time is estimated from.
    pub(super) rate: Option<Rate>,
}

impl Cost {
    /// The cost of solving `game` into `path`, at the best rate in `rates`: this game's largest
    /// solve, else the largest of any game's.
    pub(super) fn new(
        game: &dyn Game,
        plan: Option<SolvePlan>,
        path: &Path,
        rates: &[Rate],
    ) -> Cost {
        let largest = |of: &mut dyn Iterator<Item = &Rate>| of.max_by_key(|r| r.indices).cloned();
        let rate = largest(&mut rates.iter().filter(|r| r.game == game.id()))
            .or_else(|| largest(&mut rates.iter()));
        let memory_limit = (memory_available() as f64 * MEMORY_SHARE) as u64;
        let dir = path.parent().unwrap_or(Path::new("."));
        Cost { plan, memory_limit, disk_free: disk_free(dir), rate }
    }

    /// Bytes at the solve's peak, under [`Cost::memory_limit`]: the tier in progress beside its
    /// child tiers, which the solver packs (or holds in part) to fit the limit; never less than
    /// the largest tier's own work.
    pub(super) fn peak_bytes(&self) -> Option<u64> {
        self.plan.as_ref().map(|p| p.lean_bytes.min(self.memory_limit).max(p.tier_bytes))
    }

    /// Whether the analysis after the solve fits
    /// ([`perfectplay_solve::SolvePlan::analysis_bytes`]).
    pub(super) fn analysis_fits(&self) -> bool {
        self.plan.as_ref().is_some_and(|p| p.analysis_bytes <= self.memory_limit)
    }

    pub(super) fn disk_bytes(&self) -> Option<u64> {
        self.plan.as_ref().map(|p| p.indices * DISK_QUARTER_BYTES_PER_INDEX / 4)
    }

    /// Seconds the solve should take here.
    pub(super) fn seconds(&self) -> Option<f64> {
        Some(self.plan.as_ref()?.indices as f64 / self.rate.as_ref()?.per_second())
    }

    /// Why the solve cannot be done here, if it cannot.
    pub(super) fn refusal(&self) -> Option<String> {
        let plan = self.plan.as_ref()?;
        if plan.tier_bytes > self.memory_limit {
            return Some(format!(
                "its largest tier ({} indices) needs about {} of memory for its own work, and a \
                 solve here may hold {} ({:.0}% of the memory available)",
                thousands(plan.largest_tier),
                bytes(plan.tier_bytes),
                bytes(self.memory_limit),
                MEMORY_SHARE * 100.0
            ));
        }
        match (self.disk_bytes(), self.disk_free) {
            (Some(need), Some(free)) if need > free => Some(format!(
                "its files need about {} of disk and {} is free where they go",
                bytes(need),
                bytes(free)
            )),
            _ => None,
        }
    }

    /// The cost as the listings show it (`cost`).
    pub(super) fn to_json(&self) -> JsonValue {
        json!({
            "indices": self.plan.as_ref().map(|p| p.indices),
            "tiers": self.plan.as_ref().map(|p| p.tiers),
            "largestTier": self.plan.as_ref().map(|p| p.largest_tier),
            "peakBytes": self.peak_bytes(),
            "diskBytes": self.disk_bytes(),
            "memoryLimit": self.memory_limit,
            "diskFree": self.disk_free,
            "seconds": self.seconds(),
            "rate": self.rate.as_ref().map(|r| json!({
                "game": r.game,
                "variant": r.variant,
                "indices": r.indices,
                "seconds": r.seconds,
                "perSecond": r.per_second(),
            })),
            "analysis": self.analysis_fits(),
            "refused": self.refusal(),
            "summary": self.summary(),
        })
    }

    /// The cost in words.
    pub(super) fn summary(&self) -> String {
        let Some(plan) = &self.plan else {
            return "its size is not known before it starts: its positions are found by \
                    discovering them from the start"
                .to_string();
        };
        let mut s = format!(
            "{} indices in {} tier{}, about {} of memory at the peak and {} of disk",
            thousands(plan.indices),
            plan.tiers,
            if plan.tiers == 1 { "" } else { "s" },
            bytes(self.peak_bytes().unwrap_or(0)),
            bytes(self.disk_bytes().unwrap_or(0)),
        );
        if let (Some(secs), Some(r)) = (self.seconds(), &self.rate) {
            s += &format!(
                "; about {} at {} indices a second (measured here: {} {})",
                duration(secs),
                thousands(r.per_second() as u64),
                r.game,
                r.variant
            );
        }
        s
    }
}

/// The memory available to a new process, from `/proc/meminfo` (0 where it cannot be read).
fn memory_available() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib << 10)
        })
        .unwrap_or(0)
}

/// The bytes free to an unprivileged writer in the file system of `dir`.
#[cfg(unix)]
fn disk_free(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
fn disk_free(_dir: &Path) -> Option<u64> {
    None
}

/// "1.5 GiB", "320 MiB", "12 KiB".
fn bytes(n: u64) -> String {
    let units = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in units {
        if n >= 1 << shift {
            return format!("{:.1} {unit}", n as f64 / (1u64 << shift) as f64);
        }
    }
    format!("{n} bytes")
}

/// "12,345,678".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "40 s", "12 min", "3.2 h".
fn duration(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.max(1.0))
    } else if secs < 5400.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(indices: u64, lean: u64) -> SolvePlan {
        SolvePlan {
            tiers: 3,
            indices,
            largest_tier: indices / 2,
            tier_bytes: lean / 2,
            lean_bytes: lean,
            whole_bytes: indices * 2,
            analysis_bytes: indices / 4 + indices / 2,
        }
    }

    #[test]
    fn the_time_comes_from_the_measured_rate_and_a_solve_that_cannot_fit_is_refused() {
        let rate = Rate { game: "g", variant: "v".into(), indices: 1_000_000, seconds: 2.0 };
        let cost = Cost {
            plan: Some(plan(10_000_000, 30_000_000)),
            memory_limit: 1 << 30,
            disk_free: Some(1 << 40),
            rate: Some(rate),
        };
        assert_eq!(cost.seconds(), Some(20.0));
        assert_eq!(cost.refusal(), None);
        assert!(cost.summary().contains("10,000,000 indices in 3 tiers"), "{}", cost.summary());
        assert!(cost.summary().contains("about 20 s at 500,000 indices a second"));
        // Under a limit below its child tiers but above its largest tier's work: it runs, packing.
        let packing = Cost { memory_limit: 20_000_000, ..cost.clone() };
        assert_eq!((packing.refusal(), packing.peak_bytes()), (None, Some(20_000_000)));
        // Its analysis (7,500,000 bytes) fits that limit, though every tier at once would not.
        assert!(packing.analysis_fits());
        assert!(!Cost { memory_limit: 7_000_000, ..cost.clone() }.analysis_fits());
        let memory = Cost { memory_limit: 1 << 20, ..cost.clone() };
        assert!(memory.refusal().unwrap().contains("for its own work"), "{memory:?}");
        let disk = Cost { disk_free: Some(1000), ..cost.clone() };
        assert!(disk.refusal().unwrap().contains("of disk"), "{disk:?}");
        let unknown = Cost { plan: None, ..cost };
        assert_eq!((unknown.seconds(), unknown.refusal()), (None, None));
    }

    #[test]
    fn figures_in_words() {
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(duration(7200.0), "2.0 h");
    }
}
