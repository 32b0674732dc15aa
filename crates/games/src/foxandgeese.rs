//! Fox and Geese (002, Teufl, 2.3, the version 2.3.5 selects): one fox against 4 to 15 geese on
//! the 33 points of the cross board (a 7x7 square without its four 2x2 corners). The geese open.
//! A goose steps to an empty neighboring point forward (down the board), sideways or diagonally
//! forward, never back. The fox steps to an empty point in any of the eight directions (every
//! diagonal, not only the ones drawn on a board), or jumps over an adjacent goose to the empty
//! point just beyond it on the same line, capturing it. Capturing is never compulsory; a capture
//! may go on with more jumps, in any direction, as one move that may stop after any jump. The
//! geese win when the fox cannot move. The fox wins when three geese are left: 002's variants
//! count from 4 geese, "the minimum number of geese for this game", so the capture that leaves
//! three ends the game, even in the middle of a chain of jumps. A player without a legal move
//! loses (geese that are all stuck at the bottom too). Nothing else ends a game: play that can go
//! on for ever is a draw.
//!
//! The start: 002 shows its layouts only in figures that its text does not carry. Here the geese
//! fill the top arm row by row, then row 3 from the middle out, then a4 and g4, each row from the
//! middle: 13 geese are the top arm and row 3, and 15 add a4 and g4 (the usual English layouts).
//! The fox starts in the middle, d4. Points are named by column (a to g) and row (1 at the top).
//!
//! Position code: bits 0-32 the geese (points in reading order from c1), bits 33-38 the fox's
//! point, bit 39 set when the fox is to move. Tiers: the number of geese and the sum of their
//! rows; a goose's step forward raises the sum and a capture lowers the count, so a tier holds
//! only sideways steps and the fox's steps. Symmetry: the left-right mirror (002's fingerprint).
//! A tier's index is dense over the fox's 20 points up to the mirror and the geese's sets with
//! the tier's row sum, ranked by counting (no position of another tier takes an index).

use std::collections::HashSet;
use std::sync::OnceLock;

use perfectplay_core::autogui::autogui_position;
use perfectplay_core::{
    AutoGuiMove, Entity, Exchange, Game, ImageAutoGui, ImageGui, KernelCache, Move, MultipartMoves,
    ParseError, Player, Position, SizeClass, Symmetry, Tier, TierIndex, TierKernel, Tiers,
    UndoMoves, Value,
};

use crate::board::{self, Board};
use crate::cross::{self, Cross, StepRanks, N};

const GEESE: u64 = (1 << N) - 1;
const FOX_SHIFT: u32 = 33;
const FOX_TO_MOVE: u64 = 1 << 39;
/// Geese on the board below which the game is over (won by the fox).
const MIN_GEESE: u32 = 4;
/// A move code's flag for a fox's capture; the rest is the capture's place in [`FoxAndGeese::captures`].
const CAPTURE: u32 = 1 << 31;
/// The order the start's geese fill the board in (see the module's header).
const FILL: [&str; 15] =
    ["d1", "c1", "e1", "d2", "c2", "e2", "d3", "c3", "e3", "b3", "f3", "a3", "g3", "a4", "g4"];
const FOX_START: &str = "d4";

/// The board and its move tables.
#[derive(Debug)]
struct Layout {
    board: Board,
    /// Per point: its row, 0 at the top.
    row: [u32; N],
    /// Per point: its neighbors in the eight directions, as a mask.
    adjacent: [u64; N],
    /// Per point: where a goose may step (forward, sideways, diagonally forward), as a mask.
    goose_steps: [u64; N],
    /// Per point: the (point jumped over, landing point) pairs.
    jumps: Vec<Vec<(u32, u32)>>,
    /// Per point: its mirror image.
    mirror: [usize; N],
    /// The geese's sets ranked by row sum: see [`Layout::count`].
    counts: Vec<u64>,
    /// `count(fox, i + 1, k, t)` for the point `p` that is the `i`-th besides the fox, by fox,
    /// point and state `k * SUMS + t` ([`Layout::rank`]'s terms; every count fits 32 bits).
    after: Vec<u32>,
    /// The fox's points up to the mirror (column d or left of it), in reading order: its classes.
    fox_points: Vec<u32>,
    /// Per fox class `j` (and one past the last), geese count and row sum: the sets of the fox's
    /// classes before `j`, the start of `j`'s part of a tier's index.
    offsets: Vec<u64>,
    /// Per point: its fox class, or `u8::MAX` right of the middle column.
    class: [u8; N],
    cross: &'static Cross,
}

/// Most geese, and the highest sum of their rows plus one.
const MAX_GEESE: usize = 15;
const SUMS: usize = 6 * MAX_GEESE + 1;
/// Geese counts and row sums, as `k * SUMS + t`.
const STATES: usize = (MAX_GEESE + 1) * SUMS;
/// The fox's points up to the mirror: those left of the middle column or on it, 20 of them.
const FOX_CLASSES: usize = 20;

