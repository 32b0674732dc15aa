//! The cross-board family: what Fox and Geese and Fuchs und Henne share. The board of 33 points
//! (002, Figure 2.1: a 7x7 square without its four 2x2 corners) with its names (column a to g,
//! row 1 at the top), rows and mirror image; a position's text and drawing; the fox's chains of
//! jumps ([`jumps`]); the tiers by pieces and row sum ([`tiers`]); the index below the tier, sets
//! of pieces ranked beside the foxes ([`sets`]), and those ranks kept step by step ([`steps`]).
//! Each game is a layer of its own rules over these.

use std::sync::OnceLock;

use perfectplay_core::autogui::autogui_position;
use perfectplay_core::{AutoGuiMove, Entity, ImageAutoGui, ParseError, Player};

use crate::board::{self, Board};

pub(crate) mod jumps;
pub(crate) mod sets;
mod steps;
pub(crate) mod tiers;

pub(crate) use steps::StepRanks;

/// Points on the board.
pub(crate) const N: usize = 33;
/// Points per row, top to bottom.
pub(crate) const ROW_LENGTHS: [usize; 7] = [3, 3, 7, 7, 7, 3, 3];

/// A game's lines over the board ([`Cross::lines`]).
pub(crate) struct Lines {
    pub board: Board,
    /// Per point: its neighbours along the lines, as a mask.
    pub adjacent: [u64; N],
    /// Per point: its forward steps, as a mask.
    pub forward: [u64; N],
    /// Per point: the points a forward step to it may come from, as a mask.
    pub forward_from: [u64; N],
    /// Per point: the (point jumped over, landing point) pairs along lines.
    pub jumps: jumps::JumpTable,
}

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

    /// The point a name (`d4`) names; panics on a name of no point (the games' own constants).
    pub fn point(&self, name: &str) -> usize {
        self.names.iter().position(|n| n == name).expect("a point of the board")
    }

    /// The point at column `x` and row `y`, if the board has one there.
    pub fn point_at(&self, x: i32, y: i32) -> Option<usize> {
        ((0..7).contains(&x) && (0..7).contains(&y)).then(|| self.at[(y * 7 + x) as usize])?
    }

    /// A game's lines over the board, followed from every point in the eight directions (in
    /// reading order) where `along(point's column and row, direction)`: per point, its neighbours
    /// along them, its forward steps (the directions where `forward(direction)`) and where a
    /// forward step to it may have come from, as masks; the (point jumped over, landing point)
    /// pairs; and the board drawn with them.
    pub fn lines(
        &self,
        along: impl Fn((i32, i32), (i32, i32)) -> bool,
        forward: impl Fn((i32, i32)) -> bool,
    ) -> Lines {
        let (mut adjacent, mut forward_steps, mut forward_from) = ([0; N], [0; N], [0; N]);
        let mut jumps = vec![Vec::new(); N];
        let mut edges = Vec::new();
        for (p, &(x, y)) in self.xy.iter().enumerate() {
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                if !along((x, y), (dx, dy)) {
                    continue;
                }
                let Some(q) = self.point_at(x + dx, y + dy) else { continue };
                adjacent[p] |= 1 << q;
                if forward((dx, dy)) {
                    forward_steps[p] |= 1 << q;
                    forward_from[q] |= 1 << p;
                }
                if p < q {
                    edges.push((p, q));
                }
                if let Some(to) = self.point_at(x + 2 * dx, y + 2 * dy) {
                    jumps[p].push((q as u32, to as u32));
                }
            }
        }
        let board = self.board(&edges);
        Lines { board, adjacent, forward: forward_steps, forward_from, jumps }
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

    /// A position's rows ([`Cross::rows_text`]): `F` on the foxes' points, `piece` on the set's
    /// and `-` on the others.
    pub fn pieces_text(foxes: u64, set: u64, piece: char) -> String {
        Self::rows_text(|p| Self::piece_at(foxes, set, piece, p).unwrap_or('-'))
    }

    /// The set and the foxes' points (in reading order) of a position's rows written as
    /// [`Cross::pieces_text`] writes them (either case, `.` for `-` too); `None` where they are
    /// not such rows.
    pub fn parse_pieces(rows: &str, piece: char) -> Option<(u64, Vec<u8>)> {
        let (mut set, mut foxes) = (0u64, Vec::new());
        for (p, ch) in Self::parse_rows(rows)?.into_iter().enumerate() {
            match ch.to_ascii_uppercase() {
                c if c == piece => set |= 1 << p,
                'F' => foxes.push(p as u8),
                '-' | '.' => {}
                _ => return None,
            }
        }
        Some((set, foxes))
    }

    /// A position's text as both games write it, its rows ([`Cross::parse_pieces`]) and after a
    /// space the side to move: the set, the foxes' points and the turn's word upper-cased; else
    /// malformed, saying what was `expected`.
    pub fn parse_text(
        text: &str,
        piece: char,
        expected: &str,
    ) -> Result<(u64, Vec<u8>, String), ParseError> {
        let malformed = || board::malformed(text, expected);
        let (rows, turn) = text.trim().rsplit_once(' ').ok_or_else(malformed)?;
        let (set, foxes) = Self::parse_pieces(rows, piece).ok_or_else(malformed)?;
        Ok((set, foxes, turn.to_ascii_uppercase()))
    }

    /// The board drawn ([`Cross::grid_text`]): `F` on the foxes' points, `piece` on the set's,
    /// `:` on the `marked` points left and `.` on the others.
    pub fn pieces_grid(&self, foxes: u64, set: u64, piece: char, marked: u64) -> String {
        self.grid_text(|p| {
            Self::piece_at(foxes, set, piece, p).unwrap_or(if marked >> p & 1 == 1 {
                ':'
            } else {
                '.'
            })
        })
    }

    fn piece_at(foxes: u64, set: u64, piece: char, p: usize) -> Option<char> {
        if foxes >> p & 1 == 1 {
            Some('F')
        } else if set >> p & 1 == 1 {
            Some(piece)
        } else {
            None
        }
    }
}

