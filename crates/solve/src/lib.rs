//! Solving: the retrograde engine (loopy and loop-free, tier by tier, parallel), forward discovery
//! of reachable positions, and analysis (value-remoteness counts).
//!
//! **Architecture Invariant:** no file I/O. Results leave through [`ResultSink`]; the `db` crate
//! implements it for disk, [`Solution`] holds them in memory.

pub mod analysis;
pub mod discover;
mod packed;
pub mod progress;
mod queues;
mod retrograde;
mod search;
pub mod space;
pub mod tiered;

use perfectplay_core::{Game, GameExt, Position, PositionSpace, Tier, ValueRemoteness};

pub use analysis::{analyze, analyze_counting, Analysis, CountRow};
pub use packed::{BlockCache, PackedCodes};
pub use progress::{NoProgress, Progress};
pub use search::{AlphaBeta, Search, TABLE_BITS};
pub use space::{SortedPositions, TierSpace};
pub use tiered::{
    analyze_tiered, analyze_tiered_from, count_classes_by_mover, count_positions_by_mover,
    count_reached, reach_tiered, reach_tiered_classes, reach_tiered_one_pass, Reached, TierReport,
};

/// Why a solve failed. Each is a bug in a game's rules or a limit of the engine, never bad input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A position that is not primitive has no moves.
    #[error("position {position:?} is not primitive but has no moves")]
    NoMoves {
        /// The position.
        position: Position,
    },
    /// A child in a lower tier was not solved (the game's tiers or moves are inconsistent).
    #[error("child {position:?} was not found among solved positions")]
    ChildNotSolved {
        /// The child.
        position: Position,
    },
    /// More than 32,767 distinct children.
    #[error("position {position:?} has more children than the engine's counters hold")]
    TooManyChildren {
        /// The position.
        position: Position,
    },
    /// A dense game used tiers (a dense space is one tier; tiered games say
    /// [`PositionSpace::Tiered`]).
    #[error("a dense position space must be a single tier")]
    DenseWithTiers,
    /// A tiered game's index numbers canonical positions only, so it cannot be solved without
    /// symmetry reduction.
    #[error("{game} numbers its canonical positions only: it is solved with symmetries")]
    NeedsSymmetry {
        /// The game.
        game: String,
    },
    /// The game's tier index or tiers disagree with its moves.
    #[error("inconsistent tiers: {what}")]
    Inconsistent {
        /// What disagrees.
        what: String,
    },
    /// A live search was told to stop before it ended.
    #[error("the search was stopped")]
    Stopped,
    /// The engine cannot do this for this game yet.
    #[error("not supported: {what}")]
    Unsupported {
        /// What was asked.
        what: String,
    },
    /// Solving a tier would need more memory than the limit allows.
    #[error(
        "tier {tier} needs about {needed} MiB with its child tiers, over the {limit} MiB limit",
        needed = needed >> 20, limit = limit >> 20
    )]
    OverMemoryLimit {
        /// The tier's name.
        tier: String,
        /// Bytes the tier needs.
        needed: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The result sink refused a tier.
    #[error("writing results failed: {0}")]
    Sink(String),
}

/// One solved tier: its positions and their values, index for index.
#[derive(Clone, Debug)]
pub struct SolvedTier {
    /// The tier.
    pub tier: Tier,
    /// Its positions.
    pub space: TierSpace,
    /// The value and remoteness of each position, in index order.
    pub values: TierValues,
    /// Where the solve knew it (a dense tier of a canonical solve): which indices name the
    /// canonical form of a position, bit `i % 64` of word `i / 64`; the others hold a draw that
    /// nobody reads. Handed to the [`ResultSink`] (whose writer would otherwise work it out
    /// again), then dropped.
    pub care: Option<Vec<u64>>,
}

/// The values of one tier. A tier with at most 256 distinct value-remoteness pairs (every seed game
/// so far) stores one byte per position, an index into its dictionary; others two bytes.
#[derive(Clone, Debug)]
pub enum TierValues {
    /// A dictionary and one code per position.
    Narrow {
        /// The distinct values, by code.
        dictionary: Vec<ValueRemoteness>,
        /// Per position, an index into `dictionary`.
        codes: Vec<u8>,
    },
    /// One packed value per position.
    Wide(Vec<ValueRemoteness>),
    /// A narrow tier's codes compressed in blocks, held for the tiers that need it under a memory
    /// limit ([`TierValues::pack`]).
    Packed(PackedCodes),
}

