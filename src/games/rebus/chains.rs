//! Chains (rules.md §2.4): the distinct sets of squares one capture turn can take,
//! and the canonical (smallest) way of writing one.
//!
//! The squares a chain may step on are fixed at the start of the turn (a square
//! captured this turn is never eligible again, and no other square changes), so
//! a capture is (attacker symbol s, set S of captured squares). S is a set of
//! eligible squares showing one symbol t ≠ s that can be walked as an orthogonal
//! path from a square an unlocked attacker of symbol s reaches. Distinct sets are
//! found by a search over (visited set, current end) states with deduplication,
//! which stays polynomial in the number of such states rather than the number
//! of paths. The Star limit is monotone (rules.md §2.3: within a turn the mover's
//! active Stars never decrease, the opponent's never increase), so a set over the
//! limit is pruned together with all its supersets.

use super::square::{SquareSet, Squares, bit, orth, sorted_by_name, string_key};
use ahash::AHashSet;

/// Calls `emit(S)` once for each distinct set S of squares of `eligible` that
/// can be walked as an orthogonal path starting in `starts`, with at most
/// `budget` squares of `inc` (those that would add an active Star).
pub fn for_each_chain_set(
    eligible: SquareSet,
    starts: SquareSet,
    inc: SquareSet,
    budget: u32,
    emit: impl FnMut(SquareSet),
) {
    for_each_chain_set_capped(eligible, starts, inc, budget, usize::MAX, emit);
}

/// [`for_each_chain_set`] exploring at most `cap` (set, end)
/// states from each start square: a subset of its sets, always including every
/// single square.
pub fn for_each_chain_set_capped(
    eligible: SquareSet,
    starts: SquareSet,
    inc: SquareSet,
    budget: u32,
    cap: usize,
    emit: impl FnMut(SquareSet),
) {
    for_each_chain_set_until(
        eligible,
        starts,
        inc,
        budget,
        cap,
        &mut Cutoff::never(),
        emit,
    );
}

/// (set, end) states explored between two questions to a [`Cutoff`].
const STATES_PER_CHECK: usize = 1024;

/// Whether a long enumeration may go on: asks its question once every
/// `STATES_PER_CHECK` states (counted across calls), and once the answer is no,
/// stays cut. A huge same-symbol cluster holds millions of chain states;
/// this is how a move list made under a clock, or one a `stop` interrupts,
/// ends in time.
pub struct Cutoff<'a> {
    ask: Option<&'a mut dyn FnMut(usize) -> bool>,
    states: usize,
    cut: bool,
}

impl<'a> Cutoff<'a> {
    /// Asks `keep_going(states explored so far)` (true: go on).
    pub fn new(keep_going: &'a mut dyn FnMut(usize) -> bool) -> Self {
        Cutoff {
            ask: Some(keep_going),
            states: 0,
            cut: false,
        }
    }

    /// Never cuts.
    pub fn never() -> Self {
        Cutoff {
            ask: None,
            states: 0,
            cut: false,
        }
    }

    /// Counts one state; false once the enumeration must stop.
    #[inline]
    fn step(&mut self) -> bool {
        self.states += 1;
        if self.states.is_multiple_of(STATES_PER_CHECK)
            && let Some(ask) = self.ask.as_mut()
        {
            self.cut = self.cut || !ask(self.states);
        }
        !self.cut
    }

    /// True once an answer was no.
    pub fn is_cut(&self) -> bool {
        self.cut
    }
}