impl Layout {
    fn shared() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::new)
    }

    fn new() -> Layout {
        let cross = Cross::shared();
        let point = |x: i32, y: i32| cross.point_at(x, y);
        let mut edges = Vec::new();
        let (row, mirror) = (cross.row, cross.mirror);
        let (mut adjacent, mut goose_steps) = ([0; N], [0; N]);
        let mut jumps = vec![Vec::new(); N];
        for (p, &(x, y)) in cross.xy.iter().enumerate() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let Some(q) = point(x + dx, y + dy).filter(|&q| q != p) else { continue };
                    adjacent[p] |= 1 << q;
                    if dy >= 0 {
                        goose_steps[p] |= 1 << q;
                    }
                    if p < q {
                        edges.push((p, q));
                    }
                    if let Some(to) = point(x + 2 * dx, y + 2 * dy) {
                        jumps[p].push((q as u32, to as u32));
                    }
                }
            }
        }
        let board = cross.board(&edges);
        let counts = Self::counts(&row);
        let mut after = vec![0u32; N * N * STATES];
        for fox in 0..N {
            for p in (0..N).filter(|&p| p != fox) {
                let i = p - usize::from(p > fox);
                for state in 0..STATES {
                    let c = counts[Self::slot(fox, i + 1, state / SUMS, state % SUMS)];
                    after[(fox * N + p) * STATES + state] = c.try_into().expect("32 bits");
                }
            }
        }
        let mut offsets = vec![0u64; (FOX_CLASSES + 1) * (MAX_GEESE + 1) * SUMS];
        let fox_points: Vec<u32> = (0..N).filter(|&p| mirror[p] >= p).map(|p| p as u32).collect();
        assert_eq!(fox_points.len(), FOX_CLASSES);
        for (j, &fox) in fox_points.iter().enumerate() {
            for k in 0..=MAX_GEESE {
                for t in 0..SUMS {
                    let at = (j * (MAX_GEESE + 1) + k) * SUMS + t;
                    let sets = counts[Self::slot(fox as usize, 0, k, t)];
                    offsets[at + (MAX_GEESE + 1) * SUMS] = offsets[at] + sets;
                }
            }
        }
        let mut class = [u8::MAX; N];
        for (j, &fox) in fox_points.iter().enumerate() {
            class[fox as usize] = j as u8;
        }
        Layout {
            board,
            row,
            adjacent,
            goose_steps,
            jumps,
            mirror,
            counts,
            after,
            fox_points,
            offsets,
            class,
            cross,
        }
    }

    /// The start of fox class `j`'s part of the index of `k` geese with row sum `t`
    /// (`j = FOX_CLASSES`: the size of one side's part).
    fn offset(&self, j: usize, k: usize, t: usize) -> u64 {
        if k > MAX_GEESE || t >= SUMS {
            return 0;
        }
        self.offsets[(j * (MAX_GEESE + 1) + k) * SUMS + t]
    }

    fn mirror_set(&self, set: u64) -> u64 {
        self.cross.mirror_set(set)
    }

    /// `count(fox, i, k, t)` for every argument, flattened.
    fn counts(row: &[u32; N]) -> Vec<u64> {
        let mut counts = vec![0u64; N * N * (MAX_GEESE + 1) * SUMS];
        for fox in 0..N {
            let others: Vec<usize> = (0..N).filter(|&p| p != fox).collect();
            let at = |i: usize, k: usize, t: usize| Self::slot(fox, i, k, t);
            counts[at(N - 1, 0, 0)] = 1;
            for i in (0..N - 1).rev() {
                let r = row[others[i]] as usize;
                for k in 0..=MAX_GEESE {
                    for t in 0..SUMS {
                        let with =
                            if k > 0 && t >= r { counts[at(i + 1, k - 1, t - r)] } else { 0 };
                        counts[at(i, k, t)] = counts[at(i + 1, k, t)] + with;
                    }
                }
            }
        }
        counts
    }

    fn slot(fox: usize, i: usize, k: usize, t: usize) -> usize {
        ((fox * N + i) * (MAX_GEESE + 1) + k) * SUMS + t
    }

    /// The number of sets of `k` geese with row sum `t` on the points other than the fox's from
    /// the `i`-th of them on (in reading order).
    fn count(&self, fox: usize, i: usize, k: usize, t: usize) -> u64 {
        if k > MAX_GEESE || t >= SUMS {
            return 0;
        }
        self.counts[Self::slot(fox, i, k, t)]
    }

    /// A set of geese's rank among the sets of as many geese with the same row sum, the fox on
    /// `fox`: sets without a point come before sets with it, point by point in reading order.
    fn rank(&self, fox: usize, geese: u64) -> u64 {
        let state = geese.count_ones() as usize * SUMS + self.row_sum(geese) as usize;
        self.rank_in(fox, geese, state)
    }

    /// [`Layout::rank`] of a set whose count and row sum are `state` (`k * SUMS + t`).
    fn rank_in(&self, fox: usize, geese: u64, mut state: usize) -> u64 {
        let after = &self.after[fox * N * STATES..(fox + 1) * N * STATES];
        let mut rank = 0;
        for p in board::bits(geese) {
            rank += u64::from(after[p * STATES + state]);
            state -= SUMS + self.row[p] as usize;
        }
        rank
    }

    /// The set at `rank` (see [`Layout::rank`]).
    fn unrank(&self, fox: usize, mut k: usize, mut t: usize, mut rank: u64) -> Option<u64> {
        let mut geese = 0u64;
        for (i, p) in (0..N).filter(|&p| p != fox).enumerate() {
            let without = self.count(fox, i + 1, k, t);
            if rank >= without {
                rank -= without;
                geese |= 1 << p;
                k = k.checked_sub(1)?;
                t = t.checked_sub(self.row[p] as usize)?;
            }
        }
        (k == 0 && t == 0 && rank == 0).then_some(geese)
    }

    /// The set after `geese` in rank order ([`Layout::rank`] plus one), `None` after the last:
    /// the last point without a goose that can take one with the points before it kept, then
    /// the least way to place the rest after it.
    fn next_set(&self, fox: usize, geese: u64) -> Option<u64> {
        let index = |p: usize| p - usize::from(p > fox);
        // The geese after the point looked at, and their row sum.
        let (mut k, mut t) = (0usize, 0usize);
        for p in (0..64 - geese.leading_zeros() as usize).rev() {
            let r = self.row[p] as usize;
            if geese >> p & 1 == 1 {
                (k, t) = (k + 1, t + r);
                continue;
            }
            if p == fox || k == 0 || t < r || self.count(fox, index(p) + 1, k - 1, t - r) == 0 {
                continue;
            }
            let mut set = geese & ((1 << p) - 1) | 1 << p;
            let (mut k, mut t) = (k - 1, t - r);
            let mut q = p + 1;
            while k > 0 {
                if q != fox && self.count(fox, index(q) + 1, k, t) == 0 {
                    set |= 1 << q;
                    k -= 1;
                    t -= self.row[q] as usize;
                }
                q += 1;
            }
            return Some(set);
        }
        None
    }

    fn row_sum(&self, geese: u64) -> u32 {
        self.cross.row_sum(geese)
    }

    fn point(&self, name: &str) -> u32 {
        self.board.cell(name).expect("a point of the board") as u32
    }
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    geese: u64,
    fox: u32,
    fox_to_move: bool,
}

impl Parts {
    fn of(p: Position) -> Parts {
        Parts {
            geese: p.0 & GEESE,
            fox: (p.0 >> FOX_SHIFT & 63) as u32,
            fox_to_move: p.0 & FOX_TO_MOVE != 0,
        }
    }

    fn code(self) -> Position {
        Position(
            self.geese
                | u64::from(self.fox) << FOX_SHIFT
                | if self.fox_to_move { FOX_TO_MOVE } else { 0 },
        )
    }

    fn empty(self) -> u64 {
        GEESE & !self.geese & !(1 << self.fox)
    }
}

