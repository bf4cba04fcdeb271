//! The learned Rekushu evaluation (`setoption eval learned`): its inputs, the
//! embedded net, and the accumulators kept from the changed windows.
//!
//! **Inputs.** Boards run from 4×4 to 26×26, so no input names an absolute
//! point. The board is read through its **windows**: each tile with its four
//! corner vertices. A window's pattern is the state of the four vertices
//! (empty, own stone, opponent stone) and of the tile (unclaimed, own,
//! opponent's): 3⁵ = 243 patterns. Each window is turned so that its nearest
//! board edges are to the lower left (mirrored across the middle column and
//! row where it lies beyond them; a window on the middle column or row of an
//! even board is read as it stands), and classed by its distance from those
//! edges, 0, 1, or 2 and more tiles on each axis: 9 classes. One input per
//! (class, pattern) counts the windows showing it (the empty unclaimed window
//! counts for nothing); one more input per board size says the size. The
//! dense inputs are the 14 features of the linear evaluation
//! ([`Board::eval_features`]): the claim race, threats, lead and phase that
//! no small window can see.
//!
//! **Points of view.** "Own" is Black's in one accumulator and White's in the
//! other; the net reads the side to move's first.
//!
//! **Updates.** The positions carry no accumulator: the evaluation keeps one
//! pair per thread, with the stones and tiles it was made for, and on each
//! call updates only the windows around the vertices and tiles that differ
//! (in a search, the last position scored is a close relative). A new board
//! size, or more than half the windows changed, makes it start afresh.

use std::cell::RefCell;
use std::sync::LazyLock;

use crate::core::Side;
use crate::core::eval::WIN_BOUND;
use crate::core::nnue::{Accumulator, Net};

use super::board::Board;
use super::evalparams::FEATURES;
use super::grid::{Grid, bits, span};

/// The game number in a net file's header.
pub const GAME: u32 = 0;
/// The version of the inputs below; a net records the one it was trained on.
pub const FEATURE_SET: u32 = 1;
/// Window patterns: four vertices and a tile, three states each.
pub const PATTERNS: usize = 243;
/// Window classes: distance from the nearest edges, 0, 1, 2+ per axis.
pub const CLASSES: usize = 9;
/// Board sizes, one input each.
pub const SIZES: usize = Board::MAX_SIZE - Board::MIN_SIZE + 1;
/// All sparse inputs.
pub const INPUTS: usize = CLASSES * PATTERNS + SIZES;
/// Dense inputs a net may take: the linear evaluation's features.
pub const DENSE: usize = FEATURES;

/// Whether Rekushu plays the learned evaluation when the level and
/// `setoption eval` leave the choice to the game: yes, since rekushu-001 beat
/// the linear evaluation in matches on 12×12 and 20×20 (the commit that set
/// this has the numbers).
pub const LEARNED_BY_DEFAULT: bool = true;

/// The net the engine plays with (`nets/`, made by `tools/training`).
pub const NET_FILE: &str = "rekushu-001.nnue";
static NET_BYTES: &[u8] = include_bytes!("nets/rekushu-001.nnue");

/// The embedded net, read on first use; `None` if it does not fit the inputs
/// above (a test makes sure it does; the evaluation then stays linear).
pub static NET: LazyLock<Option<Net>> =
    LazyLock::new(|| Net::embedded(NET_BYTES, GAME, FEATURE_SET, INPUTS, DENSE));

/// Pattern seen by the other side: own and opponent swapped in every digit.
const SWAP: [u8; PATTERNS] = {
    let mut t = [0u8; PATTERNS];
    let mut p = 0;
    while p < PATTERNS {
        let (mut q, mut rest, mut mul) = (0, p, 1);
        while mul < PATTERNS {
            let d = rest % 3;
            let e = if d == 0 { 0 } else { 3 - d };
            q += e * mul;
            rest /= 3;
            mul *= 3;
        }
        t[p] = q as u8;
        p += 1;
    }
    t
};

/// The state of vertex (x, y): 0 empty, 1 Black, 2 White.
#[inline]
fn vertex(stones: &[Grid; 2], x: usize, y: usize) -> usize {
    (stones[0].rows[y] >> x & 1) as usize + 2 * (stones[1].rows[y] >> x & 1) as usize
}

