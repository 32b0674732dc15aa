//! Fuchs und Henne's hot paths for the tier engine: a tier walked from set to set, children and
//! parents located, the hens' steps ranked from the position's own terms and the foxes' steps
//! beside the hens' terms found once.

use perfectplay_core::{
    Game, KernelCache, Locations, Position, Tier, TierIndex, TierKernel, UndoMoves,
};

use super::{FuchsUndHenne, Parts, PLACE, REMOVE, STEP};
use crate::board;
use crate::cross::jumps::Seen;
use crate::cross::sets::{sorted, FoxSpans, PieceStates, NONE, STATES, SUMS};
use crate::cross::tiers::{tier_of, tier_parts};
use crate::cross::StepRanks;

/// The engine's hot paths: a tier walked from set to set, children and parents located.
impl TierKernel for FuchsUndHenne {
    /// One unranking, then each next set of hens from the one before
    /// (`crate::cross::sets::SetRanks::next_set`) until the foxes' class or the part of the index
    /// changes.
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (hens, sum) = tier_parts(t);
        // The last position and the index where its foxes' class ends.
        let mut last: Option<(Parts, u64)> = None;
        for (n, slot) in out.iter_mut().enumerate() {
            let index = first + n as u64;
            if let Some((q, end)) = last.filter(|&(_, end)| index < end) {
                if let Some(next) = self.layout.ranks.next_set(q.foxes, q.hens) {
                    let q = Parts { hens: next, ..q };
                    *slot = Some(q.code());
                    last = Some((q, end));
                    continue;
                }
            }
            *slot = TierIndex::tier_position(self, t, index);
            last = slot.map(|p| {
                let q = Parts::of(p);
                (q, self.block(q, hens, sum).1)
            });
        }
    }
    fn locate(&self, p: Position, _cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p))
    }
    fn is_canonical_at(&self, _: Tier, _: u64, p: Position, _cache: &mut KernelCache) -> bool {
        let q = Parts::of(p);
        self.canonical_parts(q) == q
    }
    /// Children in the tier are distinct unless two of them are mirror images: the hens' steps
    /// where the foxes' places are their own mirror image, the foxes' steps where the hens' are.
    fn child_locations_unsorted(&self, p: Position, out: &mut Locations, _cache: &mut KernelCache) {
        let q = Parts::of(p);
        let mirrored = if q.foxes_to_move {
            self.layout.cross.mirror_set(q.hens) == q.hens
        } else {
            self.oriented(q).is_none()
        };
        perfectplay_core::children_located(out, mirrored, |out| self.push_child_locations(q, out));
    }
    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, _: &mut KernelCache) {
        out.clear();
        let q = Parts::of(p);
        let mut located = |parent: Parts| {
            if self.illegal(parent).is_none() && self.primitive(parent.code()).is_none() {
                let (t, i) = self.locate_parts(parent);
                if t == tier {
                    out.push(i);
                }
            }
        };
        match self.oriented(q).filter(|_| q.foxes_to_move) {
            Some(o) => {
                // The hens' sideways steps back, ranked from the position's own terms.
                self.each_removal_or_rescue_back(q, &mut located);
                let l = self.layout;
                let state = q.hens.count_ones() as usize * SUMS + l.cross.row_sum(q.hens) as usize;
                let spans = FoxSpans::new(l.ranks, o.foxes);
                let term = |p: usize, state: usize| l.ranks.term(&spans, p, state);
                let ranks = StepRanks::new(o.hens, state, term);
                // Such a parent is legal with a fox on the board (in a tier with moves, it has
                // the goal's hens), has a move (the step back), and is over only with the goal's
                // hens in the house.
                let legal = o.fox_count() > 0;
                self.each_step_back(o, true, |parent| {
                    if legal && (parent.hens & l.house).count_ones() < self.goal {
                        let moved = o.hens & !parent.hens;
                        let (g, from) =
                            (moved.trailing_zeros(), (parent.hens & !o.hens).trailing_zeros());
                        let start = self.class_start(Self::section_of(parent), o.foxes, state);
                        out.push(start + ranks.rank_after(g as usize, from as usize, term));
                    }
                });
            }
            None if !q.foxes_to_move => self.locate_beside_foxes(
                q,
                |f| self.each_fox_step_back(q, &mut *f),
                |parent, (t, i)| {
                    if t == tier
                        && self.illegal(parent).is_none()
                        && self.primitive(parent.code()).is_none()
                    {
                        out.push(i);
                    }
                },
            ),
            None => self.each_parent(q, true, located),
        }
        out.sort_unstable();
        out.dedup();
    }
}

