//! The moves the searcher tries in a REBUS position
//! ([`crate::core::eval::Evaluate::generate_search_moves`]); the exact list of
//! rules.md §2.8 ([`crate::core::Game::generate_moves`]) stays for perft,
//! `list_moves` and move parsing.
//!
//! Every capture set comes in 1 + #nominable variants (§2.5), about 28 times
//! more moves than capture sets, and most nominations change nothing:
//! nominating a square the opponent could not capture (or chain through) on its
//! next turn leaves its replies, and so every position after them, exactly as
//! without the nomination. So:
//!
//! - **exact** (`EvalParams::exact_chains`; `hard` and `mike` at the root):
//!   every chain set (up to the safety valve [`EXACT_CHAIN_STATES_PER_START`],
//!   which only huge clusters reach), each bare and with every nomination of a
//!   square the opponent might capture next turn
//!   ([`Position::nominees_that_matter`], a superset of the squares that can
//!   matter). No move is lost up to this equivalence: the search sees a move of
//!   equal value for every legal move.
//! - **pruned** (below the root; `easy` and `medium` everywhere): the same
//!   nominations, but only the [`NOMINATIONS_KEPT`] most valuable; and chain
//!   sets found by a search capped at [`CHAIN_STATES_PER_START`] (set, end)
//!   states per start square (every single capture is always kept, and in
//!   clusters of a few squares every set is found), so a large same-symbol
//!   cluster cannot explode.
//!
//! Every move produced is legal, and the list is non-empty whenever the legal
//! list is (pass when no capture, the locks, and every capture has its bare form).

use super::Move;
use super::chains::{Cutoff, for_each_chain_set_until};
use super::locks::covered_edges;
use super::position::Position;
use super::square::{ALL, SquareSet, Squares, bit, orth};
use super::tile::{NUM_PLAYER_SYMBOLS, NUM_SYMBOLS, Owner, STAR, Symbol};
use crate::core::Status;

/// Nominations tried per capture set in a pruned list.
pub const NOMINATIONS_KEPT: usize = 2;
/// (set, end) states explored per start square of a chain in a pruned list.
pub const CHAIN_STATES_PER_START: usize = 64;
/// The safety valve of exact mode: (set, end) states explored per start square.
/// Only a same-symbol cluster of about twenty squares or more reaches it (a 4×4
/// cluster has fewer states from any start); there, enumerating every chain set
/// could take seconds per move list, so exact mode caps it too.
pub const EXACT_CHAIN_STATES_PER_START: usize = 1 << 14;

impl Position {
    /// The mover's nominable squares that the opponent might capture (first
    /// capture or chain step) on its next turn, whatever capture the mover makes.
    /// A nomination outside this set is equivalent to none.
    ///
    /// After a capture of set S: S is protected; no other square changes owner
    /// or symbol; the opponent's attackers are its unlocked squares before, plus
    /// the squares of its locks our capture might break; our locks break only if
    /// the opponent covers them already (its squares only shrink). A restoration
    /// handing the opponent a tile cannot arise in play (a buried opponent tile
    /// lies under our own); if a set-up position has one, nothing is pruned.
    pub fn nominees_that_matter(&self) -> SquareSet {
        let me = self.side;
        let (mi, oi) = (me.index(), me.opp().index());
        let nominable = self.nominable();
        let opp_owner = Owner::of(me.opp());
        for sq in Squares(self.boxed & !self.own[oi]) {
            if self.boxes[sq as usize].is_some_and(|b| b.owner == opp_owner) {
                return nominable;
            }
        }
        let cover = self.own[mi] | self.capture_map(me, self.protected).all;
        let mut freed: SquareSet = 0;
        let mut unlocked: SquareSet = 0;
        for l in self.locks() {
            if l.owner as usize == oi && covered_edges(l.origin, l.size, cover) >= l.threshold() {
                freed |= l.mask();
            }
            if l.owner as usize == mi
                && covered_edges(l.origin, l.size, self.own[oi]) >= l.threshold()
            {
                unlocked |= l.mask();
            }
        }
        let attackers = (self.own[oi] & !self.locked) | freed;
        let eligible = ALL & !self.own[oi] & !(self.locked & !unlocked);
        self.capture_map_with(attackers, eligible).all & nominable
    }

