//! A set's rank kept term by term, so that the ranks of the sets one step away take a few
//! loads each: the cross-board games' children and parents located from a position's own terms.

use super::sets::{MAX_SET, STATES, SUMS};
use super::Cross;
use crate::board;

/// A set of pieces' rank term by term, so that the rank of each set one piece's step away takes a
/// load or a few instead of one a piece. The rank sums one term per piece: the sets after its
/// point whose count and row sum, with its own, make its state (`k * SUMS + t`, the pieces from
/// it on). A sideways step keeps every other term; a step forward raises the row sum of the terms
/// before it by one (`before_forward`) and adds a piece to the terms between its two points.
pub(crate) struct StepRanks {
    /// The pieces' points in reading order.
    points: [u8; MAX_SET],
    /// Per piece: its state; 0 after the last.
    states: [u16; MAX_SET + 1],
    /// The sums of the terms before each piece: as they are, and with the row sum one higher.
    before: [u64; MAX_SET + 1],
    before_forward: [u64; MAX_SET + 1],
    set: u64,
}

impl StepRanks {
    /// The terms of `set`, whose count and row sum are `state`; `term(p, state)` is a piece's
    /// term, and a state beyond [`STATES`] has none.
    pub fn new(set: u64, mut state: usize, term: impl Fn(usize, usize) -> u64) -> StepRanks {
        let cross = Cross::shared();
        let mut r = StepRanks {
            points: [0; MAX_SET],
            states: [0; MAX_SET + 1],
            before: [0; MAX_SET + 1],
            before_forward: [0; MAX_SET + 1],
            set,
        };
        for (j, p) in board::bits(set).enumerate() {
            r.points[j] = p as u8;
            r.states[j] = state as u16;
            r.before[j + 1] = r.before[j] + term(p, state);
            let forward = if state + 1 < STATES { term(p, state + 1) } else { 0 };
            r.before_forward[j + 1] = r.before_forward[j] + forward;
            state -= SUMS + cross.row[p] as usize;
        }
        r
    }

    /// The set ranked.
    pub fn set(&self) -> u64 {
        self.set
    }

    /// The rank of the set with the piece on `from` moved to `to`, a step sideways in its row or
    /// to a later row (straight or diagonally); `term` as for [`StepRanks::new`].
    pub fn rank_after(&self, from: usize, to: usize, term: impl Fn(usize, usize) -> u64) -> u64 {
        let row = &Cross::shared().row;
        let k = self.set.count_ones() as usize;
        let m = (self.set & ((1 << from) - 1)).count_ones() as usize;
        if row[to] == row[from] {
            // Neighbours in a row are neighbours in reading order: only this piece's term
            // changes.
            let state = usize::from(self.states[m]);
            return self.before[k] - term(from, state) + term(to, state);
        }
        // The first piece after `to`; the pieces between `from` and `to` gain `to` after them.
        let e = (self.set & ((1 << to) - 1)).count_ones() as usize;
        let gain = SUMS + row[to] as usize;
        let mut rank = self.before_forward[m] + self.before[k] - self.before[e];
        for j in m + 1..e {
            rank += term(usize::from(self.points[j]), usize::from(self.states[j]) + gain);
        }
        rank + term(to, usize::from(self.states[e]) + gain)
    }
}
