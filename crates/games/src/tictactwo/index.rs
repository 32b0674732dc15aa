//! Tic-Tac-Two's tiers and the index inside each, its symmetries and exchange, and its moves undone.

use super::*;

impl Tiers for TicTacTwo {
    fn tier(&self, p: Position) -> Tier {
        let (x, o, _, _) = Self::parts(p);
        self.tier_of(x.count_ones(), o.count_ones())
    }

    fn tier_name(&self, t: Tier) -> String {
        let (x, o) = self.tier_marks(t);
        format!("({x},{o})")
    }
}

impl TierIndex for TicTacTwo {
    /// Tiers `(x, o)` with `x >= o` that have positions, fewest empty cells first.
    fn tiers(&self) -> Vec<Tier> {
        let mut tiers: Vec<Tier> = (0..=self.marks)
            .flat_map(|x| (0..=x).map(move |o| (x, o)))
            .filter(|&(x, o)| o >= 2 || x == o || x == o + 1)
            .map(|(x, o)| self.tier_of(x, o))
            .collect();
        tiers.sort();
        tiers
    }

    fn canonical_tier(&self, t: Tier) -> Tier {
        let (x, o) = self.tier_marks(t);
        self.tier_of(x.max(o), x.min(o))
    }

    /// A placement by X or by O; O's placement from `(x, x)` lands in `(x, x + 1)`, whose
    /// canonical tier is `(x + 1, x)`.
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        let (x, o) = self.tier_marks(t);
        let tiers = self.tiers();
        let mut out: Vec<Tier> = [(x + 1, o), (x, o + 1)]
            .into_iter()
            .filter(|&(a, b)| a <= self.marks && b <= self.marks)
            .map(|(a, b)| self.canonical_tier(self.tier_of(a, b)))
            .filter(|c| tiers.contains(c))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn tier_size(&self, t: Tier) -> u64 {
        let (x, o) = self.tier_marks(t);
        let b = &self.binomial;
        let turns = if Self::both_turns(x, o) { 2 } else { 1 };
        b[CELLS][x as usize] * b[CELLS - x as usize][o as usize] * 3 * turns
    }

    fn tier_index(&self, p: Position) -> u64 {
        let (x, o, grid, o_to_move) = Self::parts(p);
        let (nx, no) = (x.count_ones(), o.count_ones());
        let rank_x = colex_rank(&self.binomial, x);
        // O's cells renumbered among the cells X leaves.
        let mut o_left = 0u64;
        let mut rest = o;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            o_left |= 1 << (c - (x & ((1 << c) - 1)).count_ones());
        }
        let rank_o = colex_rank(&self.binomial, o_left);
        let center = CANONICAL_CENTERS.iter().position(|&g| g == grid).unwrap_or(0) as u64;
        let arrangement = rank_x * self.binomial[CELLS - nx as usize][no as usize] + rank_o;
        if Self::both_turns(nx, no) {
            (arrangement * 3 + center) * 2 + u64::from(o_to_move)
        } else {
            arrangement * 3 + center
        }
    }

    fn tier_position(&self, t: Tier, index: u64) -> Option<Position> {
        let (nx, no) = self.tier_marks(t);
        let (rest, o_to_move) =
            if Self::both_turns(nx, no) { (index / 2, index % 2 == 1) } else { (index, false) };
        let grid = CANONICAL_CENTERS[(rest % 3) as usize];
        let arrangement = rest / 3;
        let per_x = self.binomial[CELLS - nx as usize][no as usize];
        let x = u64::from(*self.subsets[nx as usize].get((arrangement / per_x) as usize)?);
        let o_left = self.subsets[no as usize][(arrangement % per_x) as usize];
        // O's k-th cell among the cells X leaves: skip X's cells at or before it.
        let mut o = 0u64;
        let mut bits = o_left;
        while bits != 0 {
            let mut c = bits.trailing_zeros();
            bits &= bits - 1;
            let mut xs = x;
            while xs != 0 && xs.trailing_zeros() <= c {
                c += 1;
                xs &= xs - 1;
            }
            o |= 1 << c;
        }
        let p = Self::code(x, o, grid, o_to_move);
        self.legal(p).is_ok().then_some(p)
    }
}

impl Symmetry for TicTacTwo {
    fn symmetry_count(&self) -> usize {
        16
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (x, o, grid, o_to_move) = Self::parts(p);
        for (x, o, o_to_move) in [(x, o, o_to_move), (o, x, !o_to_move)] {
            out.extend((0..8).map(|s| self.image(s, x, o, grid, o_to_move)));
        }
    }

    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for TicTacTwo {
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let (mut x, mut o, grid, mut o_to_move) = Self::parts(p);
        let (nx, no) = (x.count_ones(), o.count_ones());
        let exchanged = nx < no || (nx == no && o_to_move);
        if exchanged {
            std::mem::swap(&mut x, &mut o);
            o_to_move = !o_to_move;
        }
        let best = self.best_syms[grid].iter().map(|&s| self.image(s, x, o, grid, o_to_move)).min();
        (best.unwrap_or(p), exchanged)
    }

    fn exchanged(&self, p: Position) -> Position {
        let (x, o, grid, o_to_move) = Self::parts(p);
        Self::code(o, x, grid, !o_to_move)
    }
}

impl UndoMoves for TicTacTwo {
    /// The last mover (the player not to move) placed one of their marks inside the grid, moved
    /// the grid from a neighboring center, or moved a mark now inside the grid from any cell now
    /// empty. Parents that are not positions of the game, or are over, are left out.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let (x, o, grid, o_to_move) = Self::parts(p);
        let parent_o = !o_to_move;
        let (moved, other) = if parent_o { (o, x) } else { (x, o) };
        let parent = |m: u64, g: usize| Self::code_sided(parent_o, m, other, g, parent_o);
        let mut push = |q: Position| {
            if self.legal(q).is_ok() && self.primitive(q).is_none() {
                out.push(q);
            }
        };
        // Grid and mark moves need both players at two marks already.
        let moving = x.count_ones() >= 2 && o.count_ones() >= 2;
        let mut inside = moved & self.grid_cells[grid];
        while inside != 0 {
            let b = inside & inside.wrapping_neg();
            inside &= inside - 1;
            push(parent(moved ^ b, grid));
            let mut from = if moving { BOARD & !(x | o) } else { 0 };
            while from != 0 {
                let a = from & from.wrapping_neg();
                from &= from - 1;
                push(parent(moved ^ b ^ a, grid));
            }
        }
        if moving {
            for &g in &self.neighbors[grid] {
                push(parent(moved, g));
            }
        }
    }
}
