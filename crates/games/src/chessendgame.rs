//! Chess endgames (003 section 5.5.2: GAMESMAN's chess endgame interface, 64 centers, the chess
//! pieces as entities, arrow moves): king and queen, or king and rook, against a lone king on the
//! 8x8 board, White (the stronger side) to move at the start. 003's interface asked a 7-man
//! tablebase position with pawns of the Lichess tablebase; this module solves the endgames itself,
//! so it takes the classic pawnless ones whose answers are published (mate in at most 10 moves
//! with the queen, 16 with the rook).
//!
//! Rules: the pieces move as in chess (no castling, en passant or promotion can arise); a move may
//! not leave one's own king attacked. Checkmate loses for the side to move; stalemate is a tie;
//! so is the capture of White's queen or rook (two bare kings cannot mate). No fifty-move rule and
//! no repetition rule: the solver finds the fastest mate, and positions where neither side can
//! force an end would be draws.
//!
//! Squares are numbered from a8 (0) to h1 (63), row by row from the top as the board kit's grid.
//! Position code: White's king, Black's king and White's piece (64 once captured) in 6, 6 and 7
//! bits, then a bit set when Black is to move. Symmetries: the 8 of the square (no pawns, no
//! castling). Move code: `from * 64 + to`.

use crate::prelude::*;

const CAPTURED: usize = 64;
// A position's code: the white king's square, the black king's, White's piece (its square, or
// 64 and on once taken), the turn.
const WHITE_KING: Field<usize> = Field::first(6);
const BLACK_KING: Field<usize> = WHITE_KING.then(6);
const PIECE: Field<usize> = BLACK_KING.then(7);
const BLACK_TO_MOVE: Field<bool> = PIECE.then(1);
const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One endgame.
#[derive(Clone, Debug)]
pub struct ChessEndgame {
    /// White's piece besides the king: `Q` or `R`.
    letter: char,
    /// Per square: the squares a king steps to.
    king: Vec<Vec<usize>>,
    /// Per square: the squares along each of the piece's directions, nearest first.
    lines: Vec<Vec<Vec<usize>>>,
    symmetries: Symmetries,
}

/// A position's parts: White's king, Black's king, White's piece, whether Black is to move.
#[derive(Clone, Copy)]
struct Parts {
    wk: usize,
    bk: usize,
    piece: usize,
    black: bool,
}

impl Parts {
    fn of(p: Position) -> Parts {
        let (wk, bk) = (WHITE_KING.get(p.0), BLACK_KING.get(p.0));
        Parts { wk, bk, piece: PIECE.get(p.0), black: BLACK_TO_MOVE.get(p.0) }
    }
    fn code(&self) -> Position {
        let kings = WHITE_KING.put(self.wk) | BLACK_KING.put(self.bk);
        Position(kings | PIECE.put(self.piece) | BLACK_TO_MOVE.put(self.black))
    }
}

/// Whether two squares touch (or are the same).
fn near(a: usize, b: usize) -> bool {
    (a % 8).abs_diff(b % 8) <= 1 && (a / 8).abs_diff(b / 8) <= 1
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, 8 - sq / 8)
}

fn parse_square(t: &str) -> Option<usize> {
    match t.as_bytes() {
        &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            Some(usize::from(b'8' - r) * 8 + usize::from(f - b'a'))
        }
        _ => None,
    }
}

impl ChessEndgame {
    /// Builds a variant from its name: `kqk` or `krk`.
    pub fn from_variant(variant: &str) -> Result<ChessEndgame, String> {
        let letter = match variant {
            "kqk" => 'Q',
            "krk" => 'R',
            _ => return Err("kqk | krk".into()),
        };
        let board = Board::grid(8, 8);
        let steps = if letter == 'Q' { &KING_STEPS[..] } else { &KING_STEPS[..4] };
        let ray = |from: usize, (dx, dy): (i32, i32)| {
            (1..8).map_while(|k| board.step(from, k * dx, k * dy)).collect::<Vec<_>>()
        };
        Ok(ChessEndgame {
            letter,
            king: (0..64)
                .map(|sq| KING_STEPS.iter().filter_map(|&d| ray(sq, d).first().copied()).collect())
                .collect(),
            lines: (0..64).map(|sq| steps.iter().map(|&d| ray(sq, d)).collect()).collect(),
            symmetries: board.symmetries(&board::SQUARE),
        })
    }

