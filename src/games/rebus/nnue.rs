//! The learned REBUS evaluation (`setoption eval learned`): its inputs, the
//! embedded net, and the accumulators kept from the changed squares.
//!
//! **Inputs**, for each of the 81 squares, seen from one side (its own home
//! ranks at the bottom: Blue's view turns the board over, rank 9 becoming
//! rank 1):
//! - the visible tile: owner (own, opponent, Green) × symbol (12): 36;
//! - the buried tile, if any: the same 36;
//! - locked, under an own or an opponent lock: 2;
//! - protected this turn: 1;
//!
//! 75 per square, 6,075 in all, and 9 more for how near the turn limit is
//! (plies left, in steps of eight up to 64 and more or no limit). The dense
//! inputs are the 22 features of the linear evaluation
//! ([`Position::eval_features`]): threats, chains, Stars and locks, which
//! need more than one square to see. The level's lock bonus is added on top,
//! as the linear evaluation adds it.
//!
//! **Points of view.** One accumulator sees the board as Red, the other as
//! Blue; the net reads the side to move's first.
//!
//! **Updates.** The positions carry no accumulator: the evaluation keeps one
//! pair per thread, with the squares it was made for, and on each call
//! updates only the squares that differ (in a search, the last position
//! scored is a close relative).

use std::cell::RefCell;
use std::sync::LazyLock;

use crate::core::Side;
use crate::core::eval::{EvalParams, WIN_BOUND};
use crate::core::nnue::{Accumulator, MAX_HIDDEN, Net};

use super::evalparams::FEATURES;
use super::square::{Square, SquareSet, Squares, bit};
use super::tile::{NUM_SYMBOLS, Owner, Tile};
use super::{Position, SQUARES};

/// The game number in a net file's header.
pub const GAME: u32 = 1;
/// The version of the inputs below; a net records the one it was trained on.
pub const FEATURE_SET: u32 = 1;
/// Inputs per square.
pub const PER_SQUARE: usize = 75;
const VISIBLE: usize = 0;
const BURIED: usize = 36;
const LOCKED: usize = 72;
const PROTECTED: usize = 74;
/// Steps of plies left before the turn limit.
pub const LATE_STEPS: usize = 9;
/// All sparse inputs.
pub const INPUTS: usize = SQUARES * PER_SQUARE + LATE_STEPS;
/// Dense inputs a net may take: the linear evaluation's features.
pub const DENSE: usize = FEATURES;

/// Whether REBUS plays the learned evaluation when the level and
/// `setoption eval` leave the choice to the game: not yet (no net has beaten
/// the linear evaluation in a match).
pub const LEARNED_BY_DEFAULT: bool = false;

/// The net the engine plays with (`nets/`, made by `tools/training`).
pub const NET_FILE: &str = "rebus-001.nnue";
static NET_BYTES: &[u8] = include_bytes!("nets/rebus-001.nnue");

/// The embedded net, read on first use; `None` if it does not fit the inputs
/// above (a test makes sure it does; the evaluation then stays linear).
pub static NET: LazyLock<Option<Net>> =
    LazyLock::new(|| Net::embedded(NET_BYTES, GAME, FEATURE_SET, INPUTS, DENSE));

/// A tile's owner (own 0, opponent 1, Green 2) and symbol from `view`.
#[inline]
fn tile_code(t: Tile, view: Side) -> usize {
    let rel = match (t.owner, view) {
        (Owner::Green, _) => 2,
        (Owner::Red, Side::First) | (Owner::Blue, Side::Second) => 0,
        _ => 1,
    };
    rel * NUM_SYMBOLS + t.symbol as usize
}

/// The square as `view` sees it (Blue's view turns the board over).
#[inline]
fn view_square(sq: Square, view: Side) -> usize {
    match view {
        Side::First => sq as usize,
        Side::Second => (8 - sq as usize / 9) * 9 + sq as usize % 9,
    }
}

/// What the inputs of one square are made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SquareState {
    visible: Tile,
    buried: Option<Tile>,
    locked: bool,
    protected: bool,
}

impl SquareState {
    #[inline]
    fn of(p: &Position, sq: Square) -> SquareState {
        SquareState {
            visible: p.visible[sq as usize],
            buried: p.boxes[sq as usize],
            locked: p.locked & bit(sq) != 0,
            protected: p.protected & bit(sq) != 0,
        }
    }

    /// Calls `f` with each active input of the square from `view`.
    #[inline]
    fn inputs(self, sq: Square, view: Side, mut f: impl FnMut(u16)) {
        let base = view_square(sq, view) * PER_SQUARE;
        let visible = tile_code(self.visible, view);
        f((base + VISIBLE + visible) as u16);
        if let Some(b) = self.buried {
            f((base + BURIED + tile_code(b, view)) as u16);
        }
        if self.locked && self.visible.owner != Owner::Green {
            f((base + LOCKED + visible / NUM_SYMBOLS) as u16);
        }
        if self.protected {
            f((base + PROTECTED) as u16);
        }
    }
}

/// The input saying how near the turn limit is.
#[inline]
fn late_input(p: &Position) -> u16 {
    let step = p
        .plies_left()
        .map_or(LATE_STEPS - 1, |left| (left.min(64) / 8) as usize);
    (SQUARES * PER_SQUARE + step) as u16
}

