//! The Morris pictures: the board's points as AutoGUI centers, a mill's removal as a move's
//! second part.

use super::*;

impl ImageGui for Morris {
    /// The board's points and lines; white and black stones, and a red mark on a piece a mill
    /// may remove.
    fn theme(&self) -> ImageAutoGui {
        let mut entities = crate::themes::stones(("#f4f1e8", "#3c3c3c"), ("#262626", "#000000"));
        for e in &mut entities {
            e.token = if e.token == 'x' { 'w' } else { 'b' };
        }
        entities.push(perfectplay_core::Entity {
            token: 'r',
            svg: r##"<circle r="0.22" fill="#c0392b" stroke="#fff" stroke-width="0.05"/>"##.into(),
        });
        crate::themes::points_theme(&self.layout.board, entities)
    }

    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        let cells = (0..self.n()).map(|c| q.cell(c));
        autogui_position(self.to_move(p), cells)
    }

    /// A placement is a stone on its point, a slide an arrow (a flight is two clicks, see
    /// [`MultipartMoves::move_parts`]).
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let (from, to, _) = Self::decode(mv);
        let token = if Parts::of(p).black_to_move { 'b' } else { 'w' };
        if from == NONE {
            AutoGuiMove::Token { token, at: to as usize }
        } else {
            AutoGuiMove::Arrow { from: from as usize, to: to as usize }
        }
    }

    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        if self.mill_wins() {
            None
        } else {
            Some(self)
        }
    }
}

impl MultipartMoves for Morris {
    /// 003 6.4.4: a move that forms a mill is its placement or arrow, then a click on the piece
    /// to remove.
    /// A flight (its arrows would lie on top of each other along a line) is the piece, then
    /// where it goes.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (from, to, removed) = Self::decode(mv);
        let q = Parts::of(p);
        let (mover, _, mover_hand, _) = q.sides();
        let flight = from != NONE && self.flying && mover_hand == 0 && mover.count_ones() == 3;
        let mut parts = if flight {
            vec![
                AutoGuiMove::Token { token: 's', at: from as usize },
                AutoGuiMove::Token { token: 't', at: to as usize },
            ]
        } else if removed != NONE {
            vec![self.autogui_move(p, mv)]
        } else {
            return Vec::new();
        };
        if removed != NONE {
            parts.push(AutoGuiMove::Token { token: 'r', at: removed as usize });
        }
        parts
    }
}
