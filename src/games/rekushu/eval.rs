//! Rekushu evaluation (baseline): the claimed-tile difference from the side to
//! move's point of view, in centi-tiles.

use crate::core::Game;
use crate::core::eval::{EvalParams, Evaluate};
use crate::games::rekushu::{Board, Move};

impl Evaluate for Board {
    fn evaluate(&self, _params: &EvalParams) -> i32 {
        let tiles = self.tile_counts();
        let me = self.side_to_move().index();
        (tiles[me] as i32 - tiles[1 - me] as i32) * 100
    }

    fn is_noisy(&self, mv: Move) -> bool {
        mv.claim().is_some()
    }

    fn move_to_u32(&self, mv: Move) -> u32 {
        let (x, y) = mv.vertex();
        let mut code = (x as u32) | (y as u32) << 5;
        if let Some(r) = mv.claim() {
            code |= 1 << 10;
            code |= (r.x1 as u32) << 11
                | (r.y1 as u32) << 16
                | (r.x2 as u32) << 21
                | (r.y2 as u32) << 26;
        }
        code
    }
}