/// Fox and Geese with a number of geese.
#[derive(Clone, Debug)]
pub struct FoxAndGeese {
    geese: u32,
    layout: &'static Layout,
    variant: String,
    /// The start's geese, and the sum of their rows.
    start_geese: u64,
    start_sum: u32,
}

impl FoxAndGeese {
    /// The variant `N-geese`, N from 4 to 15.
    pub fn new(variant: &str) -> Result<FoxAndGeese, String> {
        let geese = variant
            .strip_suffix("-geese")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (MIN_GEESE..=15).contains(n))
            .ok_or("N-geese, N from 4 to 15 (e.g. 9-geese)")?;
        let layout = Layout::shared();
        let start_geese =
            FILL[..geese as usize].iter().fold(0, |m, name| m | 1 << layout.point(name));
        let start_sum = layout.row_sum(start_geese);
        Ok(FoxAndGeese { geese, layout, variant: variant.to_string(), start_geese, start_sum })
    }

    /// Calls `f(from, to)` for each step of the player to move (not the fox's captures).
    fn each_step(&self, q: Parts, mut f: impl FnMut(u32, u32)) {
        let l = self.layout;
        let empty = q.empty();
        if q.fox_to_move {
            for to in board::bits(l.adjacent[q.fox as usize] & empty) {
                f(q.fox, to as u32);
            }
        } else {
            for from in board::bits(q.geese) {
                for to in board::bits(l.goose_steps[from] & empty) {
                    f(from as u32, to as u32);
                }
            }
        }
    }

    /// Calls `f(path, geese after)` for each of the fox's captures: the points it lands on, in
    /// order, after its starting point, one capture for each different position it can end in
    /// (the first path found to it). A chain stops where the game ends.
    fn captures(&self, q: Parts, mut f: impl FnMut(&[u32], u64)) {
        let empty = q.empty();
        let jumps = &self.layout.jumps[q.fox as usize];
        if !jumps.iter().any(|&(over, to)| q.geese >> over & empty >> to & 1 == 1) {
            return;
        }
        let mut path = vec![q.fox];
        let mut seen = Vec::new();
        self.jump_on(q.geese, &mut path, &mut seen, &mut f);
    }

    fn jump_on(
        &self,
        geese: u64,
        path: &mut Vec<u32>,
        seen: &mut Vec<(u32, u64)>,
        f: &mut impl FnMut(&[u32], u64),
    ) {
        let at = *path.last().expect("the fox's point") as usize;
        for &(over, to) in &self.layout.jumps[at] {
            if geese >> over & 1 == 0 || geese >> to & 1 == 1 {
                continue;
            }
            let after = geese & !(1 << over);
            if seen.contains(&(to, after)) {
                continue;
            }
            seen.push((to, after));
            path.push(to);
            f(&path[1..], after);
            if after.count_ones() >= MIN_GEESE {
                self.jump_on(after, path, seen, f);
            }
            path.pop();
        }
    }

    fn has_move(&self, q: Parts) -> bool {
        let l = self.layout;
        let empty = q.empty();
        if q.fox_to_move {
            l.adjacent[q.fox as usize] & empty != 0
                || l.jumps[q.fox as usize]
                    .iter()
                    .any(|&(over, to)| q.geese >> over & 1 == 1 && empty >> to & 1 == 1)
        } else {
            board::bits(q.geese).any(|g| l.goose_steps[g] & empty != 0)
        }
    }

    /// The capture a move code names: its path and the geese after it.
    fn capture(&self, q: Parts, k: u32) -> Option<(Vec<u32>, u64)> {
        let mut found = None;
        let mut i = 0;
        self.captures(q, |path, geese| {
            if i == k {
                found = Some((path.to_vec(), geese));
            }
            i += 1;
        });
        found
    }

    fn name(&self, point: u32) -> &str {
        self.layout.board.name(point as usize)
    }

    fn mirrored(&self, q: Parts) -> Parts {
        let l = self.layout;
        Parts { geese: l.mirror_set(q.geese), fox: l.mirror[q.fox as usize] as u32, ..q }
    }

    /// Why a position cannot arise, if it cannot.
    fn illegal(&self, q: Parts) -> Option<String> {
        let count = q.geese.count_ones();
        if q.fox as usize >= N || q.geese >> q.fox & 1 == 1 {
            return Some("the fox stands on a free point".into());
        }
        if count > self.geese {
            return Some(format!("this game has {} geese", self.geese));
        }
        if count + 1 < MIN_GEESE || (count < MIN_GEESE && q.fox_to_move) {
            return Some(format!("the game ended when the fox left {} geese", MIN_GEESE - 1));
        }
        None
    }

    /// The position's points as rows of 3, 3, 7, 7, 7, 3 and 3 characters.
    fn rows(&self, q: Parts) -> String {
        Cross::rows_text(|p| {
            if p == q.fox as usize {
                'F'
            } else if q.geese >> p & 1 == 1 {
                'G'
            } else {
                '-'
            }
        })
    }
}