impl TierValues {
    /// Packs values, narrowing them when they allow.
    pub fn new(values: Vec<ValueRemoteness>) -> TierValues {
        let mut seen = [false; 1 << 15];
        let mut dictionary = Vec::new();
        for v in &values {
            let b = v.to_bits() as usize;
            if !seen[b] {
                seen[b] = true;
                dictionary.push(*v);
                if dictionary.len() > 256 {
                    return TierValues::Wide(values);
                }
            }
        }
        let mut code_of = vec![0u8; 1 << 15];
        for (i, v) in dictionary.iter().enumerate() {
            code_of[v.to_bits() as usize] = i as u8;
        }
        let codes = {
            use rayon::prelude::*;
            values.par_iter().map(|v| code_of[v.to_bits() as usize]).collect()
        };
        TierValues::Narrow { dictionary, codes }
    }

    /// The highest remoteness of any value held (draws count 0).
    pub fn highest_remoteness(&self) -> u16 {
        let values = match self {
            TierValues::Narrow { dictionary, .. } => dictionary,
            TierValues::Wide(values) => values,
            TierValues::Packed(p) => &p.dictionary,
        };
        values.iter().map(|v| v.remoteness_or_zero()).max().unwrap_or(0)
    }

    /// The value at an index.
    #[inline]
    pub fn get(&self, index: usize) -> ValueRemoteness {
        match self {
            TierValues::Narrow { dictionary, codes } => dictionary[codes[index] as usize],
            TierValues::Wide(v) => v[index],
            TierValues::Packed(p) => p.get(index),
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            TierValues::Narrow { codes, .. } => codes.len(),
            TierValues::Wide(v) => v.len(),
            TierValues::Packed(p) => p.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        match self {
            TierValues::Narrow { dictionary, codes } => {
                dictionary.capacity() * 2 + codes.capacity()
            }
            TierValues::Wide(v) => v.capacity() * 2,
            TierValues::Packed(p) => p.heap_bytes(),
        }
    }

    /// The values at the indices of `window` alone, or `None` where a tier's values cannot be cut
    /// (packed ones) or the window is not within the tier.
    pub fn window(&self, window: std::ops::Range<u64>) -> Option<TierValues> {
        let (first, end) = (usize::try_from(window.start).ok()?, usize::try_from(window.end).ok()?);
        match self {
            TierValues::Narrow { dictionary, codes } => Some(TierValues::Narrow {
                dictionary: dictionary.clone(),
                codes: codes.get(first..end)?.to_vec(),
            }),
            TierValues::Wide(v) => Some(TierValues::Wide(v.get(first..end)?.to_vec())),
            TierValues::Packed(_) => None,
        }
    }

    /// Compresses a narrow tier's codes in memory ([`TierValues::Packed`]); others stay as they
    /// are. Returns whether it packed.
    pub fn pack(&mut self) -> bool {
        let TierValues::Narrow { dictionary, codes } = self else { return false };
        let packed = PackedCodes::pack(std::mem::take(dictionary), codes);
        *self = TierValues::Packed(packed);
        true
    }

    /// Compresses a packed tier's sparse form further, in blocks ([`PackedCodes::squeeze`]).
    /// Returns whether it did.
    pub fn squeeze(&mut self) -> bool {
        match self {
            TierValues::Packed(p) => p.squeeze(),
            _ => false,
        }
    }
}

/// Receives each tier as soon as it is solved (the database writes it; memory keeps it).
pub trait ResultSink {
    /// Called once per tier, lowest tier first.
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), String>;

