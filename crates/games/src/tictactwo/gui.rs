//! Tic-Tac-Two's pictures: the board with its 3x3 window, a move in parts.

use super::*;

impl ImageGui for TicTacTwo {
    /// 003 6.4.3's interface: the 5x5 board with the grid's frame drawn around its nine cells.
    fn theme(&self) -> ImageAutoGui {
        let board = N as f64 * GUI_CELL;
        let mut centers = grid_centers(N, N, GUI_CELL);
        let grid_places: Vec<(f64, f64)> = (0..9).map(|g| centers[center_cell(g)]).collect();
        centers.extend(grid_places);
        centers.push((board / 2.0, board + GUI_CELL * 0.5));
        // The frame spans three cells around its center: 1.5 cells each way, in piece units.
        let half = 1.5 * GUI_CELL / GUI_PIECE;
        let frame = format!(
            r##"<rect x="-{half}" y="-{half}" width="{w}" height="{w}" fill="none" stroke="#2d3a4a" stroke-width="0.09" rx="0.08"/><path d="M-{third},-{half}V{half}M{third},-{half}V{half}M-{half},-{third}H{half}M-{half},{third}H{half}" stroke="#2d3a4a" stroke-width="0.05"/>"##,
            w = 2.0 * half,
            third = half / 3.0,
        );
        let icon = r##"<g stroke="#2d3a4a" stroke-width="0.06" fill="none"><rect x="-0.45" y="-0.45" width="0.9" height="0.9"/><path d="M-0.15,-0.45V0.45M0.15,-0.45V0.45M-0.45,-0.15H0.45M-0.45,0.15H0.45"/></g>"##;
        ImageAutoGui {
            theme: "paper",
            size: (board, board + GUI_CELL),
            background: format!(
                r##"<rect width="{board}" height="{h}" fill="#fbf8ef"/>{}"##,
                (0..CELLS)
                    .map(|c| {
                        let (x, y) = ((c % N) as f64 * GUI_CELL, (c / N) as f64 * GUI_CELL);
                        format!(
                            r##"<circle cx="{}" cy="{}" r="6" fill="#c9c2b0"/>"##,
                            x + GUI_CELL / 2.0,
                            y + GUI_CELL / 2.0
                        )
                    })
                    .collect::<String>(),
                h = board + GUI_CELL,
            ),
            centers,
            entities: vec![
                Entity { token: 'x', svg: crate::themes::cross() },
                Entity { token: 'o', svg: crate::themes::ring() },
                Entity { token: 'g', svg: frame },
                Entity { token: 'm', svg: icon.into() },
            ],
            piece_size: GUI_PIECE,
            arrow_width: 12.0,
        }
    }

    /// One character per cell (`x`, `o`, `-`), then `g` where the grid is centered, then the
    /// "move the grid" icon when grid moves are allowed.
    fn autogui_position(&self, p: Position) -> String {
        let (x, o, grid, o_to_move) = Self::parts(p);
        let cells = (0..CELLS).map(|c| {
            if x >> c & 1 == 1 {
                'x'
            } else if o >> c & 1 == 1 {
                'o'
            } else {
                '-'
            }
        });
        let frame = (0..9).map(|g| if g == grid { 'g' } else { '-' });
        let moving = x.count_ones() >= 2 && o.count_ones() >= 2 && self.primitive(p).is_none();
        let icon = std::iter::once(if moving { 'm' } else { '-' });
        let turn = if o_to_move { Player::Second } else { Player::First };
        autogui_position(turn, cells.chain(frame).chain(icon))
    }

    /// A placement is one click on the cell; grid and mark moves come in parts.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let token = if self.to_move(p) == Player::First { 'x' } else { 'o' };
        match mv.0 {
            c if c < GRID_MOVE => AutoGuiMove::Token { token, at: c as usize },
            g if g < MARK_MOVE => {
                AutoGuiMove::Token { token: 'g', at: GUI_GRID + (g - GRID_MOVE) as usize }
            }
            m => AutoGuiMove::Arrow {
                from: ((m - MARK_MOVE) / 32) as usize,
                to: ((m - MARK_MOVE) % 32) as usize,
            },
        }
    }

    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for TicTacTwo {
    /// 003 6.4.3: a grid move is the button under the board, then the new center; a mark move is
    /// the mark, then where it goes (003 draws an arrow there; a mark's arrows along one line
    /// would lie on top of each other, so the destination is a dot).
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        match mv.0 {
            c if c < GRID_MOVE => Vec::new(),
            g if g < MARK_MOVE => vec![
                AutoGuiMove::Token { token: 'm', at: GUI_MOVE_GRID },
                AutoGuiMove::Token { token: 'g', at: GUI_GRID + (g - GRID_MOVE) as usize },
            ],
            m => {
                let (from, to) = (((m - MARK_MOVE) / 32) as usize, ((m - MARK_MOVE) % 32) as usize);
                vec![
                    AutoGuiMove::Token { token: 's', at: from },
                    AutoGuiMove::Token { token: 't', at: to },
                ]
            }
        }
    }
}
