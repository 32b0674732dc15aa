//! 3-Spot (de Bono; 003 Appendix A, multipart moves 003 section 6.4.2): a 3x3 board whose bottom
//! row holds the three spots; three 2x1 pieces: blue (the first player's), red (the second's) and
//! the neutral white one. A turn moves one's own piece to a new place (covering at least one
//! square it did not cover before, on no other piece), scores a point per spot it covers there,
//! then moves the white piece to a new place the same way. When a player reaches 12 points the game
//! ends: they win if the opponent has at least 6 points, else the opponent wins.
//!
//! Rules chosen where the seed leaves them open: "covers new squares in the bottom row" is read as
//! GamesmanClassic's `m3spot.c` and the GamesCrafters rules page count it, a point for each spot
//! the piece covers after its move (whether or not it covered it before); a move that brings the
//! mover to 12 ends the game at once, without the white piece's move (as in `m3spot.c`); a player
//! who cannot move loses. Start (`m3spot.c`'s): the three pieces upright side by side, red on the
//! left, white in the middle, blue on the right, each on one spot; blue moves first.
//!
//! Position code: bits 0-3 blue's piece (index among the 12 places), 4-7 red's, 8-11 white's,
//! 12-15 blue's score, 16-19 red's, bit 20 set when red is to move. Loopy (a move may score
//! nothing); tiers by the total score, which never falls. Symmetry: the left-right mirror.

use crate::prelude::*;

const SPOTS: u64 = 0b111 << 6;
const GOAL: u8 = 12;
const ENOUGH: u8 = 6;
/// The white piece's part of a move that ends the game.
const NO_WHITE: u32 = 15;

/// A place for a piece: its two cells, and whether it lies across (else upright).
#[derive(Clone, Debug)]
struct Place {
    mask: u64,
    cell: usize,
    across: bool,
}

/// 3-Spot.
#[derive(Clone, Debug)]
pub struct ThreeSpot {
    board: Board,
    places: Vec<Place>,
    /// The places' numbers by their cells, and their images.
    index: Placements,
    symmetries: Symmetries,
}

impl Default for ThreeSpot {
    fn default() -> Self {
        let board = Board::grid(3, 3);
        let mut places = Vec::new();
        for cell in 0..9 {
            for (across, (dx, dy)) in [(true, (1, 0)), (false, (0, 1))] {
                if let Some(other) = board.step(cell, dx, dy) {
                    places.push(Place { mask: 1 << cell | 1 << other, cell, across });
                }
            }
        }
        let symmetries = board.symmetries(&board::MIRROR);
        let masks: Vec<u64> = places.iter().map(|p| p.mask).collect();
        ThreeSpot { board, places, index: Placements::new(&masks, &symmetries), symmetries }
    }
}

// A position's code: the places of blue's, red's and white's pieces, the scores, the turn.
const PIECE: Field<usize> = Field::first(4);
const SCORE: Field<u8> = PIECE.nth(2).then(4);
const TURN: Field<usize> = SCORE.nth(1).then(1);

/// A position's parts: the places of blue's, red's and white's pieces, the scores (blue's, red's)
/// and the player to move (0 blue).
#[derive(Clone, Copy)]
struct Parts {
    pieces: [usize; 3],
    scores: [u8; 2],
    turn: usize,
}

impl Parts {
    fn of(p: Position) -> Parts {
        let pieces = [0, 1, 2].map(|i| PIECE.nth(i).get(p.0));
        Parts { pieces, scores: [0, 1].map(|i| SCORE.nth(i).get(p.0)), turn: TURN.get(p.0) }
    }
    fn code(&self) -> Position {
        let pieces = (0..3).fold(0, |code, i| code | PIECE.nth(i).put(self.pieces[i as usize]));
        let scores = SCORE.put(self.scores[0]) | SCORE.nth(1).put(self.scores[1]);
        Position(pieces | scores | TURN.put(self.turn))
    }
}