impl Game for FoxAndGeese {
    fn id(&self) -> &'static str {
        "foxandgeese"
    }
    fn name(&self) -> &'static str {
        "Fox and Geese"
    }
    fn variant(&self) -> String {
        self.variant.clone()
    }
    fn variant_description(&self) -> String {
        format!("{} geese against the fox, 002's selected rules", self.geese)
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::Large
    }
    fn start(&self) -> Position {
        Parts { geese: self.start_geese, fox: self.layout.point(FOX_START), fox_to_move: false }
            .code()
    }
    fn to_move(&self, p: Position) -> Player {
        if Parts::of(p).fox_to_move {
            Player::Second
        } else {
            Player::First
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        (q.geese.count_ones() < MIN_GEESE || !self.has_move(q)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let q = Parts::of(p);
        self.each_step(q, |from, to| out.push(Move(from << 6 | to)));
        if q.fox_to_move {
            let mut k = 0;
            self.captures(q, |_, _| {
                out.push(Move(CAPTURE | k));
                k += 1;
            });
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let q = Parts::of(p);
        let flip = Parts { fox_to_move: !q.fox_to_move, ..q };
        if mv.0 & CAPTURE != 0 {
            let (path, geese) = self.capture(q, mv.0 & !CAPTURE).unwrap_or((vec![q.fox], q.geese));
            return Parts { geese, fox: *path.last().unwrap_or(&q.fox), ..flip }.code();
        }
        let (from, to) = (mv.0 >> 6, mv.0 & 63);
        if q.fox_to_move {
            Parts { fox: to, ..flip }.code()
        } else {
            Parts { geese: q.geese & !(1 << from) | 1 << to, ..flip }.code()
        }
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.each_child(Parts::of(p), |child| out.push(child.code()));
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        format!("{} {}", self.rows(q), if q.fox_to_move { 'F' } else { 'G' })
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "7 rows of 3, 3, 7, 7, 7, 3 and 3 points from the top, joined by /, each - (empty), \
             G (goose) or F (the fox), then the player to move, G or F (e.g. the start: {})",
            self.position_to_string(self.start())
        );
        let t = text.trim();
        let (rows, turn) = t.rsplit_once(' ').ok_or_else(|| board::malformed(text, &expected))?;
        let fox_to_move = match turn {
            "G" | "g" => false,
            "F" | "f" => true,
            _ => return Err(board::malformed(text, &expected)),
        };
        let points = Cross::parse_rows(rows).ok_or_else(|| board::malformed(text, &expected))?;
        let (mut geese, mut foxes) = (0u64, Vec::new());
        for (p, ch) in points.into_iter().enumerate() {
            match ch {
                'G' | 'g' => geese |= 1 << p,
                'F' | 'f' => foxes.push(p as u32),
                '-' | '.' => {}
                _ => return Err(board::malformed(text, &expected)),
            }
        }
        let [fox] = foxes[..] else {
            return Err(board::illegal(text, "there is one fox"));
        };
        let q = Parts { geese, fox, fox_to_move };
        if let Some(why) = self.illegal(q) {
            return Err(board::illegal(text, &why));
        }
        if !self.tier_exists(q.geese.count_ones(), self.layout.row_sum(q.geese)) {
            return Err(board::illegal(text, "geese never move back up the board"));
        }
        Ok(q.code())
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let path = self.capture(q, mv.0 & !CAPTURE).map(|c| c.0).unwrap_or_default();
            let mut s = self.name(q.fox).to_string();
            path.iter().for_each(|&to| s += self.name(to));
            return s;
        }
        format!("{}{}", self.name(mv.0 >> 6), self.name(mv.0 & 63))
    }
    fn move_syntax(&self) -> String {
        "a move names its points, from where the piece stands to where it lands, points [a-g][1-7] \
         with row 1 at the top (e.g. d1d2; a capture lands two points away: d4d6, and a chain of \
         captures names each landing: d4d6f6)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let l = self.layout;
        let mut s = l.cross.grid_text(|p| match p {
            p if p == q.fox as usize => 'F',
            p if q.geese >> p & 1 == 1 => 'G',
            _ => '.',
        });
        s += &format!("geese: {}\n", q.geese.count_ones());
        s + if q.fox_to_move { "fox to move\n" } else { "geese to move\n" }
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["geese", "fox"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

impl FoxAndGeese {
    /// `128 * geese + 127 - the sum of their rows`: every move that leaves a tier lowers it.
    fn tier_of(geese: u32, sum: u32) -> Tier {
        Tier(geese * 128 + 127 - sum)
    }

    fn tier_parts(t: Tier) -> (u32, u32) {
        (t.0 / 128, 127 - t.0 % 128)
    }

    /// The sets of `geese` geese with row sum `sum` and the fox on one of its points up to the
    /// mirror: the indices of a tier for one side to move.
    fn half(&self, geese: u32, sum: u32) -> u64 {
        self.layout.offset(FOX_CLASSES, geese as usize, sum as usize)
    }

    /// Whether a game reaches the tier: geese from three (the end) to all of them, and while
    /// none is captured, no lower row sum than the start's.
    fn tier_exists(&self, geese: u32, sum: u32) -> bool {
        (MIN_GEESE - 1..=self.geese).contains(&geese)
            && (geese < self.geese || sum >= self.start_sum)
            && self.half(geese, sum) > 0
    }

    /// Every tier, children first: fewer geese first, then the higher row sums.
    fn all_tiers(&self) -> Vec<Tier> {
        let mut tiers = Vec::new();
        for geese in MIN_GEESE - 1..=self.geese {
            for sum in (0..SUMS as u32).rev() {
                if self.tier_exists(geese, sum) {
                    tiers.push(Self::tier_of(geese, sum));
                }
            }
        }
        tiers
    }

    /// A goose's step forward raises the row sum by one; a chain of `k` captures takes `k`
    /// geese and up to `6 k` from the sum.
    fn child_tiers_of(&self, t: Tier) -> Vec<Tier> {
        let (geese, sum) = Self::tier_parts(t);
        if geese < MIN_GEESE {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.tier_exists(geese, sum + 1) {
            out.push(Self::tier_of(geese, sum + 1));
        }
        for k in 1..=geese + 1 - MIN_GEESE {
            for taken in 0..=(6 * k).min(sum) {
                if self.tier_exists(geese - k, sum - taken) {
                    out.push(Self::tier_of(geese - k, sum - taken));
                }
            }
        }
        out
    }
}

impl Tiers for FoxAndGeese {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        Self::tier_of(q.geese.count_ones(), self.layout.row_sum(q.geese))
    }
    /// (geese, the sum of their rows counted from 0 at the top).
    fn tier_name(&self, t: Tier) -> String {
        let (geese, sum) = Self::tier_parts(t);
        format!("({geese},{sum})")
    }
}

/// A tier's index: the geese to move, then the fox (with three geese left, the geese only);
/// for each, the fox's points up to the mirror in reading order, and for each of them the
/// geese's sets with the tier's row sum ranked ([`Layout::rank`]). A fox in the middle column
/// gives both mirror images of the geese an index; the one that is not canonical is skipped.
impl TierIndex for FoxAndGeese {
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }
    fn canonical_tier(&self, t: Tier) -> Tier {
        t
    }
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        self.child_tiers_of(t)
    }
    /// A goose's step forward leaves the fox to move (the second half of the tier with one more
    /// in its row sum), a capture the geese (the first half of a tier with fewer geese).
    fn child_window(&self, t: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        let (geese, _) = Self::tier_parts(t);
        let (child_geese, child_sum) = Self::tier_parts(child);
        let half = self.half(child_geese, child_sum);
        Some(if child_geese == geese { half..2 * half } else { 0..half })
    }
    /// A tier is the same in every variant that has it: the tiers, their indices
    /// ([`Layout::shared`]) and the rules do not depend on the variant, and no move adds a goose.
    /// The variants with fewer geese than this one's start have its tiers with at most their own
    /// count (no set of that many geese has a lower row sum than their start, which packs the
    /// top rows), and the variants with more have all of them. The largest smaller variant
    /// first, then the larger ones, smallest first.
    fn variants_sharing(&self, t: Tier) -> Vec<String> {
        let (geese, _) = Self::tier_parts(t);
        let smaller = (geese.max(MIN_GEESE)..self.geese).rev();
        let larger = self.geese + 1..=MAX_GEESE as u32;
        smaller.chain(larger).map(|n| format!("{n}-geese")).collect()
    }
    fn moves_within(&self, t: Tier) -> bool {
        Self::tier_parts(t).0 >= MIN_GEESE
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (geese, sum) = Self::tier_parts(t);
        let sides = if geese >= MIN_GEESE { 2 } else { 1 };
        sides * self.half(geese, sum)
    }
    fn tier_index(&self, p: Position) -> u64 {
        let mut q = Parts::of(p);
        let l = self.layout;
        if l.class[q.fox as usize] == u8::MAX {
            q = self.mirrored(q);
        }
        let (k, t) = (q.geese.count_ones() as usize, l.row_sum(q.geese) as usize);
        let before = l.offset(usize::from(l.class[q.fox as usize]), k, t);
        let side = if q.fox_to_move { l.offset(FOX_CLASSES, k, t) } else { 0 };
        side + before + l.rank(q.fox as usize, q.geese)
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        let (geese, sum) = Self::tier_parts(tier);
        let half = self.half(geese, sum);
        let fox_to_move = index >= half;
        if fox_to_move && geese < MIN_GEESE {
            return None;
        }
        let rank = index % half.max(1);
        let (k, t) = (geese as usize, sum as usize);
        let l = self.layout;
        let j = (1..=FOX_CLASSES).find(|&j| rank < l.offset(j, k, t))? - 1;
        let fox = l.fox_points[j];
        let geese = l.unrank(fox as usize, k, t, rank - l.offset(j, k, t))?;
        let q = Parts { geese, fox, fox_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for FoxAndGeese {
    fn symmetry_count(&self) -> usize {
        2
    }
    fn canonical(&self, p: Position) -> Position {
        p.min(self.mirrored(Parts::of(p)).code())
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend([p, self.mirrored(Parts::of(p)).code()]);
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        None
    }
}

impl FoxAndGeese {
    /// Calls `f` with the position after each move (a capture's as [`FoxAndGeese::captures`]
    /// gives it).
    fn each_child(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let flip = Parts { fox_to_move: !q.fox_to_move, ..q };
        self.each_step(q, |from, to| {
            f(if q.fox_to_move {
                Parts { fox: to, ..flip }
            } else {
                Parts { geese: q.geese & !(1 << from) | 1 << to, ..flip }
            })
        });
        if q.fox_to_move {
            self.captures(q, |path, geese| f(Parts { geese, fox: path[path.len() - 1], ..flip }));
        }
    }

    /// Whether the position is the mirror image of its canonical form (not its own image): the
    /// fox right of the middle, or on it with the geese's image the lesser set.
    fn is_mirrored(&self, q: Parts) -> bool {
        let (l, fox) = (self.layout, q.fox as usize);
        l.class[fox] == u8::MAX || (l.mirror[fox] == fox && l.mirror_set(q.geese) < q.geese)
    }

    /// Each child's location ([`FoxAndGeese::locate_parts`]) with `flag` of the child.
    fn located_children(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64, bool)>,
        flag: impl Fn(Parts) -> bool,
    ) {
        out.clear();
        self.each_child(Parts::of(p), |child| {
            let (t, i) = self.locate_parts(child);
            out.push((t, i, flag(child)));
        });
    }

    /// The tier and index of a position's canonical form, in one step.
    fn locate_parts(&self, mut q: Parts) -> (Tier, u64) {
        let l = self.layout;
        let fox = q.fox as usize;
        if l.class[fox] == u8::MAX {
            q = self.mirrored(q);
        } else if l.mirror[fox] == fox {
            q.geese = q.geese.min(l.mirror_set(q.geese));
        }
        let (k, t) = (q.geese.count_ones(), l.row_sum(q.geese));
        let state = k as usize * SUMS + t as usize;
        let offset = |j: usize| l.offsets[j * STATES + state];
        let side = if q.fox_to_move { offset(FOX_CLASSES) } else { 0 };
        let index = side + offset(usize::from(l.class[q.fox as usize]));
        (Self::tier_of(k, t), index + l.rank_in(q.fox as usize, q.geese, state))
    }
}

impl FoxAndGeese {
    /// The locations of a position's children ([`FoxAndGeese::locate_parts`] of each, repeats
    /// kept): those of the geese's steps by [`StepRanks`] where the fox stands on its class's
    /// point, as in every position a tier's index gives.
    fn push_child_locations(&self, q: Parts, out: &mut Vec<(Tier, u64)>) {
        let l = self.layout;
        let fox = q.fox as usize;
        if q.fox_to_move || l.class[fox] == u8::MAX {
            self.each_child(q, |child| out.push(self.locate_parts(child)));
            return;
        }
        let (k, t) = (q.geese.count_ones(), l.row_sum(q.geese));
        let state = k as usize * SUMS + t as usize;
        let class = usize::from(l.class[fox]);
        let after = &l.after[fox * N * STATES..(fox + 1) * N * STATES];
        let term = |p: usize, state: usize| u64::from(after[p * STATES + state]);
        let ranks = StepRanks::new(q.geese, state, (SUMS, STATES), term);
        // On the middle column the child's canonical set is the lesser of it and its image.
        let images = (l.mirror[fox] == fox)
            .then(|| StepRanks::new(l.mirror_set(q.geese), state, (SUMS, STATES), term));
        let empty = q.empty();
        for from in board::bits(q.geese) {
            for to in board::bits(l.goose_steps[from] & empty) {
                let up = l.row[to] - l.row[from];
                let s = state + up as usize;
                let image = images.as_ref().filter(|m| {
                    m.set() ^ 1 << l.mirror[from] ^ 1 << l.mirror[to]
                        < q.geese ^ 1 << from ^ 1 << to
                });
                let rank = match image {
                    Some(m) => m.rank_after(l.mirror[from], l.mirror[to], SUMS, term),
                    None => ranks.rank_after(from, to, SUMS, term),
                };
                let index = l.offsets[FOX_CLASSES * STATES + s] + l.offsets[class * STATES + s];
                out.push((Self::tier_of(k, t + up), index + rank));
            }
        }
    }
}

/// The engine's hot paths in one step each: canonical form, tier and index together.
impl TierKernel for FoxAndGeese {
    /// One unranking, then each next set of geese from the one before ([`Layout::next_set`])
    /// until the fox's class or the side to move changes.
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let l = self.layout;
        let (geese, sum) = Self::tier_parts(t);
        let (k, s) = (geese as usize, sum as usize);
        let half = self.half(geese, sum);
        // The last position and the index where its fox's class ends.
        let mut last: Option<(Parts, u64)> = None;
        for (n, slot) in out.iter_mut().enumerate() {
            let index = first + n as u64;
            if let Some((q, end)) = last.filter(|&(_, end)| index < end) {
                if let Some(geese) = l.next_set(q.fox as usize, q.geese) {
                    let q = Parts { geese, ..q };
                    *slot = Some(q.code());
                    last = Some((q, end));
                    continue;
                }
            }
            *slot = self.tier_position(t, index);
            last = slot.map(|p| {
                let q = Parts::of(p);
                let side = if q.fox_to_move { half } else { 0 };
                (q, side + l.offset(usize::from(l.class[q.fox as usize]) + 1, k, s))
            });
        }
    }
    /// The fox on its class's point (as every index places it) and, on the middle column, the
    /// least of the geese's set and its mirror image.
    fn is_canonical_at(&self, _: Tier, _: u64, p: Position, _cache: &mut KernelCache) -> bool {
        let (q, l) = (Parts::of(p), self.layout);
        let fox = q.fox as usize;
        l.class[fox] != u8::MAX && (l.mirror[fox] != fox || q.geese <= l.mirror_set(q.geese))
    }
    fn locate(&self, p: Position, _cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p))
    }
    fn child_locations(&self, p: Position, out: &mut Vec<(Tier, u64)>, _cache: &mut KernelCache) {
        out.clear();
        self.push_child_locations(Parts::of(p), out);
        out.sort_unstable();
        out.dedup();
    }
    /// Children leaving the tier may repeat; those inside it repeat only as mirror images, so
    /// only where the position has some mirror symmetry are they sorted out.
    fn child_locations_unsorted(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64)>,
        _cache: &mut KernelCache,
    ) {
        out.clear();
        let (q, l) = (Parts::of(p), self.layout);
        self.push_child_locations(q, out);
        let images = if q.fox_to_move {
            l.mirror_set(q.geese) == q.geese
        } else {
            l.mirror[q.fox as usize] == q.fox as usize
        };
        if images {
            out.sort_unstable();
            out.dedup();
        }
    }
    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64, bool)>,
        _cache: &mut KernelCache,
    ) -> bool {
        self.located_children(p, out, |_| false);
        true
    }
    fn child_locations_mirrored(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64, bool)>,
        _cache: &mut KernelCache,
    ) -> bool {
        self.located_children(p, out, |child| self.is_mirrored(child));
        true
    }
    /// One image where the mirror keeps the position, else two.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(if self.mirrored(q) == q { 1 } else { 2 })
    }
    fn parent_indices(
        &self,
        tier: Tier,
        p: Position,
        out: &mut Vec<u64>,
        _cache: &mut KernelCache,
    ) {
        out.clear();
        self.each_parent(Parts::of(p), true, |parent| {
            let (t, i) = self.locate_parts(parent);
            if t == tier {
                out.push(i);
            }
        });
        out.sort_unstable();
        out.dedup();
    }
}

