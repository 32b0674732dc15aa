//! Columns that pieces drop into, kept in one code (Connect 4, Toot and Otto): slots, heights,
//! drops, the mirror image, four in a line.

use super::*;

/// Columns that pieces drop into (Connect 4, Toot and Otto) kept in one code, John Tromp's: column
/// `x` takes bits `x * (rows + 1)` up, bit `h` its slot `h` from the bottom, and holds its pieces'
/// bits (one bit of content per piece: whose, or which letter) under a 1 that marks its height.
/// Slots and the grid's cells (row 1 at the top, see [`Board::grid`]) convert both ways.
#[derive(Clone, Debug)]
pub struct Stacks {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// For [`Stacks::pieces`]: per shift `s` of 1, 2, 4, the bits of each column below its top
    /// `s` bits (0 where `s` is the column's width or more).
    below: [u64; 3],
    /// Each column's top slot.
    tops: u64,
    /// For [`Stacks::mirrored`]: runs of whole columns of at most [`MIRROR_BITS`] bits, each with
    /// its shift, its mask and the mirror image of every content it may hold (none where a
    /// column is wider).
    mirror_runs: Vec<(u32, u64, Vec<u64>)>,
}

/// The most bits of a run of columns mirrored by one table (8 KiB of table for Connect 4 6x4's
/// runs of two columns).
const MIRROR_BITS: usize = 12;

impl Stacks {
    /// `cols` columns of `rows` slots; `cols * (rows + 1)` must be at most 64.
    pub fn new(cols: usize, rows: usize) -> Stacks {
        assert!(cols * (rows + 1) <= 64, "stacks fit in 64 bits");
        let width = rows + 1;
        let below = [1, 2, 4].map(|s: usize| {
            let column = (1u64 << width.saturating_sub(s)) - 1;
            (0..cols).fold(0, |m, x| m | column << (x * width))
        });
        let tops = (0..cols).fold(0, |m, x| m | 1 << (x * width + rows));
        let mut stacks = Stacks { cols, rows, below, tops, mirror_runs: Vec::new() };
        let per_run = MIRROR_BITS / width;
        if per_run > 0 {
            stacks.mirror_runs = (0..cols)
                .step_by(per_run)
                .map(|first| {
                    let run = first..(first + per_run).min(cols);
                    let shift = first * width;
                    let bits = run.len() * width;
                    let table = (0..1u64 << bits)
                        .map(|content| stacks.mirrored_by_columns(content << shift))
                        .collect();
                    (shift as u32, (1 << bits) - 1, table)
                })
                .collect();
        }
        stacks
    }

    /// The left-right mirror (after the identity) as maps of columns, from the grid's geometry.
    pub fn mirror_maps(&self) -> Vec<Vec<usize>> {
        let s = Board::grid(self.cols, self.rows).symmetries(&MIRROR);
        (0..s.len()).map(|g| (0..self.cols).map(|x| s.map(g, x)).collect()).collect()
    }

    /// The slot bit of column `x`, height `h` (0 at the bottom).
    pub fn slot(&self, x: usize, h: usize) -> u64 {
        1 << (x * (self.rows + 1) + h)
    }

    /// The slot bit of a grid cell.
    pub fn cell_slot(&self, cell: usize) -> u64 {
        self.slot(cell % self.cols, self.rows - 1 - cell / self.cols)
    }

    /// The code of empty columns.
    pub fn empty(&self) -> u64 {
        (0..self.cols).fold(0, |k, x| k | self.slot(x, 0))
    }

    /// Column `x`'s bits with its marker.
    fn field(&self, key: u64, x: usize) -> u64 {
        key >> (x * (self.rows + 1)) & ((1 << (self.rows + 1)) - 1)
    }

    /// The number of pieces in column `x`.
    pub fn height(&self, key: u64, x: usize) -> usize {
        63 - self.field(key, x).leading_zeros() as usize
    }

    /// The number of pieces: each column's marker smeared down over the bits below it (a shift
    /// kept inside the columns), every column then `height + 1` ones.
    pub fn pieces(&self, key: u64) -> usize {
        if self.rows + 1 > 8 {
            // Three shifts smear over at most seven bits.
            return (0..self.cols).map(|x| self.height(key, x)).sum();
        }
        self.smeared(key).count_ones() as usize - self.cols
    }

    /// Each column's marker smeared down over the bits below it (columns of at most 8 bits).
    fn smeared(&self, key: u64) -> u64 {
        let mut smeared = key;
        for (shift, below) in [1, 2, 4].into_iter().zip(self.below) {
            smeared |= smeared >> shift & below;
        }
        smeared
    }

    /// The code mirrored left to right: column `x` goes to `cols - 1 - x`.
    pub fn mirrored(&self, key: u64) -> u64 {
        if self.mirror_runs.is_empty() {
            return self.mirrored_by_columns(key);
        }
        self.mirror_runs
            .iter()
            .fold(0, |m, (shift, mask, table)| m | table[(key >> shift & mask) as usize])
    }

