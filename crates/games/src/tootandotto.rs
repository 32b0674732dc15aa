//! Toot and Otto (003 Appendix A; Image AutoGUI 003 section 5.5.12): a Connect-4 board of 6
//! columns and 4 rows; a turn drops a T or an O of one's own supply (6 of each) into a column that
//! is not full. The first player (TOOT) wins when TOOT appears in four cells in a row
//! (horizontal, vertical or diagonal, either way: the words read the same backwards), the second
//! (OTTO) when OTTO does, whoever placed the letters; both words at once, or a full board without
//! either, is a tie. The pieces' owners never matter, so the board holds letters only.
//!
//! Variants: `regular` (6x4, 6 T and 6 O each) and smaller boards `WxH` (columns x rows, 4 to 6
//! each, at most 24 cells, the cells a multiple of 4) where each player has `W * H / 4` of each
//! letter, so that, as in the regular game, the supplies fill the board exactly. `4x4` is Small;
//! `4x5` and `5x4` (14 and 37 million positions) solve in 18 and 45 s here. `regular` is Large
//! and not listed: a column more multiplied the positions by 32 from 4x4 to 5x4, which puts 6x4
//! near 1.2 billion (0.6 billion canonical), some 20 minutes and 15 GB or more to solve here.
//!
//! Position code: the letters in the kit's [`Stacks`] (content bit 1 for T), then from bit 48 the
//! T's the first player has placed (4 bits) and from bit 52 the second's; the O's placed follow
//! from the player's moves, which follow from the number of pieces. Tier: the empty cells.
//! Symmetry: the left-right mirror.

use crate::prelude::*;

use crate::themes::{self, CELL};

const COUNTS: u32 = 48;
const SIZES: &str = "regular (6x4) | WxH (columns x rows, 4 to 6 each, at most 24 cells, cells a \
                     multiple of 4: 4x4, 5x4, 4x5, 4x6)";

/// Toot and Otto on a `cols` x `rows` board.
#[derive(Clone, Debug)]
pub struct TootAndOtto {
    stacks: Stacks,
    /// The four-in-a-rows: their end cells and their middle cells, as slot masks.
    lines: Vec<(u64, u64)>,
    column_maps: Vec<Vec<usize>>,
    /// Each letter's supply per player.
    supply: u32,
}

impl TootAndOtto {
    /// The game on `cols` columns and `rows` rows.
    pub fn new(cols: usize, rows: usize) -> Result<TootAndOtto, String> {
        let sizes = (4..=6).contains(&cols) && (4..=6).contains(&rows);
        if !sizes || cols * rows > 24 || (cols * rows) & 3 != 0 {
            return Err(SIZES.into());
        }
        let board = Board::grid(cols, rows);
        let stacks = Stacks::new(cols, rows);
        let lines = board
            .lines(4)
            .iter()
            .map(|l| {
                let slots = |a: usize, b: usize| stacks.cell_slot(l[a]) | stacks.cell_slot(l[b]);
                (slots(0, 3), slots(1, 2))
            })
            .collect();
        Ok(TootAndOtto {
            column_maps: stacks.mirror_maps(),
            stacks,
            lines,
            supply: (cols * rows / 4) as u32,
        })
    }

    /// A variant by name.
    pub fn from_variant(v: &str) -> Result<TootAndOtto, String> {
        if v == "regular" {
            return TootAndOtto::new(6, 4);
        }
        let (w, h) = v.split_once('x').ok_or(SIZES)?;
        match (w.parse(), h.parse()) {
            (Ok(6), Ok(4)) | (Err(_), _) | (_, Err(_)) => Err(SIZES.into()),
            (Ok(w), Ok(h)) => TootAndOtto::new(w, h),
        }
    }

