//! Fox and Geese's pictures: the board's points as AutoGUI centers, a capture's jumps as the
//! parts of one move.

use perfectplay_core::{AutoGuiMove, Game, ImageAutoGui, ImageGui, Move, MultipartMoves, Position};

use super::{FoxAndGeese, Parts, CAPTURE, MIN_GEESE};
use crate::cross;

/// A goose (`G`).
const GOOSE: &str = r##"<circle r="0.36" fill="#f7f4ea" stroke="#555" stroke-width="0.05"/><path d="M-0.1,-0.02L0.2,0.04L-0.1,0.1Z" fill="#e69a1c"/>"##;

impl ImageGui for FoxAndGeese {
    fn autogui_position(&self, p: Position) -> String {
        cross::autogui_rows(self.to_move(p), &self.rows(Parts::of(p)))
    }
    fn theme(&self) -> ImageAutoGui {
        cross::theme(&self.layout.board, &[('G', GOOSE)])
    }
    /// A step is an arrow; a capture starts with the arrow of its first jump.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let to = self.capture(q, mv.0 & !CAPTURE).map_or(q.fox, |c| c.0[0]);
            return AutoGuiMove::Arrow { from: q.fox as usize, to: to as usize };
        }
        AutoGuiMove::Arrow { from: (mv.0 >> 6) as usize, to: (mv.0 & 63) as usize }
    }
    /// With 4 geese a capture ends the game, so no capture has a second part.
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        (self.geese > MIN_GEESE).then_some(self)
    }
}

impl MultipartMoves for FoxAndGeese {
    /// A capture is one arrow per jump (003 chapter 6); where the fox could jump on but stops, a
    /// last click on the fox ends the move. A single jump after which none could follow is one
    /// arrow, as a step is.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let q = Parts::of(p);
        let Some((path, geese)) =
            (mv.0 & CAPTURE != 0).then(|| self.capture(q, mv.0 & !CAPTURE)).flatten()
        else {
            return Vec::new();
        };
        let end = path[path.len() - 1];
        let after = Parts { geese, fox: end, fox_to_move: true };
        let mut could_go_on = false;
        if geese.count_ones() >= MIN_GEESE {
            self.captures(after, |_, _| could_go_on = true);
        }
        cross::chain_parts(q.fox as usize, &path, could_go_on)
    }
}
