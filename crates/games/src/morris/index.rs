//! The Morris tiers (pieces in hand, on the board, and for the placements whose turn) and the
//! index inside each: white's points up to the board's symmetries times black's among the rest.

use super::*;

impl Morris {
    /// Whether the tiers are those of the moving phase alone.
    pub(super) fn tier_parts(&self, t: Tier) -> (u32, u32, u32, bool) {
        // t = flip * 10000 + in_hand * 400 + (w + b) * 20 + w
        let flip = t.0 >= 10_000;
        let r = t.0 % 10_000;
        let in_hand = r / 400;
        let sum = r % 400 / 20;
        let w = r % 20;
        (in_hand, w, sum - w, flip)
    }

    pub(super) fn tier_of(in_hand: u32, w: u32, b: u32, flip: bool) -> Tier {
        Tier(u32::from(flip) * 10_000 + in_hand * 400 + (w + b) * 20 + w)
    }

    /// The placement phase's turn for `in_hand` pieces still to place: black when odd.
    pub(super) fn hands(&self, in_hand: u32) -> (u32, u32, bool) {
        let black_to_move = in_hand % 2 == 1;
        let white_hand = in_hand / 2;
        (white_hand, in_hand - white_hand, black_to_move)
    }

    /// Whether a tier of the placement phase has positions (the side not to move keeps three
    /// pieces, and removals are bounded by mills).
    pub(super) fn tier_exists(&self, in_hand: u32, w: u32, b: u32) -> bool {
        let (white_hand, black_hand, black_to_move) =
            if in_hand > 0 { self.hands(in_hand) } else { (0, 0, false) };
        let (wp, bp) = (self.pieces - white_hand, self.pieces - black_hand);
        if w > wp || b > bp || w as usize + b as usize > self.n() {
            return false;
        }
        if self.mill_wins() {
            return w == wp && b == bp;
        }
        if wp - w > bp.saturating_sub(2) || bp - b > wp.saturating_sub(2) {
            return false;
        }
        if in_hand == 0 {
            // Moving phase: either side may be to move; one of them has three or more.
            return w.max(b) >= 3;
        }
        let (other, other_hand) = if black_to_move { (w, white_hand) } else { (b, black_hand) };
        other + other_hand >= 3
    }

    pub(super) fn all_tiers(&self) -> Vec<Tier> {
        let mut tiers = Vec::new();
        let top = if self.moving_only.is_some() { 0 } else { 2 * self.pieces };
        let limit = self.moving_only.unwrap_or(self.pieces);
        for in_hand in 0..=top {
            for w in 0..=self.pieces {
                for b in 0..=self.pieces {
                    if in_hand == 0 && (w < b || w > limit) {
                        continue;
                    }
                    if self.tier_exists(in_hand, w, b) {
                        tiers.push(Self::tier_of(in_hand, w, b, false));
                    }
                }
            }
        }
        tiers.sort();
        tiers
    }

    #[inline]
    pub(super) fn pair_size(&self, w: u32, b: u32) -> u64 {
        self.layout.classes.pair_size(w as usize, b as usize)
    }
}

impl Tiers for Morris {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        let in_hand = q.in_hand();
        // Exchanged images of placement positions (the wrong side to move for the hands) are
        // kept apart from the positions of the game.
        let flip = in_hand > 0 && !q.turn_matches_hands();
        Self::tier_of(in_hand, q.white.count_ones(), q.black.count_ones(), flip)
    }

    fn tier_name(&self, t: Tier) -> String {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        let flip = if flip { " exchanged" } else { "" };
        format!("({in_hand},{w},{b}){flip}")
    }
}

