//! A tier in parts: its index cut into runs of a power of two indices, each with its own cells,
//! best results from outside the tier and frontier queues. A tier that fits its memory budget is
//! one part, held throughout. A larger one keeps the parts that fit in memory and swaps the others
//! out to a [`PartStore`], compressed, between the retrograde rounds (`phases.rs` sweeps the parts
//! level by level). A parent in a part in memory is updated at once; one in a part swapped out gets
//! mail, applied in level order when the part comes back.
//!
//! Each part is kept in the store once initialised (the blob `init-K`), with the dictionary of the
//! tier as of then and its words of the bitmap of canonical indices: a solve stopped part way
//! through the tier initialises again only the parts not kept, and runs the retrograde rounds from
//! there.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use perfectplay_core::{Tier, Value, ValueRemoteness};

use super::cells::{Cells, Codes};
use super::kept::{get_varint, put_varint, Kept};
use super::spare::Spare;
use crate::queues::{queue_entry_bytes, Levels};
use crate::sink::PartStore;
use crate::{Ranks, SolveError};

/// How a tier's indices are cut: parts of `1 << shift` indices, the last shorter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub n: u64,
    pub shift: u32,
}

impl Plan {
    /// The whole tier as one part.
    pub fn whole(n: u64) -> Plan {
        Plan { n, shift: 63 }
    }

    /// Parts of at most `size` indices, a power of two and at least `unit` (itself one).
    pub fn at_most(n: u64, size: u64, unit: u64) -> Plan {
        let size = size.max(unit);
        let shift = 63 - size.leading_zeros();
        if n <= 1 << shift {
            return Plan::whole(n);
        }
        Plan { n, shift }
    }

    pub fn count(&self) -> usize {
        (self.n.div_ceil(1 << self.shift) as usize).max(1)
    }

    pub fn range(&self, k: usize) -> Range<u64> {
        let first = (k as u64) << self.shift;
        first..(first + (1 << self.shift)).min(self.n)
    }

    /// The part of index `j`, and its place in the part.
    #[inline]
    pub fn of(&self, j: u64) -> (usize, u64) {
        ((j >> self.shift) as usize, j & ((1 << self.shift) - 1))
    }
}

/// A part's cells and best results from outside the tier, held while the part is in memory.
pub(super) struct PartCells {
    /// The tier index of its first position.
    pub first: u64,
    pub cells: Cells,
    pub external: Vec<AtomicU16>,
}

impl PartCells {
    /// A part's cells, and its best results from outside the tier where it has them: in the
    /// buffers `spare` holds where given and two-byte (it then lets go what the part does not
    /// take, so that it holds no more than the part's own).
    pub fn new(
        range: Range<u64>,
        one_byte: bool,
        has_external: bool,
        spare: Option<&Spare>,
    ) -> PartCells {
        let len = (range.end - range.start) as usize;
        let external = match (has_external, spare) {
            (false, _) => Vec::new(),
            (true, Some(spare)) => spare.take(len),
            (true, None) => crate::memory::zeroed(len),
        };
        let cells = Cells::new(len, one_byte, spare);
        if let Some(spare) = spare {
            spare.clear();
        }
        PartCells { first: range.start, cells, external }
    }

    fn bytes(&self) -> u64 {
        (self.cells.len() * self.cells.width() + self.external.len() * 2) as u64
    }
}

/// A part's frontier queues, by phase: positions decided at each remoteness, and candidates from
/// outside the tier at the remoteness of their best result there.
pub(super) struct Queues {
    pub win_lose: Levels,
    pub ties: Levels,
    pub win_lose_candidates: Levels,
    pub tie_candidates: Levels,
}

impl Queues {
    pub fn new(len: u64) -> Queues {
        let n = len as usize;
        Queues {
            win_lose: Levels::new(n),
            ties: Levels::new(n),
            win_lose_candidates: Levels::new(n),
            tie_candidates: Levels::new(n),
        }
    }

    /// The decided positions and the candidates of a phase.
    pub fn phase(&mut self, ties: bool) -> (&mut Levels, &mut Levels) {
        if ties {
            (&mut self.ties, &mut self.tie_candidates)
        } else {
            (&mut self.win_lose, &mut self.win_lose_candidates)
        }
    }