/// Black's view of window (tile) (x, y) of an n×n board: its input, or
/// `None` for an empty unclaimed window.
#[inline]
fn window(n: usize, stones: &[Grid; 2], tiles: &[Grid; 2], x: usize, y: usize) -> Option<u16> {
    let last = n - 2;
    let (flip_x, flip_y) = (x > last - x, y > last - y);
    let (dx, dy) = (x.min(last - x).min(2), y.min(last - y).min(2));
    let v = |cx: usize, cy: usize| {
        vertex(
            stones,
            x + (cx ^ flip_x as usize),
            y + (cy ^ flip_y as usize),
        )
    };
    let t = (tiles[0].rows[y] >> x & 1) as usize + 2 * (tiles[1].rows[y] >> x & 1) as usize;
    let p = (((v(0, 0) * 3 + v(1, 0)) * 3 + v(0, 1)) * 3 + v(1, 1)) * 3 + t;
    (p != 0).then_some(((dx * 3 + dy) * PATTERNS + p) as u16)
}

/// A Black-view input as `view` sees it.
#[inline]
fn for_view(i: u16, view: Side) -> u16 {
    match view {
        Side::First => i,
        Side::Second => {
            let (class, p) = (i as usize / PATTERNS, i as usize % PATTERNS);
            (class * PATTERNS + SWAP[p] as usize) as u16
        }
    }
}

/// The input that says the board size.
#[inline]
fn size_input(n: usize) -> u16 {
    (CLASSES * PATTERNS + n - Board::MIN_SIZE) as u16
}

/// Every active input of `b` from `view`'s side (an input repeats once per
/// window showing it): what the accumulator sums, and what a trainer reads.
pub fn features(b: &Board, view: Side, out: &mut Vec<u16>) {
    out.clear();
    let n = b.n;
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            if let Some(i) = window(n, &b.stones, &b.tiles, x, y) {
                out.push(for_view(i, view));
            }
        }
    }
    out.push(size_input(n));
}

/// The accumulators of one thread and the position they were made for.
struct Cache {
    /// The net the accumulators were made with (its address and its first
    /// layer's; the engine has one net per game, held for the whole run).
    net: (usize, usize),
    /// Board size; 0 before the first use.
    n: usize,
    stones: [Grid; 2],
    tiles: [Grid; 2],
    /// Black's view, White's view.
    acc: [Accumulator; 2],
}

impl Cache {
    const fn new() -> Cache {
        Cache {
            net: (0, 0),
            n: 0,
            stones: [Grid { rows: [0; 26] }; 2],
            tiles: [Grid { rows: [0; 26] }; 2],
            acc: [
                Accumulator {
                    v: [0; crate::core::nnue::MAX_HIDDEN],
                },
                Accumulator {
                    v: [0; crate::core::nnue::MAX_HIDDEN],
                },
            ],
        }
    }

    fn refresh(&mut self, b: &Board, net: &Net) {
        let mut f = Vec::with_capacity(b.n * b.n);
        for (view, acc) in Side::BOTH.into_iter().zip(self.acc.iter_mut()) {
            features(b, view, &mut f);
            net.refresh(acc, f.iter().copied());
        }
        self.net = key(net);
        self.remember(b);
    }

    fn remember(&mut self, b: &Board) {
        self.n = b.n;
        self.stones = b.stones;
        self.tiles = b.tiles;
    }

    /// Brings the accumulators to `b`, window by changed window.
    fn update(&mut self, b: &Board, net: &Net) {
        let n = b.n;
        if self.n != n || self.net != key(net) {
            return self.refresh(b, net);
        }
        let tile_mask = span(0, n - 2);
        let mut dirty = Grid::default();
        for y in 0..n {
            let dv = (self.stones[0].rows[y] ^ b.stones[0].rows[y])
                | (self.stones[1].rows[y] ^ b.stones[1].rows[y]);
            if dv != 0 {
                // Vertex x is a corner of tiles x − 1 and x, in rows y − 1 and y.
                let w = (dv | dv >> 1) & tile_mask;
                if y < n - 1 {
                    dirty.rows[y] |= w;
                }
                if y > 0 {
                    dirty.rows[y - 1] |= w;
                }
            }
            if y < n - 1 {
                dirty.rows[y] |= ((self.tiles[0].rows[y] ^ b.tiles[0].rows[y])
                    | (self.tiles[1].rows[y] ^ b.tiles[1].rows[y]))
                    & tile_mask;
            }
        }
        let count = dirty.count() as usize;
        if count == 0 {
            return;
        }
        if 2 * count > (n - 1) * (n - 1) {
            return self.refresh(b, net);
        }
        for y in 0..n - 1 {
            for x in bits(dirty.rows[y]) {
                let old = window(n, &self.stones, &self.tiles, x, y);
                let new = window(n, &b.stones, &b.tiles, x, y);
                if old == new {
                    continue;
                }
                for (view, acc) in Side::BOTH.into_iter().zip(self.acc.iter_mut()) {
                    if let Some(i) = old {
                        net.sub(acc, for_view(i, view));
                    }
                    if let Some(i) = new {
                        net.add(acc, for_view(i, view));
                    }
                }
            }
        }
        self.remember(b);
    }
}