    /// What stands on a square: `K`, `k`, the piece's letter, or `None`.
    fn at(&self, s: &Parts, sq: usize) -> Option<char> {
        [(s.wk, 'K'), (s.bk, 'k'), (s.piece, self.letter)].iter().find(|x| x.0 == sq).map(|x| x.1)
    }

    /// The squares White's piece at `from` reaches, stopping before either of `blockers`.
    fn rays(&self, from: usize, blockers: [usize; 2]) -> impl Iterator<Item = usize> + '_ {
        self.lines[from]
            .iter()
            .flat_map(move |line| line.iter().copied().take_while(move |t| !blockers.contains(t)))
    }

    /// Whether White's piece attacks `sq`, its lines blocked by White's king only (Black's king
    /// is the one attacked, or has left its square).
    fn attacks(&self, s: &Parts, sq: usize) -> bool {
        s.piece != CAPTURED && s.piece != sq && self.rays(s.piece, [s.wk, s.wk]).any(|t| t == sq)
    }

    fn king_steps(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        self.king[from].iter().copied()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = ChessEndgame::from_variant, "chessendgame.rs",
        "chessendgame", "Chess Endgame";
    default "krk"; syntax "kqk | krk (king and queen, or king and rook, against king)";
    listed &["kqk", "krk"]; also &[]
}

impl Game for ChessEndgame {
    crate::declared!(ENTRY, Small);
    fn variant(&self) -> String {
        if self.letter == 'Q' { "kqk" } else { "krk" }.into()
    }
    fn variant_description(&self) -> String {
        if self.letter == 'Q' {
            "King and queen against king"
        } else {
            "King and rook against king"
        }
        .into()
    }
    /// About 400,000 positions (50,000 up to symmetry): half a second.
    fn start(&self) -> Position {
        let piece = if self.letter == 'Q' { "Qd1" } else { "Ra1" };
        self.parse_position(&format!("Ke1 {piece} ke8 w")).expect("the start is legal")
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Parts::of(p).black)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let s = Parts::of(p);
        if s.piece == CAPTURED {
            return Some(Value::Tie);
        }
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        let mated = s.black && self.attacks(&s, s.bk);
        moves.is_empty().then_some(if mated { Value::Lose } else { Value::Tie })
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let s = Parts::of(p);
        let code = |from: usize, to: usize| Move((from * 64 + to) as u32);
        if s.black {
            let safe = |t: &usize| !near(*t, s.wk) && !self.attacks(&Parts { bk: *t, ..s }, *t);
            out.extend(self.king_steps(s.bk).filter(safe).map(|t| code(s.bk, t)));
        } else {
            let king = |t: &usize| *t != s.piece && !near(*t, s.bk);
            out.extend(self.king_steps(s.wk).filter(king).map(|t| code(s.wk, t)));
            if s.piece != CAPTURED {
                out.extend(self.rays(s.piece, [s.wk, s.bk]).map(|t| code(s.piece, t)));
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut s = Parts::of(p);
        let (from, to) = ((mv.0 / 64) as usize, (mv.0 % 64) as usize);
        if s.black {
            s.bk = to;
            if s.piece == to {
                s.piece = CAPTURED;
            }
        } else if from == s.wk {
            s.wk = to;
        } else {
            s.piece = to;
        }
        s.black = !s.black;
        s.code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let s = Parts::of(p);
        let piece = if s.piece == CAPTURED {
            String::new()
        } else {
            format!(" {}{}", self.letter, square_name(s.piece))
        };
        let turn = if s.black { 'b' } else { 'w' };
        format!("K{}{piece} k{} {turn}", square_name(s.wk), square_name(s.bk))
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "White's king, White's {0} (left out once captured), Black's king, each a letter and a \
             square, then the side to move, w or b (e.g. Ke1 {0}d1 ke8 w)",
            self.letter
        );
        let malformed = || board::malformed(text, &expected);
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let square = |t: &str, letter: char| {
            t.strip_prefix(letter).and_then(parse_square).ok_or_else(malformed)
        };
        let (wk, piece, bk, turn) = match tokens[..] {
            [wk, piece, bk, turn] => (wk, square(piece, self.letter)?, bk, turn),
            [wk, bk, turn] => (wk, CAPTURED, bk, turn),
            _ => return Err(malformed()),
        };
        let black = ["w", "b"].iter().position(|t| *t == turn).ok_or_else(malformed)? == 1;
        let s = Parts { wk: square(wk, 'K')?, bk: square(bk, 'k')?, piece, black };
        if s.wk == s.piece || s.bk == s.piece || near(s.wk, s.bk) {
            return Err(board::illegal(text, "one piece a square, the kings apart"));
        }
        if !black && self.attacks(&s, s.bk) {
            return Err(board::illegal(text, "Black, in check, would have to be the side to move"));
        }
        Ok(s.code())
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        format!("{}{}", square_name((mv.0 / 64) as usize), square_name((mv.0 % 64) as usize))
    }
    fn move_syntax(&self) -> String {
        "<from><to>, squares [a-h][1-8] as in chess (a1 bottom left, White's side), e.g. e1e2"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let s = Parts::of(p);
        let mut text = String::new();
        for row in 0..8 {
            let line: String =
                (0..8).flat_map(|col| [' ', self.at(&s, row * 8 + col).unwrap_or('.')]).collect();
            text += &format!("{} {line}\n", 8 - row);
        }
        text + "   a b c d e f g h\n"
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["White", "Black"]
    }
    perfectplay_core::capabilities!(symmetry, gui);
}