impl FoxAndGeese {
    /// Calls `f` with each position that has a move to `q`; with `same_tier`, only the steps
    /// that stay in its tier (a goose's sideways, the fox's).
    fn each_parent(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        let l = self.layout;
        let empty = q.empty();
        let parent = Parts { fox_to_move: !q.fox_to_move, ..q };
        if q.fox_to_move {
            for g in board::bits(q.geese) {
                for from in board::bits(l.adjacent[g] & empty) {
                    let back = l.goose_steps[from] >> g & 1 == 0;
                    if back || (same_tier && l.row[from] != l.row[g]) {
                        continue;
                    }
                    f(Parts { geese: q.geese & !(1 << g) | 1 << from, ..parent });
                }
            }
            return;
        }
        if q.geese.count_ones() >= MIN_GEESE {
            for from in board::bits(l.adjacent[q.fox as usize] & empty) {
                f(Parts { fox: from as u32, ..parent });
            }
        }
        if !same_tier {
            let mut seen = HashSet::new();
            self.jump_back(q.geese, q.fox, &mut seen, &mut f);
        }
    }

    /// The captures that end with the fox on `at` and `geese` left, undone one jump at a time:
    /// each jump back puts a goose on the point jumped over, and each is a parent.
    fn jump_back(
        &self,
        geese: u64,
        at: u32,
        seen: &mut HashSet<(u32, u64)>,
        f: &mut impl FnMut(Parts),
    ) {
        if geese.count_ones() >= self.geese {
            return;
        }
        for &(over, from) in &self.layout.jumps[at as usize] {
            if (geese | 1 << at) >> over & 1 == 1 || geese >> from & 1 == 1 {
                continue;
            }
            let before = geese | 1 << over;
            if !seen.insert((from, before)) {
                continue;
            }
            f(Parts { geese: before, fox: from, fox_to_move: true });
            self.jump_back(before, from, seen, f);
        }
    }
}