    /// A tier that an earlier, interrupted solve finished and kept, read back whole and checked;
    /// `None` if there is none (the tier is solved). The default keeps nothing.
    fn resume(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, String> {
        Ok(None)
    }

    /// Whether solved tiers are kept by the sink, so that the solve may drop them from memory
    /// once no tier still to solve needs them (with a memory limit only).
    fn keeps_tiers(&self) -> bool {
        false
    }

    /// Whether the sink holds the tier finished by an earlier, interrupted solve, checked cheaply
    /// (its values are read only if a later tier needs them, by [`ResultSink::reload`]). Used by
    /// solves under a memory limit; the default holds nothing.
    fn kept(&mut self, _tier: Tier) -> Result<bool, String> {
        Ok(false)
    }

    /// A tier the sink holds, read back whole and checked, for a tier that needs it as a child
    /// after it was dropped from memory. The default holds nothing.
    fn reload(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, String> {
        Ok(None)
    }
}

/// Options for a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Reduce positions by the game's symmetries (solve canonical positions only).
    pub canonicalize: bool,
    /// Bytes the solve may hold (tiered games): when the sink keeps the tiers, only the child
    /// tiers of the tier in progress stay in memory (others are dropped and read back from the
    /// sink when a later tier needs them, and tiers an earlier solve finished are not read at all
    /// unless needed), so the returned solution holds only the last tiers; a tier that cannot fit
    /// is refused with [`SolveError::OverMemoryLimit`] before any of its work is done. Held
    /// tiers that do not fit whole beside the tier in progress are compressed in memory first
    /// ([`TierValues::Packed`], the earliest held first), which changes no value.
    pub memory_limit: Option<u64>,
    /// Solve only these tiers (tiered games with a sink that keeps tiers): their child tiers must
    /// have been finished by an earlier solve, and are read back from the sink. For solving a
    /// game's tiers in separate processes, or timing one tier.
    pub only: Option<Vec<Tier>>,
    /// Return every tier in the solution, for an analysis after the solve (the default). Without
    /// it, a tiered solve whose sink keeps the tiers holds only what the tiers after it need, as
    /// under a memory limit: a tier an earlier solve finished is read back only when a tier to
    /// solve needs it, and a tier is dropped once no later tier lists it as a child (solved or
    /// found in the files). A variant whose tiers are all in its tier files then reads none of
    /// them.
    pub hold_all: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { canonicalize: true, memory_limit: None, only: None, hold_all: true }
    }
}

/// Every solved position of a game, in memory. Sparse games hold exactly the canonical positions
/// reachable from the start; dense games hold the whole index space.
#[derive(Debug)]
pub struct Solution {
    tiers: Vec<SolvedTier>,
    /// Per entry of `tiers`: the index its values begin at (0, unless a solve under a memory
    /// limit holds only a child tier's window, [`TierIndex::child_window`]).
    ///
    /// [`TierIndex::child_window`]: perfectplay_core::TierIndex::child_window
    firsts: Vec<u64>,
    /// Index into `tiers` by tier number (`usize::MAX`: not solved).
    by_tier: Vec<usize>,
    canonicalize: bool,
}

impl Solution {
    fn new(canonicalize: bool) -> Solution {
        Solution { tiers: Vec::new(), firsts: Vec::new(), by_tier: Vec::new(), canonicalize }
    }

    /// A solution from tiers solved earlier (read back from a database). `canonicalize`: the
    /// tiers hold canonical forms.
    pub fn from_tiers(tiers: Vec<SolvedTier>, canonicalize: bool) -> Solution {
        let mut s = Solution::new(canonicalize);
        for t in tiers {
            s.push(t);
        }
        s
    }

    fn push(&mut self, tier: SolvedTier) {
        let t = tier.tier.0 as usize;
        if self.by_tier.len() <= t {
            self.by_tier.resize(t + 1, usize::MAX);
        }
        self.by_tier[t] = self.tiers.len();
        self.tiers.push(tier);
        self.firsts.push(0);
    }

    /// A held tier and the index its values begin at.
    fn held(&self, tier: Tier) -> Option<(u64, &SolvedTier)> {
        let k = *self.by_tier.get(tier.0 as usize)?;
        Some((*self.firsts.get(k)?, self.tiers.get(k)?))
    }

    /// Whether a held tier has the values of every index in `window` (`None`: the whole tier).
    fn covers(&self, tier: Tier, window: Option<&std::ops::Range<u64>>) -> bool {
        self.held(tier).is_some_and(|(first, t)| {
            let end = first + t.values.len() as u64;
            match window {
                Some(w) => first <= w.start && w.end <= end,
                None => first == 0 && end == t.space.len(),
            }
        })
    }

    /// Keeps only `window` of a held tier's values where it holds more; returns whether it cut.
    fn cut(&mut self, tier: Tier, window: std::ops::Range<u64>) -> bool {
        let Some(&k) = self.by_tier.get(tier.0 as usize) else { return false };
        let (Some(t), Some(first)) = (self.tiers.get_mut(k), self.firsts.get_mut(k)) else {
            return false;
        };
        let end = *first + t.values.len() as u64;
        if window.start < *first || window.end > end || window.end - window.start == end - *first {
            return false;
        }
        let Some(values) = t.values.window(window.start - *first..window.end - *first) else {
            return false;
        };
        t.values = values;
        *first = window.start;
        true
    }

