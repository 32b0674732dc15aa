//! Dodgem (003 Appendix A; its Image AutoGUI is 003 section 5.5.6), Colin Vout's game from Winning
//! Ways: a 3x3 board (4x4 in the `4x4-` variants) with 2 (3) cars each. Blue (first to move)
//! starts on the left edge, red on the bottom edge, and the bottom left corner is empty. Blue
//! drives one square right, up or down, red one square up, left or right, onto an empty square; a
//! car on the far edge (the right one for blue, the top one for red) may drive off the board. The
//! first player to get all their cars off wins. Loopy (cars can shuttle sideways): draws exist.
//!
//! The seed says red starts on the bottom left and bottom center squares; Winning Ways and
//! GamesmanClassic's `mdodgem.c` (blue on the top left and center left squares, red on the bottom
//! center and bottom right ones) leave the corner empty, which makes the two sides mirror images:
//! this module follows them. The seed says nothing of a player who cannot move; Winning Ways's
//! rule is that you must leave your opponent a move, so a player with no move wins (`regular`,
//! GamesmanClassic's default); `lose-if-stuck` is GamesmanClassic's other option.
//!
//! Position code: the cells in base 3 (reading order; 0 empty, 1 blue, 2 red), plus 3^(n*n) when
//! red is to move. Tier: the cars on the board. Symmetry: the reflection in the diagonal from the
//! top right corner to the bottom left, which turns blue's cars and moves into red's, with the
//! colors and the side to move exchanged (so not an exchange of players alone).

use crate::prelude::*;

use crate::themes::CELL;

/// The destination of a move off the board.
const OFF: usize = 31;

/// One Dodgem variant.
#[derive(Clone, Debug)]
pub struct Dodgem {
    n: usize,
    stuck: Value,
    board: Board,
    /// The identity and the diagonal reflection.
    symmetries: Symmetries,
}

impl Dodgem {
    /// `regular` or `lose-if-stuck`, optionally prefixed by `4x4-` (5x5, with some 10^8 positions,
    /// is left out: it does not solve in a minute).
    pub fn from_variant(variant: &str) -> Result<Dodgem, String> {
        let (n, rule) = match variant.split_once('-') {
            Some(("4x4", rule)) => (4, rule),
            _ => (3, variant),
        };
        let stuck = match rule {
            "regular" => Value::Win,
            "lose-if-stuck" => Value::Lose,
            _ => return Err("regular | lose-if-stuck, optionally prefixed by 4x4-".into()),
        };
        let board = Board::grid(n, n);
        let symmetries = board.symmetries(&[board::SQUARE[0], board::SQUARE[7]]);
        Ok(Dodgem { n, stuck, board, symmetries })
    }