    /// The decided positions and the candidates of a phase, to read.
    fn phase_ref(&self, ties: bool) -> (&Levels, &Levels) {
        if ties {
            (&self.ties, &self.tie_candidates)
        } else {
            (&self.win_lose, &self.win_lose_candidates)
        }
    }

    /// Queues position `i`, decided by initialisation (`decided`) or a candidate for the win or
    /// tie `vr` from outside the tier, at `vr`'s remoteness.
    pub fn push_source(&mut self, vr: ValueRemoteness, decided: bool, i: u64) {
        let tie = vr.value() == Value::Tie;
        let levels = match (decided, tie) {
            (true, true) => &mut self.ties,
            (true, false) => &mut self.win_lose,
            (false, true) => &mut self.tie_candidates,
            (false, false) => &mut self.win_lose_candidates,
        };
        levels.push(vr.remoteness_or_zero(), i);
    }

    /// Keeps what taken levels leave, in all four queues ([`Levels::recycle_taken`]).
    pub fn recycle_taken(&mut self) {
        for levels in self.all_mut() {
            levels.recycle_taken();
        }
    }

    /// Frees what the queues hold beyond their entries.
    pub fn shrink(&mut self) {
        for levels in self.all_mut() {
            levels.shrink();
        }
    }

    /// Appends `other`'s entries after this one's, level by level (its blocks moved, not
    /// copied).
    pub fn append(&mut self, other: Queues) {
        let Queues { win_lose, ties, win_lose_candidates, tie_candidates } = other;
        self.win_lose.append(win_lose);
        self.ties.append(ties);
        self.win_lose_candidates.append(win_lose_candidates);
        self.tie_candidates.append(tie_candidates);
    }

    /// The four queues, in the order of [`Queues::all`].
    pub(super) fn all_mut(&mut self) -> [&mut Levels; 4] {
        [
            &mut self.win_lose,
            &mut self.ties,
            &mut self.win_lose_candidates,
            &mut self.tie_candidates,
        ]
    }

    /// Positions decided by initialisation, queued.
    pub fn decided(&self) -> u64 {
        self.win_lose.entries() + self.ties.entries()
    }

    pub(super) fn all(&self) -> [&Levels; 4] {
        [&self.win_lose, &self.ties, &self.win_lose_candidates, &self.tie_candidates]
    }

    /// Which levels of each phase hold something (win/lose, then ties).
    fn summary(&self) -> [Vec<bool>; 2] {
        [false, true].map(|ties| {
            let (claimed, candidates) = self.phase_ref(ties);
            let len = claimed.len().max(candidates.len());
            (0..len).map(|r| claimed.has(r) || candidates.has(r)).collect()
        })
    }

    fn bytes(&self, len: u64) -> u64 {
        self.all().iter().map(|l| l.entries()).sum::<u64>() * queue_entry_bytes(len as usize)
    }
}

/// Updates for a part swapped out, by the level that sent them: a position's place in the part,
/// shifted up a bit, with the low bit set for "a child wins" (one fewer undecided child) and clear
/// for "a child loses" (or, in the phase of ties, "ties"). Sealed batches are sorted places as
/// LEB128 deltas; when the tier's mail outgrows its share of the budget they go to the store.
#[derive(Default)]
pub(super) struct Mail {
    sealed: Vec<(u16, Vec<u8>)>,
    /// Sealed batches in the store: (level, blob).
    kept: Vec<(u16, String)>,
    open: Vec<u32>,
    open_level: u16,
}

/// A batch of mail, held or in the store.
pub(super) enum Batch {
    Held(Vec<u8>),
    Kept(String),
}

/// Messages kept open before a batch is sealed.
const MAIL_BATCH: usize = 1 << 20;

impl Mail {
    pub fn send(&mut self, level: u16, message: u32) {
        if self.open_level != level || self.open.len() >= MAIL_BATCH {
            self.seal();
            self.open_level = level;
        }
        self.open.push(message);
    }

