//! Fuchs und Henne's pictures: the board's points as AutoGUI centers, a capture's jumps as the
//! parts of one move, a removal and a rescue as tokens.

use perfectplay_core::{AutoGuiMove, Game, ImageAutoGui, ImageGui, Move, MultipartMoves, Position};

use super::{FuchsUndHenne, Parts, CAPTURE, PUT_BACK, TAKE_OFF};
use crate::cross;
use crate::cross::jumps::Seen;

/// A hen (`H`).
const HEN: &str = r##"<circle r="0.36" fill="#f3d36b" stroke="#7a5a10" stroke-width="0.05"/><path d="M-0.12,-0.3L0,-0.42L0.12,-0.3Z" fill="#c62828"/>"##;
/// A fox taken off, the missed capture's penalty (`x`).
const TAKEN_OFF: &str = r##"<path d="M-0.25,-0.25L0.25,0.25M0.25,-0.25L-0.25,0.25" stroke="#b71c1c" stroke-width="0.12"/>"##;
/// A fox put back, the rescue (`f`).
const PUT_BACK_FOX: &str =
    r##"<circle r="0.3" fill="#c8562a" fill-opacity="0.5" stroke="#4a1a08" stroke-width="0.05"/>"##;

impl ImageGui for FuchsUndHenne {
    fn theme(&self) -> ImageAutoGui {
        cross::theme(&self.layout.board, &[('H', HEN), ('x', TAKEN_OFF), ('f', PUT_BACK_FOX)])
    }
    fn autogui_position(&self, p: Position) -> String {
        cross::autogui_rows(self.to_move(p), &self.rows(Parts::of(p)))
    }
    /// A step is an arrow, a capture starts with the arrow of its first jump, a removal is a
    /// cross on the fox and a rescue a fox's shadow on the point.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let (from, to) = self
                .capture(q, mv.0 & !CAPTURE)
                .map_or((0, 0), |(fox, path, _)| (u32::from(fox), path[0]));
            return AutoGuiMove::Arrow { from: from as usize, to: to as usize };
        }
        if mv.0 & TAKE_OFF != 0 {
            return AutoGuiMove::Token { token: 'x', at: (mv.0 & 63) as usize };
        }
        if mv.0 & PUT_BACK != 0 {
            return AutoGuiMove::Token { token: 'f', at: (mv.0 & 63) as usize };
        }
        AutoGuiMove::Arrow { from: (mv.0 >> 6 & 63) as usize, to: (mv.0 & 63) as usize }
    }
    /// Where a capture leaves too few hens to go on, no capture has a second part.
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        (self.hens > self.goal).then_some(self)
    }
}

impl MultipartMoves for FuchsUndHenne {
    /// A capture is one arrow per jump (003 chapter 6); where the fox could jump on but stops, a
    /// last click on the fox ends the move. A single jump after which none could follow is one
    /// arrow, as a step is.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let q = Parts::of(p);
        let Some((fox, path, hens)) =
            (mv.0 & CAPTURE != 0).then(|| self.capture(q, mv.0 & !CAPTURE)).flatten()
        else {
            return Vec::new();
        };
        let end = path[path.len() - 1];
        let mut could_go_on = false;
        if hens.count_ones() >= self.goal {
            let mut seen = Seen::with(end, hens);
            let mut at = vec![end];
            self.chase(q, fox).jump_on(hens, &mut at, &mut seen, &mut |_, _| could_go_on = true);
        }
        cross::chain_parts(usize::from(fox), &path, could_go_on)
    }
}