    /// [`Stacks::mirrored`] a column at a time.
    fn mirrored_by_columns(&self, key: u64) -> u64 {
        let width = self.rows + 1;
        (0..self.cols).fold(0, |k, x| k | self.field(key, x) << ((self.cols - 1 - x) * width))
    }

    /// Whether `stones` (slot bits, none in a column's top marker slot) hold four in a line:
    /// John Tromp's test, a shift a direction (one slot up, one column over, and the two
    /// diagonals), the empty marker slot above each column keeping lines from wrapping.
    pub fn has_four(&self, stones: u64) -> bool {
        let width = self.rows as u32 + 1;
        [1, width, width - 1, width + 1].into_iter().any(|d| {
            let pairs = stones & stones >> d;
            pairs & pairs >> (2 * d) != 0
        })
    }

    /// The occupied slots.
    pub fn occupied(&self, key: u64) -> u64 {
        if self.rows + 1 > 8 {
            return (0..self.cols)
                .fold(0, |m, x| m | (self.slot(x, self.height(key, x)) - self.slot(x, 0)));
        }
        // The smeared ones one slot down, less each column's top slot: the marker is gone.
        self.smeared(key) >> 1 & self.below[0]
    }

    /// The codes after dropping a piece with content bit `bit` into each column that is not full,
    /// leftmost first.
    pub fn drops(&self, key: u64, bit: bool) -> impl Iterator<Item = u64> {
        let open = if self.rows + 1 > 8 {
            (0..self.cols)
                .filter(|&x| self.height(key, x) < self.rows)
                .fold(0, |m, x| m | self.slot(x, self.height(key, x)))
        } else {
            // Each column's marker is its lowest empty slot.
            let smeared = self.smeared(key);
            (smeared ^ smeared >> 1 & self.below[0]) & !self.tops
        };
        bits(open).map(move |b| key + if bit { 2 << b } else { 1 << b })
    }

    /// The code after dropping a piece with content bit `bit` into column `x` (not full).
    pub fn drop(&self, key: u64, x: usize, bit: bool) -> u64 {
        let s = self.slot(x, self.height(key, x));
        key + if bit { 2 * s } else { s }
    }

    /// The code without column `x`'s top piece (not empty), and that piece's content bit.
    pub fn lift(&self, key: u64, x: usize) -> (u64, bool) {
        let s = self.slot(x, self.height(key, x) - 1);
        let bit = key & s != 0;
        (key - if bit { 2 * s } else { s }, bit)
    }

    /// The code with the columns permuted: column `x` goes to `map[x]`.
    pub fn permuted(&self, key: u64, map: &[usize]) -> u64 {
        (0..self.cols).fold(0, |k, x| k | self.field(key, x) << (map[x] * (self.rows + 1)))
    }

    /// Per grid cell: 0 empty, 1 a piece with content bit 1, 2 one with bit 0.
    pub fn cells(&self, key: u64) -> Vec<u8> {
        let occupied = self.occupied(key);
        (0..self.cols * self.rows)
            .map(|c| {
                let s = self.cell_slot(c);
                if occupied & s == 0 {
                    0
                } else if key & s != 0 {
                    1
                } else {
                    2
                }
            })
            .collect()
    }

    /// The code of per-cell contents as [`Stacks::cells`] gives them, if no piece floats above
    /// an empty slot.
    pub fn from_cells(&self, cells: &[u8]) -> Option<u64> {
        let mut key = self.empty();
        for h in 0..self.rows {
            for x in 0..self.cols {
                let content = cells[(self.rows - 1 - h) * self.cols + x];
                if content != 0 {
                    if self.height(key, x) != h {
                        return None;
                    }
                    key = self.drop(key, x, content == 1);
                }
            }
        }
        Some(key)
    }

    /// Lines of grid cells as masks of slots.
    pub fn masks(&self, lines: &[Vec<usize>]) -> Vec<u64> {
        lines.iter().map(|l| l.iter().fold(0, |m, &c| m | self.cell_slot(c))).collect()
    }

    /// The cells as rows from the top joined by `/`, `alphabet` as in [`cells_to_string`].
    pub fn to_text(&self, key: u64, alphabet: &str) -> String {
        let text = cells_to_string(&self.cells(key), alphabet);
        let rows: Vec<&str> = (0..self.rows).map(|y| &text[y * self.cols..][..self.cols]).collect();
        rows.join("/")
    }

    /// Reads [`Stacks::to_text`]'s form; `expected` describes it for the error.
    pub fn parse_text(
        &self,
        text: &str,
        alphabet: &str,
        expected: &str,
    ) -> Result<u64, ParseError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != self.rows || rows.iter().any(|r| r.chars().count() != self.cols) {
            return Err(ParseError::Malformed {
                what: "position",
                text: text.into(),
                expected: expected.into(),
            });
        }
        let cells = parse_cells(&rows.concat(), self.cols * self.rows, alphabet, expected)?;
        self.from_cells(&cells).ok_or_else(|| illegal(text, "a piece floats above an empty slot"))
    }
}
