//! The move type: one `u128`, 16 bytes, `Copy`.
//!
//! A capture is identified by (attacker symbol, set of captured squares,
//! nominated square) as rules.md §2.8 requires; a lock by (origin, size). The
//! encoding is canonical, so derived equality and hashing are move identity.
//! Bits 0..81 hold the captured squares; bits 96..104 the attacker symbol (or a
//! lock's origin); bits 104..112 the nominee + 1 (0 = none) or a lock's size;
//! bits 112..120 the kind. Read it through [`Move::kind`].

use super::square::{ALL, Square, SquareSet};
use super::tile::Symbol;

/// A REBUS Core move (capture, lock, pass or yield).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u128);

/// The readable form of a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A capture turn: the attacker symbol copied, the set of captured squares
    /// (first capture and chain steps), and the optional nominated square.
    Capture {
        symbol: Symbol,
        squares: SquareSet,
        nominee: Option<Square>,
    },
    /// Locking the `size`×`size` block whose lower-left square is `origin`.
    Lock {
        origin: Square,
        size: u8,
    },
    Pass,
    /// Never generated; legal only as rules.md §2.7 says.
    Yield,
}

const KIND_CAPTURE: u128 = 0;
const KIND_LOCK: u128 = 1;
const KIND_PASS: u128 = 2;
const KIND_YIELD: u128 = 3;

impl Move {
    pub const PASS: Move = Move(KIND_PASS << 112);
    pub const YIELD: Move = Move(KIND_YIELD << 112);

    #[inline]
    pub const fn capture(symbol: Symbol, squares: SquareSet, nominee: Option<Square>) -> Move {
        let nom = match nominee {
            Some(n) => n as u128 + 1,
            None => 0,
        };
        Move((squares & ALL) | (symbol as u128) << 96 | nom << 104 | KIND_CAPTURE << 112)
    }

    #[inline]
    pub const fn lock(origin: Square, size: u8) -> Move {
        Move((origin as u128) << 96 | (size as u128) << 104 | KIND_LOCK << 112)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        let a = (self.0 >> 96) as u8;
        let b = (self.0 >> 104) as u8;
        match (self.0 >> 112) as u8 as u128 {
            KIND_CAPTURE => MoveKind::Capture {
                symbol: a,
                squares: self.0 & ALL,
                nominee: if b == 0 { None } else { Some(b - 1) },
            },
            KIND_LOCK => MoveKind::Lock { origin: a, size: b },
            KIND_PASS => MoveKind::Pass,
            _ => MoveKind::Yield,
        }
    }

    /// The packed bits (for hashing into compact codes).
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The captured squares (empty for other moves).
    #[inline]
    pub const fn squares(self) -> SquareSet {
        if (self.0 >> 112) as u8 as u128 == KIND_CAPTURE {
            self.0 & ALL
        } else {
            0
        }
    }

    /// The same capture without its nomination (other moves unchanged).
    #[inline]
    pub const fn without_nominee(self) -> Move {
        if (self.0 >> 112) as u8 as u128 == KIND_CAPTURE {
            Move(self.0 & !(0xFFu128 << 104))
        } else {
            self
        }
    }
}

impl From<MoveKind> for Move {
    fn from(k: MoveKind) -> Move {
        match k {
            MoveKind::Capture {
                symbol,
                squares,
                nominee,
            } => Move::capture(symbol, squares, nominee),
            MoveKind::Lock { origin, size } => Move::lock(origin, size),
            MoveKind::Pass => Move::PASS,
            MoveKind::Yield => Move::YIELD,
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_size() {
        assert_eq!(std::mem::size_of::<Move>(), 16);
        for k in [
            MoveKind::Capture {
                symbol: 11,
                squares: ALL,
                nominee: Some(80),
            },
            MoveKind::Capture {
                symbol: 0,
                squares: 1,
                nominee: None,
            },
            MoveKind::Lock {
                origin: 60,
                size: 3,
            },
            MoveKind::Pass,
            MoveKind::Yield,
        ] {
            assert_eq!(Move::from(k).kind(), k);
        }
    }
}