    fn board(&self, p: Position) -> u64 {
        p.0 & ((1 << COUNTS) - 1)
    }
    fn pieces(&self, p: Position) -> u32 {
        self.stacks.occupied(self.board(p)).count_ones()
    }
    /// T's placed by player `i` (0 first).
    fn ts(&self, p: Position, i: usize) -> u32 {
        (p.0 >> (COUNTS + 4 * i as u32) & 15) as u32
    }
    /// Moves made by player `i`.
    fn made(&self, p: Position, i: usize) -> u32 {
        (self.pieces(p) + 1 - i as u32) / 2
    }
    /// Player `i`'s T's and O's left.
    fn left(&self, p: Position, i: usize) -> (u32, u32) {
        let t = self.ts(p, i);
        (self.supply - t, self.supply + t - self.made(p, i))
    }
    fn mover(&self, p: Position) -> usize {
        (self.pieces(p) & 1) as usize
    }
    /// Whether TOOT and whether OTTO are on the board.
    fn words(&self, p: Position) -> (bool, bool) {
        let board = self.board(p);
        let occupied = self.stacks.occupied(board);
        let t = board & occupied;
        // A full line spells TOOT if its ends are T and its middle O, OTTO the other way.
        let spells = |ts: fn(&(u64, u64)) -> u64| {
            self.lines.iter().any(|l| (l.0 | l.1) & !occupied == 0 && (l.0 | l.1) & t == ts(l))
        };
        (spells(|l| l.0), spells(|l| l.1))
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = TootAndOtto::from_variant, "tootandotto.rs",
        "tootandotto", "Toot and Otto";
    default "4x4"; syntax "regular (6x4) | WxH (columns x rows, 4 to 6 each, at most 24 cells, \
        a multiple of 4; W*H/4 of each letter per player)";
    listed &["4x4", "4x5", "5x4"]; also &["regular", "4x6"]
}

impl Game for TootAndOtto {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        match (self.stacks.cols, self.stacks.rows) {
            (6, 4) => "regular".into(),
            (w, h) => format!("{w}x{h}"),
        }
    }
    fn variant_description(&self) -> String {
        format!(
            "{} columns of {} slots, {} T's and {} O's each",
            self.stacks.cols, self.stacks.rows, self.supply, self.supply
        )
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.stacks.cols * self.stacks.rows <= 16)
    }
    fn start(&self) -> Position {
        Position(self.stacks.empty())
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(self.mover(p))
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (toot, otto) = self.words(p);
        let mine = if self.mover(p) == 0 { toot } else { otto };
        match (toot && otto, toot || otto) {
            (true, _) => Some(Value::Tie),
            (_, true) => Some(if mine { Value::Win } else { Value::Lose }),
            _ => (self.tier(p) == Tier(0)).then_some(Value::Tie),
        }
    }
    /// Move `2 * column` drops a T, `2 * column + 1` an O.
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (t, o) = self.left(p, self.mover(p));
        for x in (0..self.stacks.cols as u32)
            .filter(|&x| self.stacks.height(p.0, x as usize) < self.stacks.rows)
        {
            out.extend(
                [(t, 2 * x), (o, 2 * x + 1)].into_iter().filter(|e| e.0 > 0).map(|e| Move(e.1)),
            );
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let t = mv.0 & 1 == 0;
        let counts =
            p.0 - self.board(p) + if t { 1 << (COUNTS + 4 * self.mover(p) as u32) } else { 0 };
        Position(counts | self.stacks.drop(self.board(p), mv.0 as usize / 2, t))
    }
    fn position_to_string(&self, p: Position) -> String {
        let [(t1, o1), (t2, o2)] = [self.left(p, 0), self.left(p, 1)];
        format!("{} t{t1}o{o1} t{t2}o{o2}", self.stacks.to_text(self.board(p), "to"))
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{} rows of {} cells from the top separated by '/', each t, o or -, then the letters \
             TOOT (first player) and OTTO have left, e.g. {}",
            self.stacks.rows,
            self.stacks.cols,
            self.position_to_string(self.start())
        );
        let malformed = || board::malformed(text, &expected);
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [cells, first, second] = parts[..] else { return Err(malformed()) };
        let board = self.stacks.parse_text(cells, "to", &expected)?;
        let count = |s: &str| -> Option<(u32, u32)> {
            let (t, o) = s.strip_prefix('t')?.split_once('o')?;
            Some((
                t.parse().ok().filter(|&n| n <= self.supply)?,
                o.parse().ok().filter(|&n| n <= self.supply)?,
            ))
        };
        let (Some((t1, o1)), Some((t2, o2))) = (count(first), count(second)) else {
            return Err(malformed());
        };
        let p = Position(board);
        let placed = [2 * self.supply - t1 - o1, 2 * self.supply - t2 - o2];
        if placed != [self.made(p, 0), self.made(p, 1)] {
            return Err(board::illegal(text, "TOOT has placed as many pieces as OTTO or one more"));
        }
        let occupied = self.stacks.occupied(board);
        if (board & occupied).count_ones() != 2 * self.supply - t1 - t2 {
            return Err(board::illegal(text, "the T's on the board are those the players placed"));
        }
        let counts =
            u64::from(self.supply - t1) << COUNTS | u64::from(self.supply - t2) << (COUNTS + 4);
        Ok(Position(board | counts))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        format!("{}{}", ['t', 'o'][mv.0 as usize & 1], (b'a' + (mv.0 / 2) as u8) as char)
    }
    fn move_syntax(&self) -> String {
        format!(
            "[t|o][a-{}] (the letter, then the column)",
            (b'a' + self.stacks.cols as u8 - 1) as char
        )
    }
    fn board_text(&self, p: Position) -> String {
        let c = self.stacks.cells(self.board(p));
        let [(t1, o1), (t2, o2)] = [self.left(p, 0), self.left(p, 1)];
        let grid = board::grid_text(self.stacks.cols, self.stacks.rows, |i| {
            ['.', 'T', 'O'][c[i] as usize]
        });
        format!("{grid}TOOT has {t1} T and {o1} O left; OTTO has {t2} T and {o2} O left\n")
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["TOOT", "OTTO"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, undo, gui);
}

