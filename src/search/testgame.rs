//! A small but non-trivial game for testing and benchmarking the searcher while
//! the real games are written: Connect-Four on a 6-wide, 5-high board.
//!
//! Bitboards with a guard row (stride `HEIGHT + 1`), Zobrist hashing from
//! [`SplitMix64`], an evaluation counting open "threat" cells, and noisy moves
//! = immediate wins and blocks, so quiescence has real work to do. A position's
//! ply equals its stone count, so every transposition is reached at one ply.

use crate::core::{Game, MoveError, Notation, Side, SplitMix64, Status};
use crate::search::eval::{EvalParams, Evaluate};

pub const WIDTH: usize = 6;
pub const HEIGHT: usize = 5;
const STRIDE: usize = HEIGHT + 1;
const CELLS: usize = WIDTH * STRIDE;

const fn bottom_mask() -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH {
        m |= 1 << (c * STRIDE);
        c += 1;
    }
    m
}
const BOTTOM: u64 = bottom_mask();
/// Every playable cell (no guard bits).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

const fn zobrist() -> [[u64; CELLS]; 2] {
    let mut keys = [[0; CELLS]; 2];
    let mut rng = SplitMix64::new(0xC0FF_EE00_4C34);
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < CELLS {
            keys[s][i] = rng.next();
            i += 1;
        }
        s += 1;
    }
    keys
}
const KEYS: [[u64; CELLS]; 2] = zobrist();

/// Column weights: central stones take part in more lines.
const CENTER: [i32; WIDTH] = [0, 2, 4, 4, 2, 0];

/// A move: the column (0-based) a stone is dropped into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drop(pub u8);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    stones: [u64; 2],
    heights: [u8; WIDTH],
    ply: usize,
    hash: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        Self::new()
    }
}

fn has_four(b: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&d| {
        let m = b & (b >> d);
        m & (m >> (2 * d)) != 0
    })
}

/// Cells that would complete a four for the stones `p` (occupied or not).
fn winning_cells(p: u64) -> u64 {
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for d in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let mut t = (p << d) & (p << (2 * d));
        r |= t & (p << (3 * d));
        r |= t & (p >> d);
        t = (p >> d) & (p >> (2 * d));
        r |= t & (p << d);
        r |= t & (p >> (3 * d));
    }
    r & BOARD
}

impl ConnectFour {
    pub fn new() -> Self {
        ConnectFour {
            stones: [0; 2],
            heights: [0; WIDTH],
            ply: 0,
            hash: 0,
        }
    }

    /// Plays the columns of `moves` ("a".."f" tokens, e.g. "c d c"); `None` if any is
    /// malformed or illegal.
    pub fn from_moves(moves: &str) -> Option<Self> {
        let mut g = ConnectFour::new();
        for token in moves.split_whitespace() {
            let mv = g.parse_move(token).ok()?;
            g.make_move(mv);
        }
        Some(g)
    }

    /// The positions of the bench signature.
    pub fn bench_positions() -> Vec<ConnectFour> {
        ["", "c d c d b", "c c d e b d d a"]
            .iter()
            .filter_map(|moves| ConnectFour::from_moves(moves))
            .collect()
    }

    fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    fn cell(&self, col: usize) -> usize {
        col * STRIDE + self.heights[col] as usize
    }

    /// Cells a stone can be dropped onto now.
    fn playable(&self) -> u64 {
        (self.occupied() + BOTTOM) & BOARD
    }

    /// The hash computed from scratch (for tests of the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (s, keys) in KEYS.iter().enumerate() {
            for (i, key) in keys.iter().enumerate() {
                if self.stones[s] >> i & 1 == 1 {
                    h ^= key;
                }
            }
        }
        h
    }
}

impl Game for ConnectFour {
    type Move = Drop;

    fn side_to_move(&self) -> Side {
        if self.ply.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Drop>) {
        if self.status() != Status::Ongoing {
            return;
        }
        moves.extend(
            (0..WIDTH)
                .filter(|&c| (self.heights[c] as usize) < HEIGHT)
                .map(|c| Drop(c as u8)),
        );
    }

    fn make_move(&mut self, mv: Drop) {
        let col = mv.0 as usize;
        if col >= WIDTH || self.heights[col] as usize >= HEIGHT {
            return; // illegal: unspecified but harmless
        }
        let side = self.side_to_move().index();
        let cell = self.cell(col);
        self.stones[side] |= 1 << cell;
        self.hash ^= KEYS[side][cell];
        self.heights[col] += 1;
        self.ply += 1;
    }