impl UndoMoves for FoxAndGeese {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), false, |r| {
            if self.tier_exists(r.geese.count_ones(), self.layout.row_sum(r.geese)) {
                out.push(r.code());
            }
        });
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), true, |r| out.push(r.code()));
    }
}

/// AutoGUI centers: the board's points.
impl ImageGui for FoxAndGeese {
    fn theme(&self) -> ImageAutoGui {
        let [fox, stop] = cross::fox_and_stop_entities();
        let entities = vec![
            fox,
            Entity {
                token: 'G',
                svg: r##"<circle r="0.36" fill="#f7f4ea" stroke="#555" stroke-width="0.05"/><path d="M-0.1,-0.02L0.2,0.04L-0.1,0.1Z" fill="#e69a1c"/>"##.into(),
            },
            stop,
        ];
        crate::themes::points_theme(&self.layout.board, entities)
    }
    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        autogui_position(self.to_move(p), self.rows(q).chars().filter(|&c| c != '/'))
    }
    /// A step is an arrow; a capture starts with the arrow of its first jump.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let to = self.capture(q, mv.0 & !CAPTURE).map_or(q.fox, |c| c.0[0]);
            return AutoGuiMove::Arrow { from: q.fox as usize, to: to as usize };
        }
        AutoGuiMove::Arrow { from: (mv.0 >> 6) as usize, to: (mv.0 & 63) as usize }
    }
    /// With 4 geese a capture ends the game, so no capture has a second part.
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        (self.geese > MIN_GEESE).then_some(self)
    }
}

