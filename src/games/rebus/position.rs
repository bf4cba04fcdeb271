//! The position: visible tiles, history boxes, locks, protection, side to move,
//! with bit sets kept in step for move generation, and make/unmake.
//!
//! Invariants: every square holds one visible tile; `own`, `sym`, `boxed`,
//! `buried_stars`, `locked` always agree with the arrays and the lock list;
//! `hash` equals [`Position::compute_hash`]. Make pushes one undo record on a
//! preallocated stack, so playing a move does not allocate.

use super::SQUARES;
use super::locks::{Lock, Locks, covered_edges};
use super::square::{ALL, Square, SquareSet, Squares, bit};
use super::tile::{Owner, STAR, Symbol, Tile};
use super::zobrist;
use super::{DEFAULT_TURN_LIMIT, Move, MoveKind, WINNING_COUNT};
use crate::core::{Side, Status};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Undo {
    hash: u64,
    protected: SquareSet,
    locked: SquareSet,
    locks: Locks,
    /// The visible symbol the capture took (all captured squares showed it).
    target_symbol: Symbol,
}

/// A REBUS Core position (rules.md §2). Build it with [`Position::standard`],
/// [`Position::random`] or [`Position::from_position_string`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) visible: [Tile; SQUARES],
    pub(crate) boxes: [Option<Tile>; SQUARES],
    /// Squares whose visible tile is Red's, Blue's, Green's.
    pub(crate) own: [SquareSet; 3],
    /// Squares whose visible tile shows each symbol.
    pub(crate) sym: [SquareSet; 12],
    /// Squares with a full history box.
    pub(crate) boxed: SquareSet,
    /// Squares whose buried tile is a Red Star, a Blue Star.
    pub(crate) buried_stars: [SquareSet; 2],
    pub(crate) locked: SquareSet,
    pub(crate) locks: Locks,
    pub(crate) protected: SquareSet,
    pub(crate) side: Side,
    pub(crate) yielded: Option<Side>,
    pub(crate) ply: u32,
    pub(crate) turn_limit: u32,
    pub(crate) hash: u64,
    pub(crate) undo: Vec<Undo>,
}

impl Position {
    /// A position from raw parts; the caller has validated them.
    pub(crate) fn from_parts(
        visible: [Tile; SQUARES],
        boxes: [Option<Tile>; SQUARES],
        side: Side,
        locks: &[Lock],
        protected: SquareSet,
    ) -> Position {
        let mut p = Position {
            visible,
            boxes,
            own: [0; 3],
            sym: [0; 12],
            boxed: 0,
            buried_stars: [0; 2],
            locked: 0,
            locks: Locks::default(),
            protected,
            side,
            yielded: None,
            ply: 0,
            turn_limit: DEFAULT_TURN_LIMIT,
            hash: 0,
            undo: Vec::with_capacity(512),
        };
        for sq in 0..SQUARES as u8 {
            let t = visible[sq as usize];
            p.own[t.owner.index()] |= bit(sq);
            p.sym[t.symbol as usize] |= bit(sq);
            if let Some(b) = boxes[sq as usize] {
                p.boxed |= bit(sq);
                if b.symbol == STAR && b.owner != Owner::Green {
                    p.buried_stars[b.owner.index()] |= bit(sq);
                }
            }
        }
        for &l in locks {
            p.locks.insert(l);
            p.locked |= l.mask();
        }
        p.hash = p.compute_hash();
        p
    }

