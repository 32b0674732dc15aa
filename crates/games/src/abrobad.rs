//! Abrobad (004, "Dissecting Abrobad"; GamesmanClassic's `mabrobad.c`): 12 hexagonal cells in
//! rows of 2, 3, 4 and 3, numbered 1 to 12 in reading order; X moves first.
//!
//! - A turn places a stone of one's color on an empty cell none of whose neighbors holds one of
//!   one's own stones.
//! - Only if no placement is possible: move one of one's stones in one of the 6 directions to the
//!   nearest empty cell that way, jumping over any stones between (none if the way is full up to
//!   the edge); or END GAME, which fills every empty cell with the opponent's stones.
//! - The game ends when the board is full (by the last placement or END GAME). Each side counts
//!   its groups (stones joined through neighbors); the player who made the last move wins if they
//!   have no more groups than the opponent, else loses (004: "less than or equal ... you win";
//!   GamesmanClassic's primitive: the player to move loses on `mine >= theirs`). No ties.
//!
//! Chosen where 004 leaves it open: jumps pass over stones of both colors (004 and GamesmanClassic
//! take the first empty cell along the line); END GAME is offered exactly when moves are, as in
//! GamesmanClassic. Loopy: stones can move back and forth.
//!
//! Position code: bit 0 the player to move (1: O), bits 1-12 the mover's stones and 13-24 the
//! opponent's (cell `i` bit `i` of each). Tier: the empty cells. Symmetries: the board's 6 (it
//! has those of a triangle: turns by a third and three mirrors), each also with the colors and the
//! turn exchanged (the rules treat both sides alike, and the code names stones by mover, so the
//! exchange flips bit 0 alone); 12 in all.

use crate::prelude::*;

use crate::themes::CELL;

