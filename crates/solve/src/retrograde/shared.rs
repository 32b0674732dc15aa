//! A tier's parts shared over ranks ([`crate::Ranks`]): the mail traded between two levels, and
//! the values gathered by the first rank at the end.
//!
//! Mail goes as it was sealed (sorted places as LEB128 deltas), each batch as the part, the level
//! that sent it and its length, varints. The values go part by part, each from its owner to the
//! first rank: a status byte, the part's words of the bitmap of canonical indices, then a code per
//! index into a dictionary every rank builds alike from all of theirs (a byte a code where it has
//! at most 256 values, else two).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::ValueRemoteness;
use rayon::prelude::*;

use super::cells::Codes;
use super::kept::{get_varint, put_varint};
use super::parts::{care_words, Parts};
use super::{DECIDED, DRAW_CODE};
use crate::{SolveError, TierValues};

fn damaged(what: &str) -> SolveError {
    SolveError::Inconsistent { what: format!("{what} from another rank came damaged") }
}

impl Parts<'_> {
    /// Hands the mail for other ranks' parts to their owners, and takes what they sent this
    /// rank's parts.
    pub fn trade_mail(&mut self) -> Result<(), SolveError> {
        let size = self.ranks.size();
        let mut outgoing = vec![Vec::new(); size];
        let mut failed = Ok(());
        for p in 0..self.count() {
            if self.ranks.owns(p) {
                continue;
            }
            let out = &mut outgoing[p % size];
            for (level, batch) in self.mail[p].take() {
                match self.sealed(batch) {
                    Ok(bytes) => {
                        put_varint(out, p as u64);
                        put_varint(out, u64::from(level));
                        put_varint(out, bytes.len() as u64);
                        out.extend_from_slice(&bytes);
                        self.traded.0 += 1;
                        self.traded.1 += bytes.len() as u64;
                    }
                    Err(e) => failed = Err(e),
                }
            }
        }
        for bytes in self.ranks.exchange(outgoing) {
            let mut at = 0;
            while at < bytes.len() {
                let p = get_varint(&bytes, &mut at) as usize;
                let level = u16::try_from(get_varint(&bytes, &mut at));
                let len = get_varint(&bytes, &mut at) as usize;
                let batch = bytes.get(at..at.saturating_add(len));
                let (Ok(level), Some(batch), true) = (level, batch, self.ranks.owns(p)) else {
                    return Err(damaged("mail"));
                };
                self.mail.get_mut(p).ok_or_else(|| damaged("mail"))?.receive(level, batch.to_vec());
                at += len;
            }
        }
        failed?;
        self.post()
    }

    /// The tier's values, gathered by the first rank (`None` on the others), with the bitmap of
    /// canonical indices where it is kept (`care`, this rank's parts' words filled).
    pub fn gather(
        mut self,
        codes: &Codes,
        care: &[AtomicU64],
    ) -> Result<Option<TierValues>, SolveError> {
        let ranks = self.ranks;
        let mine = codes.snapshot();
        let bits: Vec<u8> = mine.iter().flat_map(|vr| vr.to_bits().to_le_bytes()).collect();
        let mut dictionary: Vec<ValueRemoteness> = ranks
            .exchange(vec![bits; ranks.size()])
            .iter()
            .flat_map(|b| b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])))
            .map(|b| ValueRemoteness::from_bits(b).ok_or_else(|| damaged("a dictionary")))
            .collect::<Result<_, _>>()?;
        dictionary.sort_by_key(|vr| vr.to_bits());
        dictionary.dedup();
        // This rank's codes as the gathered dictionary's.
        let to_gathered: Vec<u16> = mine
            .iter()
            .map(|vr| {
                let bits = vr.to_bits();
                dictionary.binary_search_by_key(&bits, |d| d.to_bits()).map_or(0, |c| c as u16)
            })
            .collect();
        let wide = dictionary.len() > 256;
        let root = ranks.rank() == 0;
        let n = self.plan.n as usize;
        let (mut narrow_out, mut wide_out) = (Vec::new(), Vec::new());
        if root && wide {
            wide_out.reserve_exact(n);
        } else if root {
            narrow_out.reserve_exact(n);
        }
        let mut failed = Ok(());
        for k in 0..self.count() {
            let mut outgoing = vec![Vec::new(); ranks.size()];
            if ranks.owns(k) {
                outgoing[0] = match self.part_codes(k, codes, &to_gathered, wide, care) {
                    Ok(payload) => payload,
                    Err(e) => {
                        failed = Err(e);
                        vec![1]
                    }
                };
            }
            let incoming = ranks.exchange(outgoing);
            if !root {
                continue;
            }
            let payload = &incoming[k % ranks.size()];
            let Some((0, rest)) = payload.split_first() else {
                failed = failed.and(Err(damaged("a part's values")));
                continue;
            };
            let words = care_words(&self.plan, k, care).unwrap_or(&[]);
            let (care_bytes, coded) = rest.split_at((words.len() * 8).min(rest.len()));
            for (w, b) in words.iter().zip(care_bytes.chunks_exact(8)) {
                w.store(u64::from_le_bytes(b.try_into().unwrap_or_default()), Relaxed);
            }
            if wide {
                let value =
                    |c: &[u8]| dictionary.get(usize::from(u16::from_le_bytes([c[0], c[1]])));
                for c in coded.chunks_exact(2) {
                    wide_out.push(*value(c).ok_or_else(|| damaged("a part's values"))?);
                }
            } else {
                narrow_out.extend_from_slice(coded);
            }
        }
        failed?;
        if !root {
            return Ok(None);
        }
        let len = if wide { wide_out.len() } else { narrow_out.len() };
        if len != n {
            return Err(damaged("the tier's values"));
        }
        // The store keeps the parts until the tier is handed over (the driver clears them).
        Ok(Some(if wide {
            TierValues::Wide(wide_out)
        } else {
            TierValues::Narrow { dictionary, codes: narrow_out }
        }))
    }

    /// Part `k` as it goes to the first rank: status 0, its words of the bitmap, its codes in the
    /// gathered dictionary (dropping the part from this rank).
    fn part_codes(
        &mut self,
        k: usize,
        codes: &Codes,
        to_gathered: &[u16],
        wide: bool,
        care: &[AtomicU64],
    ) -> Result<Vec<u8>, SolveError> {
        if self.cells[k].is_none() {
            self.bring(k, codes)?;
        }
        self.queues[k] = None;
        let part = self.cells[k]
            .take()
            .ok_or_else(|| SolveError::Inconsistent { what: format!("part {k} was lost") })?;
        let mut payload = vec![0u8];
        for w in care_words(&self.plan, k, care).unwrap_or(&[]) {
            payload.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        let code = |i: usize| {
            let s = part.cells.load(i);
            let local = if s & DECIDED != 0 { s & !DECIDED } else { DRAW_CODE };
            to_gathered.get(usize::from(local)).copied().unwrap_or(0)
        };
        let len = part.cells.len();
        if wide {
            let coded: Vec<[u8; 2]> =
                (0..len).into_par_iter().map(|i| code(i).to_le_bytes()).collect();
            payload.extend(coded.into_iter().flatten());
        } else {
            let coded: Vec<u8> = (0..len).into_par_iter().map(|i| code(i) as u8).collect();
            payload.extend_from_slice(&coded);
        }
        Ok(payload)
    }
}