    fn unmake_move(&mut self, mv: Drop) {
        let col = mv.0 as usize;
        if col >= WIDTH || self.heights[col] == 0 || self.ply == 0 {
            return;
        }
        self.ply -= 1;
        self.heights[col] -= 1;
        let side = self.side_to_move().index();
        let cell = self.cell(col);
        self.stones[side] &= !(1 << cell);
        self.hash ^= KEYS[side][cell];
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn status(&self) -> Status {
        if has_four(self.stones[0]) {
            Status::Won(Side::First)
        } else if has_four(self.stones[1]) {
            Status::Won(Side::Second)
        } else if self.ply == WIDTH * HEIGHT {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    fn ply(&self) -> usize {
        self.ply
    }
}

impl Notation for ConnectFour {
    fn parse_move(&self, text: &str) -> Result<Drop, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        let col = match t.as_bytes() {
            [c @ b'a'..=b'z'] if ((c - b'a') as usize) < WIDTH => (c - b'a') as usize,
            _ => return Err(MoveError::Syntax(format!("could not parse move '{text}'"))),
        };
        if self.status() != Status::Ongoing {
            return Err(MoveError::Illegal(format!("{text}: the game is over")));
        }
        if self.heights[col] as usize >= HEIGHT {
            return Err(MoveError::Illegal(format!("{text}: column is full")));
        }
        Ok(Drop(col as u8))
    }

    fn format_move(&self, mv: Drop) -> String {
        char::from(b'a' + mv.0).to_string()
    }
}

impl Evaluate for ConnectFour {
    fn evaluate(&self, _params: &EvalParams) -> i32 {
        let me = self.side_to_move().index();
        let empty = BOARD & !self.occupied();
        let threats = |s: usize| (winning_cells(self.stones[s]) & empty).count_ones() as i32;
        let center = |s: usize| {
            (0..WIDTH)
                .map(|c| CENTER[c] * ((self.stones[s] >> (c * STRIDE)) & 0x1F).count_ones() as i32)
                .sum::<i32>()
        };
        100 * (threats(me) - threats(1 - me)) + 10 * (center(me) - center(1 - me))
    }

    fn move_hint(&self, mv: Drop) -> i32 {
        let col = mv.0 as usize;
        if col >= WIDTH {
            return 0;
        }
        let bit = 1u64 << self.cell(col);
        let me = self.side_to_move().index();
        if winning_cells(self.stones[me]) & bit != 0 {
            2000
        } else if winning_cells(self.stones[1 - me]) & bit != 0 {
            1000
        } else {
            CENTER[col]
        }
    }

    fn is_noisy(&self, mv: Drop) -> bool {
        let col = mv.0 as usize;
        if col >= WIDTH {
            return false;
        }
        let bit = 1u64 << self.cell(col);
        let hot = winning_cells(self.stones[0]) | winning_cells(self.stones[1]);
        hot & self.playable() & bit != 0
    }

    fn move_to_u32(&self, mv: Drop) -> u32 {
        mv.0 as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::perft::perft;

    #[test]
    fn perft_small_depths() {
        let mut g = ConnectFour::new();
        assert_eq!(perft(&mut g, 1), 6);
        assert_eq!(perft(&mut g, 2), 36);
        assert_eq!(perft(&mut g, 3), 216);
    }

    #[test]
    fn vertical_and_diagonal_wins() {
        let g = ConnectFour::from_moves("a b a b a b a").expect("legal");
        assert_eq!(g.status(), Status::Won(Side::First));
        let g = ConnectFour::from_moves("a b b c c d c d d f d").expect("legal");
        assert_eq!(g.status(), Status::Won(Side::First));
        let g = ConnectFour::from_moves("a b c d").expect("legal");
        assert_eq!(g.status(), Status::Ongoing);
    }

    #[test]
    fn no_wrap_across_columns() {
        // Five stones high fill column a; the next stone in b must not join them.
        let g = ConnectFour::from_moves("a a a b a c a b").expect("legal");
        assert_eq!(g.status(), Status::Ongoing);
    }

    #[test]
    fn hash_incremental_equals_scratch_and_unmake_restores() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..200 {
            let mut g = ConnectFour::new();
            let mut moves = Vec::new();
            loop {
                moves.clear();
                g.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let before = g.clone();
                g.make_move(mv);
                assert_eq!(g.hash(), g.hash_from_scratch());
                g.unmake_move(mv);
                assert_eq!(g, before);
                g.make_move(mv);
            }
        }
    }

    #[test]
    fn notation_rejects_bad_text() {
        let g = ConnectFour::new();
        assert!(matches!(g.parse_move("z"), Err(MoveError::Syntax(_))));
        assert!(matches!(g.parse_move(""), Err(MoveError::Syntax(_))));
        assert_eq!(g.parse_move("C"), Ok(Drop(2)));
        let full = ConnectFour::from_moves("a a a a a").expect("legal");
        assert!(matches!(full.parse_move("a"), Err(MoveError::Illegal(_))));
        assert_eq!(g.format_move(Drop(5)), "f");
    }

    #[test]
    fn noisy_moves_are_wins_and_blocks() {
        // First has three in column a: a is a win for First, so a block for Second.
        let g = ConnectFour::from_moves("a b a b a").expect("legal");
        // Second to move: blocking a is noisy and hinted; c is quiet.
        assert!(g.is_noisy(Drop(0)));
        assert!(!g.is_noisy(Drop(2)));
        assert!(g.move_hint(Drop(0)) > g.move_hint(Drop(2)));
    }
}