    /// The nominees the search tries: all of
    /// [`Position::nominees_that_matter`] when `exact`, else the most valuable
    /// few (ties to the lower square). A set, so a move list allocates nothing.
    pub fn search_nominees(&self, exact: bool) -> SquareSet {
        let matter = self.nominees_that_matter();
        if exact || matter.count_ones() as usize <= NOMINATIONS_KEPT {
            return matter;
        }
        let value = |n: u8| {
            let t = self.visible[n as usize].symbol;
            let linked = (orth(bit(n)) & matter & self.sym[t as usize]).count_ones() as i32;
            let star = if t == STAR { 150 } else { 0 };
            100 + star + 40 * linked
        };
        let mut left = matter;
        let mut kept: SquareSet = 0;
        for _ in 0..NOMINATIONS_KEPT {
            let best = Squares(left).max_by_key(|&n| (value(n), std::cmp::Reverse(n)));
            if let Some(n) = best {
                kept |= bit(n);
                left &= !bit(n);
            }
        }
        kept
    }

    /// Like [`Position::for_each_capture`], with chain sets from
    /// [`super::chains::for_each_chain_set_until`]; stops early once `cutoff`
    /// is cut (which it can only be after a capture was found).
    fn for_each_capture_capped(
        &self,
        cap: usize,
        cutoff: &mut Cutoff<'_>,
        mut f: impl FnMut(Symbol, SquareSet),
    ) {
        let cx = self.capture_context(self.side, self.protected);
        for s in 0..NUM_PLAYER_SYMBOLS {
            let a = cx.attackers[s];
            if a == 0 {
                continue;
            }
            let r = super::square::reach(a, s == STAR as usize) & cx.eligible & !self.sym[s];
            if r == 0 {
                continue;
            }
            let inc = cx.restores_star
                | if s == STAR as usize {
                    ALL & !self.boxed
                } else {
                    0
                };
            for t in 0..NUM_SYMBOLS {
                let starts = r & self.sym[t];
                if starts == 0 {
                    continue;
                }
                if cutoff.is_cut() {
                    return;
                }
                let e = cx.eligible & self.sym[t];
                for_each_chain_set_until(e, starts, inc, cx.budget, cap, cutoff, |set| {
                    f(s as Symbol, set)
                });
            }
        }
    }

    /// The search's move list (see the module documentation).
    pub fn search_moves(&self, out: &mut Vec<Move>, exact: bool) {
        self.search_moves_until(out, exact, &mut |_| true);
    }

    /// [`Position::search_moves`], cut short once `keep_going(moves listed)`
    /// answers false (it is asked now and then while chains are enumerated):
    /// the moves listed by then, every one legal, and at least one capture when
    /// there is one.
    pub fn search_moves_until(
        &self,
        out: &mut Vec<Move>,
        exact: bool,
        keep_going: &mut dyn FnMut(usize) -> bool,
    ) {
        if self.compute_status() != Status::Ongoing {
            return;
        }
        let nominees = self.search_nominees(exact);
        let first = out.len();
        // Sets are emitted once a start's search ends, so the moves to come
        // are counted by the states explored: at most one set each.
        let listed = std::cell::Cell::new(0);
        let per_set = 1 + nominees.count_ones() as usize;
        let mut ask = |states: usize| keep_going(listed.get() + states * per_set);
        let mut cutoff = Cutoff::new(&mut ask);
        self.for_each_capture_capped(chain_cap(exact), &mut cutoff, |symbol, squares| {
            out.push(Move::capture(symbol, squares, None));
            for n in Squares(nominees) {
                out.push(Move::capture(symbol, squares, Some(n)));
            }
            listed.set(out.len() - first);
        });
        if out.len() == first {
            out.push(Move::PASS);
        }
        self.for_each_lock(|origin, size| out.push(Move::lock(origin, size)));
    }

    /// The noisy moves of [`Position::search_moves`] in the same order, without
    /// listing the rest: bare captures only (nominations, locks and pass are quiet).
    pub fn search_noisy_moves(&self, out: &mut Vec<Move>, exact: bool) {
        use crate::core::eval::Evaluate;
        if self.compute_status() != Status::Ongoing {
            return;
        }
        self.for_each_capture_capped(chain_cap(exact), &mut Cutoff::never(), |symbol, squares| {
            let mv = Move::capture(symbol, squares, None);
            if self.is_noisy(mv) {
                out.push(mv);
            }
        });
    }
}

