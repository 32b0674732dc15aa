//! The cross board of 33 points that Fox and Geese and Fuchs und Henne share (002, Figure 2.1: a
//! 7x7 square without its four 2x2 corners): its points and their names (column a to g, row 1 at
//! the top), rows, mirror image, the rows of a position's text, and the ranking of sets of pieces
//! by row sum one step at a time.

use std::sync::OnceLock;

use perfectplay_core::{AutoGuiMove, Entity};

use crate::board::{self, Board};

/// Points on the board.
pub(crate) const N: usize = 33;
/// Points per row, top to bottom.
pub(crate) const ROW_LENGTHS: [usize; 7] = [3, 3, 7, 7, 7, 3, 3];
/// Most pieces of a set ranked by [`StepRanks`].
const MAX_SET: usize = 20;

/// The points of the board.
#[derive(Debug)]
pub(crate) struct Cross {
    /// Per point in reading order: its column and row, from 0 at the top left.
    pub xy: [(i32, i32); N],
    names: Vec<String>,
    /// Per point: its row, 0 at the top.
    pub row: [u32; N],
    /// Per point: its mirror image (left to right).
    pub mirror: [usize; N],
    /// Per row: its points, as a mask.
    row_mask: [u64; 7],
    /// Per byte of a set and its value: the byte's points mirrored, as a mask.
    mirror_bytes: Vec<[u64; 256]>,
    /// Per grid cell (7x7, reading order): its point, or `None` off the board.
    at: [Option<usize>; 49],
}

impl Cross {
    pub fn shared() -> &'static Cross {
        static CROSS: OnceLock<Cross> = OnceLock::new();
        CROSS.get_or_init(Cross::new)
    }

    fn new() -> Cross {
        let on = |x: i32, y: i32| (2..=4).contains(&x) || (2..=4).contains(&y);
        let mut c = Cross {
            xy: [(0, 0); N],
            names: Vec::new(),
            row: [0; N],
            mirror: [0; N],
            row_mask: [0; 7],
            mirror_bytes: Vec::new(),
            at: [None; 49],
        };
        for (y, x) in (0..7).flat_map(|y| (0..7).map(move |x| (y, x))).filter(|&(y, x)| on(x, y)) {
            let p = c.names.len();
            c.at[(y * 7 + x) as usize] = Some(p);
            c.names.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
            c.xy[p] = (x, y);
            c.row[p] = y as u32;
            c.row_mask[y as usize] |= 1 << p;
        }
        for p in 0..N {
            let (x, y) = c.xy[p];
            c.mirror[p] = c.point_at(6 - x, y).expect("the board is symmetric");
        }
        c.mirror_bytes = (0..N.div_ceil(8))
            .map(|b| {
                let mut table = [0u64; 256];
                for (v, image) in table.iter_mut().enumerate() {
                    for bit in (0..8).filter(|&i| v >> i & 1 == 1 && 8 * b + i < N) {
                        *image |= 1 << c.mirror[8 * b + bit];
                    }
                }
                table
            })
            .collect();
        c
    }

    /// The point at column `x` and row `y`, if the board has one there.
    pub fn point_at(&self, x: i32, y: i32) -> Option<usize> {
        ((0..7).contains(&x) && (0..7).contains(&y)).then(|| self.at[(y * 7 + x) as usize])?
    }

    /// The board with these lines between points.
    pub fn board(&self, edges: &[(usize, usize)]) -> Board {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let xy: Vec<(f64, f64)> =
            self.xy.iter().map(|&(x, y)| (f64::from(x), f64::from(y))).collect();
        Board::graph(&names, &xy, edges)
    }

    /// A set of points mirrored.
    pub fn mirror_set(&self, set: u64) -> u64 {
        self.mirror_bytes
            .iter()
            .enumerate()
            .fold(0, |m, (b, table)| m | table[(set >> (8 * b) & 255) as usize])
    }

    /// The sum of a set's rows.
    pub fn row_sum(&self, set: u64) -> u32 {
        (1..7).map(|r| r as u32 * (set & self.row_mask[r]).count_ones()).sum()
    }

    /// The rows of a position's text: each point's character, rows of 3, 3, 7, 7, 7, 3 and 3
    /// joined by `/`.
    pub fn rows_text(piece: impl Fn(usize) -> char) -> String {
        let mut s = String::new();
        let mut p = 0;
        for (r, &len) in ROW_LENGTHS.iter().enumerate() {
            if r > 0 {
                s.push('/');
            }
            for _ in 0..len {
                s.push(piece(p));
                p += 1;
            }
        }
        s
    }

    /// Each point's character in rows written as [`Cross::rows_text`] writes them; `None` where
    /// the rows do not have those lengths.
    pub fn parse_rows(rows: &str) -> Option<Vec<char>> {
        let rows: Vec<&str> = rows.trim().split('/').collect();
        let lengths: Vec<usize> = rows.iter().map(|r| r.chars().count()).collect();
        (lengths == ROW_LENGTHS).then(|| rows.concat().chars().collect())
    }

    /// The board drawn on its 7x7 grid, `piece(p)` on each point.
    pub fn grid_text(&self, piece: impl Fn(usize) -> char) -> String {
        board::grid_text(7, 7, |cell| self.at[cell].map_or(' ', &piece))
    }
}