/// Every active input of `p` from `view`'s side: what the accumulator sums,
/// and what a trainer reads.
pub fn features(p: &Position, view: Side, out: &mut Vec<u16>) {
    out.clear();
    for sq in 0..SQUARES as Square {
        SquareState::of(p, sq).inputs(sq, view, |i| out.push(i));
    }
    out.push(late_input(p));
}

/// The accumulators of one thread and the position they were made for.
struct Cache {
    /// The net the accumulators were made with (its address and its first
    /// layer's; the engine has one net per game, held for the whole run).
    net: (usize, usize),
    valid: bool,
    visible: [Tile; SQUARES],
    boxes: [Option<Tile>; SQUARES],
    locked: SquareSet,
    protected: SquareSet,
    late: u16,
    /// Red's view, Blue's view.
    acc: [Accumulator; 2],
}

impl Cache {
    const fn new() -> Cache {
        Cache {
            net: (0, 0),
            valid: false,
            visible: [Tile::new(Owner::Green, 9); SQUARES],
            boxes: [None; SQUARES],
            locked: 0,
            protected: 0,
            late: 0,
            acc: [
                Accumulator { v: [0; MAX_HIDDEN] },
                Accumulator { v: [0; MAX_HIDDEN] },
            ],
        }
    }

    fn refresh(&mut self, p: &Position, net: &Net) {
        let mut f = Vec::with_capacity(200);
        for (view, acc) in Side::BOTH.into_iter().zip(self.acc.iter_mut()) {
            features(p, view, &mut f);
            net.refresh(acc, f.iter().copied());
        }
        self.valid = true;
        self.net = key(net);
        self.visible = p.visible;
        self.boxes = p.boxes;
        self.locked = p.locked;
        self.protected = p.protected;
        self.late = late_input(p);
    }

    fn state(&self, sq: Square) -> SquareState {
        SquareState {
            visible: self.visible[sq as usize],
            buried: self.boxes[sq as usize],
            locked: self.locked & bit(sq) != 0,
            protected: self.protected & bit(sq) != 0,
        }
    }

    /// Brings the accumulators to `p`, square by changed square.
    fn update(&mut self, p: &Position, net: &Net) {
        if !self.valid || self.net != key(net) {
            return self.refresh(p, net);
        }
        let mut changed = (self.locked ^ p.locked) | (self.protected ^ p.protected);
        for sq in 0..SQUARES {
            if self.visible[sq] != p.visible[sq] || self.boxes[sq] != p.boxes[sq] {
                changed |= bit(sq as Square);
            }
        }
        for sq in Squares(changed) {
            let (old, new) = (self.state(sq), SquareState::of(p, sq));
            for (view, acc) in Side::BOTH.into_iter().zip(self.acc.iter_mut()) {
                old.inputs(sq, view, |i| net.sub(acc, i));
                new.inputs(sq, view, |i| net.add(acc, i));
            }
            self.visible[sq as usize] = new.visible;
            self.boxes[sq as usize] = new.buried;
        }
        self.locked = p.locked;
        self.protected = p.protected;
        let late = late_input(p);
        if late != self.late {
            for acc in &mut self.acc {
                net.sub(acc, self.late);
                net.add(acc, late);
            }
            self.late = late;
        }
    }
}

/// What tells nets apart in a cache.
fn key(net: &Net) -> (usize, usize) {
    (net as *const Net as usize, net.w1.as_ptr() as usize)
}

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

impl Position {
    /// The learned evaluation for the side to move, centi-squares, or `None`
    /// if the embedded net cannot be used.
    pub(crate) fn learned_eval(&self, params: &EvalParams) -> Option<i32> {
        let net = NET.as_ref()?;
        Some(self.eval_with_net(net, params))
    }

    /// The value of this position under `net` (which must fit the inputs),
    /// through this thread's accumulators, plus the level's lock bonus.
    pub fn eval_with_net(&self, net: &Net, params: &EvalParams) -> i32 {
        let (dense, locks) = self.features_and_locks();
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
        (score + locks * params.lock_bonus).clamp(-WIN_BOUND / 2, WIN_BOUND / 2)
    }

    /// The value under `net` from scratch (no accumulator kept): what the
    /// tests compare [`Position::eval_with_net`] with.
    pub fn eval_with_net_fresh(&self, net: &Net, params: &EvalParams) -> i32 {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        features(self, self.side, &mut mine);
        features(self, self.side.opp(), &mut theirs);
        let (dense, locks) = self.features_and_locks();
        (net.evaluate(&mine, &theirs, &dense) + locks * params.lock_bonus)
            .clamp(-WIN_BOUND / 2, WIN_BOUND / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard setup looks the same from both sides (Blue's half is
    /// Red's reflected), so both views have the same inputs.
    #[test]
    fn the_standard_setup_looks_the_same_from_both_sides() {
        let p = Position::standard();
        let (mut red, mut blue) = (Vec::new(), Vec::new());
        features(&p, Side::First, &mut red);
        features(&p, Side::Second, &mut blue);
        red.sort_unstable();
        blue.sort_unstable();
        assert_eq!(red, blue);
        assert_eq!(red.len(), SQUARES + 1);
        assert!(red.iter().all(|&i| (i as usize) < INPUTS));
    }
}
