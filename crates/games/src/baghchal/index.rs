//! Bagh-Chal's tiers (goats placed and captured) and the index inside each, its symmetries.

use super::*;

impl Tiers for BaghChal {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        let turn = (q.hand > 0).then_some(q.tigers_to_move);
        Self::tier_of(q.hand, self.captured(q), turn)
    }
    /// 003's (R, C, TURN): goats to place, goats captured, and while goats are placed the side
    /// to move.
    fn tier_name(&self, t: Tier) -> String {
        match Self::tier_parts(t) {
            (hand, captured, Some(tigers)) => {
                format!("({hand},{captured},{})", if tigers { "tigers" } else { "goats" })
            }
            (_, captured, None) => format!("(0,{captured})"),
        }
    }
}

impl TierIndex for BaghChal {
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }
    fn canonical_tier(&self, t: Tier) -> Tier {
        t
    }
    /// Only the moving phase's moves stay in their tier: a placement changes the goats to place,
    /// and in a placement tier the tigers' move hands the turn to the goats.
    fn moves_within(&self, t: Tier) -> bool {
        Self::tier_parts(t).2.is_none()
    }
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        self.child_tiers_of(t)
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (hand, captured, turn) = Self::tier_parts(t);
        let pairs = self.pair_size(self.goats - hand - captured);
        if turn.is_none() {
            2 * pairs
        } else {
            pairs
        }
    }
    fn tier_index(&self, p: Position) -> u64 {
        let q = Parts::of(p);
        let index = self.layout.classes.pair_index(q.tigers, q.goats).unwrap_or(u64::MAX);
        if q.hand == 0 && q.tigers_to_move {
            self.pair_size(q.goats.count_ones()) + index
        } else {
            index
        }
    }
    fn tier_position(&self, t: Tier, index: u64) -> Option<Position> {
        let (hand, captured, turn) = Self::tier_parts(t);
        let goats = self.goats - hand - captured;
        let pairs = self.pair_size(goats).max(1);
        let (index, tigers_to_move) = match turn {
            None => (index % pairs, index >= pairs),
            Some(tigers) => (index, tigers),
        };
        let (tigers, goats) =
            self.layout.classes.pair_at(TIGERS as usize, goats as usize, index)?;
        let q = Parts { goats, tigers, hand, tigers_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for BaghChal {
    fn symmetry_count(&self) -> usize {
        self.layout.classes.symmetry_count()
    }
    fn canonical(&self, p: Position) -> Position {
        let q = Parts::of(p);
        let (tigers, goats, _) = self.layout.classes.canonical_pair(q.tigers, q.goats);
        Parts { goats, tigers, ..q }.code()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let q = Parts::of(p);
        let classes = &self.layout.classes;
        out.extend((0..classes.symmetry_count()).map(|s| {
            Parts { goats: classes.image(s, q.goats), tigers: classes.image(s, q.tigers), ..q }
                .code()
        }));
    }
}