    /// The value of a position already in the form the solution stores (canonical if the solve
    /// canonicalized).
    pub fn get_stored<G: Game + ?Sized>(&self, game: &G, p: Position) -> Option<ValueRemoteness> {
        self.get_in_tier(game, game.tier(p), p)
    }

    /// The value of a stored position whose tier is known.
    #[inline]
    pub fn get_in_tier<G: Game + ?Sized>(
        &self,
        game: &G,
        tier: Tier,
        p: Position,
    ) -> Option<ValueRemoteness> {
        let (first, t) = self.held(tier)?;
        let i = t.space.index_in(game, p)?.checked_sub(first)?;
        (i < t.values.len() as u64).then(|| t.values.get(i as usize))
    }

    /// A solved tier, if the solution holds it.
    pub fn tier(&self, tier: Tier) -> Option<&SolvedTier> {
        self.tiers.get(*self.by_tier.get(tier.0 as usize)?)
    }

    /// Compresses held tiers in memory ([`TierValues::pack`], then [`TierValues::squeeze`]), the
    /// earliest held first, until
    /// `extra` more bytes (those of tier `name`'s own work) fit under `limit`, and says so in a
    /// note. Returns whether they fit.
    fn fit(&mut self, extra: u64, limit: u64, name: &str, progress: &dyn Progress) -> bool {
        // Sparse where they allow (read nearly as fast as whole), then, where that is not
        // enough, in compressed blocks.
        let (mut packed, mut sparse, mut squeezed) = (0, 0, 0);
        let mut held = self.heap_bytes() as u64;
        for squeeze in [false, true] {
            for k in 0..self.tiers.len() {
                if held + extra <= limit {
                    break;
                }
                let values = &mut self.tiers[k].values;
                let before = values.heap_bytes() as u64;
                if squeeze {
                    squeezed += usize::from(values.squeeze());
                } else if values.pack() {
                    packed += 1;
                    sparse += usize::from(matches!(values, TierValues::Packed(p) if p.is_sparse()));
                }
                held = held - before + values.heap_bytes() as u64;
            }
        }
        let mut what = Vec::new();
        if packed > 0 {
            what.push(format!(
                "{packed} held tiers compressed in memory ({sparse} of them sparse)"
            ));
        }
        if squeezed > 0 {
            what.push(format!("{squeezed} sparse ones squeezed into blocks"));
        }
        if !what.is_empty() {
            progress.note(&format!(
                "tier {name}: {} to fit the limit ({held} bytes held)",
                what.join(", ")
            ));
        }
        held + extra <= limit
    }

    /// Drops a tier (kept elsewhere: the database) to free its memory.
    fn evict(&mut self, tier: Tier) {
        let Some(&k) = self.by_tier.get(tier.0 as usize) else { return };
        if k == usize::MAX {
            return;
        }
        self.tiers.remove(k);
        self.firsts.remove(k);
        self.by_tier.iter_mut().for_each(|e| {
            if *e == k {
                *e = usize::MAX;
            } else if *e != usize::MAX && *e > k {
                *e -= 1;
            }
        });
    }

    /// The value of any position the solve covered (`None` if it was not reached).
    pub fn get<G: Game + ?Sized>(&self, game: &G, p: Position) -> Option<ValueRemoteness> {
        self.get_stored(game, if self.canonicalize { game.canonical(p) } else { p })
    }

    /// The solved tiers, lowest first.
    pub fn tiers(&self) -> &[SolvedTier] {
        &self.tiers
    }

    /// The solved tiers, taken out.
    pub fn into_tiers(self) -> Vec<SolvedTier> {
        self.tiers
    }

    /// Whether positions were stored in canonical form.
    pub fn is_canonical(&self) -> bool {
        self.canonicalize
    }

    /// The highest remoteness stored, the longest game under perfect play (draws count 0).
    pub fn highest_remoteness(&self) -> u16 {
        self.tiers.iter().map(|t| t.values.highest_remoteness()).max().unwrap_or(0)
    }