impl MultipartMoves for FoxAndGeese {
    /// A capture is one arrow per jump (003 chapter 6); where the fox could jump on but stops, a
    /// last click on the fox ends the move. A single jump after which none could follow is one
    /// arrow, as a step is.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let q = Parts::of(p);
        let Some((path, geese)) =
            (mv.0 & CAPTURE != 0).then(|| self.capture(q, mv.0 & !CAPTURE)).flatten()
        else {
            return Vec::new();
        };
        let end = path[path.len() - 1];
        let after = Parts { geese, fox: end, fox_to_move: true };
        let mut could_go_on = false;
        if geese.count_ones() >= MIN_GEESE {
            self.captures(after, |_, _| could_go_on = true);
        }
        cross::chain_parts(q.fox as usize, &path, could_go_on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::GameExt;

    fn moves(game: &FoxAndGeese, text: &str) -> Vec<String> {
        let p = game.parse_position(text).unwrap();
        game.legal_moves(p).iter().map(|&m| game.move_to_string(p, m)).collect()
    }

    #[test]
    fn the_board_and_the_starts() {
        let l = Layout::shared();
        assert_eq!(l.board.len(), 33);
        // Every diagonal: the middle point has eight neighbors, an arm's end corner three.
        assert_eq!(l.adjacent[l.point("d4") as usize].count_ones(), 8);
        assert_eq!(l.adjacent[l.point("c1") as usize].count_ones(), 3);
        let game = FoxAndGeese::new("13-geese").unwrap();
        assert_eq!(
            game.position_to_string(game.start()),
            "GGG/GGG/GGGGGGG/---F---/-------/---/--- G"
        );
        let game = FoxAndGeese::new("15-geese").unwrap();
        assert_eq!(
            game.position_to_string(game.start()),
            "GGG/GGG/GGGGGGG/G--F--G/-------/---/--- G"
        );
        assert!(FoxAndGeese::new("3-geese").is_err() && FoxAndGeese::new("16-geese").is_err());
    }

    #[test]
    fn geese_never_step_back_and_the_fox_captures_in_chains() {
        let game = FoxAndGeese::new("9-geese").unwrap();
        // The goose on d3 goes sideways or forward, never back up to row 2.
        let mut m: Vec<String> = moves(&game, "GGG/---/---G---/-------/F------/---/--- G")
            .into_iter()
            .filter(|m| m.starts_with("d3"))
            .collect();
        m.sort();
        assert_eq!(m, ["d3c3", "d3c4", "d3d4", "d3e3", "d3e4"]);
        // The fox on d4 jumps over d5 to d6 and may go on over c5 to b4, or stop.
        let p = "GGG/---/-------/---F---/--GG---/---/--- F";
        let m = moves(&game, p);
        for capture in ["d4d6", "d4d6b4", "d4b6"] {
            assert_eq!(m.contains(&capture.to_string()), capture != "d4b6", "{capture}: {m:?}");
        }
        let p = game.parse_position(p).unwrap();
        let chain = game.parse_move(p, "d4d6b4").unwrap();
        assert_eq!(
            game.position_to_string(game.do_move(p, chain)),
            "GGG/---/-------/-F-----/-------/---/--- G"
        );
        // Three geese left: the game is over, and the fox has won.
        let over = game.do_move(p, chain);
        assert_eq!(game.primitive(over), Some(Value::Lose));
        let parts: Vec<String> =
            GameExt::move_parts(&game, p, chain).iter().map(ToString::to_string).collect();
        assert_eq!(parts, ["M_16_28_x", "M_28_14_x"]);
        let one = game.parse_move(p, "d4d6").unwrap();
        let parts: Vec<String> =
            GameExt::move_parts(&game, p, one).iter().map(ToString::to_string).collect();
        assert_eq!(parts, ["M_16_28_x", "A_s_28_x"], "the fox could jump on from d6");
        let mut children = Vec::new();
        game.children(p, &mut children);
        let mut from_moves: Vec<Position> =
            game.legal_moves(p).iter().map(|&m| game.do_move(p, m)).collect();
        children.sort();
        from_moves.sort();
        assert_eq!(children, from_moves);
    }

    /// A xorshift generator of test indices.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Every child outside its parent's tier lies in the window the parent's tier declares for
    /// that child tier, and both kinds of window occur: in every tier of 5 and 13 geese.
    #[test]
    fn children_outside_the_tier_lie_in_its_windows() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let (mut steps, mut captures) = (0, 0);
        for variant in ["5-geese", "13-geese"] {
            let game = FoxAndGeese::new(variant).unwrap();
            for tier in TierIndex::tiers(&game) {
                let size = TierIndex::tier_size(&game, tier);
                for _ in 0..300 {
                    let Some(p) = TierIndex::tier_position(&game, tier, next() % size) else {
                        continue;
                    };
                    if game.primitive(p).is_some() {
                        continue;
                    }
                    let mut located = Vec::new();
                    game.push_child_locations(Parts::of(p), &mut located);
                    for (child, index) in located.into_iter().filter(|&(c, _)| c != tier) {
                        let window = TierIndex::child_window(&game, tier, child).unwrap();
                        let child_size = TierIndex::tier_size(&game, child);
                        assert!(
                            window.contains(&index) && window.end <= child_size,
                            "{} -> tier {}, index {index}",
                            game.position_to_string(p),
                            Tiers::tier_name(&game, child)
                        );
                        let half = window.end - window.start;
                        assert!(2 * half == child_size || child.0 / 128 < MIN_GEESE);
                        if window.start > 0 {
                            steps += 1;
                        } else {
                            captures += 1;
                        }
                    }
                }
            }
        }
        assert!(steps > 10_000 && captures > 1_000, "{steps} steps, {captures} captures");
    }

