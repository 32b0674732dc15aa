//! The Morris boards: points, lines, mills and symmetries of the nine-, six- and three-men's
//! boards, built once and shared by every variant on them.

use std::sync::{Arc, OnceLock};

use perfectplay_core::SetClasses;

use super::Kind;
use crate::board::{self, Board};

/// Groups of names separated by commas, each group's names by spaces: `"a7 d7 g7, b6 d6 f6"`.
fn groups(text: &str) -> Vec<Vec<&str>> {
    text.split(',')
        .map(|g| g.split_whitespace().collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect()
}

/// A board's fixed data, shared by every variant on it.
#[derive(Debug)]
pub(super) struct Layout {
    pub(super) board: Board,
    /// Per point, its neighbors as a bit mask.
    pub(super) adjacent: Vec<u32>,
    /// The mills as bit masks.
    pub(super) mills: Vec<u32>,
    /// Per point, the mills through it.
    pub(super) mills_at: Vec<Vec<u32>>,
    pub(super) classes: SetClasses,
}

impl Layout {
    /// A board from its points (`"a7 0 0, d7 3 0"`: a name and its coordinates on a grid, y
    /// down) and its lines of three (mills, `"a7 d7 g7, ..."`); `joins` are lines of two
    /// (neighbors that form no mill); `swap` exchanges the inner and outer squares where the
    /// board has that symmetry (pairs of points; empty where it has not).
    fn new(points: &str, mills: &str, joins: &str, swap: &str, max_pieces: usize) -> Layout {
        let points = groups(points);
        let names: Vec<&str> = points.iter().map(|p| p[0]).collect();
        let coordinate = |c: &str| c.parse::<f64>().expect("a coordinate");
        let xy: Vec<(f64, f64)> =
            points.iter().map(|p| (coordinate(p[1]), coordinate(p[2]))).collect();
        let at = |name: &str| names.iter().position(|&n| n == name).expect("a point of the board");
        let (mills, joins) = (groups(mills), groups(joins));
        let mut edges = Vec::new();
        for m in &mills {
            edges.push((at(m[0]), at(m[1])));
            edges.push((at(m[1]), at(m[2])));
        }
        edges.extend(joins.iter().map(|j| (at(j[0]), at(j[1]))));
        let edges: Vec<(usize, usize)> =
            edges.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
        let board = Board::graph(&names, &xy, &edges);
        let n = board.len();
        let adjacent =
            (0..n).map(|c| board.neighbors(c).iter().fold(0u32, |m, &d| m | 1 << d)).collect();
        let mill_masks: Vec<u32> =
            mills.iter().map(|m| m.iter().fold(0u32, |s, &p| s | 1 << at(p))).collect();
        let mills_at = (0..n)
            .map(|c| mill_masks.iter().copied().filter(|m| m >> c & 1 == 1).collect())
            .collect();
        // The square's symmetries, each also composed with the exchange of the squares.
        let square = board.symmetries(&board::SQUARE);
        let mut perms: Vec<Vec<usize>> =
            (0..square.len()).map(|g| (0..n).map(|c| square.map(g, c)).collect()).collect();
        let pairs = groups(swap);
        if !pairs.is_empty() {
            let mut s: Vec<usize> = (0..n).collect();
            for pair in &pairs {
                let (a, b) = (at(pair[0]), at(pair[1]));
                (s[a], s[b]) = (b, a);
            }
            let swapped: Vec<Vec<usize>> =
                perms.iter().map(|p| (0..n).map(|c| p[s[c]]).collect()).collect();
            perms.extend(swapped);
        }
        let classes = SetClasses::new(n, perms, max_pieces).expect("the board's symmetries");
        Layout { board, adjacent, mills: mill_masks, mills_at, classes }
    }

    fn nine() -> Layout {
        let points = "a7 0 0, d7 3 0, g7 6 0, b6 1 1, d6 3 1, f6 5 1, c5 2 2, d5 3 2, e5 4 2, \
                      a4 0 3, b4 1 3, c4 2 3, e4 4 3, f4 5 3, g4 6 3, c3 2 4, d3 3 4, e3 4 4, \
                      b2 1 5, d2 3 5, f2 5 5, a1 0 6, d1 3 6, g1 6 6";
        let mills = "a7 d7 g7, b6 d6 f6, c5 d5 e5, a4 b4 c4, e4 f4 g4, c3 d3 e3, b2 d2 f2, \
                     a1 d1 g1, a7 a4 a1, b6 b4 b2, c5 c4 c3, d7 d6 d5, d3 d2 d1, e5 e4 e3, \
                     f6 f4 f2, g7 g4 g1";
        let swap = "a7 c5, d7 d5, g7 e5, a4 c4, g4 e4, a1 c3, d1 d3, g1 e3";
        Layout::new(points, mills, "", swap, 9)
    }

    fn six() -> Layout {
        let points = "a5 0 0, c5 2 0, e5 4 0, b4 1 1, c4 2 1, d4 3 1, a3 0 2, b3 1 2, d3 3 2, \
                      e3 4 2, b2 1 3, c2 2 3, d2 3 3, a1 0 4, c1 2 4, e1 4 4";
        let mills = "a5 c5 e5, b4 c4 d4, b2 c2 d2, a1 c1 e1, a5 a3 a1, b4 b3 b2, d4 d3 d2, \
                     e5 e3 e1";
        let swap = "a5 b4, c5 c4, e5 d4, a3 b3, e3 d3, a1 b2, c1 c2, e1 d2";
        Layout::new(points, mills, "c5 c4, c2 c1, a3 b3, d3 e3", swap, 6)
    }

    fn three(diagonals: bool) -> Layout {
        let points = "a3 0 0, b3 1 0, c3 2 0, a2 0 1, b2 1 1, c2 2 1, a1 0 2, b1 1 2, c1 2 2";
        let rows = "a3 b3 c3, a2 b2 c2, a1 b1 c1, a3 a2 a1, b3 b2 b1, c3 c2 c1";
        let mills = if diagonals { format!("{rows}, a3 b2 c1, c3 b2 a1") } else { rows.into() };
        Layout::new(points, &mills, "", "", 3)
    }

    pub(super) fn shared(kind: Kind, diagonals: bool) -> Arc<Layout> {
        static NINE: OnceLock<Arc<Layout>> = OnceLock::new();
        static SIX: OnceLock<Arc<Layout>> = OnceLock::new();
        static THREE: OnceLock<Arc<Layout>> = OnceLock::new();
        static THREE_PLAIN: OnceLock<Arc<Layout>> = OnceLock::new();
        match (kind, diagonals) {
            (Kind::Nine, _) => NINE.get_or_init(|| Arc::new(Layout::nine())).clone(),
            (Kind::Six, _) => SIX.get_or_init(|| Arc::new(Layout::six())).clone(),
            (Kind::Three, true) => THREE.get_or_init(|| Arc::new(Layout::three(true))).clone(),
            (Kind::Three, false) => {
                THREE_PLAIN.get_or_init(|| Arc::new(Layout::three(false))).clone()
            }
        }
    }
}