impl FuchsUndHenne {
    /// Whether the mirror image of a position with these foxes is its canonical form; `None`
    /// where the mirror keeps the foxes' places.
    pub(super) fn flips(&self, foxes: [u8; 2]) -> Option<([u8; 2], bool)> {
        let l = self.layout;
        let m =
            sorted(foxes.map(|f| if f == NONE { NONE } else { l.cross.mirror[f as usize] as u8 }));
        match (m[1], m[0]).cmp(&(foxes[1], foxes[0])) {
            std::cmp::Ordering::Less => Some((m, true)),
            std::cmp::Ordering::Greater => Some((foxes, false)),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The locations of positions with the hens of `q` and each of `foxes` (`f` gives the
    /// foxes, and the position to locate afresh where the mirror keeps them): the hens' terms
    /// are found once for each mirror image.
    pub(super) fn locate_beside_foxes(
        &self,
        q: Parts,
        mut each: impl FnMut(&mut dyn FnMut(Parts)),
        mut found: impl FnMut(Parts, (Tier, u64)),
    ) {
        let l = self.layout;
        let (k, t) = (q.hens.count_ones(), l.cross.row_sum(q.hens));
        let (tier, state) = (tier_of(k, t), k as usize * SUMS + t as usize);
        let plain = PieceStates::new(l.ranks, q.hens, state);
        let mut mirrored: Option<PieceStates> = None;
        each(&mut |r: Parts| {
            let location = match self.flips(r.foxes) {
                None => self.locate_parts(r),
                Some((foxes, flip)) => {
                    let terms = if flip {
                        mirrored.get_or_insert_with(|| {
                            PieceStates::new(l.ranks, l.cross.mirror_set(q.hens), state)
                        })
                    } else {
                        &plain
                    };
                    let start = self.class_start(Self::section_of(r), foxes, state);
                    (tier, start + terms.rank(l.ranks, foxes))
                }
            };
            found(r, location);
        });
    }

    /// The locations of the foxes' steps from a position with the foxes to move.
    pub(super) fn push_fox_step_locations(&self, q: Parts, out: &mut Locations) {
        let pending = if self.can_capture(q) { REMOVE } else { STEP };
        self.locate_beside_foxes(
            q,
            |f| {
                self.each_step(q, |from, to| {
                    f(Parts { foxes: q.fox_moved(from, to), foxes_to_move: false, pending, ..q })
                })
            },
            |_, location| out.push(location),
        );
    }

    /// The locations of a position's children, unsorted, with repeats where two are mirror
    /// images. The hens' steps are ranked from the position's own terms ([`StepRanks`]) where
    /// the foxes' places decide which mirror image is canonical.
    pub(super) fn push_child_locations(&self, q: Parts, out: &mut Locations) {
        if q.foxes_to_move {
            self.push_fox_step_locations(q, out);
            self.captures(q, |fox, path, hens| {
                out.push(self.locate_parts(self.after_capture(q, fox, path[path.len() - 1], hens)))
            });
            return;
        }
        let fast = (q.pending != PLACE).then(|| self.oriented(q)).flatten();
        let Some(o) = fast else {
            self.each_child(q, |child| out.push(self.locate_parts(child)));
            return;
        };
        let l = self.layout;
        let (k, t) = (q.hens.count_ones(), l.cross.row_sum(q.hens));
        let state = k as usize * SUMS + t as usize;
        let spans = FoxSpans::new(l.ranks, o.foxes);
        let term = |p: usize, state: usize| l.ranks.term(&spans, p, state);
        let ranks = StepRanks::new(o.hens, state, term);
        let section = Self::section_of(Parts { foxes_to_move: true, pending: STEP, ..o });
        let sideways = (tier_of(k, t), self.class_start(section, o.foxes, state));
        let forward = if state + 1 < STATES {
            (tier_of(k, t + 1), self.class_start(section, o.foxes, state + 1))
        } else {
            sideways
        };
        self.each_step(o, |from, to| {
            let (from, to) = (usize::from(from), usize::from(to));
            let (tier, start) =
                if l.cross.row[to] == l.cross.row[from] { sideways } else { forward };
            out.push((tier, start + ranks.rank_after(from, to, term)));
        });
        if q.pending == REMOVE {
            for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                let child = Parts {
                    foxes: q.fox_moved(fox, NONE),
                    foxes_to_move: true,
                    pending: STEP,
                    ..q
                };
                out.push(self.locate_parts(child));
            }
        }
    }
}

impl FuchsUndHenne {
    /// Calls `f` with each position that has a move to `q` (primitive ones included); with
    /// `same_tier`, only the moves that stay in its tier.
    pub(super) fn each_parent(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        if q.foxes_to_move {
            self.each_step_back(q, same_tier, &mut f);
            self.each_removal_or_rescue_back(q, &mut f);
            return;
        }
        // The foxes moved: a step (the hens' next move says whether a capture was missed), or a
        // capture from a tier with more hens.
        self.each_fox_step_back(q, &mut f);
        if same_tier || q.pending == REMOVE {
            return;
        }
        // The foxes the capture began with: one where a rescue is due; as many as now where the
        // game is over; else two (one fox's capture would have rescued the other).
        let over = q.hens.count_ones() < self.goal;
        let possible = match q.pending {
            PLACE => q.fox_count() == 1,
            _ => over || q.fox_count() == 2,
        };
        if !possible {
            return;
        }
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            let mut seen = Seen::default();
            let chase = self.chase(q, fox);
            chase.jump_back(q.hens, fox.into(), self.hens, &mut seen, &mut |hens, start| {
                let foxes = q.fox_moved(fox, start as u8);
                f(Parts { hens, foxes, foxes_to_move: true, pending: STEP });
            });
        }
    }

    /// The parents of a position with the hens to move where a fox stepped.
    pub(super) fn each_fox_step_back(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let (l, empty) = (self.layout, q.empty());
        if q.pending == PLACE || q.hens.count_ones() < self.goal {
            return;
        }
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            for from in board::bits(l.lines[fox as usize] & empty) {
                let parent = Parts {
                    foxes: q.fox_moved(fox, from as u8),
                    foxes_to_move: true,
                    pending: STEP,
                    ..q
                };
                let missed = if self.can_capture(parent) { REMOVE } else { STEP };
                if missed == q.pending {
                    f(parent);
                }
            }
        }
    }

