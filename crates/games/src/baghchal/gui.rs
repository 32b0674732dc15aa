//! Bagh-Chal's pictures: the board's points and the counters of goats under it.

use super::*;

/// AutoGUI centers: the board's points, then the counters: goats to place (tens, units) and
/// goats captured, under the board.
impl ImageGui for BaghChal {
    /// The board's points and lines, tigers and goats, and 003 5.5.1's counters as digits.
    fn theme(&self) -> ImageAutoGui {
        let mut entities = vec![
            Entity {
                token: 'T',
                svg: r##"<circle r="0.44" fill="#e8a33a" stroke="#4a2a08" stroke-width="0.05"/><path d="M-0.3,-0.12L-0.12,-0.05M-0.3,0.1L-0.12,0.05M0.3,-0.12L0.12,-0.05M0.3,0.1L0.12,0.05M-0.08,-0.3L0,-0.18L0.08,-0.3" stroke="#2a1605" stroke-width="0.07" fill="none" stroke-linecap="round"/>"##.into(),
            },
            Entity {
                token: 'G',
                svg: r##"<circle r="0.36" fill="#f7f4ea" stroke="#555" stroke-width="0.05"/><circle cx="-0.12" cy="-0.06" r="0.05" fill="#333"/><circle cx="0.12" cy="-0.06" r="0.05" fill="#333"/>"##.into(),
            },
        ];
        entities.extend(crate::themes::digits(0.7, "#333"));
        let mut theme = crate::themes::points_theme(&self.layout.board, entities);
        let (w, h) = theme.size;
        let row = h + 0.5 * crate::themes::CELL;
        theme.centers.extend([(0.25 * w, row), (0.25 * w + 40.0, row), (0.75 * w, row)]);
        theme.size = (w, h + crate::themes::CELL);
        theme.background += &format!(
            r##"<rect y="{h}" width="{w}" height="100" fill="#e4d6b2"/>{}{}"##,
            crate::themes::caption(0.25 * w + 20.0, h + 22.0, "to place"),
            crate::themes::caption(0.75 * w, h + 22.0, "captured")
        );
        theme
    }
    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        let n = self.layout.side * self.layout.side;
        let cells = (0..n).map(|i| char::from(b"-GT"[q.cell(i) as usize]));
        let digit = |d: u32| char::from_digit(d, 10).unwrap_or('-');
        let tens = if q.hand >= 10 { digit(q.hand / 10) } else { '-' };
        let counters = [tens, digit(q.hand % 10), digit(self.captured(q))];
        perfectplay_core::autogui::autogui_position(self.to_move(p), cells.chain(counters))
    }
    /// A placement is one click on its point; a move (a capture too) an arrow.
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (from, to) = Self::decode(mv);
        if from == PLACE {
            AutoGuiMove::Token { token: 'G', at: to as usize }
        } else {
            AutoGuiMove::Arrow { from: from as usize, to: to as usize }
        }
    }
}