impl ThreeSpot {
    fn points(&self, place: usize) -> u8 {
        (self.places[place].mask & SPOTS).count_ones() as u8
    }
    fn name(&self, place: usize) -> String {
        let p = &self.places[place];
        format!("{}{}", self.board.name(p.cell), if p.across { 'h' } else { 'v' })
    }
    /// Per cell: 0 empty, 1 blue, 2 red, 3 white.
    fn cells(&self, s: &Parts) -> Vec<u8> {
        let masks = s.pieces.map(|x| self.places[x].mask);
        (0..9)
            .map(|c| masks.iter().position(|m| m >> c & 1 == 1).map_or(0, |i| i as u8 + 1))
            .collect()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = ThreeSpot, "threespot.rs", "threespot", "3-Spot" }

impl Game for ThreeSpot {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        self.parse_position("---/rwb/rwb 0 0 b").expect("the start is legal")
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(Parts::of(p).turn)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let s = Parts::of(p);
        if let Some(x) = (0..2).find(|&x| s.scores[x] >= GOAL) {
            let winner = if s.scores[1 - x] >= ENOUGH { x } else { 1 - x };
            return Some(if winner == s.turn { Value::Win } else { Value::Lose });
        }
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        moves.is_empty().then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let s = Parts::of(p);
        let mask = |x: usize| self.places[x].mask;
        let (mine, other, white) = (s.pieces[s.turn], mask(s.pieces[1 - s.turn]), s.pieces[2]);
        for q in (0..12).filter(|&q| q != mine && mask(q) & (other | mask(white)) == 0) {
            if s.scores[s.turn] + self.points(q) >= GOAL {
                out.push(Move((q as u32) << 4 | NO_WHITE));
                continue;
            }
            let free = |w: &usize| *w != white && mask(*w) & (other | mask(q)) == 0;
            out.extend((0..12).filter(free).map(|w| Move((q as u32) << 4 | w as u32)));
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut s = Parts::of(p);
        let (q, w) = ((mv.0 >> 4) as usize, mv.0 & 15);
        s.pieces[s.turn] = q;
        s.scores[s.turn] += self.points(q);
        if w != NO_WHITE {
            s.pieces[2] = w as usize;
        }
        s.turn = 1 - s.turn;
        s.code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let s = Parts::of(p);
        let cells = board::rows_to_string(&self.cells(&s), 3, "brw");
        format!("{cells} {} {} {}", s.scores[0], s.scores[1], ['b', 'r'][s.turn])
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "3 rows of b (blue), r (red), w (white) or -, joined by /, then blue's \
                        score, red's score and the player to move, b or r (e.g. ---/rwb/rwb 0 0 b)";
        let malformed = || board::malformed(text, expected);
        let [rows, blue, red, turn] = text.split_whitespace().collect::<Vec<_>>()[..] else {
            return Err(malformed());
        };
        let score = |t: &str| t.parse::<u8>().ok().filter(|&s| s <= GOAL + 1).ok_or_else(malformed);
        let scores = [score(blue)?, score(red)?];
        let turn = ["b", "r"].iter().position(|t| t.eq_ignore_ascii_case(turn));
        let turn = turn.ok_or_else(malformed)?;
        let c = board::parse_rows(rows, 3, 9, "brw", expected)?;
        let piece = |m: u8| {
            self.index.of(board::cells_holding(&c, m)).ok_or_else(|| {
                board::illegal(text, "each piece covers two neighboring cells, one of each color")
            })
        };
        let pieces = [piece(1)?, piece(2)?, piece(3)?];
        if scores[turn] >= GOAL || scores.iter().all(|&s| s >= GOAL) {
            return Err(board::illegal(text, "the game ends when the player who moved reaches 12"));
        }
        Ok(Parts { pieces, scores, turn }.code())
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (q, w) = ((mv.0 >> 4) as usize, mv.0 & 15);
        match w {
            NO_WHITE => self.name(q),
            w => format!("{} {}", self.name(q), self.name(w as usize)),
        }
    }
    fn move_syntax(&self) -> String {
        "<own piece> <white piece>, each a place: its top or left cell ([a-c][1-3], row 1 at the \
         top) and h (across) or v (upright), e.g. a1h c2v; the own piece alone when it ends the game"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let s = Parts::of(p);
        let c = self.cells(&s);
        let grid = board::grid_text(3, 3, |i| match c[i] {
            0 if SPOTS >> i & 1 == 1 => 'o',
            k => ['.', 'B', 'R', 'W'][k as usize],
        });
        format!("{grid}blue {}, red {}\n", s.scores[0], s.scores[1])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["blue", "red"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for ThreeSpot {
    /// A tier is the points both players have yet to score to reach 13 each.
    fn tier(&self, p: Position) -> Tier {
        let s = Parts::of(p);
        Tier(2 * u32::from(GOAL + 1) - u32::from(s.scores[0] + s.scores[1]))
    }
}

impl Symmetry for ThreeSpot {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let s = Parts::of(p);
        let image = |g| Parts { pieces: s.pieces.map(|x| self.index.image(g, x)), ..s }.code();
        out.extend((0..self.symmetries.len()).map(image));
    }
}

/// AutoGUI centers: the 9 cells, the 12 places' middles (where pieces are drawn and moved to),
/// then the tens and units of blue's score and of red's.
const CELL: f64 = 100.0;
const PLACES: usize = 9;

impl ImageGui for ThreeSpot {
    fn theme(&self) -> ImageAutoGui {
        let mut centers = grid_centers(3, 3, CELL);
        let middle = |p: &Place| {
            let (a, b) = (centers[p.cell], centers[p.cell + if p.across { 1 } else { 3 }]);
            ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
        };
        let middles: Vec<(f64, f64)> = self.places.iter().map(middle).collect();
        centers.extend(middles);
        centers.extend([(105.0, 355.0), (130.0, 355.0), (245.0, 355.0), (270.0, 355.0)]);
        let piece = |across: bool, fill: &str| {
            let (w, h) = if across { (1.84, 0.84) } else { (0.84, 1.84) };
            format!(
                r##"<rect x="{}" y="{}" width="{w}" height="{h}" rx="0.12" fill="{fill}" stroke="#333" stroke-width="0.03"/>"##,
                -w / 2.0,
                -h / 2.0
            )
        };
        let button = |across: bool| {
            let (rx, ry) = if across { (0.3, 0.12) } else { (0.12, 0.3) };
            format!(r##"<ellipse rx="{rx}" ry="{ry}" fill="#666"/>"##)
        };
        let mut entities = Vec::new();
        for (token, fill) in [('b', "#2e5fa8"), ('r', "#c0392b"), ('w', "#f4f1e8")] {
            entities.push(Entity { token: token.to_ascii_uppercase(), svg: piece(true, fill) });
            entities.push(Entity { token, svg: piece(false, fill) });
        }
        entities.push(Entity { token: 'h', svg: button(true) });
        entities.push(Entity { token: 'v', svg: button(false) });
        entities.extend(crate::themes::digits(0.4, "#222"));
        let mut background = crate::themes::grid_board(3, 3, CELL, "#fbf8ef", "#333");
        for x in [50, 150, 250] {
            background += &format!(r##"<circle cx="{x}" cy="250" r="12" fill="#333"/>"##);
        }
        background += r##"<text x="25" y="360" font-size="28" fill="#2e5fa8">blue</text><text x="180" y="360" font-size="28" fill="#c0392b">red</text>"##;
        ImageAutoGui {
            theme: "paper",
            size: (3.0 * CELL, 4.0 * CELL),
            centers,
            background,
            entities,
            piece_size: CELL,
            arrow_width: 12.0,
        }
    }
    /// Nothing at the cells; each piece at its place's middle (upper case across); the scores.
    fn autogui_position(&self, p: Position) -> String {
        let s = Parts::of(p);
        let mut places = vec!['-'; self.places.len()];
        for (x, token) in s.pieces.iter().zip(['b', 'r', 'w']) {
            places[*x] = if self.places[*x].across { token.to_ascii_uppercase() } else { token };
        }
        let digits = s.scores.iter().flat_map(|&sc| {
            [if sc >= 10 { char::from(b'0' + sc / 10) } else { '-' }, char::from(b'0' + sc % 10)]
        });
        let cells = std::iter::repeat_n('-', PLACES).chain(places).chain(digits);
        autogui_position(self.to_move(p), cells)
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        self.place_button((mv.0 >> 4) as usize)
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl ThreeSpot {
    fn place_button(&self, place: usize) -> AutoGuiMove {
        let token = if self.places[place].across { 'h' } else { 'v' };
        AutoGuiMove::Token { token, at: PLACES + place }
    }
}

impl MultipartMoves for ThreeSpot {
    /// 003 6.4.2: one's own piece's new place, then the white piece's; a move that ends the game
    /// is the first click alone.
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        match mv.0 & 15 {
            NO_WHITE => Vec::new(),
            w => vec![self.place_button((mv.0 >> 4) as usize), self.place_button(w as usize)],
        }
    }
}