impl TierIndex for Morris {
    /// Tiers (pieces in hand, white on the board, black on the board) that have positions; in
    /// the moving phase those with white's count at least black's.
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }

    fn canonical_tier(&self, t: Tier) -> Tier {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            Self::tier_of(in_hand, b, w, false)
        } else if in_hand == 0 && w < b {
            Self::tier_of(0, b, w, false)
        } else {
            t
        }
    }

    /// Only the moving phase has moves within a tier: a placement lowers the pieces in hand.
    fn moves_within(&self, t: Tier) -> bool {
        self.tier_parts(t).0 == 0
    }

    /// A moving tier where white has more pieces holds white's turns, then black's. Black's
    /// every move leads to white's turn: in this tier, or after a capture in the tier with a
    /// white piece fewer, where white still has at least as many as black (as many: a tier
    /// of white's turns alone, colors exchanged).
    fn derivable_from(&self, t: Tier) -> Option<u64> {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        (in_hand == 0 && !flip && w > b).then(|| self.pair_size(w, b))
    }

    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        let (in_hand, w, b, _) = self.tier_parts(t);
        let tiers = self.all_tiers();
        let mut out = Vec::new();
        let mut add = |h: u32, w: u32, b: u32| {
            let c = self.canonical_tier(Self::tier_of(h, w, b, false));
            if c != t && tiers.binary_search(&c).is_ok() {
                out.push(c);
            }
        };
        if in_hand > 0 {
            let (_, _, black_to_move) = self.hands(in_hand);
            // A capture takes one of the opponent's pieces, where there is one (a count that
            // would go below zero names no tier).
            if black_to_move {
                add(in_hand - 1, w, b + 1);
                if let Some(w) = w.checked_sub(1) {
                    add(in_hand - 1, w, b + 1);
                }
            } else {
                add(in_hand - 1, w + 1, b);
                if let Some(b) = b.checked_sub(1) {
                    add(in_hand - 1, w + 1, b);
                }
            }
        } else {
            if let Some(b) = b.checked_sub(1) {
                add(0, w, b);
            }
            if let Some(w) = w.checked_sub(1) {
                add(0, w, b);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn tier_size(&self, t: Tier) -> u64 {
        let (in_hand, w, b, _) = self.tier_parts(t);
        let pairs = self.pair_size(w, b);
        if in_hand == 0 && w != b {
            2 * pairs
        } else {
            pairs
        }
    }

    fn tier_index(&self, p: Position) -> u64 {
        let q = Parts::of(p);
        let pairs = self.pair_size(q.white.count_ones(), q.black.count_ones());
        let index = self.layout.classes.pair_index(q.white, q.black).unwrap_or(u64::MAX);
        if q.in_hand() == 0 && q.black_to_move {
            pairs + index
        } else {
            index
        }
    }

    fn tier_position(&self, t: Tier, index: u64) -> Option<Position> {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            return None;
        }
        let pairs = self.pair_size(w, b);
        let (index, black_to_move) = if in_hand == 0 {
            (index % pairs.max(1), index >= pairs)
        } else {
            (index, self.hands(in_hand).2)
        };
        let (white, black) = self.layout.classes.pair_at(w as usize, b as usize, index)?;
        let (white_hand, black_hand) =
            if in_hand == 0 { (0, 0) } else { (self.hands(in_hand).0, self.hands(in_hand).1) };
        let q = Parts { white, black, white_hand, black_hand, black_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for Morris {
    fn symmetry_count(&self) -> usize {
        2 * self.layout.classes.symmetry_count()
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let classes = &self.layout.classes;
        for q in [Parts::of(p), Parts::of(p).exchanged()] {
            out.extend((0..classes.symmetry_count()).map(|s| {
                Parts { white: classes.image(s, q.white), black: classes.image(s, q.black), ..q }
                    .code()
            }));
        }
    }

    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for Morris {
    fn exchanged(&self, p: Position) -> Position {
        Parts::of(p).exchanged().code()
    }

    /// Exchanged when the side to move does not match the hands (an exchanged image of a
    /// placement position), or in the moving phase when black has more pieces, or as many and is
    /// to move.
    #[inline]
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let mut q = Parts::of(p);
        let exchanged = q.exchanged_is_canonical();
        if exchanged {
            q = q.exchanged();
        }
        let (white, black, _) = self.layout.classes.canonical_pair(q.white, q.black);
        (Parts { white, black, ..q }.code(), exchanged)
    }

    /// 003 counts Nine Men's Morris's canonical positions under the board's symmetries alone.
    fn merges_classes(&self) -> bool {
        false
    }
}

impl Morris {
    /// The tier and index of a position's canonical form, in one step (see [`TierKernel`]).
    #[inline]
    pub(super) fn locate_parts(&self, q: Parts, cache: &mut LeastCache) -> (Tier, u64) {
        let in_hand = q.in_hand();
        let q = if q.exchanged_is_canonical() { q.exchanged() } else { q };
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let index = self
            .layout
            .classes
            .canonical_pair_index_cached(q.white, q.black, cache)
            .unwrap_or(u64::MAX);
        let index =
            if in_hand == 0 && q.black_to_move { self.pair_size(w, b) + index } else { index };
        (Self::tier_of(in_hand, w, b, false), index)
    }
}
