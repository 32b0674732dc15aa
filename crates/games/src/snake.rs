//! Snake (003 Appendix A; its Image AutoGUI is 003 section 5.5.10): a snake lies on a grid, its
//! head controlled by the first player, its tail by the second. In turn each moves their end to an
//! orthogonally adjacent empty cell, and the cell it left becomes body. A player who cannot move
//! loses. Every move fills a cell, so the game is finite.
//!
//! The seed leaves the board open ("arbitrary shape"); this module uses GamesmanClassic's
//! `msnake.c`: a 4x4 grid with the head on b2, one body cell on c2 and the tail on c3, the head
//! moving first. Other rectangles from 3x3 to 6x6 (`CxR`, columns x rows) put the same three
//! cells in the same place relative to the board's center (5x5: b2, c2, c3).
//!
//! Position code: the body's cells as bits (reading order), the head's cell times 2^49 and the
//! tail's times 2^55. The side to move follows from the body's length: the head moves when it is
//! odd. Tier: the number of
//! empty cells. Symmetries: those of the rectangle (8 on a square, 4 otherwise).

use crate::prelude::*;

// A position's code: the body's cells (a bit per cell, 7 x 7 at most), the head's cell, the
// tail's.
const BODY_CELLS: Field<u64> = Field::first(49);
const HEAD_AT: Field<usize> = BODY_CELLS.then(6);
const TAIL_AT: Field<usize> = HEAD_AT.then(6);
const BODY: u8 = 1;
const HEAD: u8 = 2;

/// Snake on a rectangle of 3x3 to 6x6 cells.
#[derive(Clone, Debug)]
pub struct Snake {
    /// The grid with orthogonal neighbors only.
    board: Board,
    symmetries: Symmetries,
}

impl Snake {
    /// `CxR`: columns and rows, 3 to 6 each (`4x4` is GamesmanClassic's board; 7x7 would not solve
    /// in a minute).
    pub fn from_variant(variant: &str) -> Result<Snake, String> {
        let size =
            variant.split_once('x').and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)));
        let (cols, rows): (usize, usize) = size
            .filter(|&(c, r)| (3..=6).contains(&c) && (3..=6).contains(&r) && variant.len() == 3)
            .ok_or("CxR: columns x rows, 3 to 6 each (4x4 is GamesmanClassic's)")?;
        let board =
            Board::grid(cols, rows).keep_edges(|a, b| a % cols == b % cols || a / cols == b / cols);
        let symmetries = board.symmetries(&board::SQUARE);
        Ok(Snake { board, symmetries })
    }

    /// The body as a cell mask, the head's cell and the tail's.
    fn split(p: Position) -> (u64, usize, usize) {
        (BODY_CELLS.get(p.0), HEAD_AT.get(p.0), TAIL_AT.get(p.0))
    }
    fn cells(&self, p: Position) -> Vec<u8> {
        let (body, head, tail) = Self::split(p);
        let mut cells: Vec<u8> = (0..self.board.len()).map(|i| (body >> i & 1) as u8).collect();
        (cells[head], cells[tail]) = (HEAD, HEAD + 1);
        cells
    }
    fn encode(cells: &[u8]) -> Position {
        let at = |kind| cells.iter().position(|&c| c == kind).unwrap_or(0);
        let body = cells.iter().rev().fold(0, |m, &c| m << 1 | u64::from(c == BODY));
        Position(BODY_CELLS.put(body) | HEAD_AT.put(at(HEAD)) | TAIL_AT.put(at(HEAD + 1)))
    }
    /// The end that moves (head or tail) and where it is.
    fn mover(cells: &[u8]) -> (u8, usize) {
        let end =
            if cells.iter().filter(|&&c| c == BODY).count() % 2 == 1 { HEAD } else { HEAD + 1 };
        (end, cells.iter().position(|&c| c == end).unwrap_or(0))
    }
    /// Whether there is one head and one tail, and the body is one path from a neighbor of the
    /// head to a neighbor of the tail.
    fn is_snake(&self, cells: &[u8]) -> bool {
        fn walk(board: &Board, at: usize, left: u64, tail: usize) -> bool {
            let mut next = board.neighbors(at).iter().filter(|&&n| left >> n & 1 == 1);
            next.any(|&n| walk(board, n, left & !(1 << n), tail))
                || left == 0 && board.neighbors(at).contains(&tail)
        }
        let count = |kind| cells.iter().filter(|&&c| c == kind).count();
        let (body, head, tail) = Self::split(Self::encode(cells));
        count(HEAD) == 1 && count(HEAD + 1) == 1 && body != 0 && walk(&self.board, head, body, tail)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Snake::from_variant, "snake.rs", "snake", "Snake";
    default "4x4"; syntax "CxR: columns x rows, 3 to 6 each (4x4 is GamesmanClassic's board)";
    listed &["4x4", "5x5", "6x6"]; also &["3x3", "3x5", "6x4"]
}

