//! The authoring kit's boards: points with names, coordinates, neighbors and lines; symmetry
//! tables generated from the geometry; set-bit iteration; cell strings and base-k codes; the
//! terminal drawing of a grid. A game builds its [`Board`] once and keeps the tables it needs.
//!
//! Cells are numbered in reading order (row by row from the top left) on grids, and named by
//! column letter and row number, row 1 at the top (`a1` is the top left corner).

use perfectplay_core::{ParseError, Position};

mod stacks;
pub use stacks::Stacks;

/// A board: points (cells) with names and coordinates, the lines between neighbors, and the
/// k-in-a-rows that games score.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns and rows of a grid; `(points, 1)` for other boards.
    pub cols: usize,
    /// See [`Board::cols`].
    pub rows: usize,
    names: Vec<String>,
    xy: Vec<(f64, f64)>,
    edges: Vec<(usize, usize)>,
    neighbors: Vec<Vec<usize>>,
}

/// The 8 maps of the square's symmetry group on coordinates centered on the board: `(x, y)` to
/// `(a*x + b*y, c*x + d*y)` for each `[a, b, c, d]`.
pub const SQUARE: [[f64; 4]; 8] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, -1.0, 1.0, 0.0],
    [-1.0, 0.0, 0.0, -1.0],
    [0.0, 1.0, -1.0, 0.0],
    [-1.0, 0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, -1.0],
    [0.0, 1.0, 1.0, 0.0],
    [0.0, -1.0, -1.0, 0.0],
];

/// The left-right mirror alone (with the identity): boards with gravity or a forward direction.
pub const MIRROR: [[f64; 4]; 2] = [[1.0, 0.0, 0.0, 1.0], [-1.0, 0.0, 0.0, 1.0]];

/// The `2n` rotations and reflections of a regular `n`-gon, as maps like [`SQUARE`]'s.
pub fn dihedral(n: usize) -> Vec<[f64; 4]> {
    let turn = |k: usize| {
        let a = std::f64::consts::TAU * k as f64 / n as f64;
        (a.cos(), a.sin())
    };
    let rotations = (0..n).map(|k| {
        let (c, s) = turn(k);
        [c, -s, s, c]
    });
    let reflections = (0..n).map(|k| {
        let (c, s) = turn(k);
        [c, s, s, -c]
    });
    rotations.chain(reflections).collect()
}

/// The column letter and row number of a grid cell (`a1` is the top left).
pub fn cell_name(cols: usize, cell: usize) -> String {
    format!("{}{}", (b'a' + (cell % cols) as u8) as char, cell / cols + 1)
}

