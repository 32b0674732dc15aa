//! Topitop's pictures: the 9 slots, the panel of components to place, the pass button.

use super::*;

impl ImageGui for Topitop {
    /// A sand-colored 3x3 board, the buildings drawn as their components stacked, and the
    /// components still to be placed beside the board with their counts.
    fn theme(&self) -> ImageAutoGui {
        let mut centers = grid_centers(3, 3, CELL);
        centers.extend((0..4).map(|k| (340.0, 45.0 + 75.0 * k as f64)));
        centers.extend((0..4).map(|k| (410.0, 45.0 + 75.0 * k as f64)));
        centers.push((375.0, 330.0));
        let mut background = crate::themes::grid_board(3, 3, CELL, "#f3e3bd", "#8a7450");
        background += r##"<rect x="300" width="150" height="360" fill="#ece6d6"/><rect y="300" width="300" height="60" fill="#ece6d6"/>"##;
        let mut entities: Vec<Entity> = (1..10u8)
            .map(|b| Entity { token: char::from(TOKENS[b as usize]), svg: building(b) })
            .collect();
        entities.extend(crate::themes::digits(0.6, "#333"));
        ImageAutoGui {
            theme: "sand",
            size: (450.0, 360.0),
            centers,
            background,
            entities,
            piece_size: 0.7 * CELL,
            arrow_width: 10.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        let left = self.remaining(&q.counts());
        let cells = q.cells.iter().map(|&c| char::from(TOKENS[c as usize]));
        let panel =
            (0..4).map(|k| if left[k] > 0 { char::from(TOKENS[PLACED[k] as usize]) } else { '-' });
        let counts = left.map(|n| if n > 0 { char::from_digit(n, 10).unwrap_or('-') } else { '-' });
        autogui_position(self.to_move(p), cells.chain(panel).chain(counts).chain(['-']))
    }
    /// A slide is an arrow; a placement the component's token on its slot (the page asks for
    /// the component first, see [`MultipartMoves::move_parts`]); a pass a button by the panel.
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        if mv == PASS {
            return AutoGuiMove::Token { token: 'p', at: PASS_AT };
        }
        let (kind, from, to) = Self::decode(mv);
        match kind {
            0 => AutoGuiMove::Arrow { from, to },
            k => AutoGuiMove::Token {
                token: char::from(TOKENS[PLACED[k as usize - 1] as usize]),
                at: to,
            },
        }
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for Topitop {
    /// 003 6.4.5: a placement is two clicks, the component on the panel, then the empty slot;
    /// a slide is one arrow.
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (kind, _, to) = Self::decode(mv);
        if mv == PASS || kind == 0 {
            return Vec::new();
        }
        let k = kind as usize - 1;
        vec![
            AutoGuiMove::Token { token: 's', at: PANEL + k },
            AutoGuiMove::Token { token: 't', at: to },
        ]
    }
}