/// A cross-board game's theme over its board: the fox's picture (`F`), the game's own pieces
/// (token and picture), and the mark a capture that could jump on ends with (`s`).
pub(crate) fn theme(board: &Board, own: &[(char, &str)]) -> ImageAutoGui {
    let fox = Entity {
        token: 'F',
        svg: r##"<circle r="0.44" fill="#c8562a" stroke="#4a1a08" stroke-width="0.05"/><path d="M-0.28,-0.3L-0.14,-0.02L0,-0.14L0.14,-0.02L0.28,-0.3" stroke="#2a0c02" stroke-width="0.07" fill="none" stroke-linejoin="round"/>"##.into(),
    };
    let stop = Entity {
        token: 's',
        svg: r##"<circle r="0.2" fill="#2e7d32" stroke="#fff" stroke-width="0.05"/>"##.into(),
    };
    let own = own.iter().map(|&(token, svg)| Entity { token, svg: svg.into() });
    let entities = std::iter::once(fox).chain(own).chain(std::iter::once(stop)).collect();
    crate::themes::points_theme(board, entities)
}

/// A parsed position's last checks: why it cannot arise (`illegal`), else whether the game
/// reaches the tier of its set of `pieces` (geese or hens, which never move back up the board):
/// `exists` says whether a tier (the set's count and row sum) does.
pub(crate) fn check_parsed(
    text: &str,
    illegal: Option<String>,
    (set, pieces): (u64, &str),
    exists: impl Fn(u32, u32) -> bool,
) -> Result<(), ParseError> {
    if let Some(why) = illegal {
        return Err(board::illegal(text, &why));
    }
    if !exists(set.count_ones(), Cross::shared().row_sum(set)) {
        return Err(board::illegal(text, &format!("{pieces} never move back up the board")));
    }
    Ok(())
}

/// A capture's text: the names of the point it starts from and of each point it lands on.
pub(crate) fn chain_text(board: &Board, from: u32, path: &[u32]) -> String {
    let mut s = board.name(from as usize).to_string();
    path.iter().for_each(|&to| s += board.name(to as usize));
    s
}

/// A position's AutoGUI string from its rows' text ([`Cross::rows_text`]).
pub(crate) fn autogui_rows(to_move: Player, rows: &str) -> String {
    autogui_position(to_move, rows.chars().filter(|&c| c != '/'))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_points_rows_and_mirror() {
        let c = Cross::shared();
        let b = c.board(&[]);
        assert_eq!((b.len(), b.name(0), b.name(32)), (33, "c1", "e7"));
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
