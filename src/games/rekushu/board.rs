//! `Board`: the Rekushu position, its incremental Zobrist hash, and make/unmake.
//!
//! State: stones by colour (rows), total occupancy as rows and as columns (the
//! transpose, for "nearest stone above/below" queries), claimed tiles by owner
//! and their union, the "dead" vertices (every touching tile claimed), the side
//! to move, each player's last placement and its mirror-type set, tile counts,
//! and a history of per-ply records that makes `unmake_move` exact.
//!
//! Invariants: `occ == stones[0] | stones[1]`, `occ_cols` is its transpose and
//! `stone_cols[s]` the transpose of `stones[s]`,
//! `claimed == tiles[0] | tiles[1]`, `dead` is a function of `claimed`, `hash ==
//! compute_hash()`, `ply() == history.len()`. `make_move` does not allocate while
//! the history stays within the capacity reserved by `new` (a bound on game length).

use crate::core::{Game, Side, Status};

use super::grid::{Grid, span};
use super::mirror::{self, Types};
use super::moves::{Move, Rect};
use super::zobrist::{KEYS, POINTS, index};

/// What `unmake_move` needs that the move itself does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    /// The mover's last placement and type set before this move.
    prev_last: u16,
    prev_types: Types,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub(crate) n: usize,
    pub(crate) stones: [Grid; 2],
    pub(crate) occ: Grid,
    pub(crate) occ_cols: Grid,
    /// Each colour's stones transposed (bit `y` of `rows[x]`), for the
    /// evaluation's column scans.
    pub(crate) stone_cols: [Grid; 2],
    pub(crate) tiles: [Grid; 2],
    pub(crate) claimed: Grid,
    pub(crate) dead: Grid,
    pub(crate) side: Side,
    /// Each player's last placement (`mirror::pack`, or `mirror::NONE`).
    pub(crate) last: [u16; 2],
    /// The mirror-type set of each player's last placement.
    pub(crate) types: [Types; 2],
    pub(crate) counts: [u32; 2],
    pub(crate) hash: u64,
    pub(crate) history: Vec<Record>,
}

impl Board {
    pub const MIN_SIZE: usize = 4;
    pub const MAX_SIZE: usize = 26;
    /// Points of the largest board.
    pub const MAX_POINTS: usize = Self::MAX_SIZE * Self::MAX_SIZE;