impl Board {
    /// A grid of `cols` x `rows` cells, neighbors in the eight directions.
    pub fn grid(cols: usize, rows: usize) -> Board {
        let n = cols * rows;
        let xy: Vec<(f64, f64)> = (0..n).map(|c| ((c % cols) as f64, (c / cols) as f64)).collect();
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let (dx, dy) = (xy[b].0 - xy[a].0, xy[b].1 - xy[a].1);
                if dx.abs() <= 1.0 && dy.abs() <= 1.0 {
                    edges.push((a, b));
                }
            }
        }
        let names = (0..n).map(|c| cell_name(cols, c)).collect();
        Board::build(cols, rows, names, xy, edges)
    }

    /// A board of named points at coordinates, joined by `edges` (the lines pieces move along).
    pub fn graph(names: &[&str], xy: &[(f64, f64)], edges: &[(usize, usize)]) -> Board {
        let names = names.iter().map(|s| s.to_string()).collect();
        Board::build(xy.len(), 1, names, xy.to_vec(), edges.to_vec())
    }

    /// The same points with only the edges that `keep(a, b)` accepts (`a < b`): a grid with
    /// orthogonal steps only, or with some of its diagonals.
    pub fn keep_edges(&self, keep: impl Fn(usize, usize) -> bool) -> Board {
        let edges = self.edges.iter().copied().filter(|&(a, b)| keep(a, b)).collect();
        Board::build(self.cols, self.rows, self.names.clone(), self.xy.clone(), edges)
    }

    fn build(
        cols: usize,
        rows: usize,
        names: Vec<String>,
        xy: Vec<(f64, f64)>,
        edges: Vec<(usize, usize)>,
    ) -> Board {
        let mut neighbors = vec![Vec::new(); xy.len()];
        for &(a, b) in &edges {
            neighbors[a].push(b);
            neighbors[b].push(a);
        }
        neighbors.iter_mut().for_each(|n| n.sort_unstable());
        Board { cols, rows, names, xy, edges, neighbors }
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.xy.len()
    }

    /// Whether the board has no points.
    pub fn is_empty(&self) -> bool {
        self.xy.is_empty()
    }

    /// A point's name.
    pub fn name(&self, cell: usize) -> &str {
        &self.names[cell]
    }

    /// The point with this name (case-insensitive).
    pub fn cell(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name.trim()))
    }

    /// A point's coordinates.
    pub fn xy(&self, cell: usize) -> (f64, f64) {
        self.xy[cell]
    }

    /// The points joined to `cell`, ascending.
    pub fn neighbors(&self, cell: usize) -> &[usize] {
        &self.neighbors[cell]
    }

    /// The lines between neighbors.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// The grid cell `(x + dx, y + dy)` from `cell`, if on the board.
    pub fn step(&self, cell: usize, dx: i32, dy: i32) -> Option<usize> {
        let (x, y) = ((cell % self.cols) as i32 + dx, (cell / self.cols) as i32 + dy);
        let inside = (0..self.cols as i32).contains(&x) && (0..self.rows as i32).contains(&y);
        inside.then(|| y as usize * self.cols + x as usize)
    }

    /// Every `k` in a row of a grid: horizontal, vertical and both diagonals, as cell lists.
    pub fn lines(&self, k: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
            for start in 0..self.len() {
                let line: Vec<usize> =
                    (0..k as i32).map_while(|i| self.step(start, i * dx, i * dy)).collect();
                if line.len() == k {
                    out.push(line);
                }
            }
        }
        out
    }

    /// The symmetries among `maps` (about the board's center) that take every point to a point
    /// and every edge to an edge, as permutations: `perm[cell]` is the image of `cell`. The
    /// identity comes first when `maps` starts with it.
    pub fn symmetries(&self, maps: &[[f64; 4]]) -> Symmetries {
        let n = self.len() as f64;
        let cx = self.xy.iter().map(|p| p.0).sum::<f64>() / n;
        let cy = self.xy.iter().map(|p| p.1).sum::<f64>() / n;
        let find = |x: f64, y: f64| {
            self.xy.iter().position(|&(px, py)| (px - x).abs() < 1e-6 && (py - y).abs() < 1e-6)
        };
        let perms = maps
            .iter()
            .filter_map(|&[a, b, c, d]| {
                let perm: Option<Vec<u8>> = self
                    .xy
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = (x - cx, y - cy);
                        find(cx + a * x + b * y, cy + c * x + d * y).map(|i| i as u8)
                    })
                    .collect();
                perm.filter(|p| {
                    self.edges
                        .iter()
                        .all(|&(u, v)| self.neighbors[p[u] as usize].contains(&(p[v] as usize)))
                })
            })
            .collect();
        Symmetries { perms }
    }
}

/// A board on which `k` in a row wins: the board, its lines of `k` and its symmetries (what
/// Tic-Tac-Toe, Achi, Chung-Toi and Shift-Tac-Toe read).
#[derive(Clone, Debug)]
pub struct InARow {
    pub board: Board,
    pub lines: Vec<Vec<usize>>,
    pub symmetries: Symmetries,
}

impl InARow {
    /// The board's lines of `k` and the symmetries among `maps` that keep it.
    pub fn new(board: Board, k: usize, maps: &[[f64; 4]]) -> InARow {
        InARow { lines: board.lines(k), symmetries: board.symmetries(maps), board }
    }