    /// The parents of a position with the foxes to move where the hens stepped (when they had a
    /// step or a removal to choose); in the tier only, sideways.
    pub(super) fn each_step_back(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        let l = self.layout;
        let empty = q.empty();
        for pending in [STEP, REMOVE] {
            let parent = Parts { foxes_to_move: false, pending, ..q };
            if pending == REMOVE && q.fox_count() == 0 {
                continue;
            }
            for g in board::bits(q.hens) {
                for from in board::bits(l.hen_from[g] & empty) {
                    if same_tier && l.cross.row[from] != l.cross.row[g] {
                        continue;
                    }
                    f(Parts { hens: q.hens & !(1 << g) | 1 << from, ..parent });
                }
            }
        }
    }

    /// The parents of a position with the foxes to move where the hens took off a fox or put one
    /// back.
    pub(super) fn each_removal_or_rescue_back(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let empty = q.empty();
        if q.fox_count() < 2 {
            let parent = Parts { foxes_to_move: false, pending: REMOVE, ..q };
            for at in board::bits(empty) {
                let foxes = if q.foxes[0] == NONE {
                    [at as u8, NONE]
                } else {
                    sorted([q.foxes[0], at as u8])
                };
                f(Parts { foxes, ..parent });
            }
        }
        if q.fox_count() == 2 {
            for &fox in &q.foxes {
                let foxes = q.fox_moved(fox, NONE);
                f(Parts { foxes, foxes_to_move: false, pending: PLACE, ..q });
            }
        }
    }
}

impl UndoMoves for FuchsUndHenne {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let mut found = Vec::new();
        self.each_parent(Parts::of(p), false, |r| found.push(r));
        for r in found {
            let exists = self.tier_exists(r.hens.count_ones(), self.layout.cross.row_sum(r.hens));
            if exists && self.illegal(r).is_none() && self.primitive(r.code()).is_none() {
                out.push(r.code());
            }
        }
        out.sort_unstable();
        out.dedup();
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), true, |r| {
            if self.illegal(r).is_none() && self.primitive(r.code()).is_none() {
                out.push(r.code());
            }
        });
    }
}