/// The fox's picture (`F`), and the mark a capture that could jump on ends with (`s`).
pub(crate) fn fox_and_stop_entities() -> [Entity; 2] {
    [
        Entity {
            token: 'F',
            svg: r##"<circle r="0.44" fill="#c8562a" stroke="#4a1a08" stroke-width="0.05"/><path d="M-0.28,-0.3L-0.14,-0.02L0,-0.14L0.14,-0.02L0.28,-0.3" stroke="#2a0c02" stroke-width="0.07" fill="none" stroke-linejoin="round"/>"##.into(),
        },
        Entity {
            token: 's',
            svg: r##"<circle r="0.2" fill="#2e7d32" stroke="#fff" stroke-width="0.05"/>"##.into(),
        },
    ]
}

/// A fox's chain of jumps from `start` as move parts (003 chapter 6): one arrow per jump, and
/// where the fox could jump on but stops, a last click on the point it stops on. A single jump
/// after which none could follow has no parts (it is one arrow, as a step is).
pub(crate) fn chain_parts(start: usize, path: &[u32], could_go_on: bool) -> Vec<AutoGuiMove> {
    if path.len() == 1 && !could_go_on {
        return Vec::new();
    }
    let mut from = start;
    let mut parts: Vec<AutoGuiMove> = path
        .iter()
        .map(|&to| {
            let arrow = AutoGuiMove::Arrow { from, to: to as usize };
            from = to as usize;
            arrow
        })
        .collect();
    if could_go_on {
        parts.push(AutoGuiMove::Token { token: 's', at: from });
    }
    parts
}

/// A set of pieces' rank term by term, so that the rank of each set one piece's step away takes a
/// load or a few instead of one a piece. The rank sums one term per piece: the sets after its
/// point whose count and row sum, with its own, make its state (`k * sums + t`, the pieces from
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
    /// term, and a state beyond `states` has none.
    pub fn new(
        set: u64,
        mut state: usize,
        (sums, states): (usize, usize),
        term: impl Fn(usize, usize) -> u64,
    ) -> StepRanks {
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
            let forward = if state + 1 < states { term(p, state + 1) } else { 0 };
            r.before_forward[j + 1] = r.before_forward[j] + forward;
            state -= sums + cross.row[p] as usize;
        }
        r
    }

    /// The set ranked.
    pub fn set(&self) -> u64 {
        self.set
    }

    /// The rank of the set with the piece on `from` moved to `to`, a step sideways in its row or
    /// to a later row (straight or diagonally); `term` as for [`StepRanks::new`].
    pub fn rank_after(
        &self,
        from: usize,
        to: usize,
        sums: usize,
        term: impl Fn(usize, usize) -> u64,
    ) -> u64 {
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
        let gain = sums + row[to] as usize;
        let mut rank = self.before_forward[m] + self.before[k] - self.before[e];
        for j in m + 1..e {
            rank += term(usize::from(self.points[j]), usize::from(self.states[j]) + gain);
        }
        rank + term(to, usize::from(self.states[e]) + gain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_points_rows_and_mirror() {
        let c = Cross::shared();
        let b = c.board(&[]);
        assert_eq!((b.name(0), b.name(32)), ("c1", "e7"));
        assert_eq!(c.point_at(3, 3).map(|p| b.name(p)), Some("d4"));
        assert_eq!((c.point_at(0, 0), c.point_at(7, 3)), (None, None));
        assert_eq!(c.mirror[0], 2);
        assert_eq!(c.mirror_set(1 << 0 | 1 << 6), 1 << 2 | 1 << 12);
        assert_eq!(c.row_sum(1 << 0 | 1 << 6 | 1 << 32), 2 + 6);
        let text = Cross::rows_text(|p| if p % 2 == 0 { 'x' } else { '-' });
        assert_eq!(text, "x-x/-x-/x-x-x-x/-x-x-x-/x-x-x-x/-x-/x-x");
        let parsed = Cross::parse_rows(&text).unwrap();
        assert_eq!(parsed.len(), N);
        assert!(Cross::parse_rows("xxx/xxx").is_none());
    }
}
