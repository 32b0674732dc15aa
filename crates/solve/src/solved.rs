//! Solved tiers and a whole solution in memory: positions and their values, index for index.

use perfectplay_core::{Game, GameExt, Position, Tier, ValueRemoteness};

use crate::packed::PackedCodes;
use crate::progress::Progress;
use crate::space::TierSpace;

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
    /// nobody reads (where only the positions reached were solved, the canonical indices
    /// reached: whether the others are canonical is not asked). Handed to the [`ResultSink`]
    /// (whose writer would otherwise work it out again), then dropped.
    ///
    /// [`ResultSink`]: crate::ResultSink
    pub care: Option<Vec<u64>>,
    /// Where only the positions the start reaches were solved ([`crate::SolveOptions::reached`]):
    /// which indices it reaches, a bit each as in `care`; only canonical indices are reached.
    /// The indices it does not reach hold draws that are not their values: a database stores
    /// them as absent.
    pub reached: Option<Vec<u64>>,
}

impl SolvedTier {
    /// Bytes of memory held by its positions and values.
    pub fn heap_bytes(&self) -> usize {
        self.values.heap_bytes()
            + match &self.space {
                TierSpace::Sorted(s) => s.heap_bytes(),
                TierSpace::Dense { .. } => 0,
            }
    }
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

/// Every solved position of a game, in memory. Sparse games hold exactly the canonical positions
/// reachable from the start; dense games hold the whole index space.
#[derive(Debug)]
pub struct Solution {
    pub(crate) tiers: Vec<SolvedTier>,
    /// Per entry of `tiers`: the index its values begin at (0, unless a solve under a memory
    /// limit holds only a child tier's window, [`TierIndex::child_window`]).
    ///
    /// [`TierIndex::child_window`]: perfectplay_core::TierIndex::child_window
    firsts: Vec<u64>,
    /// Index into `tiers` by tier number (`usize::MAX`: not solved).
    by_tier: Vec<usize>,
    canonicalize: bool,
    /// The analysis, where the solve counted it tier by tier ([`crate::SolveOptions::count`]).
    pub(crate) analysis: Option<crate::Analysis>,
    /// The indices of every tier the solve covered, held or not.
    pub(crate) indices: u64,
    /// The most bytes of tiers held at once ([`Solution::held_most`]).
    held_most: usize,
}

impl Solution {
    pub(crate) fn new(canonicalize: bool) -> Solution {
        Solution {
            tiers: Vec::new(),
            firsts: Vec::new(),
            by_tier: Vec::new(),
            canonicalize,
            analysis: None,
            indices: 0,
            held_most: 0,
        }
    }

    /// A solution from tiers solved earlier (read back from a database). `canonicalize`: the
    /// tiers hold canonical forms.
    pub fn from_tiers(tiers: Vec<SolvedTier>, canonicalize: bool) -> Solution {
        let mut s = Solution::new(canonicalize);
        for t in tiers {
            s.push(t);
        }
        s.indices = s.len();
        s
    }

    pub(crate) fn push(&mut self, tier: SolvedTier) {
        let t = tier.tier.0 as usize;
        if self.by_tier.len() <= t {
            self.by_tier.resize(t + 1, usize::MAX);
        }
        self.by_tier[t] = self.tiers.len();
        self.tiers.push(tier);
        self.firsts.push(0);
        self.held_most = self.held_most.max(self.heap_bytes());
    }

    /// A held tier and the index its values begin at.
    pub(crate) fn held(&self, tier: Tier) -> Option<(u64, &SolvedTier)> {
        let k = *self.by_tier.get(tier.0 as usize)?;
        Some((*self.firsts.get(k)?, self.tiers.get(k)?))
    }

    /// Whether a held tier has the values of every index in `window` (`None`: the whole tier).
    pub(crate) fn covers(&self, tier: Tier, window: Option<&std::ops::Range<u64>>) -> bool {
        self.held(tier).is_some_and(|(first, t)| {
            let end = first + t.values.len() as u64;
            match window {
                Some(w) => first <= w.start && w.end <= end,
                None => first == 0 && end == t.space.len(),
            }
        })
    }

    /// Keeps only `window` of a held tier's values where it holds more; returns whether it cut.
    pub(crate) fn cut(&mut self, tier: Tier, window: std::ops::Range<u64>) -> bool {
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
    pub(crate) fn fit(
        &mut self,
        extra: u64,
        limit: u64,
        name: &str,
        progress: &dyn Progress,
    ) -> bool {
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
    pub(crate) fn evict(&mut self, tier: Tier) {
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

    /// The analysis the solve counted tier by tier ([`crate::SolveOptions::count`]), if it did.
    pub fn analysis(&self) -> Option<&crate::Analysis> {
        self.analysis.as_ref()
    }

    /// The indices (positions) of every tier the solve covered, whether or not it still holds
    /// them: [`Solution::len`] where it holds every tier.
    pub fn indices(&self) -> u64 {
        self.indices
    }

    /// Bytes of memory held by the stored positions and values.
    pub fn heap_bytes(&self) -> usize {
        self.tiers.iter().map(SolvedTier::heap_bytes).sum()
    }

    /// The most bytes of positions and values held at once, as each tier came in: a solve that
    /// drops tiers once written ends holding few or none ([`Solution::heap_bytes`]), but held
    /// this many on its way.
    pub fn held_most(&self) -> usize {
        self.held_most
    }
}