    fn seal(&mut self) {
        if self.open.is_empty() {
            return;
        }
        let mut open = std::mem::take(&mut self.open);
        open.sort_unstable();
        let mut bytes = Vec::with_capacity(open.len() * 2);
        let mut last = 0u32;
        for &m in &open {
            put_varint(&mut bytes, u64::from(m - last));
            last = m;
        }
        self.sealed.push((self.open_level, bytes));
    }

    /// A sealed batch sent by `level`, as another rank traded it.
    pub fn receive(&mut self, level: u16, bytes: Vec<u8>) {
        self.sealed.push((level, bytes));
    }

    pub fn is_empty(&self) -> bool {
        self.sealed.is_empty() && self.open.is_empty() && self.kept.is_empty()
    }

    fn bytes(&self) -> u64 {
        (self.sealed.iter().map(|(_, b)| b.capacity()).sum::<usize>() + self.open.capacity() * 4)
            as u64
    }

    /// Every batch, in order of the level that sent it, leaving the mail empty.
    pub fn take(&mut self) -> Vec<(u16, Batch)> {
        self.seal();
        let mut all: Vec<(u16, Batch)> =
            std::mem::take(&mut self.kept).into_iter().map(|(l, b)| (l, Batch::Kept(b))).collect();
        all.extend(std::mem::take(&mut self.sealed).into_iter().map(|(l, b)| (l, Batch::Held(b))));
        all.sort_by_key(|&(level, _)| level);
        all
    }

    /// The messages of a sealed batch.
    pub fn open_batch(bytes: &[u8]) -> Vec<u32> {
        let mut messages = Vec::new();
        let (mut at, mut last) = (0, 0u64);
        while at < bytes.len() {
            last += get_varint(bytes, &mut at);
            messages.push(last as u32);
        }
        messages
    }
}

/// What is known of a part swapped out: its blob, the levels it has queued and its bytes back
/// in memory.
struct Swapped {
    blob: String,
    levels: [Vec<bool>; 2],
    bytes: u64,
}

/// A tier's parts, those in memory and those swapped out, with the mail for the latter.
pub(super) struct Parts<'s> {
    pub plan: Plan,
    pub cells: Vec<Option<PartCells>>,
    pub queues: Vec<Option<Queues>>,
    pub mail: Vec<Mail>,
    swapped: Vec<Option<Swapped>>,
    store: Option<&'s mut dyn PartStore>,
    /// The ranks the parts are shared over: this one holds the parts it owns.
    pub ranks: &'s dyn Ranks,
    tier: Tier,
    /// Bytes the parts in memory and their mail may take.
    budget: u64,
    /// Parts swapped out and back over the solve.
    pub swaps: u64,
    /// Batches of mail handed to other ranks, and their bytes.
    pub traded: (u64, u64),
    /// Batches of mail put in the store so far (their blobs' numbers).
    mail_kept: u64,
}

