//! REBUS evaluation (baseline): the difference in controlled squares, from the
//! side to move's point of view, in centi-squares. Move ordering and richer
//! terms come with the evaluation work of the searcher issue.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::core::Game;
use crate::core::eval::{EvalParams, Evaluate};
use crate::games::rebus::{Move, Position};

impl Evaluate for Position {
    fn evaluate(&self, _params: &EvalParams) -> i32 {
        let counts = self.counts();
        let me = self.side_to_move().index();
        (counts[me] as i32 - counts[1 - me] as i32) * 100
    }

    fn move_to_u32(&self, mv: Move) -> u32 {
        // A move is 128 bits; a fixed-key hash keeps codes distinct in practice,
        // and the searcher only trusts a code that matches a generated move.
        let mut h = DefaultHasher::new();
        mv.hash(&mut h);
        h.finish() as u32
    }
}