/// What tells nets apart in a cache.
fn key(net: &Net) -> (usize, usize) {
    (net as *const Net as usize, net.w1.as_ptr() as usize)
}

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

impl Board {
    /// The learned evaluation for the side to move, centi-tiles; the linear
    /// one if the embedded net cannot be used.
    pub(crate) fn learned_eval(&self) -> Option<i32> {
        let net = NET.as_ref()?;
        Some(self.eval_with_net(net))
    }

    /// The value of this position under `net` (which must fit the inputs),
    /// through this thread's accumulators.
    pub fn eval_with_net(&self, net: &Net) -> i32 {
        let dense = if net.dense > 0 {
            self.eval_features()
        } else {
            [0; FEATURES]
        };
        let me = self.side.index();
        let score = CACHE.with(|cell| match cell.try_borrow_mut() {
            Ok(mut c) => {
                c.update(self, net);
                net.output(&c.acc[me], &c.acc[1 - me], &dense)
            }
            Err(_) => {
                let mut c = Box::new(Cache::new());
                c.refresh(self, net);
                net.output(&c.acc[me], &c.acc[1 - me], &dense)
            }
        });
        score.clamp(-(WIN_BOUND - 1), WIN_BOUND - 1)
    }

    /// The value under `net` from scratch (no accumulator kept): what the
    /// tests compare [`Board::eval_with_net`] with.
    pub fn eval_with_net_fresh(&self, net: &Net) -> i32 {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        features(self, self.side, &mut mine);
        features(self, self.side.opp(), &mut theirs);
        let dense = self.eval_features();
        net.evaluate(&mine, &theirs, &dense)
            .clamp(-(WIN_BOUND - 1), WIN_BOUND - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::core::rng::SplitMix64;

    #[test]
    fn the_swap_table_swaps_own_and_opponent() {
        for p in 0..PATTERNS {
            assert_eq!(SWAP[SWAP[p] as usize] as usize, p);
        }
        // One own stone at the first corner, nothing else: 1·81.
        assert_eq!(SWAP[81], 162);
        assert_eq!(SWAP[0], 0);
    }

    /// The inputs do not name absolute points: a position and its mirror
    /// images have the same inputs (up to order). (Odd sizes: an even board's
    /// middle windows are read as they stand.)
    #[test]
    fn mirrored_positions_have_the_same_inputs() {
        let mut rng = SplitMix64::new(5);
        let mut moves = Vec::new();
        for size in [5, 9, 13] {
            let mut b = Board::new(size).expect("a legal size");
            for _ in 0..size * 2 {
                moves.clear();
                b.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                b.make_move(moves[rng.below(moves.len() as u64) as usize]);
            }
            let mirror = |flip_x: bool, flip_y: bool| {
                let mut m = b.clone();
                let f = |c: usize, flip: bool| if flip { size - 1 - c } else { c };
                let ft = |c: usize, flip: bool| if flip { size - 2 - c } else { c };
                for s in 0..2 {
                    m.stones[s] = Grid::default();
                    m.tiles[s] = Grid::default();
                    for y in 0..size {
                        for x in 0..size {
                            if b.stones[s].get(x, y) {
                                m.stones[s].set(f(x, flip_x), f(y, flip_y));
                            }
                            if x + 1 < size && y + 1 < size && b.tiles[s].get(x, y) {
                                m.tiles[s].set(ft(x, flip_x), ft(y, flip_y));
                            }
                        }
                    }
                }
                m
            };
            let mut base = Vec::new();
            features(&b, Side::First, &mut base);
            base.sort_unstable();
            for (fx, fy) in [(true, false), (false, true), (true, true)] {
                let mut other = Vec::new();
                features(&mirror(fx, fy), Side::First, &mut other);
                other.sort_unstable();
                assert_eq!(base, other, "{size}x{size} flip {fx} {fy}");
            }
        }
    }
}