    /// An empty `size`×`size` board with Black to move; `None` outside 4..=26.
    pub fn new(size: usize) -> Option<Board> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return None;
        }
        // Each ply adds a stone; each claim removes four and takes at least one tile.
        let max_plies = size * size + 4 * (size - 1) * (size - 1);
        let board = Board {
            n: size,
            stones: [Grid::default(); 2],
            occ: Grid::default(),
            occ_cols: Grid::default(),
            stone_cols: [Grid::default(); 2],
            tiles: [Grid::default(); 2],
            claimed: Grid::default(),
            dead: Grid::default(),
            side: Side::First,
            last: [mirror::NONE; 2],
            types: [0; 2],
            counts: [0; 2],
            hash: 0,
            history: Vec::with_capacity(max_plies),
        };
        Some(Board {
            hash: board.compute_hash(),
            ..board
        })
    }

    pub fn size(&self) -> usize {
        self.n
    }

    /// Claimed tiles, indexed by `Side::index()` (Black = 0).
    pub fn tile_counts(&self) -> [u32; 2] {
        self.counts
    }

    /// The stone at 0-based (x, y), if any.
    pub fn stone_at(&self, x: usize, y: usize) -> Option<Side> {
        if x >= self.n || y >= self.n {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|s| self.stones[s.index()].get(x, y))
    }

    /// The owner of tile (x, y) (lower-left vertex (x, y), 0-based), if claimed.
    pub fn tile_owner(&self, x: usize, y: usize) -> Option<Side> {
        if x + 1 >= self.n || y + 1 >= self.n {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|s| self.tiles[s.index()].get(x, y))
    }

    /// The last placement of `side` (0-based vertex) and its mirror-type set
    /// (bits `mirror::H`, `V`, `R`).
    pub fn last_placement(&self, side: Side) -> Option<((usize, usize), u8)> {
        let v = self.last[side.index()];
        (v != mirror::NONE).then(|| (mirror::unpack(v), self.types[side.index()]))
    }

    /// The hash computed from scratch; equals `Game::hash()`.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..2 {
            for y in 0..self.n {
                for x in 0..self.n {
                    if self.stones[s].get(x, y) {
                        h ^= KEYS.stone[s][index(x, y)];
                    }
                    if self.tiles[s].get(x, y) {
                        h ^= KEYS.tile[s][index(x, y)];
                    }
                }
            }
            h ^= KEYS.last[s][self.last_key(s)];
            h ^= KEYS.types[s][self.types[s] as usize];
        }
        if self.side == Side::Second {
            h ^= KEYS.side;
        }
        h
    }

    #[inline]
    fn last_key(&self, s: usize) -> usize {
        let v = self.last[s];
        if v == mirror::NONE {
            POINTS
        } else {
            let (x, y) = mirror::unpack(v);
            index(x, y)
        }
    }

    /// All-vertices mask of one line.
    #[inline]
    pub(crate) fn full(&self) -> u32 {
        span(0, self.n - 1)
    }

    #[inline]
    fn put_stone(&mut self, s: usize, x: usize, y: usize) {
        self.stones[s].set(x, y);
        self.occ.set(x, y);
        self.occ_cols.set(y, x);
        self.stone_cols[s].set(y, x);
        self.hash ^= KEYS.stone[s][index(x, y)];
    }

    #[inline]
    fn take_stone(&mut self, s: usize, x: usize, y: usize) {
        self.stones[s].clear(x, y);
        self.occ.clear(x, y);
        self.occ_cols.clear(y, x);
        self.stone_cols[s].clear(y, x);
        self.hash ^= KEYS.stone[s][index(x, y)];
    }

    /// Claims (or, called again, unclaims) the tiles of `r` for `s`. The tiles
    /// must all be unclaimed (claim) or all `s`'s (unclaim), so XOR toggles them.
    fn toggle_tiles(&mut self, s: usize, r: Rect) {
        let mask = span(r.x1 as usize, r.x2 as usize - 1);
        for y in r.y1 as usize..r.y2 as usize {
            self.tiles[s].rows[y] ^= mask;
            self.claimed.rows[y] ^= mask;
            for x in r.x1 as usize..r.x2 as usize {
                self.hash ^= KEYS.tile[s][index(x, y)];
            }
        }
        for y in r.y1 as usize..=r.y2 as usize {
            self.dead.rows[y] = self.dead_row(y);
        }
    }

    /// The dead vertices of row y: every existing touching tile is claimed.
    fn dead_row(&self, y: usize) -> u32 {
        let n = self.n;
        // Tiles that do not exist (beyond the border) count as claimed.
        let outside = !span(0, n - 2);
        let below = if y >= 1 {
            self.claimed.rows[y - 1] | outside
        } else {
            u32::MAX
        };
        let above = if y + 1 < n {
            self.claimed.rows[y] | outside
        } else {
            u32::MAX
        };
        // Vertex x touches tiles x - 1 and x of each tile row.
        let both = |t: u32| t & (t << 1 | 1);
        both(below) & both(above) & self.full()
    }

    /// Empty vertices the side to move may place on (rules.md §1.3).
    pub(crate) fn placement_rows(&self) -> [u32; 26] {
        let full = self.full();
        let mut rows = [0u32; 26];
        for (y, row) in rows.iter_mut().enumerate().take(self.n) {
            *row = !self.occ.rows[y] & !self.dead.rows[y] & full;
        }
        let me = self.side.index();
        let forbid = self.types[me];
        let opp_last = self.last[1 - me];
        if forbid != 0 && opp_last != mirror::NONE {
            let (ox, oy) = mirror::unpack(opp_last);
            for t in [mirror::H, mirror::V, mirror::R] {
                if forbid & t != 0 {
                    let (x, y) = mirror::image(t, ox, oy, self.n);
                    rows[y] &= !(1 << x);
                }
            }
        }
        rows
    }

    /// Whether the side to move has at least one legal placement.
    pub(crate) fn has_placement(&self) -> bool {
        self.placement_rows().iter().any(|&r| r != 0)
    }

    /// The mirror types a placement at (x, y) by the side to move would have.
    #[inline]
    pub(crate) fn types_for(&self, x: usize, y: usize) -> Types {
        mirror::types_of(x, y, self.last[1 - self.side.index()], self.n)
    }
}

