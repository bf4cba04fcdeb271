//! Owners, symbols and tiles (rules.md §2.1) with their letters.

use crate::core::Side;

/// Who owns a tile: Red, Blue, or neutral Green. The discriminant is the index
/// into per-owner arrays; Red and Blue match [`Side::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    Red = 0,
    Blue = 1,
    Green = 2,
}

impl Owner {
    pub const ALL: [Owner; 3] = [Owner::Red, Owner::Blue, Owner::Green];

    #[inline]
    pub const fn of(side: Side) -> Owner {
        match side {
            Side::First => Owner::Red,
            Side::Second => Owner::Blue,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn letter(self) -> char {
        match self {
            Owner::Red => 'r',
            Owner::Blue => 'b',
            Owner::Green => 'g',
        }
    }

    pub fn from_letter(c: char) -> Option<Owner> {
        match c {
            'r' => Some(Owner::Red),
            'b' => Some(Owner::Blue),
            'g' => Some(Owner::Green),
            _ => None,
        }
    }
}

/// The twelve symbols: nine player symbols (indices 0..9, Star first), then
/// the three Green ones.
pub type Symbol = u8;

pub const STAR: Symbol = 0;
pub const NUM_SYMBOLS: usize = 12;
pub const NUM_PLAYER_SYMBOLS: usize = 9;
/// Symbol letters in index order: S W P T O Q G J K (player), H F X (Green).
pub const SYMBOL_LETTERS: [char; NUM_SYMBOLS] =
    ['S', 'W', 'P', 'T', 'O', 'Q', 'G', 'J', 'K', 'H', 'F', 'X'];
pub const SYMBOL_UNICODE: [char; NUM_SYMBOLS] =
    ['★', 'Ω', 'π', '▲', '●', '■', 'G', 'J', 'K', 'Θ', 'Φ', 'Ξ'];

pub fn symbol_from_letter(c: char) -> Option<Symbol> {
    SYMBOL_LETTERS
        .iter()
        .position(|&l| l == c)
        .map(|i| i as Symbol)
}

#[inline]
pub const fn is_player_symbol(s: Symbol) -> bool {
    (s as usize) < NUM_PLAYER_SYMBOLS
}

/// A visible or buried tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: Owner,
    pub symbol: Symbol,
}

impl Tile {
    pub const fn new(owner: Owner, symbol: Symbol) -> Tile {
        Tile { owner, symbol }
    }

    /// The two-letter token, `rS`.
    pub fn token(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(self.owner.letter());
        s.push(SYMBOL_LETTERS[self.symbol as usize]);
        s
    }

    /// Owner/symbol consistency: Green shows only H/F/X, Red and Blue only the
    /// nine player symbols.
    pub const fn is_consistent(self) -> bool {
        match self.owner {
            Owner::Green => !is_player_symbol(self.symbol),
            _ => is_player_symbol(self.symbol),
        }
    }
}
