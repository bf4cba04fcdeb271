//! The contract between a game's rules and the generic searcher.
//!
//! It lives in `core` (not `search`) so that the rules modules implement it
//! without importing the searcher: layers point one way only.

use crate::core::Side;

/// Whether a game is over, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Won(Side),
    Draw,
}

/// A game position made for engines: a `Copy` move, generation into a buffer the
/// caller owns and reuses, make/unmake, and an incrementally updated 64-bit hash.
///
/// Invariants every implementation keeps:
/// - `generate_moves` lists every legal move exactly once (in the rules' sense of
///   move identity) and nothing else; it lists nothing when `status()` is not
///   `Ongoing`.
/// - `unmake_move(m)` right after `make_move(m)` restores the exact state,
///   hash included.
/// - `hash()` equals a hash computed from scratch over everything that affects
///   legality and the result.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static;

    fn side_to_move(&self) -> Side;

    /// Appends the legal moves of the side to move to `moves` (which is not cleared).
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move. Behaviour on an illegal move is unspecified (but must not
    /// be undefined behaviour); the protocol checks legality first.
    fn make_move(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move made.
    fn unmake_move(&mut self, mv: Self::Move);

    fn hash(&self) -> u64;

    fn status(&self) -> Status;

    /// Plies played since the position was set up.
    fn ply(&self) -> usize;

    /// The number of legal moves. Games override this with a counter that does
    /// not build the list, which makes perft's last ply cheap.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// [`Game::count_moves`] when it is at most `cap`; otherwise any number
    /// above `cap`. Games whose lists can be huge override it to stop
    /// counting once past `cap`.
    fn count_moves_capped(&self, _cap: u64) -> u64 {
        self.count_moves()
    }

    /// [`Game::generate_moves`] for a list that may take long to make (a REBUS
    /// cluster has millions of chain sets): the game asks `keep_going` now and
    /// then, and once it answers false stops early with part of the list and
    /// returns false. Default: the whole list, without asking.
    fn generate_moves_until(
        &self,
        moves: &mut Vec<Self::Move>,
        _keep_going: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.generate_moves(moves);
        true
    }
}

/// Why a move text was refused: malformed text, or a well-formed move the rules
/// forbid here. Both carry a message that quotes the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in this game's notation (`could not parse move 'Z99'`).
    #[error("{0}")]
    Syntax(String),
    /// A move, but not a legal one now (`K10 is occupied`).
    #[error("{0}")]
    Illegal(String),
}

/// The text form of moves (rules.md §1.7, §2.8).
pub trait Notation: Game {
    /// Parses `text` (case-insensitive) as a move of the side to move and checks it
    /// is legal in this position. Never panics, whatever the text.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical token of a legal move, in the position before it is made.
    fn format_move(&self, mv: Self::Move) -> String;
}