const N: usize = 12;
const FULL: u16 = (1 << N) - 1;
// A position's code: whether O is to move, the mover's stones, the opponent's.
const O_TO_MOVE: Field<bool> = Field::first(1);
const MINE: Field<u16> = O_TO_MOVE.then(N as u32);
const THEIRS: Field<u16> = MINE.then(N as u32);
/// The rows: the first cell's column in half cells, and the number of cells.
const ROWS: [(i32, i32); 4] = [(3, 2), (2, 3), (1, 4), (2, 3)];
/// The six directions in half cells.
const DIRECTIONS: [(i32, i32); 6] = [(2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Move codes: a placement is its cell; a stone's move `FROM_TO + 12 * from + to`; END GAME.
const FROM_TO: u32 = 16;
const END: u32 = 200;

/// The cells a stone's move code moves from and to.
fn from_to(m: u32) -> (usize, usize) {
    (((m - FROM_TO) / N as u32) as usize, ((m - FROM_TO) % N as u32) as usize)
}

/// Abrobad on its 12-cell board.
#[derive(Clone, Debug)]
pub struct Abrobad {
    board: Board,
    /// Per cell, its neighbors as a mask.
    near: [u16; N],
    /// Per cell and direction, the cells along that line, nearest first.
    rays: Vec<Vec<Vec<usize>>>,
    /// Per board symmetry, the image of every set of cells.
    images: Vec<Vec<u16>>,
}

impl Default for Abrobad {
    fn default() -> Self {
        let places: Vec<(i32, i32)> = (0..4)
            .flat_map(|y| (0..ROWS[y].1).map(move |k| (ROWS[y].0 + 2 * k, y as i32)))
            .collect();
        let at = |x: i32, y: i32| places.iter().position(|&p| p == (x, y));
        let rays: Vec<Vec<Vec<usize>>> = (0..N)
            .map(|c| {
                let (x, y) = places[c];
                let ray = |(dx, dy)| (1..).map_while(move |k| at(x + k * dx, y + k * dy));
                DIRECTIONS.iter().map(|&d| ray(d).collect()).collect()
            })
            .collect();
        let edges: Vec<(usize, usize)> = (0..N)
            .flat_map(|a| rays[a].iter().filter_map(move |r| Some((a, *r.first()?))))
            .filter(|&(a, b)| a < b)
            .collect();
        let xy: Vec<(f64, f64)> =
            places.iter().map(|&(x, y)| (x as f64 / 2.0, y as f64 * 3f64.sqrt() / 2.0)).collect();
        let names: Vec<String> = (1..=N).map(|i| i.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let board = Board::graph(&names, &xy, &edges);
        let mut near = [0; N];
        (0..N).for_each(|c| near[c] = board.neighbors(c).iter().map(|&d| 1 << d).sum());
        let symmetries = board.symmetries(&board::dihedral(6));
        let images = (0..symmetries.len())
            .map(|g| (0..1 << N).map(|m| symmetries.map_mask(g, m) as u16).collect())
            .collect();
        Abrobad { board, near, rays, images }
    }
}

impl Abrobad {
    /// The mover's stones, the opponent's, and whether O is to move.
    fn parts(p: Position) -> (u16, u16, bool) {
        (MINE.get(p.0), THEIRS.get(p.0), O_TO_MOVE.get(p.0))
    }
    fn code(mine: u16, theirs: u16, o_to_move: bool) -> Position {
        Position(O_TO_MOVE.put(o_to_move) | MINE.put(mine) | THEIRS.put(theirs))
    }
    /// Per cell: 0 empty, 1 X, 2 O.
    fn cells(p: Position) -> Vec<u8> {
        let (mine, theirs, o) = Self::parts(p);
        let (x, o) = if o { (theirs, mine) } else { (mine, theirs) };
        (0..N).map(|c| (x >> c & 1) as u8 + 2 * (o >> c & 1) as u8).collect()
    }
    /// The empty cells the mover may place on.
    fn placements(&self, p: Position) -> impl Iterator<Item = usize> + '_ {
        let (mine, theirs, _) = Self::parts(p);
        (0..N).filter(move |&c| (mine | theirs) >> c & 1 == 0 && self.near[c] & mine == 0)
    }
    /// Whether END GAME is a move: the board is not full and no placement is possible.
    fn can_end(&self, p: Position) -> bool {
        let (mine, theirs, _) = Self::parts(p);
        mine | theirs != FULL && self.placements(p).next().is_none()
    }
    /// The number of groups of a set of stones.
    fn groups(&self, mut stones: u16) -> usize {
        let mut count = 0;
        while stones != 0 {
            let (mut group, mut grown) = (0, stones & stones.wrapping_neg());
            while grown != group {
                group = grown;
                grown = board::bits(u64::from(group)).fold(group, |g, c| g | self.near[c]) & stones;
            }
            stones &= !group;
            count += 1;
        }
        count
    }
    /// The images under the board's symmetries, then under them with the players exchanged.
    fn images(&self, p: Position) -> impl Iterator<Item = Position> + '_ {
        let (mine, theirs, o) = Self::parts(p);
        [o, !o].into_iter().flat_map(move |o| {
            self.images.iter().map(move |t| Self::code(t[mine as usize], t[theirs as usize], o))
        })
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = Abrobad, "abrobad.rs", "abrobad", "Abrobad" }

impl Game for Abrobad {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Self::parts(p).2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (mine, theirs, _) = Self::parts(p);
        let lost = || self.groups(mine) >= self.groups(theirs);
        (mine | theirs == FULL).then(|| if lost() { Value::Lose } else { Value::Win })
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let before = out.len();
        out.extend(self.placements(p).map(|c| Move(c as u32)));
        if out.len() > before {
            return;
        }
        let (mine, theirs, _) = Self::parts(p);
        for from in board::bits(u64::from(mine)) {
            for ray in &self.rays[from] {
                if let Some(&to) = ray.iter().find(|&&c| (mine | theirs) >> c & 1 == 0) {
                    out.push(Move(FROM_TO + (N * from + to) as u32));
                }
            }
        }
        out.push(Move(END));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mine, theirs, o) = Self::parts(p);
        match mv.0 {
            END => Self::code(!mine & FULL, mine, !o),
            m if m < FROM_TO => Self::code(theirs, mine | 1 << m, !o),
            m => {
                let (from, to) = from_to(m);
                Self::code(theirs, mine ^ (1 << from | 1 << to), !o)
            }
        }
    }
    fn position_to_string(&self, p: Position) -> String {
        let turn = if Self::parts(p).2 { 'o' } else { 'x' };
        board::grid_turn_to_string(&Self::cells(p), N, "xo", turn)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected =
            "12 cells 1 to 12 (rows of 2, 3, 4, 3 from the top), each x, o or -, then a \
                        space and the player to move (x or o), e.g. x--o-------- o";
        let (cells, turn) = board::parse_grid_turn(text, N, 1, "xo", "xo", expected)?;
        let mask = |v| (0..N).filter(|&c| cells[c] == v).map(|c| 1 << c).sum();
        let (x, o) = (mask(1), mask(2));
        Ok(if turn == 1 { Self::code(o, x, true) } else { Self::code(x, o, false) })
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        match mv.0 {
            END => "end".into(),
            m if m < FROM_TO => self.board.name(m as usize).into(),
            m => format!("{}-{}", from_to(m).0 + 1, from_to(m).1 + 1),
        }
    }
    fn move_syntax(&self) -> String {
        "a cell 1-12 to place on, from-to (e.g. 3-7) to move a stone, or end (END GAME)".into()
    }
    fn board_text(&self, p: Position) -> String {
        let cells = Self::cells(p);
        let (mut s, mut first) = (String::new(), 0);
        for (x, count) in ROWS {
            let (x, row) = (x as usize, first..first + count as usize);
            first = row.end;
            let stones: String =
                row.clone().map(|i| [" .", " X", " O"][cells[i] as usize]).collect();
            let numbers: String = row.map(|i| format!("{:>4}", i + 1)).collect();
            let w = 2 * x + numbers.len();
            s += &format!("{:<10}{numbers:>w$}\n", " ".repeat(x) + &stones);
        }
        s
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for Abrobad {
    /// A tier is the number of empty cells.
    fn tier(&self, p: Position) -> Tier {
        let (mine, theirs, _) = Self::parts(p);
        Tier(N as u32 - (mine | theirs).count_ones())
    }
}

impl Symmetry for Abrobad {
    fn symmetry_count(&self) -> usize {
        2 * self.images.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend(self.images(p));
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for Abrobad {
    fn exchanged(&self, p: Position) -> Position {
        Position(p.0 ^ O_TO_MOVE.mask())
    }
    /// The least image has X to move; it is the exchange's when O is.
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let least = self.images(Position(O_TO_MOVE.with(p.0, false))).take(self.images.len()).min();
        (least.unwrap_or(p), O_TO_MOVE.get(p.0))
    }
}

impl ImageGui for Abrobad {
    /// The cells as points joined to their neighbors; a token to place, an arrow to move, and an
    /// END GAME button below the board.
    fn theme(&self) -> ImageAutoGui {
        let end = r##"<text y="0.62" font-size="0.3" text-anchor="middle" font-family="sans-serif" fill="#5a4630">END GAME</text>"##;
        let mut entities = crate::themes::stones(("#222", "#000"), ("#f4f4f4", "#666"));
        entities.push(Entity { token: 'E', svg: end.into() });
        let mut theme = crate::themes::points_theme(&self.board, entities);
        let (w, h) = theme.size;
        theme.centers.push((w / 2.0, h + 0.4 * CELL));
        theme.size.1 += CELL;
        theme.background = format!(r##"<rect width="{w}" height="{}" fill="#efe4c8"/>"##, h + CELL)
            + &theme.background;
        theme
    }
    fn autogui_position(&self, p: Position) -> String {
        let chars = Self::cells(p).into_iter().map(|c| ['-', 'x', 'o'][c as usize]);
        let end = if self.can_end(p) { 'E' } else { '-' };
        autogui_position(self.to_move(p), chars.chain([end]))
    }
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        match mv.0 {
            END => AutoGuiMove::Token { token: 'E', at: N },
            m if m < FROM_TO => {
                let token = if Self::parts(p).2 { 'o' } else { 'x' };
                AutoGuiMove::Token { token, at: m as usize }
            }
            m => {
                let (from, to) = from_to(m);
                AutoGuiMove::Arrow { from, to }
            }
        }
    }
}