impl ChessEndgame {
    fn image(&self, s: &Parts, g: usize) -> Position {
        let m = |sq: usize| if sq == CAPTURED { sq } else { self.symmetries.map(g, sq) };
        Parts { wk: m(s.wk), bk: m(s.bk), piece: m(s.piece), black: s.black }.code()
    }
}

impl Symmetry for ChessEndgame {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let s = Parts::of(p);
        out.extend((0..self.symmetries.len()).map(|g| self.image(&s, g)));
    }
}

fn figure(symbol: char) -> String {
    crate::themes::figure(0.85, "#111", symbol)
}

impl ImageGui for ChessEndgame {
    /// 003 5.5.2: 64 centers, the pieces as entities, moves as arrows.
    fn theme(&self) -> ImageAutoGui {
        let background = crate::themes::checkerboard(8, 8, 100.0, "#f0d9b5", "#b58863");
        ImageAutoGui {
            theme: "wood",
            size: (800.0, 800.0),
            centers: grid_centers(8, 8, 100.0),
            background,
            entities: vec![
                Entity { token: 'K', svg: figure('♔') },
                Entity { token: 'Q', svg: figure('♕') },
                Entity { token: 'R', svg: figure('♖') },
                Entity { token: 'k', svg: figure('♚') },
            ],
            piece_size: 100.0,
            arrow_width: 12.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let s = Parts::of(p);
        autogui_position(self.to_move(p), (0..64).map(|sq| self.at(&s, sq).unwrap_or('-')))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Arrow { from: (mv.0 / 64) as usize, to: (mv.0 % 64) as usize }
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for ChessEndgame {
    /// A move is two clicks, the piece and then its square: a queen's or rook's arrows along one
    /// line would lie on top of each other.
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (from, to) = ((mv.0 / 64) as usize, (mv.0 % 64) as usize);
        vec![AutoGuiMove::Token { token: 's', at: from }, AutoGuiMove::Token { token: 't', at: to }]
    }
}