impl Board {
    /// Gives the turn to the opponent without a move: the searcher's null
    /// move (the rules have no pass). The mirror state stays as it is, as if
    /// the mover had placed nothing; applied twice it restores the position.
    pub(crate) fn toggle_side(&mut self) {
        self.side = self.side.opp();
        self.hash ^= KEYS.side;
    }
}

impl Game for Board {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn make_move(&mut self, mv: Move) {
        let me = self.side.index();
        let (x, y) = mv.vertex();
        let types = self.types_for(x, y);
        self.history.push(Record {
            prev_last: self.last[me],
            prev_types: self.types[me],
        });
        self.put_stone(me, x, y);
        self.hash ^= KEYS.last[me][self.last_key(me)] ^ KEYS.types[me][self.types[me] as usize];
        self.last[me] = mirror::pack(x, y);
        self.types[me] = types;
        self.hash ^= KEYS.last[me][self.last_key(me)] ^ KEYS.types[me][types as usize];
        if let Some(r) = mv.claim() {
            for (cx, cy) in r.corners() {
                self.take_stone(me, cx, cy);
            }
            self.toggle_tiles(me, r);
            self.counts[me] += r.area();
        }
        self.side = self.side.opp();
        self.hash ^= KEYS.side;
    }

    fn unmake_move(&mut self, mv: Move) {
        let Some(rec) = self.history.pop() else {
            return;
        };
        self.side = self.side.opp();
        self.hash ^= KEYS.side;
        let me = self.side.index();
        let (x, y) = mv.vertex();
        if let Some(r) = mv.claim() {
            self.counts[me] -= r.area();
            self.toggle_tiles(me, r);
            for (cx, cy) in r.corners() {
                self.put_stone(me, cx, cy);
            }
        }
        self.take_stone(me, x, y);
        self.hash ^= KEYS.last[me][self.last_key(me)] ^ KEYS.types[me][self.types[me] as usize];
        self.last[me] = rec.prev_last;
        self.types[me] = rec.prev_types;
        self.hash ^= KEYS.last[me][self.last_key(me)] ^ KEYS.types[me][self.types[me] as usize];
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn status(&self) -> Status {
        if self.has_placement() {
            return Status::Ongoing;
        }
        let [b, w] = self.counts;
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Status::Won(Side::First),
            std::cmp::Ordering::Less => Status::Won(Side::Second),
            std::cmp::Ordering::Equal => Status::Draw,
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    /// `occ_cols` and `stone_cols` are the transposes of `occ` and `stones`.
    fn assert_transposes(b: &Board) {
        for y in 0..b.n {
            for x in 0..b.n {
                assert_eq!(b.occ.get(x, y), b.occ_cols.get(y, x));
                for s in 0..2 {
                    assert_eq!(b.stones[s].get(x, y), b.stone_cols[s].get(y, x));
                }
            }
        }
    }

    #[test]
    fn column_grids_follow_make_and_unmake() {
        let mut rng = SplitMix64::new(7);
        let mut moves = Vec::new();
        for size in [5, 8, 13] {
            let mut b = Board::new(size).expect("a legal size");
            let mut played = Vec::new();
            while b.status() == Status::Ongoing && played.len() < 300 {
                moves.clear();
                b.generate_moves(&mut moves);
                // Claims first when there are any, so stones also leave.
                let claims: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.claim().is_some())
                    .collect();
                let pool = if claims.is_empty() { &moves } else { &claims };
                let mv = pool[rng.below(pool.len() as u64) as usize];
                b.make_move(mv);
                played.push(mv);
                assert_transposes(&b);
            }
            while let Some(mv) = played.pop() {
                b.unmake_move(mv);
                assert_transposes(&b);
            }
            assert_eq!(b, Board::new(size).expect("a legal size"));
        }
    }
}