    /// Whether every cell of some line is `owned`.
    pub fn has_line(&self, owned: impl Fn(usize) -> bool) -> bool {
        self.lines.iter().any(|line| line.iter().all(|&c| owned(c)))
    }
}

/// The places a piece covering several cells can take (an L, a domino), each a mask of cells: a
/// place's number from its mask, and its image under each of the board's symmetries.
#[derive(Clone, Debug)]
pub struct Placements {
    index: std::collections::HashMap<u64, usize>,
    /// Per symmetry, per place: the image place.
    images: Vec<Vec<usize>>,
}

impl Placements {
    /// The places `masks` (each mapped onto another by every symmetry), numbered in order.
    pub fn new(masks: &[u64], symmetries: &Symmetries) -> Placements {
        let index: std::collections::HashMap<u64, usize> =
            masks.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        let images = (0..symmetries.len())
            .map(|g| masks.iter().map(|&m| index[&symmetries.map_mask(g, m)]).collect())
            .collect();
        Placements { index, images }
    }

    /// The place whose cells are `mask`, if there is one.
    pub fn of(&self, mask: u64) -> Option<usize> {
        self.index.get(&mask).copied()
    }

    /// Place `place`'s image under symmetry `g`.
    pub fn image(&self, g: usize, place: usize) -> usize {
        self.images[g][place]
    }
}

/// The set of cells that hold `content`, as a mask.
pub fn cells_holding(cells: &[u8], content: u8) -> u64 {
    cells.iter().enumerate().filter(|&(_, &c)| c == content).fold(0, |m, (i, _)| m | 1 << i)
}

/// Cell permutations of a board's symmetries (see [`Board::symmetries`]).
#[derive(Clone, Debug)]
pub struct Symmetries {
    perms: Vec<Vec<u8>>,
}

impl Symmetries {
    /// The number of symmetries.
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    /// The image of `cell` under symmetry `g`.
    pub fn map(&self, g: usize, cell: usize) -> usize {
        self.perms[g][cell] as usize
    }

    /// The image of a set of cells (bit `c` for cell `c`) under symmetry `g`.
    pub fn map_mask(&self, g: usize, mask: u64) -> u64 {
        bits(mask).fold(0, |m, c| m | 1 << self.perms[g][c])
    }

    /// The image of per-cell contents under symmetry `g`.
    pub fn map_cells(&self, g: usize, cells: &[u8]) -> Vec<u8> {
        let mut out = vec![0; cells.len()];
        for (c, &v) in cells.iter().enumerate() {
            out[self.perms[g][c] as usize] = v;
        }
        out
    }

    /// The per-cell contents' images, encoded by `encode`, appended to `out`.
    pub fn images(
        &self,
        cells: &[u8],
        encode: impl Fn(&[u8]) -> Position,
        out: &mut Vec<Position>,
    ) {
        out.extend((0..self.len()).map(|g| encode(&self.map_cells(g, cells))));
    }

    /// The least encoded image of per-cell contents: the canonical form.
    pub fn least(&self, cells: &[u8], encode: impl Fn(&[u8]) -> Position) -> Position {
        (0..self.len()).map(|g| encode(&self.map_cells(g, cells))).min().expect("the identity")
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// Per-cell contents in base `base`, cell 0 the lowest digit.
pub fn pack(cells: &[u8], base: u64) -> u64 {
    cells.iter().rev().fold(0, |code, &c| code * base + u64::from(c))
}

/// The inverse of [`pack`] for `n` cells.
pub fn unpack(mut code: u64, n: usize, base: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            let c = (code % base) as u8;
            code /= base;
            c
        })
        .collect()
}

/// Per-cell contents as text: `-` for 0, else `alphabet`'s character for content 1, 2, ...
pub fn cells_to_string(cells: &[u8], alphabet: &str) -> String {
    let symbols: Vec<char> = std::iter::once('-').chain(alphabet.chars()).collect();
    cells.iter().map(|&c| symbols[c as usize]).collect()
}