impl Game for Snake {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        format!("{}x{}", self.board.cols, self.board.rows)
    }
    fn variant_description(&self) -> String {
        format!("A board of {} columns and {} rows", self.board.cols, self.board.rows)
    }
    /// Up to 25 cells (13,286 positions on 5x5) solves at once; 6x6 has 2.6 million.
    fn size_class(&self) -> SizeClass {
        [SizeClass::Large, SizeClass::Small][usize::from(self.board.len() <= 25)]
    }
    fn start(&self) -> Position {
        let (w, h) = (self.board.cols, self.board.rows);
        let mut cells = vec![0; w * h];
        let (x, y) = (w / 2, h / 2);
        (cells[(y - 1) * w + x - 1], cells[(y - 1) * w + x], cells[y * w + x]) =
            (HEAD, BODY, HEAD + 1);
        Self::encode(&cells)
    }
    fn to_move(&self, p: Position) -> Player {
        [Player::Second, Player::First][usize::from(Self::mover(&self.cells(p)).0 == HEAD)]
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let c = self.cells(p);
        let at = Self::mover(&c).1;
        self.board.neighbors(at).iter().all(|&n| c[n] != 0).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let c = self.cells(p);
        let at = Self::mover(&c).1;
        out.extend(
            self.board.neighbors(at).iter().filter(|&&n| c[n] == 0).map(|&n| Move(n as u32)),
        );
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut c = self.cells(p);
        let (end, at) = Self::mover(&c);
        (c[at], c[mv.0 as usize]) = (BODY, end);
        Self::encode(&c)
    }
    fn position_to_string(&self, p: Position) -> String {
        let text = board::cells_to_string(&self.cells(p), "bht");
        let rows: Vec<&str> =
            (0..self.board.rows).map(|y| &text[y * self.board.cols..][..self.board.cols]).collect();
        rows.join("/")
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let start = self.position_to_string(self.start());
        let expected = format!(
            "rows from the top, split by '/', of h (head), t (tail), b (body) or -: {start}"
        );
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != self.board.rows
            || rows.iter().any(|r| r.chars().count() != self.board.cols)
        {
            return Err(board::malformed(text, &expected));
        }
        let c = board::parse_cells(&rows.concat(), self.board.len(), "bht", &expected)?;
        if !self.is_snake(&c) {
            return Err(board::illegal(text, "one head, one tail, and a body joining them"));
        }
        Ok(Self::encode(&c))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        self.board.name(mv.0 as usize).to_string()
    }
    fn move_syntax(&self) -> String {
        "the cell the head or tail moves to: column letter, row number (row 1 at the top)".into()
    }
    fn board_text(&self, p: Position) -> String {
        let c = self.cells(p);
        board::grid_text(self.board.cols, self.board.rows, |i| ['.', '#', 'H', 'T'][c[i] as usize])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["head", "tail"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for Snake {
    /// A tier is the number of empty cells.
    fn tier(&self, p: Position) -> Tier {
        Tier(self.cells(p).iter().filter(|&&c| c == 0).count() as u32)
    }
}

impl Symmetry for Snake {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        self.symmetries.least(&self.cells(p), Self::encode)
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        self.symmetries.images(&self.cells(p), Self::encode, out)
    }
}

impl ImageGui for Snake {
    /// A green snake on paper: a head with eyes, a round tail, square body segments.
    fn theme(&self) -> ImageAutoGui {
        const PIECES: [(char, &str); 3] = [
            (
                'b',
                r##"<rect x="-0.36" y="-0.36" width="0.72" height="0.72" rx="0.16" fill="#4d7c0f"/>"##,
            ),
            (
                'h',
                r##"<circle r="0.42" fill="#365314"/><circle cx="-0.14" cy="-0.1" r="0.08" fill="white"/><circle cx="0.14" cy="-0.1" r="0.08" fill="white"/>"##,
            ),
            ('t', r##"<circle r="0.26" fill="#65a30d" stroke="#365314" stroke-width="0.05"/>"##),
        ];
        let entities =
            PIECES.iter().map(|&(token, svg)| Entity { token, svg: svg.into() }).collect();
        crate::themes::grid_theme(self.board.cols, self.board.rows, entities)
    }
    fn autogui_position(&self, p: Position) -> String {
        autogui_position(self.to_move(p), board::cells_to_string(&self.cells(p), "bht").chars())
    }
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Arrow { from: Self::mover(&self.cells(p)).1, to: mv.0 as usize }
    }
}