    fn cells(&self) -> usize {
        self.n * self.n
    }
    fn turn_digit(&self) -> u64 {
        3u64.pow(self.cells() as u32)
    }
    /// The cells (0 empty, 1 blue, 2 red) and the color to move.
    fn split(&self, p: Position) -> (Vec<u8>, u8) {
        let t = self.turn_digit();
        (board::unpack(p.0 % t, self.cells(), 3), 1 + (p.0 / t) as u8)
    }
    fn encode(&self, cells: &[u8], mover: u8) -> Position {
        Position(board::pack(cells, 3) + u64::from(mover - 1) * self.turn_digit())
    }
    fn cars(cells: &[u8], color: u8) -> usize {
        cells.iter().filter(|&&c| c == color).count()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Dodgem::from_variant, "dodgem.rs", "dodgem", "Dodgem";
    default "regular"; syntax "regular (a player left without a move wins) | lose-if-stuck, \
        optionally prefixed by 4x4- (the larger board)";
    listed &["regular", "lose-if-stuck", "4x4-regular"]; also &["4x4-lose-if-stuck"]
}

impl Game for Dodgem {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        let rule = if self.stuck == Value::Win { "regular" } else { "lose-if-stuck" };
        let size = if self.n == 3 { String::new() } else { format!("{0}x{0}-", self.n) };
        size + rule
    }
    fn variant_description(&self) -> String {
        let stuck = if self.stuck == Value::Win { "wins" } else { "loses" };
        format!(
            "A {n}x{n} board, {} cars each; a player left without a move {stuck}",
            self.n - 1,
            n = self.n
        )
    }
    /// 3x3 solves at once; 4x4 in a few seconds.
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.n == 3)
    }
    fn start(&self) -> Position {
        let n = self.n;
        let cells: Vec<u8> = (0..n * n)
            .map(|c| match (c % n, c / n) {
                (0, y) if y < n - 1 => 1,
                (x, y) if y == n - 1 && x > 0 => 2,
                _ => 0,
            })
            .collect();
        self.encode(&cells, 1)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(self.split(p).1 == 2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (c, mover) = self.split(p);
        if Self::cars(&c, 3 - mover) == 0 {
            return Some(Value::Lose);
        }
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        moves.is_empty().then_some(self.stuck)
    }
    /// A car's forward step (off the board from the far edge) and its two sideways steps.
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (c, mover) = self.split(p);
        let (ahead, side) = if mover == 1 { ((1, 0), (0, 1)) } else { ((0, -1), (1, 0)) };
        for from in (0..self.cells()).filter(|&i| c[i] == mover) {
            let step = |(dx, dy): (i32, i32)| self.board.step(from, dx, dy);
            let targets = [Some(step(ahead).unwrap_or(OFF)), step(side), step((-side.0, -side.1))];
            for to in targets.into_iter().flatten().filter(|&to| to == OFF || c[to] == 0) {
                out.push(Move((from * 32 + to) as u32));
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut c, mover) = self.split(p);
        let (from, to) = (mv.0 as usize / 32, mv.0 as usize % 32);
        c[from] = 0;
        if to != OFF {
            c[to] = mover;
        }
        self.encode(&c, 3 - mover)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (c, mover) = self.split(p);
        board::cells_turn_to_string(&c, "br", "br", mover as usize - 1)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let start = self.position_to_string(self.start());
        let expected =
            format!("cells row by row from the top left, then the side to move: {start}");
        let (c, turn) = board::parse_cells_turn(text, self.cells(), "br", "br", &expected)?;
        let mover = turn as u8 + 1;
        if Self::cars(&c, 1) >= self.n || Self::cars(&c, 2) >= self.n {
            return Err(board::illegal(text, &format!("each side has {} cars", self.n - 1)));
        }
        if Self::cars(&c, mover) == 0 {
            return Err(board::illegal(text, "the game ends when a side's last car leaves"));
        }
        Ok(self.encode(&c, mover))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to) = (mv.0 as usize / 32, mv.0 as usize % 32);
        let to = if to == OFF { "off" } else { self.board.name(to) };
        format!("{}{to}", self.board.name(from))
    }
    fn move_syntax(&self) -> String {
        "from and to cells ([a-z][1-9], row 1 at the top: a1b1), or from and off (c1off)".into()
    }
    fn board_text(&self, p: Position) -> String {
        let (c, _) = self.split(p);
        let text = board::grid_text(self.n, self.n, |i| ['.', 'B', 'R'][c[i] as usize]);
        text + "B drives right (off the right edge), R drives up (off the top)\n"
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["blue", "red"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for Dodgem {
    /// A tier is the number of cars on the board.
    fn tier(&self, p: Position) -> Tier {
        let c = self.split(p).0;
        Tier((Self::cars(&c, 1) + Self::cars(&c, 2)) as u32)
    }
}

impl Symmetry for Dodgem {
    fn symmetry_count(&self) -> usize {
        2
    }
    fn canonical(&self, p: Position) -> Position {
        let mut images = Vec::with_capacity(2);
        self.symmetry_images(p, &mut images);
        images[0].min(images[1])
    }
    /// The position itself, and its reflection with the colors and the turn exchanged.
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (c, mover) = self.split(p);
        let swapped: Vec<u8> = c.iter().map(|&x| [0, 2, 1][x as usize]).collect();
        out.push(p);
        out.push(self.encode(&self.symmetries.map_cells(1, &swapped), 3 - mover));
    }
}

impl ImageGui for Dodgem {
    /// The board below a row of red's exits and left of a column of blue's: centers 0 to n*n - 1
    /// are the cells, then blue's exits (one per row), then red's (one per column).
    fn theme(&self) -> ImageAutoGui {
        let n = self.n;
        let size = (n + 1) as f64 * CELL;
        let cells = perfectplay_core::autogui::grid_centers(n, n, CELL).into_iter();
        let mut centers: Vec<(f64, f64)> = cells.map(|(x, y)| (x, y + CELL)).collect();
        centers.extend((0..n).map(|y| ((n as f64 + 0.5) * CELL, (y as f64 + 1.5) * CELL)));
        centers.extend((0..n).map(|x| ((x as f64 + 0.5) * CELL, 0.5 * CELL)));
        let grid = crate::themes::grid_board(n, n, CELL, "#e7e5e4", "#57534e");
        let side = n as f64 * CELL;
        // Blue's exits on the right in pale blue, red's along the top in pale red.
        let background = format!(
            r##"<rect width="{size}" height="{size}" fill="#fafaf9"/><rect x="{side}" y="{CELL}" width="{CELL}" height="{side}" fill="#dbeafe"/><rect width="{side}" height="{CELL}" fill="#fee2e2"/><g transform="translate(0,{CELL})">{grid}</g>"##
        );
        // A car pointing right, turned to point up for red.
        let car = |token, fill, rim, angle| Entity {
            token,
            svg: format!(
                r#"<g transform="rotate({angle})"><rect x="-0.38" y="-0.28" width="0.76" height="0.56" rx="0.12" fill="{fill}" stroke="{rim}" stroke-width="0.04"/><path d="M-0.1,-0.16L0.2,0L-0.1,0.16Z" fill="white"/></g>"#
            ),
        };
        let entities = vec![car('b', "#2563eb", "#1e3a8a", 0), car('r', "#dc2626", "#7f1d1d", -90)];
        ImageAutoGui {
            theme: "dodgem",
            size: (size, size),
            centers,
            background,
            entities,
            piece_size: CELL,
            arrow_width: 14.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let (c, _) = self.split(p);
        let exits = "-".repeat(2 * self.n);
        autogui_position(
            self.to_move(p),
            board::cells_to_string(&c, "br").chars().chain(exits.chars()),
        )
    }
    /// An arrow to the cell, or off the board to the row's or the column's exit.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let (n, from, to) = (self.n, mv.0 as usize / 32, mv.0 as usize % 32);
        let to = match (to, self.split(p).1) {
            (OFF, 1) => n * n + from / n,
            (OFF, _) => n * n + n + from % n,
            _ => to,
        };
        AutoGuiMove::Arrow { from, to }
    }
}
