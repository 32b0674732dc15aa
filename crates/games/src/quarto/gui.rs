//! Quarto's Image AutoGUI: the board, the panel of pieces not yet played, the piece to place,
//! and moves in one click or two parts (003 3.12, chapter 6).

use perfectplay_core::autogui::{autogui_position, grid_centers};
use perfectplay_core::{
    AutoGuiMove, Entity, Game, ImageAutoGui, ImageGui, Move, MultipartMoves, Position,
};

use super::{Quarto, NO_PIECE, NO_SLOT};

/// The AutoGUI's board cell; the pieces' panel has cells of [`PANEL_CELL`].
const CELL: f64 = 100.0;
const PANEL_CELL: f64 = 80.0;

impl Quarto {
    /// The AutoGUI centers: the slots, then the panel's place for each piece, then the piece to
    /// place, then per slot a small place for each piece (the one-click moves).
    fn first_panel(&self) -> usize {
        self.slots()
    }
    fn to_place_at(&self) -> usize {
        self.slots() + self.pieces() as usize
    }
    fn one_click_at(&self, slot: usize, piece: usize) -> usize {
        self.to_place_at() + 1 + slot * self.pieces() as usize + piece
    }

    /// A piece drawn from above (003 3.1): light or dark, square or round, solid or with a hollow
    /// top, tall (large) or short (small).
    fn piece_svg(u: u8) -> String {
        let r = if u & 1 == 1 { 0.46 } else { 0.32 };
        let (fill, rim) = if u & 8 != 0 { ("#f3dca6", "#8a6a3a") } else { ("#6b3f22", "#2e1a0d") };
        let body = if u & 4 != 0 {
            format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="0.05" fill="{fill}" stroke="{rim}" stroke-width="0.05"/>"#,
                -r,
                -r,
                2.0 * r,
                2.0 * r
            )
        } else {
            format!(r#"<circle r="{r}" fill="{fill}" stroke="{rim}" stroke-width="0.05"/>"#)
        };
        let hollow = if u & 2 == 0 {
            format!(r#"<circle r="{}" fill="{rim}" fill-opacity="0.55"/>"#, r * 0.5)
        } else {
            String::new()
        };
        body + &hollow
    }

    fn token(u: u8) -> char {
        char::from_digit(u32::from(u), 16).unwrap_or('?')
    }
}

impl ImageGui for Quarto {
    /// The board of wood, the pieces not yet played on a panel beside it, and below the panel
    /// the piece to place.
    fn theme(&self) -> ImageAutoGui {
        let n = self.pieces() as usize;
        let x0 = self.side as f64 * CELL + 30.0;
        let mut centers = grid_centers(self.side, self.side, CELL);
        centers.extend((0..n).map(|u| {
            let (col, row) = ((u % 4) as f64, (u / 4) as f64);
            (x0 + (col + 0.5) * PANEL_CELL, (row + 0.5) * PANEL_CELL)
        }));
        let rows = n.div_ceil(4) as f64;
        let to_place = (x0 + 2.0 * PANEL_CELL, rows * PANEL_CELL + 90.0);
        centers.push(to_place);
        for slot in 0..self.slots() {
            let (x, y) = ((slot % self.side) as f64 * CELL, (slot / self.side) as f64 * CELL);
            centers.extend(
                (0..n)
                    .map(|u| (x + 14.0 + 24.0 * (u % 4) as f64, y + 14.0 + 24.0 * (u / 4) as f64)),
            );
        }
        let (w, h) =
            (x0 + 4.0 * PANEL_CELL + 10.0, (to_place.1 + 50.0).max(self.side as f64 * CELL));
        let mut background = format!(r##"<rect width="{w}" height="{h}" fill="#f4efe4"/>"##);
        background += &crate::themes::grid_board(self.side, self.side, CELL, "#c9a46a", "#8a6a3a");
        background += &format!(
            r##"<rect x="{x0}" width="{}" height="{}" rx="8" fill="#e6dccb"/>"##,
            4.0 * PANEL_CELL,
            rows * PANEL_CELL
        );
        background +=
            &crate::themes::caption(to_place.0 - 1.6 * PANEL_CELL, to_place.1 + 9.0, "to place");
        ImageAutoGui {
            theme: "wood",
            size: (w, h),
            centers,
            background,
            entities: (0..n as u8)
                .map(|u| Entity { token: Self::token(u), svg: Self::piece_svg(u) })
                .collect(),
            piece_size: 70.0,
            arrow_width: 8.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let s = self.state(p);
        let n = self.pieces() as usize;
        let placed = s.placed();
        let board = (0..self.slots()).map(|i| {
            if s.occupied >> i & 1 == 1 {
                Self::token(s.piece(i))
            } else {
                '-'
            }
        });
        let panel = (0..n as u8).map(|u| {
            if placed >> u & 1 == 0 && s.give != Some(u) {
                Self::token(u)
            } else {
                '-'
            }
        });
        let to_place = std::iter::once(s.give.map_or('-', Self::token));
        let small = std::iter::repeat_n('-', self.slots() * n);
        autogui_position(self.to_move(p), board.chain(panel).chain(to_place).chain(small))
    }
    /// One click: the piece to give, small, on the slot to place on (a placement that ends the
    /// game: the slot; the first move: the piece on the panel).
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (slot, piece) = Self::decode_move(mv);
        match (slot, piece) {
            (NO_SLOT, u) => AutoGuiMove::Token {
                token: Self::token(u as u8),
                at: self.first_panel() + u as usize,
            },
            (e, NO_PIECE) => AutoGuiMove::Token { token: 't', at: e as usize },
            (e, u) => AutoGuiMove::Token {
                token: Self::token(u as u8),
                at: self.one_click_at(e as usize, u as usize),
            },
        }
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for Quarto {
    /// 003 chapter 6: a placement that chooses a piece is two clicks, the slot, then the piece
    /// on the panel; the first move (a piece alone) and a placement that ends the game are one.
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (slot, piece) = Self::decode_move(mv);
        if slot == NO_SLOT || piece == NO_PIECE {
            return Vec::new();
        }
        vec![
            AutoGuiMove::Token { token: 't', at: slot as usize },
            AutoGuiMove::Token {
                token: Self::token(piece as u8),
                at: self.first_panel() + piece as usize,
            },
        ]
    }
}