impl<'s> Parts<'s> {
    pub fn new(
        plan: Plan,
        tier: Tier,
        budget: u64,
        store: Option<&'s mut dyn PartStore>,
        ranks: &'s dyn Ranks,
    ) -> Parts<'s> {
        let count = plan.count();
        Parts {
            plan,
            cells: (0..count).map(|_| None).collect(),
            queues: (0..count).map(|_| None).collect(),
            mail: (0..count).map(|_| Mail::default()).collect(),
            swapped: (0..count).map(|_| None).collect(),
            store,
            ranks,
            tier,
            budget,
            swaps: 0,
            traded: (0, 0),
            mail_kept: 0,
        }
    }

    pub fn count(&self) -> usize {
        self.plan.count()
    }

    pub(super) fn store(&mut self) -> Result<&mut dyn PartStore, SolveError> {
        match self.store.as_deref_mut() {
            Some(store) => Ok(store),
            None => Err(SolveError::Unsupported { what: "a tier in parts without a store".into() }),
        }
    }

    /// Bytes held by the parts in memory and the mail.
    pub fn bytes(&self) -> u64 {
        let mut bytes: u64 = self.mail.iter().map(Mail::bytes).sum();
        for (k, (c, q)) in self.cells.iter().zip(&self.queues).enumerate() {
            let len = self.plan.range(k).end - self.plan.range(k).start;
            bytes += c.as_ref().map_or(0, PartCells::bytes);
            bytes += q.as_ref().map_or(0, |q| q.bytes(len));
        }
        bytes
    }

    /// The number of levels of a phase over every part.
    pub fn levels(&self, ties: bool) -> usize {
        let held = self.queues.iter().flatten().map(|q| {
            let (c, d) = q.phase_ref(ties);
            c.len().max(d.len())
        });
        let away = self.swapped.iter().flatten().map(|s| s.levels[usize::from(ties)].len());
        held.chain(away).max().unwrap_or(0)
    }

    /// Puts the mail's sealed batches in the store once the mail outgrows an eighth of the
    /// budget.
    pub fn post(&mut self) -> Result<(), SolveError> {
        let held: u64 = self.mail.iter().map(Mail::bytes).sum();
        if held <= self.budget / 8 {
            return Ok(());
        }
        let tier = self.tier;
        for k in 0..self.mail.len() {
            self.mail[k].seal();
            for (level, bytes) in std::mem::take(&mut self.mail[k].sealed) {
                // Ranks sharing the tier share its store: each names its own mail.
                let blob = format!("mail-{}-{}", self.ranks.rank(), self.mail_kept);
                self.mail_kept += 1;
                self.store()?.put_scratch(tier, &blob, &bytes).map_err(SolveError::Sink)?;
                self.mail[k].kept.push((level, blob));
            }
        }
        Ok(())
    }

    /// A batch's messages, read from the store (and removed there) where it was put.
    pub fn open(&mut self, batch: Batch) -> Result<Vec<u32>, SolveError> {
        Ok(Mail::open_batch(&self.sealed(batch)?))
    }

    /// A batch as sealed, read from the store (and removed there) where it was put.
    pub fn sealed(&mut self, batch: Batch) -> Result<Vec<u8>, SolveError> {
        match batch {
            Batch::Held(bytes) => Ok(bytes),
            Batch::Kept(blob) => {
                let tier = self.tier;
                let store = self.store()?;
                let bytes = store.get(tier, &blob).map_err(SolveError::Sink)?.ok_or_else(|| {
                    SolveError::Inconsistent { what: format!("mail {blob} is not in the store") }
                })?;
                store.remove(tier, &blob).map_err(SolveError::Sink)?;
                Ok(bytes)
            }
        }
    }

    pub fn has_mail(&self) -> bool {
        self.mail.iter().any(|m| !m.is_empty())
    }

    /// Whether part `k` has something to do at level `r` of a phase.
    pub fn has_work(&self, k: usize, r: usize, ties: bool) -> bool {
        if !self.mail[k].is_empty() {
            return true;
        }
        match (&self.queues[k], &self.swapped[k]) {
            (Some(q), _) => {
                let (c, d) = q.phase_ref(ties);
                c.has(r) || d.has(r)
            }
            (None, Some(s)) => s.levels[usize::from(ties)].get(r).copied().unwrap_or(false),
            (None, None) => false,
        }
    }

    /// Swaps part `k` out unless everything fits the budget (one part is never swapped).
    pub fn settle(&mut self, k: usize, codes: &Codes) -> Result<(), SolveError> {
        if self.count() > 1 && self.bytes() > self.budget && self.cells[k].is_some() {
            self.swap_out(k, codes)?;
        }
        Ok(())
    }

    /// Brings part `k` into memory, swapping out the highest other parts if it would not fit.
    pub fn bring(&mut self, k: usize, codes: &Codes) -> Result<(), SolveError> {
        let Some(need) = self.swapped[k].as_ref().map(|s| s.bytes) else { return Ok(()) };
        self.make_room(k, need, codes)?;
        let Some(swapped) = self.swapped[k].take() else { return Ok(()) };
        let tier = self.tier;
        let bytes = self.store()?.get(tier, &swapped.blob).map_err(SolveError::Sink)?;
        let bytes = bytes.ok_or_else(|| SolveError::Inconsistent {
            what: format!("part {k} of the tier was swapped out but is not in the store"),
        })?;
        let damaged =
            || SolveError::Inconsistent { what: format!("part {k} of the tier came back damaged") };
        let (kept, left_out) = Kept::read(&bytes, self.plan.range(k)).ok_or_else(damaged)?;
        drop(bytes);
        if left_out {
            let init = self.store()?.get(tier, &format!("init-{k}")).map_err(SolveError::Sink)?;
            Kept::read_external(&init.ok_or_else(damaged)?, &kept.cells.external)
                .ok_or_else(damaged)?;
        }
        if !codes.restore(&kept.dictionary) {
            return Err(SolveError::Inconsistent {
                what: format!("part {k} of the tier came back with another dictionary"),
            });
        }
        self.cells[k] = Some(kept.cells);
        self.queues[k] = Some(kept.queues);
        self.swaps += 1;
        Ok(())
    }

    /// Swaps out the highest parts in memory other than `k` until `need` more bytes fit the
    /// budget (or none is left to swap).
    pub fn make_room(&mut self, k: usize, need: u64, codes: &Codes) -> Result<(), SolveError> {
        while self.count() > 1 && self.bytes() + need > self.budget {
            let Some(j) = (0..self.count()).rev().find(|&j| j != k && self.cells[j].is_some())
            else {
                break;
            };
            self.swap_out(j, codes)?;
        }
        Ok(())
    }

    fn swap_out(&mut self, k: usize, codes: &Codes) -> Result<(), SolveError> {
        let (Some(cells), Some(queues)) = (self.cells[k].take(), self.queues[k].take()) else {
            return Ok(());
        };
        let bytes = cells.bytes() + queues.bytes(cells.cells.len() as u64);
        let levels = queues.summary();
        let blob = format!("part-{k}");
        let data = Kept::write(&cells, &queues, &codes.snapshot(), &[], false);
        drop((cells, queues));
        let tier = self.tier;
        self.store()?.put_scratch(tier, &blob, &data).map_err(SolveError::Sink)?;
        self.swapped[k] = Some(Swapped { blob, levels, bytes });
        Ok(())
    }

    /// Keeps part `k` as initialised, with its words of the bitmap of canonical indices.
    pub fn keep_initialised(
        &mut self,
        k: usize,
        codes: &Codes,
        care: &[AtomicU64],
    ) -> Result<(), SolveError> {
        let (Some(cells), Some(queues)) = (&self.cells[k], &self.queues[k]) else { return Ok(()) };
        let words = care_words(&self.plan, k, care);
        let care: Vec<u64> =
            words.map_or(Vec::new(), |w| w.iter().map(|a| a.load(Relaxed)).collect());
        let data = Kept::write(cells, queues, &codes.snapshot(), &care, true);
        let tier = self.tier;
        self.store()?.put(tier, &format!("init-{k}"), &data).map_err(SolveError::Sink)
    }

    /// Part `k` as an earlier solve kept it once initialised, if it did: its cells and queues
    /// in memory, its dictionary's codes given, its words of the bitmap set.
    pub fn resume_initialised(
        &mut self,
        k: usize,
        codes: &Codes,
        care: &[AtomicU64],
        one_byte: bool,
    ) -> Result<bool, SolveError> {
        let tier = self.tier;
        let Some(bytes) =
            self.store()?.get(tier, &format!("init-{k}")).map_err(SolveError::Sink)?
        else {
            return Ok(false);
        };
        let Some((kept, false)) = Kept::read(&bytes, self.plan.range(k)) else { return Ok(false) };
        if (kept.cells.cells.width() == 1) != one_byte || !codes.restore(&kept.dictionary) {
            return Ok(false);
        }
        if let Some(words) = care_words(&self.plan, k, care) {
            if kept.care.len() != words.len() {
                return Ok(false);
            }
            for (w, &v) in words.iter().zip(&kept.care) {
                w.store(v, Relaxed);
            }
        }
        self.cells[k] = Some(kept.cells);
        self.queues[k] = Some(kept.queues);
        Ok(true)
    }

    /// Starts the tier's parts afresh in the store where the kept ones were planned otherwise:
    /// the plan is kept as the blob `plan`.
    pub fn begin(&mut self, one_byte: bool) -> Result<(), SolveError> {
        if self.count() == 1 {
            return Ok(());
        }
        let tier = self.tier;
        let mut plan = Vec::new();
        plan.extend_from_slice(&self.plan.n.to_le_bytes());
        plan.extend_from_slice(&self.plan.shift.to_le_bytes());
        plan.push(u8::from(one_byte));
        let store = self.store()?;
        if store.get(tier, "plan").map_err(SolveError::Sink)?.as_deref() != Some(&plan[..]) {
            store.clear(tier).map_err(SolveError::Sink)?;
            store.put(tier, "plan", &plan).map_err(SolveError::Sink)?;
        }
        Ok(())
    }

    /// The tier's values, in index order, from every part (each dropped once copied). A tier
    /// solved whole leaves its best results from outside the tier in `spare`, where given.
    pub fn into_values(
        mut self,
        codes: &Codes,
        spare: Option<&Spare>,
    ) -> Result<crate::TierValues, SolveError> {
        let whole = self.count() == 1 && self.ranks.size() == 1;
        for c in self.cells.iter_mut().flatten() {
            let external = std::mem::take(&mut c.external);
            if let (true, Some(spare)) = (whole, spare) {
                spare.keep(external);
            }
        }
        let spare = spare.filter(|_| whole);
        for q in self.queues.iter_mut() {
            *q = None;
        }
        let dictionary = codes.snapshot();
        if self.count() == 1 {
            // One part: its cells become the codes in place.
            if let Some(part) = self.cells[0].take() {
                return Ok(part.cells.into_values(dictionary, spare));
            }
        }
        let n = self.plan.n as usize;
        let narrow = dictionary.len() <= 256;
        let (mut codes_out, mut values_out) = (Vec::new(), Vec::new());
        if narrow {
            codes_out.reserve_exact(n);
        } else {
            values_out.reserve_exact(n);
        }
        for k in 0..self.count() {
            if self.cells[k].is_none() {
                self.bring(k, codes)?;
            }
            let Some(part) = self.cells[k].take() else {
                return Err(SolveError::Inconsistent { what: format!("part {k} was lost") });
            };
            self.queues[k] = None;
            if narrow {
                part.cells.codes_into(&mut codes_out);
            } else {
                part.cells.values_into(&dictionary, &mut values_out);
            }
        }
        // The store keeps the parts until the tier is handed over (the driver clears them).
        Ok(if narrow {
            crate::TierValues::Narrow { dictionary, codes: codes_out }
        } else {
            crate::TierValues::Wide(values_out)
        })
    }
}