/// Reads per-cell contents written by [`cells_to_string`] (`-`, `.` or `_` for empty; letters
/// case-insensitive), exactly `n` of them; `expected` describes the form for the error.
pub fn parse_cells(
    text: &str,
    n: usize,
    alphabet: &str,
    expected: &str,
) -> Result<Vec<u8>, ParseError> {
    let malformed = || malformed(text, expected);
    let t = text.trim();
    if t.chars().count() != n {
        return Err(malformed());
    }
    t.chars()
        .map(|ch| match ch {
            '-' | '.' | '_' => Some(0),
            _ => alphabet.chars().position(|a| a.eq_ignore_ascii_case(&ch)).map(|i| i as u8 + 1),
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(malformed)
}

/// Per-cell contents as rows of `cols` cells joined by `/` (`--x/-o-/x--`), the cells written as
/// [`cells_to_string`] writes them.
pub fn rows_to_string(cells: &[u8], cols: usize, alphabet: &str) -> String {
    let rows: Vec<String> = cells.chunks(cols).map(|row| cells_to_string(row, alphabet)).collect();
    rows.join("/")
}

/// Reads [`rows_to_string`]'s form: `n` cells in rows of `cols` joined by `/`.
pub fn parse_rows(
    text: &str,
    cols: usize,
    n: usize,
    alphabet: &str,
    expected: &str,
) -> Result<Vec<u8>, ParseError> {
    let t = text.trim();
    if t.split('/').any(|row| row.chars().count() != cols) {
        return Err(malformed(text, expected));
    }
    parse_cells(&t.replace('/', ""), n, alphabet, expected)
}

/// A grid's per-cell contents as one line: [`rows_to_string`], a space and the player to move as
/// `turn` (`o.o/ooo 2`). Boards of one row have no `/`.
pub fn grid_turn_to_string(cells: &[u8], cols: usize, alphabet: &str, turn: char) -> String {
    format!("{} {turn}", rows_to_string(cells, cols, alphabet))
}

/// Reads [`grid_turn_to_string`]'s form: `rows` rows of `cols` cells, then one of the characters
/// of `turns`, returned as its index; `expected` describes the form for the error.
pub fn parse_grid_turn(
    text: &str,
    cols: usize,
    rows: usize,
    alphabet: &str,
    turns: &str,
    expected: &str,
) -> Result<(Vec<u8>, usize), ParseError> {
    let (cells, turn) = text.trim().rsplit_once(' ').ok_or_else(|| malformed(text, expected))?;
    let mut turn_chars = turn.chars();
    let turn = match (turn_chars.next(), turn_chars.next()) {
        (Some(t), None) => turns.chars().position(|c| c.eq_ignore_ascii_case(&t)),
        _ => None,
    }
    .ok_or_else(|| malformed(text, expected))?;
    if cells.trim().split('/').count() != rows {
        return Err(malformed(text, expected));
    }
    Ok((parse_rows(cells, cols, rows * cols, alphabet, expected)?, turn))
}

/// Per-cell contents and the side to move as one line, without rows: [`grid_turn_to_string`] of
/// one row, the side given as its index in `sides`.
pub fn cells_turn_to_string(cells: &[u8], alphabet: &str, sides: &str, turn: usize) -> String {
    grid_turn_to_string(cells, cells.len().max(1), alphabet, sides.chars().nth(turn).unwrap_or('?'))
}

/// Reads what [`cells_turn_to_string`] writes: `n` cells, a space, and a character of `sides`
/// (case-insensitive); returns the cells and the side's index.
pub fn parse_cells_turn(
    text: &str,
    n: usize,
    alphabet: &str,
    sides: &str,
    expected: &str,
) -> Result<(Vec<u8>, usize), ParseError> {
    parse_grid_turn(text, n, 1, alphabet, sides, expected)
}

/// A malformed position's error: `expected` describes the form.
pub fn malformed(text: &str, expected: &str) -> ParseError {
    ParseError::Malformed {
        what: "position",
        text: text.to_string(),
        expected: expected.to_string(),
    }
}

/// An illegal position's error.
pub fn illegal(text: &str, reason: &str) -> ParseError {
    ParseError::IllegalPosition { text: text.to_string(), reason: reason.to_string() }
}

/// A grid drawn for the terminal: column letters above, row numbers on the left, one symbol per
/// cell from `symbol(cell)`.
pub fn grid_text(cols: usize, rows: usize, symbol: impl Fn(usize) -> char) -> String {
    let mut s: String = "   ".into();
    s.extend((0..cols).flat_map(|x| [' ', (b'a' + x as u8) as char]));
    s.push('\n');
    for y in 0..rows {
        s.push_str(&format!("{:>2} ", y + 1));
        s.extend((0..cols).flat_map(|x| [' ', symbol(y * cols + x)]));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_slots_mirrors_and_drops_follow_the_columns() {
        let mut random = perfectplay_core::xorshift(0xc0de);
        for (cols, rows) in [(4, 4), (5, 4), (4, 6), (6, 4), (7, 6), (8, 7), (4, 9), (2, 20)] {
            let stacks = Stacks::new(cols, rows);
            for _ in 0..2_000 {
                let mut key = stacks.empty();
                for _ in 0..random() % (cols * rows + 1) as u64 {
                    let open: Vec<usize> =
                        (0..cols).filter(|&x| stacks.height(key, x) < rows).collect();
                    let x = open[(random() % open.len() as u64) as usize];
                    key = stacks.drop(key, x, random() & 1 == 1);
                }
                let heights: usize = (0..cols).map(|x| stacks.height(key, x)).sum();
                assert_eq!(stacks.pieces(key), heights, "{cols}x{rows}: {key:#x}");
                let slots = (0..cols)
                    .flat_map(|x| (0..stacks.height(key, x)).map(move |h| (x, h)))
                    .fold(0, |m, (x, h)| m | stacks.slot(x, h));
                assert_eq!(stacks.occupied(key), slots, "{cols}x{rows}: {key:#x}");
                let mirror = (0..cols).fold(0, |m, x| {
                    m | (key >> (x * (rows + 1)) & ((1 << (rows + 1)) - 1))
                        << ((cols - 1 - x) * (rows + 1))
                });
                assert_eq!(stacks.mirrored(key), mirror, "{cols}x{rows}: {key:#x}");
                let first = random() & 1 == 1;
                let drops: Vec<u64> = (0..cols)
                    .filter(|&x| stacks.height(key, x) < rows)
                    .map(|x| stacks.drop(key, x, first))
                    .collect();
                assert_eq!(stacks.drops(key, first).collect::<Vec<_>>(), drops, "{key:#x}");
            }
        }
    }

    #[test]
    fn tromps_four_in_a_line_test_agrees_with_the_lines_of_the_grid() {
        let mut random = perfectplay_core::xorshift(0x5eed);
        for (cols, rows) in [(4, 4), (5, 4), (4, 6), (5, 5), (6, 4), (6, 5), (5, 6), (7, 6)] {
            let stacks = Stacks::new(cols, rows);
            let lines = stacks.masks(&Board::grid(cols, rows).lines(4));
            let slots = (0..cols * rows).fold(0, |m, c| m | stacks.cell_slot(c));
            let (mut with, mut without) = (0, 0);
            for i in 0..20_000 {
                // Half the samples on half the slots (most hold a line), half on a quarter.
                let stones = if i % 2 == 0 { random() } else { random() & random() } & slots;
                let expected = lines.iter().any(|&l| l & !stones == 0);
                assert_eq!(stacks.has_four(stones), expected, "{cols}x{rows}: {stones:#x}");
                *if expected { &mut with } else { &mut without } += 1;
            }
            assert!(with > 1000 && without > 1000, "{cols}x{rows}: {with} with, {without} without");
        }
    }

    #[test]
    fn grids_have_the_square_and_rectangle_groups() {
        assert_eq!(Board::grid(3, 3).symmetries(&SQUARE).len(), 8);
        assert_eq!(Board::grid(4, 3).symmetries(&SQUARE).len(), 4);
        assert_eq!(Board::grid(4, 3).symmetries(&MIRROR).len(), 2);
        let s = Board::grid(3, 3).symmetries(&SQUARE);
        assert_eq!((0..9).map(|c| s.map(0, c)).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
        // A quarter turn moves the top left corner to another corner.
        assert!([2, 6, 8].contains(&s.map(1, 0)));
    }

    #[test]
    fn an_octagon_with_its_center_has_sixteen_symmetries() {
        let mut xy: Vec<(f64, f64)> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 8.0;
                (a.cos(), a.sin())
            })
            .collect();
        xy.push((0.0, 0.0));
        let names: Vec<String> = (0..9).map(|i| i.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let edges: Vec<(usize, usize)> = (0..8).flat_map(|k| [(k, (k + 1) % 8), (k, 8)]).collect();
        assert_eq!(Board::graph(&names, &xy, &edges).symmetries(&dihedral(8)).len(), 16);
    }

    #[test]
    fn lines_codes_and_text() {
        let b = Board::grid(3, 3);
        assert_eq!(b.lines(3).len(), 8);
        let orthogonal = b.keep_edges(|a, c| a % 3 == c % 3 || a / 3 == c / 3);
        assert_eq!((orthogonal.edges().len(), orthogonal.neighbors(4)), (12, &[1, 3, 5, 7][..]));
        assert_eq!(Board::grid(7, 6).lines(4).len(), 69);
        assert_eq!(b.cell("B2"), Some(4));
        assert_eq!(b.name(5), "c2");
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        let cells = vec![0, 1, 2, 1, 0, 0, 2, 0, 1];
        assert_eq!(unpack(pack(&cells, 3), 9, 3), cells);
        assert_eq!(parse_cells(&cells_to_string(&cells, "xo"), 9, "xo", "").unwrap(), cells);
        assert!(parse_cells("xo", 9, "xo", "").is_err());
        assert_eq!(rows_to_string(&cells, 3, "xo"), "-xo/x--/o-x");
        assert_eq!(parse_rows("-xo/x--/o-x", 3, 9, "xo", "").unwrap(), cells);
        assert!(parse_rows("-xo/x---/o-", 3, 9, "xo", "").is_err());
        assert_eq!(grid_text(2, 1, |c| ['x', 'o'][c]), "    a b\n 1  x o\n");
        let text = grid_turn_to_string(&cells, 3, "xo", '2');
        assert_eq!(text, "-xo/x--/o-x 2");
        assert_eq!(parse_grid_turn(&text, 3, 3, "xo", "12", "").unwrap(), (cells.clone(), 1));
        for bad in
            ["xo-/x--/o-x", "xo-/x--/o-x 3", "xo-/x--o-x 2", "xo-/x--/o-xx 1", "xo-/x--/o-x 12"]
        {
            assert!(parse_grid_turn(bad, 3, 3, "xo", "12", "").is_err(), "{bad}");
        }
        let text = cells_turn_to_string(&cells, "xo", "xo", 1);
        assert_eq!(text, "-xox--o-x o");
        assert_eq!(parse_cells_turn(&text, 9, "xo", "xo", "").unwrap(), (cells, 1));
        assert!(parse_cells_turn("-xox--o-x", 9, "xo", "xo", "").is_err());
        assert!(parse_cells_turn("-xox--o-x oo", 9, "xo", "xo", "").is_err());
    }

    #[test]
    fn stacks_drop_lift_and_read_back() {
        let s = Stacks::new(3, 2);
        let k = s.drop(s.drop(s.drop(s.empty(), 0, true), 0, false), 2, true);
        assert_eq!(s.to_text(k, "xo"), "o--/x-x");
        assert_eq!(s.parse_text("o--/x-x", "xo", ""), Ok(k));
        assert!(s.parse_text("x--/--x", "xo", "").is_err());
        assert_eq!(s.lift(k, 0), (s.drop(s.drop(s.empty(), 0, true), 2, true), false));
        assert_eq!(s.to_text(s.permuted(k, &[2, 1, 0]), "xo"), "--o/x-x");
        assert_eq!(s.occupied(k).count_ones(), 3);
    }
}
