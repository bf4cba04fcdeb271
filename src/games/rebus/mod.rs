//! REBUS Core (rules.md §2): exact, fast rules.
//!
//! Layout, one concern per file:
//! - [`square`]: squares, `u128` square sets, shifts and names;
//! - [`tile`]: owners, symbols, tiles and their letters (§2.1);
//! - [`position`]: the state, make/unmake, status (§2.7);
//! - [`moves`]: the 16-byte move type and its readable [`MoveKind`];
//! - [`movegen`]: captures, locks, pass, and the multiplying move counter;
//! - [`chains`]: distinct chain sets (§2.4) and canonical walks (§2.8);
//! - [`locks`]: lock blocks, outside edges, breaking (§2.6);
//! - [`threats`]: what a side could capture this turn, as square sets (for
//!   the evaluation and the search's move selection);
//! - [`searchgen`]: the moves the searcher tries (nominations that can matter,
//!   capped chains below `mike`);
//! - [`eval`]: the static evaluation as features, ordering hints, noisy moves;
//! - [`evalparams`]: the evaluation's feature names and weights, the hints;
//! - [`nnue`]: the learned evaluation (its net in `nets/`);
//! - [`notation`]: move parsing and canonical tokens (§2.8);
//! - [`fen`]: the position string (§2.9) and its validation errors;
//! - [`deal`]: the standard setup (§2.2) and the seeded random deal;
//! - [`display`]: the text board;
//! - [`zobrist`]: hash keys.
//!
//! A capture move is identified by (attacker symbol, set of captured squares,
//! nominated square), as rules.md §2.8 requires; locks by (origin, size).

pub mod chains;
pub mod deal;
pub mod display;
pub mod eval;
pub mod evalparams;
pub mod fen;
pub mod locks;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod position;
pub mod searchgen;
pub mod square;
pub mod threats;
pub mod tile;
pub mod zobrist;

pub use fen::PositionError;
pub use moves::{Move, MoveKind};
pub use position::Position;
pub use square::{Square, SquareSet};

use crate::core::{Game, Side, Status};

/// The default turn limit in plies (rules.md §2.7).
pub const DEFAULT_TURN_LIMIT: u32 = 400;
/// Files and ranks of the board.
pub const SIDE: usize = 9;
/// Squares of the 9×9 board.
pub const SQUARES: usize = SIDE * SIDE;
/// Controlling this many squares wins at once (rules.md §2.7).
pub const WINNING_COUNT: u32 = 51;
/// A side may yield only to an opponent controlling at least this many
/// squares (rules.md §2.7).
pub const YIELD_AT: u32 = 41;

impl Game for Position {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.compute_status() != Status::Ongoing {
            return;
        }
        self.gen_moves(moves);
    }

    fn make_move(&mut self, mv: Move) {
        self.do_move(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.undo_move(mv);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn status(&self) -> Status {
        self.compute_status()
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn count_moves(&self) -> u64 {
        if self.compute_status() != Status::Ongoing {
            return 0;
        }
        self.count_all_moves()
    }

    fn count_moves_capped(&self, cap: u64) -> u64 {
        if self.compute_status() != Status::Ongoing {
            return 0;
        }
        self.count_all_moves_capped(cap)
    }

    fn generate_moves_until(
        &self,
        moves: &mut Vec<Move>,
        keep_going: &mut dyn FnMut() -> bool,
    ) -> bool {
        if self.compute_status() != Status::Ongoing {
            return true;
        }
        let mut ask = |_| keep_going();
        self.gen_moves_until(moves, &mut chains::Cutoff::new(&mut ask))
    }
}
