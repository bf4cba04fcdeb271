//! The two players. Each game names them (Black/White, Red/Blue); the engine and
//! the searcher only need "first" and "second".

/// A player. `First` moves first (Black in Rekushu, Red in REBUS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[inline]
    pub const fn opp(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}