impl Tiers for TootAndOtto {
    /// A tier is the number of empty cells.
    fn tier(&self, p: Position) -> Tier {
        Tier((self.stacks.cols * self.stacks.rows) as u32 - self.pieces(p))
    }
}

impl Symmetry for TootAndOtto {
    fn symmetry_count(&self) -> usize {
        self.column_maps.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let counts = p.0 - self.board(p);
        out.extend(
            self.column_maps
                .iter()
                .map(|m| Position(counts | self.stacks.permuted(self.board(p), m))),
        );
    }
}

impl UndoMoves for TootAndOtto {
    /// The last mover's letter on top of a column goes back to their supply.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let last = 1 - self.mover(p);
        let (ts, made) = (self.ts(p, last), self.made(p, last));
        for x in (0..self.stacks.cols).filter(|&x| self.stacks.height(p.0, x) > 0) {
            let (board, t) = self.stacks.lift(self.board(p), x);
            if (t && ts == 0) || (!t && made == ts) {
                continue;
            }
            let counts = p.0 - self.board(p) - if t { 1 << (COUNTS + 4 * last as u32) } else { 0 };
            let parent = Position(counts | board);
            if self.primitive(parent).is_none() {
                out.push(parent);
            }
        }
    }
}

/// The AutoGUI: the frame under two rows of buttons, a T and an O above each column (003 Figure
/// 5.30's custom T and O buttons), and at the sides the letters each player has left (TOOT's on
/// the left, OTTO's on the right, level with the T and O buttons).
impl ImageGui for TootAndOtto {
    fn theme(&self) -> ImageAutoGui {
        let (w, h) = (self.stacks.cols, self.stacks.rows);
        let mut centers = themes::shifted(grid_centers(w, h, CELL), CELL, 2.0 * CELL);
        for band in [0.5, 1.5] {
            centers.extend((0..w).map(|x| ((x as f64 + 1.5) * CELL, band * CELL)));
        }
        let side = (w as f64 + 1.5) * CELL;
        centers.extend([(0.5 * CELL, 0.5 * CELL), (0.5 * CELL, 1.5 * CELL)]);
        centers.extend([(side, 0.5 * CELL), (side, 1.5 * CELL)]);
        let mut entities = vec![
            Entity { token: 't', svg: themes::lettered_disc('T') },
            Entity { token: 'o', svg: themes::lettered_disc('O') },
        ];
        entities.extend(themes::digits(0.6, "#333"));
        ImageAutoGui {
            theme: "frame",
            size: ((w + 2) as f64 * CELL, (h + 2) as f64 * CELL),
            centers,
            background: themes::drop_frame(w, h, CELL, 2.0 * CELL)
                + &themes::caption(0.5 * CELL, 2.5 * CELL, "TOOT")
                + &themes::caption(side, 2.5 * CELL, "OTTO"),
            entities,
            piece_size: 0.85 * CELL,
            arrow_width: 14.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let cells = board::cells_to_string(&self.stacks.cells(self.board(p)), "to");
        let buttons = (0..2 * self.stacks.cols).map(|_| '-');
        let [(t1, o1), (t2, o2)] = [self.left(p, 0), self.left(p, 1)];
        let digit = |n: u32| char::from_digit(n, 10).unwrap_or('-');
        let counts = [t1, o1, t2, o2].map(digit);
        autogui_position(self.to_move(p), cells.chars().chain(buttons).chain(counts))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (w, h) = (self.stacks.cols, self.stacks.rows);
        let o = mv.0 as usize & 1;
        AutoGuiMove::Token { token: ['t', 'o'][o], at: w * h + o * w + mv.0 as usize / 2 }
    }
}