/// [`for_each_chain_set_capped`] that counts every state explored on
/// `cutoff` and, once it is cut, explores no further: it still emits the sets
/// found so far (the single squares among them all), so a cut list is never
/// empty when the full one is not.
pub fn for_each_chain_set_until(
    eligible: SquareSet,
    starts: SquareSet,
    inc: SquareSet,
    budget: u32,
    cap: usize,
    cutoff: &mut Cutoff<'_>,
    mut emit: impl FnMut(SquareSet),
) {
    let starts = starts & eligible & !if budget == 0 { inc } else { 0 };
    if starts == 0 {
        return;
    }
    if orth(starts) & eligible == 0 {
        for q in Squares(starts) {
            emit(bit(q));
        }
        return;
    }
    // Buffers kept per thread, so that a move list allocates nothing once warm.
    // They are taken out while in use, so a nested call (from `emit`) is safe.
    let mut scratch = SCRATCH.with(|c| c.take());
    let Scratch { seen, found, stack } = &mut scratch;
    seen.clear();
    found.clear();
    for q in Squares(starts) {
        if orth(bit(q)) & eligible == 0 {
            emit(bit(q));
            continue;
        }
        found.push(bit(q));
        if !seen.insert((bit(q), q)) {
            continue;
        }
        if cutoff.is_cut() {
            // Cut: the single squares are still all emitted (each is a capture).
            continue;
        }
        stack.clear();
        stack.push((bit(q), q));
        let mut explored = 0;
        while let Some((set, end)) = stack.pop() {
            found.push(set);
            explored += 1;
            if explored >= cap {
                break;
            }
            if !cutoff.step() {
                break;
            }
            for n in Squares(orth(bit(end)) & eligible & !set) {
                let next = set | bit(n);
                if (next & inc).count_ones() > budget {
                    continue;
                }
                if seen.insert((next, n)) {
                    stack.push((next, n));
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    for &s in found.iter() {
        emit(s);
    }
    // A huge cluster leaves a huge table; clearing it on every later call would cost.
    if scratch.seen.capacity() > 1 << 12 {
        scratch.seen = AHashSet::new();
    }
    SCRATCH.with(|c| c.set(scratch));
}

/// The search buffers of [`for_each_chain_set_capped`].
#[derive(Default)]
struct Scratch {
    seen: AHashSet<(SquareSet, u8)>,
    found: Vec<SquareSet>,
    stack: Vec<(SquareSet, u8)>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// Counts what [`for_each_chain_set`] would emit.
pub fn count_chain_sets(
    eligible: SquareSet,
    starts: SquareSet,
    inc: SquareSet,
    budget: u32,
) -> u64 {
    let starts_ok = starts & eligible & !if budget == 0 { inc } else { 0 };
    if orth(starts_ok) & eligible == 0 {
        return starts_ok.count_ones() as u64;
    }
    let mut n = 0;
    for_each_chain_set(eligible, starts, inc, budget, |_| n += 1);
    n
}

/// The lexicographically smallest walk (in square-name order) of all of `set`
/// as an orthogonal path whose first square is in `starts`; `None` if there is
/// none. All walks have the same length, so the first one found by a search in
/// name order is the smallest.
pub fn smallest_walk(set: SquareSet, starts: SquareSet) -> Option<Vec<u8>> {
    let mut failed: AHashSet<(SquareSet, u8)> = AHashSet::new();
    let mut path = Vec::with_capacity(set.count_ones() as usize);
    for q in sorted_by_name(starts & set) {
        path.clear();
        path.push(q);
        if walk(set, bit(q), q, &mut path, &mut failed) {
            return Some(path);
        }
    }
    None
}

fn walk(
    set: SquareSet,
    visited: SquareSet,
    end: u8,
    path: &mut Vec<u8>,
    failed: &mut AHashSet<(SquareSet, u8)>,
) -> bool {
    if visited == set {
        return true;
    }
    if failed.contains(&(visited, end)) {
        return false;
    }
    let mut next: Vec<u8> = Squares(orth(bit(end)) & set & !visited).collect();
    next.sort_by_key(|&n| string_key(n));
    for n in next {
        path.push(n);
        if walk(set, visited | bit(n), n, path, failed) {
            return true;
        }
        path.pop();
    }
    failed.insert((visited, end));
    false
}

/// Whether `path` (a sequence of squares) is a valid orthogonal walk without repeats.
pub fn is_walk(path: &[u8]) -> bool {
    let mut seen: SquareSet = 0;
    for (i, &q) in path.iter().enumerate() {
        if seen & bit(q) != 0 {
            return false;
        }
        if i > 0 && orth(bit(path[i - 1])) & bit(q) == 0 {
            return false;
        }
        seen |= bit(q);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rebus::searchgen::EXACT_CHAIN_STATES_PER_START;
    use crate::games::rebus::square::make_square;

    fn block(k: u8) -> SquareSet {
        let mut s = 0;
        for f in 0..k {
            for r in 0..k {
                s |= bit(make_square(f, r));
            }
        }
        s
    }

    fn count(eligible: SquareSet, starts: SquareSet, cap: usize) -> usize {
        let mut n = 0;
        for_each_chain_set_capped(eligible, starts, 0, 0, cap, |_| n += 1);
        n
    }

    /// `mike`'s safety valve changes nothing in clusters up to 4×4, from any
    /// start, and bounds the work in a 5×5 cluster.
    #[test]
    fn exact_valve_only_bites_in_huge_clusters() {
        for k in 1..=4 {
            let b = block(k);
            for start in Squares(b) {
                assert_eq!(
                    count(b, bit(start), EXACT_CHAIN_STATES_PER_START),
                    count(b, bit(start), usize::MAX),
                    "{k}x{k} from {start}"
                );
            }
            assert_eq!(
                count(b, b, EXACT_CHAIN_STATES_PER_START),
                count(b, b, usize::MAX)
            );
        }
        let b = block(5);
        let capped = count(b, bit(make_square(2, 2)), EXACT_CHAIN_STATES_PER_START);
        let exact = count(b, bit(make_square(2, 2)), usize::MAX);
        assert!(capped < exact, "{capped} vs {exact}");
        assert!(capped <= EXACT_CHAIN_STATES_PER_START + 1);
    }
}