    /// The geese's steps located term by term ([`StepRanks`]) land where locating each child
    /// afresh does, in every tier of 4, 9 and 15 geese.
    #[test]
    fn children_located_step_by_step_are_located_afresh() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let mut checked = 0;
        for variant in ["4-geese", "9-geese", "15-geese"] {
            let game = FoxAndGeese::new(variant).unwrap();
            for tier in TierIndex::tiers(&game) {
                let size = TierIndex::tier_size(&game, tier);
                for _ in 0..200 {
                    let Some(p) = TierIndex::tier_position(&game, tier, next() % size) else {
                        continue;
                    };
                    let q = Parts::of(p);
                    let mut fast = Vec::new();
                    game.push_child_locations(q, &mut fast);
                    let mut afresh = Vec::new();
                    game.each_child(q, |child| afresh.push(game.locate_parts(child)));
                    assert_eq!(fast, afresh, "{}", game.position_to_string(p));
                    checked += usize::from(!q.fox_to_move);
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions with the geese to move");
    }

    /// The memory a solve needs at its heaviest tier, counted from the tier sizes: the tier's own
    /// work at 5 bytes an index (the solver's estimate, four-byte queues included) and its child
    /// tiers at a byte an index, whole or by their
    /// windows ([`TierIndex::child_window`]) (a measurement, not a check).
    #[test]
    #[ignore]
    fn memory_at_the_heaviest_tier() {
        for geese in 11..=15 {
            let game = FoxAndGeese::new(&format!("{geese}-geese")).unwrap();
            let mut worst = [(0, Tier(0), 0); 2];
            for tier in TierIndex::tiers(&game) {
                let own = 5 * TierIndex::tier_size(&game, tier);
                let mut children = [0; 2];
                for child in TierIndex::child_tiers(&game, tier) {
                    children[0] += TierIndex::tier_size(&game, child);
                    let window = TierIndex::child_window(&game, tier, child).unwrap();
                    children[1] += window.end - window.start;
                }
                for k in 0..2 {
                    if own + children[k] > worst[k].0 {
                        worst[k] = (own + children[k], tier, children[k]);
                    }
                }
            }
            let gb = |b: u64| b as f64 / 1e9;
            println!(
                "{geese} geese: whole child tiers {:.2} GB at {} ({:.2} GB of children); \
                 windows {:.2} GB at {} ({:.2} GB of children)",
                gb(worst[0].0),
                Tiers::tier_name(&game, worst[0].1),
                gb(worst[0].2),
                gb(worst[1].0),
                Tiers::tier_name(&game, worst[1].1),
                gb(worst[1].2)
            );
            assert!(worst[1].0 < worst[0].0);
        }
    }

    /// Nanoseconds a position to locate the children of 2,000,000 positions of a large tier of
    /// 12 geese, each side to move, step by step and afresh (a measurement, not a check).
    #[test]
    #[ignore]
    fn child_location_speed() {
        let game = FoxAndGeese::new("12-geese").unwrap();
        let tier = FoxAndGeese::tier_of(12, 30);
        let size = TierIndex::tier_size(&game, tier);
        let mut positions = vec![None; 2_000_000];
        game.tier_positions(tier, size / 2 - 1_000_000, &mut positions);
        let positions: Vec<Parts> = positions.into_iter().flatten().map(Parts::of).collect();
        for round in 0..2 {
            for (fast, fox) in [(true, false), (false, false), (true, true), (false, true)] {
                let clock = std::time::Instant::now();
                let mut out = Vec::new();
                let mut total = 0u64;
                let side: Vec<Parts> =
                    positions.iter().copied().filter(|q| q.fox_to_move == fox).collect();
                for &q in &side {
                    out.clear();
                    if fast {
                        game.push_child_locations(q, &mut out);
                    } else {
                        game.each_child(q, |child| out.push(game.locate_parts(child)));
                    }
                    total += out.iter().map(|l| l.1).sum::<u64>();
                }
                let ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
                eprintln!(
                    "round {round}, fox to move {fox}, step by step {fast}: {ns:.1} ns a \
                     position ({} positions, {total})",
                    side.len()
                );
            }
        }
    }

    #[test]
    fn the_ends_of_the_game_and_positions_that_cannot_arise() {
        let game = FoxAndGeese::new("9-geese").unwrap();
        // The fox in the corner c1, every step and every landing taken: the geese have won.
        let trapped = game.parse_position("FGG/GG-/--G-G--/-------/-------/---/--- F").unwrap();
        assert_eq!(game.primitive(trapped), Some(Value::Lose));
        let free = game.parse_position("FGG/GG-/--G----/-------/-------/---/--- F").unwrap();
        assert_eq!(game.primitive(free), None, "the fox can jump over d2 to e3");
        let bad = [
            "GGG/---/-------/-------/-------/---/F-- F",
            "GGG/GGG/GGGGGGG/---F---/-------/---/--- G",
            "GGG/GGG/GGG----/---F---/-------/---/--- G F",
            "GGG/GGG/GGG----/---F---/-------/---/---/ G",
            "GGG/GGG/GGG----/---F---/------F/---/--- G",
            "GGG/GGG/GGG----/-------/-------/---/--- G",
            "GGG/GGG/GGG----/---F---/------/---/--- G",
        ];
        for bad in bad {
            assert!(game.parse_position(bad).is_err(), "{bad}");
        }
        let small = FoxAndGeese::new("4-geese").unwrap();
        assert!(small.parse_position("GGG/-G-/-------/---F---/-------/---/--- F").is_ok());
        assert!(small.parse_position("GGG/-G-/---G---/---F---/-------/---/--- F").is_err());
    }

    /// Every tier a variant says another shares is that variant's tier too, of the same size, with
    /// the same positions at its indices (a sample of each), and their children at the same places.
    /// Every other variant that has a tier is listed as sharing it (a larger one has every tier).
    #[test]
    fn a_tier_is_the_same_in_every_variant_that_has_it() {
        let mut draw = xorshift(0x9e37_79b9_7f4a_7c15);
        let all: Vec<FoxAndGeese> = (MIN_GEESE..=MAX_GEESE as u32)
            .map(|n| FoxAndGeese::new(&format!("{n}-geese")).unwrap())
            .collect();
        let tiers: Vec<Vec<Tier>> = all.iter().map(GameExt::tiers).collect();
        for fag in &all {
            let (game, n): (&dyn Game, _) = (fag, fag.geese);
            for t in game.tiers() {
                let variants = game.variants_sharing(t);
                // Every other variant that has the tier is listed.
                let having =
                    all.iter().zip(&tiers).filter(|(g, ts)| g.geese != n && ts.contains(&t));
                let mut expected: Vec<String> = having.map(|(g, _)| g.variant()).collect();
                let mut listed = variants.clone();
                expected.sort();
                listed.sort();
                assert_eq!(listed, expected, "{t:?} of {n}");
                for v in variants {
                    let other = FoxAndGeese::new(&v).unwrap();
                    crate::assert_tier_shared(game, &other, t, &mut draw, 4);
                }
            }
        }
    }
}