/// Part `k`'s words of the bitmap of canonical indices (parts are whole words: a multiple of
/// 64 indices), where the bitmap is kept.
pub(super) fn care_words<'a>(
    plan: &Plan,
    k: usize,
    care: &'a [AtomicU64],
) -> Option<&'a [AtomicU64]> {
    if care.is_empty() {
        return None;
    }
    let range = plan.range(k);
    care.get((range.start / 64) as usize..(range.end.div_ceil(64)) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_cuts_whole_powers_of_two() {
        let plan = Plan::at_most(10_000, 3_000, 1024);
        assert_eq!(plan.shift, 11);
        assert_eq!(plan.count(), 5);
        assert_eq!(plan.range(4), 8192..10_000);
        assert_eq!(plan.of(8193), (4, 1));
        assert_eq!(Plan::at_most(100, 3_000, 1024), Plan::whole(100));
        assert_eq!(Plan::whole(100).of(99), (0, 99));
    }

    #[test]
    fn mail_comes_back_by_level_with_every_copy() {
        let mut mail = Mail::default();
        for m in [9, 3, 3, 700_000] {
            mail.send(5, m);
        }
        mail.send(4, 1);
        mail.send(5, 2);
        let opened: Vec<(u16, Vec<u32>)> = mail
            .take()
            .into_iter()
            .map(|(l, b)| match b {
                Batch::Held(bytes) => (l, Mail::open_batch(&bytes)),
                Batch::Kept(_) => unreachable!("nothing was put in a store"),
            })
            .collect();
        assert_eq!(opened, vec![(4, vec![1]), (5, vec![3, 3, 9, 700_000]), (5, vec![2])]);
        assert!(mail.is_empty());
    }
}