/// States explored per chain start square in exact or pruned mode.
fn chain_cap(exact: bool) -> usize {
    if exact {
        EXACT_CHAIN_STATES_PER_START
    } else {
        CHAIN_STATES_PER_START
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use ahash::AHashSet;

    /// The noisy list is the search list filtered by `is_noisy`, order kept.
    #[test]
    fn noisy_moves_are_the_filtered_search_moves() {
        use crate::core::eval::Evaluate;
        for seed in 0..20u64 {
            let mut p = Position::random(seed);
            for ply in 0..80 {
                if p.status() != Status::Ongoing {
                    break;
                }
                for exact in [false, true] {
                    let mut all = Vec::new();
                    p.search_moves(&mut all, exact);
                    all.retain(|&m| p.is_noisy(m));
                    let mut noisy = Vec::new();
                    p.search_noisy_moves(&mut noisy, exact);
                    assert_eq!(noisy, all, "seed {seed} ply {ply}");
                }
                let mut legal = Vec::new();
                p.generate_moves(&mut legal);
                let mv = legal[(seed as usize * 7 + ply * 13) % legal.len()];
                p.make_move(mv);
            }
        }
    }

    /// Search moves are legal moves; every capture set keeps its bare form; in
    /// exact mode the capture sets are exactly the legal ones.
    #[test]
    fn search_moves_are_legal_and_cover_sets() {
        for seed in 0..30u64 {
            let mut p = Position::random(seed);
            for ply in 0..60 {
                if p.status() != Status::Ongoing {
                    break;
                }
                let mut legal = Vec::new();
                p.generate_moves(&mut legal);
                let legal_set: AHashSet<Move> = legal.iter().copied().collect();
                let mut sets = Vec::new();
                p.generate_capture_sets(&mut sets);
                for exact in [false, true] {
                    let mut mine = Vec::new();
                    p.search_moves(&mut mine, exact);
                    assert!(!mine.is_empty());
                    for m in &mine {
                        assert!(legal_set.contains(m), "seed {seed} ply {ply}: {m:?}");
                    }
                    let bare: AHashSet<Move> = mine
                        .iter()
                        .filter(|m| m.squares() != 0)
                        .map(|m| m.without_nominee())
                        .collect();
                    if exact {
                        assert_eq!(bare.len(), sets.len());
                    }
                    for m in &sets {
                        if m.squares().count_ones() == 1 {
                            assert!(bare.contains(m), "single capture kept");
                        }
                    }
                }
                let mv = legal[(seed as usize * 31 + ply * 17) % legal.len()];
                p.make_move(mv);
            }
        }
    }

    /// A nomination outside `nominees_that_matter` never changes the
    /// opponent's replies.
    #[test]
    fn pruned_nominations_change_no_reply() {
        for seed in 100..115u64 {
            let mut p = Position::random(seed);
            for ply in 0..40 {
                if p.status() != Status::Ongoing {
                    break;
                }
                let matter = p.nominees_that_matter();
                let mut sets = Vec::new();
                p.generate_capture_sets(&mut sets);
                for &bare in sets.iter().step_by(5) {
                    p.make_move(bare);
                    let mut base = Vec::new();
                    p.generate_moves(&mut base);
                    p.unmake_move(bare);
                    let nominable = p.nominable();
                    for n in Squares(nominable & !matter) {
                        let crate::games::rebus::MoveKind::Capture {
                            symbol, squares, ..
                        } = bare.kind()
                        else {
                            continue;
                        };
                        let nm = Move::capture(symbol, squares, Some(n));
                        p.make_move(nm);
                        let mut replies = Vec::new();
                        p.generate_moves(&mut replies);
                        p.unmake_move(nm);
                        assert_eq!(replies, base, "seed {seed} ply {ply} nominee {n}");
                    }
                }
                let mut legal = Vec::new();
                p.generate_moves(&mut legal);
                p.make_move(legal[(seed as usize * 13 + ply * 7) % legal.len()]);
            }
        }
    }
}