    /// The hash computed from scratch; always equal to [`crate::core::Game::hash`].
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::side(self.side);
        for sq in 0..SQUARES as u8 {
            h ^= zobrist::visible(sq, self.visible[sq as usize]);
            if let Some(b) = self.boxes[sq as usize] {
                h ^= zobrist::buried(sq, b);
            }
        }
        for l in self.locks.as_slice() {
            h ^= zobrist::lock(l.origin, l.size);
        }
        for sq in Squares(self.protected) {
            h ^= zobrist::protected(sq);
        }
        if let Some(y) = self.yielded {
            h ^= zobrist::yielded(y);
        }
        h
    }

    /// Squares controlled, indexed by [`Side::index`] (Red = 0).
    pub fn counts(&self) -> [u32; 2] {
        [self.own[0].count_ones(), self.own[1].count_ones()]
    }

    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// Sets the turn limit in plies since setup; 0 means none.
    pub fn set_turn_limit(&mut self, plies: u32) {
        self.turn_limit = plies;
    }

    /// Plies left before the turn limit (0 once it is reached), `None` without
    /// a limit.
    pub fn plies_left(&self) -> Option<u32> {
        (self.turn_limit != 0).then(|| self.turn_limit.saturating_sub(self.ply))
    }

    /// The visible tile on a square.
    pub fn tile(&self, sq: Square) -> Tile {
        self.visible[sq as usize % SQUARES]
    }

    /// The buried tile of a square's history box, if any.
    pub fn buried(&self, sq: Square) -> Option<Tile> {
        self.boxes[sq as usize % SQUARES]
    }

    /// The locks, sorted by origin square.
    pub fn locks(&self) -> &[Lock] {
        self.locks.as_slice()
    }

    /// The squares protected during this turn.
    pub fn protected(&self) -> SquareSet {
        self.protected
    }

    /// The squares that are locked.
    pub fn locked(&self) -> SquareSet {
        self.locked
    }

    /// Active Stars of a side.
    pub fn active_stars(&self, side: Side) -> u32 {
        (self.own[side.index()] & self.sym[STAR as usize]).count_ones()
    }

    #[inline]
    fn put_visible(&mut self, sq: Square, t: Tile) {
        self.visible[sq as usize] = t;
        self.own[t.owner.index()] |= bit(sq);
        self.sym[t.symbol as usize] |= bit(sq);
    }

    #[inline]
    fn take_visible(&mut self, sq: Square) -> Tile {
        let t = self.visible[sq as usize];
        self.own[t.owner.index()] &= !bit(sq);
        self.sym[t.symbol as usize] &= !bit(sq);
        t
    }

    #[inline]
    fn put_box(&mut self, sq: Square, t: Tile) {
        self.boxes[sq as usize] = Some(t);
        self.boxed |= bit(sq);
        if t.symbol == STAR && t.owner != Owner::Green {
            self.buried_stars[t.owner.index()] |= bit(sq);
        }
    }

    #[inline]
    fn take_box(&mut self, sq: Square) -> Option<Tile> {
        let t = self.boxes[sq as usize].take();
        self.boxed &= !bit(sq);
        self.buried_stars[0] &= !bit(sq);
        self.buried_stars[1] &= !bit(sq);
        t
    }

    fn set_protected(&mut self, new: SquareSet) {
        for sq in Squares(self.protected ^ new) {
            self.hash ^= zobrist::protected(sq);
        }
        self.protected = new;
    }

    /// Breaks every lock whose opponent covers enough outside edges (rules.md §2.6).
    fn break_locks(&mut self) {
        if self.locks.is_empty() {
            return;
        }
        let own = self.own;
        let mut broken: SquareSet = 0;
        let mut hash = self.hash;
        self.locks.retain(|l| {
            let other = own[l.side().opp().index()];
            if covered_edges(l.origin, l.size, other) >= l.threshold() {
                broken |= l.mask();
                hash ^= zobrist::lock(l.origin, l.size);
                false
            } else {
                true
            }
        });
        self.hash = hash;
        self.locked &= !broken;
    }

    /// Plays a legal move (see [`crate::core::Game::make_move`]).
    pub(crate) fn do_move(&mut self, mv: Move) {
        let mut undo = Undo {
            hash: self.hash,
            protected: self.protected,
            locked: self.locked,
            locks: self.locks,
            target_symbol: 0,
        };
        let me = self.side;
        match mv.kind() {
            MoveKind::Capture {
                symbol,
                squares,
                nominee,
            } => {
                let attacker = Tile::new(Owner::of(me), symbol);
                let squares = squares & ALL;
                for q in Squares(squares) {
                    let old = self.take_visible(q);
                    undo.target_symbol = old.symbol;
                    self.hash ^= zobrist::visible(q, old);
                    let restored = match self.take_box(q) {
                        Some(b) => {
                            self.hash ^= zobrist::buried(q, b);
                            b
                        }
                        None => {
                            self.put_box(q, old);
                            self.hash ^= zobrist::buried(q, old);
                            attacker
                        }
                    };
                    self.put_visible(q, restored);
                    self.hash ^= zobrist::visible(q, restored);
                }
                let nom = nominee.map_or(0, |n| bit(n % SQUARES as u8));
                self.set_protected(squares | nom);
            }
            MoveKind::Lock { origin, size } => {
                let mask = super::locks::block_mask(origin, size);
                let first = self.visible[origin as usize].symbol;
                let uniform = mask & !self.sym[first as usize] == 0;
                self.locks.insert(Lock {
                    origin,
                    size,
                    owner: me.index() as u8,
                    uniform,
                });
                self.locked |= mask;
                self.hash ^= zobrist::lock(origin, size);
                self.set_protected(0);
            }
            MoveKind::Pass => self.set_protected(0),
            // rules.md §2.7: a yield is a turn like any other (the protection
            // that guarded against the yielder ends, locks are checked), and
            // then the game is over.
            MoveKind::Yield => {
                self.set_protected(0);
                self.yielded = Some(me);
                self.hash ^= zobrist::yielded(me);
            }
        }
        self.break_locks();
        self.undo.push(undo);
        self.side = me.opp();
        self.hash ^= zobrist::side(me) ^ zobrist::side(me.opp());
        self.ply += 1;
    }

    /// Takes back `mv`, the last move made.
    pub(crate) fn undo_move(&mut self, mv: Move) {
        let Some(undo) = self.undo.pop() else {
            return;
        };
        let me = self.side.opp();
        self.side = me;
        self.ply = self.ply.saturating_sub(1);
        match mv.kind() {
            MoveKind::Capture { squares, .. } => {
                let before = Tile::new(Owner::of(me.opp()), undo.target_symbol);
                for q in Squares(squares & ALL) {
                    if self.boxes[q as usize].is_some() {
                        // The box was empty before: its tile was the visible one.
                        self.take_visible(q);
                        if let Some(b) = self.take_box(q) {
                            self.put_visible(q, b);
                        }
                    } else {
                        // The box was full and got restored; the opponent's tile showed.
                        let restored = self.take_visible(q);
                        self.put_box(q, restored);
                        self.put_visible(q, before);
                    }
                }
            }
            MoveKind::Yield => self.yielded = None,
            MoveKind::Lock { .. } | MoveKind::Pass => {}
        }
        self.hash = undo.hash;
        self.protected = undo.protected;
        self.locked = undo.locked;
        self.locks = undo.locks;
    }

    /// Who leads on control, for the scored ends of rules.md §2.7.
    fn scored(&self) -> Status {
        let c = self.counts();
        match c[0].cmp(&c[1]) {
            std::cmp::Ordering::Greater => Status::Won(Side::First),
            std::cmp::Ordering::Less => Status::Won(Side::Second),
            std::cmp::Ordering::Equal => Status::Draw,
        }
    }

    /// Why a finished game ended, checked in the order of
    /// `Position::compute_status`: `yield`, `51`, `turn-limit`, `no-captures`.
    pub fn end_reason(&self) -> &'static str {
        if self.yielded.is_some() {
            "yield"
        } else if self.counts().into_iter().max().unwrap_or(0) >= WINNING_COUNT {
            "51"
        } else if self.plies_left() == Some(0) {
            "turn-limit"
        } else {
            "no-captures"
        }
    }

    /// rules.md §2.7: yield, 51, the turn limit, no captures.
    pub(crate) fn compute_status(&self) -> Status {
        if let Some(y) = self.yielded {
            return Status::Won(y.opp());
        }
        let c = self.counts();
        if c[0] >= WINNING_COUNT {
            return Status::Won(Side::First);
        }
        if c[1] >= WINNING_COUNT {
            return Status::Won(Side::Second);
        }
        if self.plies_left() == Some(0) {
            return self.scored();
        }
        if !self.has_capture(self.side, self.protected) && !self.has_capture(self.side.opp(), 0) {
            return self.scored();
        }
        Status::Ongoing
    }
}