    /// The number of positions stored.
    pub fn len(&self) -> u64 {
        self.tiers.iter().map(|t| t.space.len()).sum()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of memory held by the stored positions and values.
    pub fn heap_bytes(&self) -> usize {
        self.tiers
            .iter()
            .map(|t| {
                t.values.heap_bytes()
                    + match &t.space {
                        TierSpace::Sorted(s) => s.heap_bytes(),
                        TierSpace::Dense { .. } => 0,
                    }
            })
            .sum()
    }
}

/// Solves a game strongly: every position reachable from the start (sparse games), every index
/// (dense games) or every canonical index of every tier (tiered games), tier by tier from the
/// lowest, each tier by the retrograde engine. Each solved tier is handed to `sink` if one is
/// given; a tier the sink kept from an earlier, interrupted solve is read back instead of solved.
pub fn solve<G: Game + ?Sized>(
    game: &G,
    options: SolveOptions,
    progress: &dyn Progress,
    mut sink: Option<&mut dyn ResultSink>,
) -> Result<Solution, SolveError> {
    let canonicalize = options.canonicalize && game.symmetry_count() > 1;
    let mut solution = Solution::new(canonicalize);
    let one_tier = matches!(game.space(), PositionSpace::Dense { .. });
    let spaces: Vec<(Tier, TierSpace)> = match game.space() {
        PositionSpace::Dense { size } => {
            if game.tier(game.start()) != Tier(0) {
                return Err(SolveError::DenseWithTiers);
            }
            vec![(Tier(0), TierSpace::Dense { size })]
        }
        PositionSpace::Tiered(_) => {
            if !canonicalize && game.symmetry_count() > 1 {
                return Err(SolveError::NeedsSymmetry { game: game.id().to_string() });
            }
            game.tiers()
                .into_iter()
                .map(|t| (t, TierSpace::Dense { size: game.tier_size(t) }))
                .collect()
        }
        PositionSpace::Sparse(_) => {
            let mut tiers = Vec::new();
            discover::discover_tiers(game, canonicalize, progress, |t, s| {
                tiers.push((t, TierSpace::Sorted(s)));
                Ok::<(), SolveError>(())
            })?;
            tiers.reverse();
            tiers
        }
    };
    let chosen = |t: &Tier| options.only.as_ref().is_none_or(|only| only.contains(t));
    let total: u64 = spaces.iter().filter(|(t, _)| chosen(t)).map(|(_, s)| s.len()).sum();
    let (mut done, mut solved_here) = (0u64, 0u64);
    let overall = std::time::Instant::now();
    let order: Vec<Tier> = spaces.iter().map(|(t, _)| *t).collect();
    let tiered = game.space().is_tiered();
    // Whether a solved tier is still a child of a tier from `from` on (tiered games declare their
    // child tiers; other games' children may lie in any lower tier, so nothing is dropped): the
    // last position in `order` of a tier that lists each tier as a child, counted once.
    let mut last_parent: Vec<Option<usize>> = Vec::new();
    if tiered {
        for (k, &t) in order.iter().enumerate() {
            for c in game.child_tiers(t) {
                let c = c.0 as usize;
                if last_parent.len() <= c {
                    last_parent.resize(c + 1, None);
                }
                last_parent[c] = Some(k);
            }
        }
    }
    let needed_by = |tier: Tier, from: usize| {
        !tiered || last_parent.get(tier.0 as usize).copied().flatten().is_some_and(|k| k >= from)
    };
    // Under a memory limit, for chosen tiers, or without `hold_all`, with a sink that keeps tiers,
    // the solve holds only what the tiers in progress need ("lean").
    let keeps = sink.as_deref().is_some_and(ResultSink::keeps_tiers);
    if options.only.is_some() && !(tiered && keeps) {
        return Err(SolveError::Sink(
            "solving chosen tiers needs a tiered game and tier files".into(),
        ));
    }
    let bounded = options.memory_limit.is_some() || options.only.is_some();
    let lean = tiered && (bounded || !options.hold_all) && keeps;
    for (k, (tier, space)) in spaces.into_iter().enumerate() {
        let size = space.len();
        let name = game.tier_name(tier);
        if !chosen(&tier) {
            continue;
        }
        if let (true, Some(sink)) = (lean, sink.as_deref_mut()) {
            if sink.kept(tier).map_err(SolveError::Sink)? {
                progress.note(&format!("tier {name}: finished by an earlier solve"));
                done += size;
                continue;
            }
            // Under a bound, only the child tiers stay; without one, every tier a tier still to
            // solve needs.
            let children = game.child_tiers(tier);
            let held: Vec<Tier> = solution.tiers.iter().map(|t| t.tier).collect();
            for t in held {
                if !children.contains(&t) && (bounded || !needed_by(t, k)) {
                    solution.evict(t);
                }
            }
            for &c in &children {
                // Under a memory limit, only the part of a child tier this tier's moves reach.
                let window = options.memory_limit.and_then(|_| game.child_window(tier, c));
                if solution.tier(c).is_some() && !solution.covers(c, window.as_ref()) {
                    solution.evict(c);
                }
                if solution.tier(c).is_none() {
                    let back = sink.reload(c).map_err(SolveError::Sink)?.ok_or_else(|| {
                        SolveError::Sink(format!(
                            "tier {} is needed by tier {name} but could not be read back; \
                             solve again to redo it",
                            game.tier_name(c)
                        ))
                    })?;
                    solution.push(back);
                    if let Some(w) = window.clone() {
                        solution.cut(c, w);
                    }
                    if let Some(limit) = options.memory_limit {
                        // Read back whole, it may need packing before the next is read.
                        let own = retrograde::bytes_needed(game, tier, &space);
                        solution.fit(own, limit, &name, progress);
                    }
                } else if let Some(w) = window {
                    solution.cut(c, w);
                }
            }
        } else if let Some(sink) = sink.as_deref_mut() {
            if let Some(kept) = sink.resume(tier).map_err(SolveError::Sink)? {
                progress.note(&format!("tier {name}: finished by an earlier solve, read back"));
                done += size;
                solution.push(kept);
                continue;
            }
        }
        if let Some(limit) = options.memory_limit {
            let keeps = sink.as_deref().is_some_and(ResultSink::keeps_tiers);
            if keeps && !lean {
                let held: Vec<Tier> = solution.tiers.iter().map(|t| t.tier).collect();
                for t in held {
                    if !needed_by(t, k) {
                        solution.evict(t);
                    }
                }
            }
            let own = retrograde::bytes_needed(game, tier, &space);
            let needed = solution.heap_bytes() as u64 + own;
            if needed > limit && !solution.fit(own, limit, &name, progress) {
                let needed = solution.heap_bytes() as u64 + own;
                return Err(SolveError::OverMemoryLimit { tier: name, needed, limit });
            }
        }
        let started = std::time::Instant::now();
        let values = {
            let lookup = |t: Tier, c: Position| solution.get_in_tier(game, t, c);
            let child_values: Vec<(Tier, u64, &TierValues)> = game
                .child_tiers(tier)
                .into_iter()
                .filter_map(|c| solution.held(c).map(|(first, s)| (c, first, &s.values)))
                .collect();
            let kernel = game.kernel().filter(|_| tiered && canonicalize);
            // One-byte cells hold 127 codes: children that already use nearly as many make a
            // one-byte attempt unlikely to finish.
            let start_wide = game.child_tiers(tier).iter().any(|&c| {
                solution.tier(c).is_some_and(|t| match &t.values {
                    TierValues::Narrow { dictionary, .. } => dictionary.len() > 100,
                    TierValues::Packed(p) => p.dictionary.len() > 100,
                    TierValues::Wide(_) => true,
                })
            });
            let problem = retrograde::TierProblem {
                game,
                tier,
                space: &space,
                canonicalize,
                one_tier,
                external: &lookup,
                child_values: &child_values,
                kernel,
                start_wide,
            };
            problem.solve(progress)?
        };
        let (values, care) = values;
        let mut solved = SolvedTier { tier, space, values, care };
        if let Some(sink) = sink.as_deref_mut() {
            sink.tier_solved(&solved).map_err(SolveError::Sink)?;
        }
        solved.care = None;
        done += size;
        solved_here += size;
        if order.len() > 1 {
            // Time left, at this solve's rate so far per index.
            let elapsed = overall.elapsed().as_secs_f64();
            let left = elapsed / solved_here.max(1) as f64 * (total - done) as f64;
            progress.note(&format!(
                "tier {name}: {size} indices solved in {:.1} s; {:.1}% of {total} done, about \
                 {left:.0} s left",
                started.elapsed().as_secs_f64(),
                100.0 * done as f64 / total.max(1) as f64
            ));
        }
        solution.push(solved);
    }
    // Child tiers held in part are the sink's to give: the solution holds only whole tiers.
    let cut: Vec<Tier> =
        solution.tiers.iter().filter(|t| !solution.covers(t.tier, None)).map(|t| t.tier).collect();
    for t in cut {
        solution.evict(t);
    }
    Ok(solution)
}
