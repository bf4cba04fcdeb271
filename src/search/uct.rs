//! The `uct` reference level: plain UCT Monte-Carlo tree search (UCB1 over a
//! tree grown one node per playout, uniformly random playouts, no game
//! knowledge), generic over [`Game`].
//!
//! It is a yardstick, not a strong player: whatever the alpha-beta levels gain
//! over it comes from search and evaluation, not from rules knowledge that UCT
//! also has. Playouts are capped by plies (Rekushu games always end; REBUS has
//! its turn limit), and a capped playout counts as a draw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::core::{Game, Side, SplitMix64, Status};
use crate::search::random::bounded;

/// The exploration constant of UCB1 (√2, the textbook value for rewards in 0..1).
pub const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// Longest playout, in plies from the root; a longer one is scored as a draw.
pub const MAX_PLAYOUT_PLIES: usize = 2_000;

/// What bounds a UCT search. Some bound must be set, or it runs until `stop`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UctBudget {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this long (checked between playouts).
    pub time: Option<Duration>,
}

/// A finished UCT search.
#[derive(Clone, Debug, PartialEq)]
pub struct UctResult<M> {
    /// The most visited root move; `None` when the root has no legal move.
    pub best_move: Option<M>,
    pub playouts: u64,
    /// Tree nodes created.
    pub nodes: u64,
    /// The best move's mean reward for the side to move, 0 (loss) to 1 (win).
    pub value: f64,
    pub time: Duration,
}

struct Node<M> {
    /// The move that led here (none at the root).
    mv: Option<M>,
    /// The side that played `mv`; rewards are counted for it.
    mover: Side,
    parent: usize,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: u64,
    reward: f64,
}

/// The reward of a finished (or capped) playout for `side`.
fn reward(status: Status, side: Side) -> f64 {
    match status {
        Status::Won(w) if w == side => 1.0,
        Status::Won(_) => 0.0,
        Status::Draw | Status::Ongoing => 0.5,
    }
}

/// Searches `root` until the budget is spent or `stop` is set; deterministic
/// for a given seed when bounded by playouts only.
pub fn uct_search<G: Game>(
    root: &G,
    budget: UctBudget,
    seed: u64,
    stop: &AtomicBool,
) -> UctResult<G::Move> {
    let start = Instant::now();
    let out_of_time =
        || budget.time.is_some_and(|t| start.elapsed() >= t) || stop.load(Ordering::Relaxed);
    let mut keep_going = || !out_of_time();
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    root.generate_moves_until(&mut moves, &mut bounded(&mut keep_going));
    let root_side = root.side_to_move();
    let mut tree = vec![Node {
        mv: None,
        mover: root_side.opp(),
        parent: usize::MAX,
        children: Vec::new(),
        untried: moves.clone(),
        visits: 0,
        reward: 0.0,
    }];
    let mut playouts = 0u64;
    // One legal move needs no search.
    if moves.len() > 1 {
        loop {
            if budget.playouts.is_some_and(|p| playouts >= p) || out_of_time() {
                break;
            }
            if !playout(&mut tree, root, &mut rng, &mut moves, &mut keep_going) {
                break;
            }
            playouts += 1;
        }
    }
    let best = tree[0]
        .children
        .iter()
        .copied()
        .max_by_key(|&c| tree[c].visits);
    let (best_move, value) = match best {
        Some(c) => (tree[c].mv, tree[c].reward / (tree[c].visits.max(1) as f64)),
        // Unsearched: the first legal move, if any.
        None => (tree[0].untried.first().copied(), 0.5),
    };
    UctResult {
        best_move,
        playouts,
        nodes: tree.len() as u64,
        value,
        time: start.elapsed(),
    }
}

/// One iteration: select with UCB1, expand one node, play out at random,
/// back the result up. A random playout lists every move of every position it
/// passes (a REBUS cluster can have millions), so it asks `keep_going` as it
/// goes; once that says stop, the playout is dropped unfinished (nothing is
/// backed up) and this returns false.
fn playout<G: Game>(
    tree: &mut Vec<Node<G::Move>>,
    root: &G,
    rng: &mut SplitMix64,
    moves: &mut Vec<G::Move>,
    keep_going: &mut dyn FnMut() -> bool,
) -> bool {
    let mut pos = root.clone();
    let mut node = 0;
    // Selection.
    while tree[node].untried.is_empty() && !tree[node].children.is_empty() {
        let ln_n = (tree[node].visits.max(1) as f64).ln();
        let mut best = tree[node].children[0];
        let mut best_ucb = f64::NEG_INFINITY;
        for &c in &tree[node].children {
            let child = &tree[c];
            let n = child.visits.max(1) as f64;
            let ucb = child.reward / n + EXPLORATION * (ln_n / n).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = c;
            }
        }
        node = best;
        if let Some(mv) = tree[node].mv {
            pos.make_move(mv);
        }
    }
    // Expansion.
    if !tree[node].untried.is_empty() {
        let len = tree[node].untried.len() as u64;
        let i = rng.below(len) as usize;
        let mv = tree[node].untried.swap_remove(i);
        let mover = pos.side_to_move();
        pos.make_move(mv);
        moves.clear();
        // A list cut short only for its length is used as it is (every move
        // in it is legal); one cut by the clock ends the playout.
        let whole = pos.generate_moves_until(moves, &mut bounded(keep_going));
        if !whole && !keep_going() {
            // Out of time: the move goes back untried, nothing is added.
            tree[node].untried.push(mv);
            return false;
        }
        let child = tree.len();
        tree.push(Node {
            mv: Some(mv),
            mover,
            parent: node,
            children: Vec::new(),
            untried: moves.clone(),
            visits: 0,
            reward: 0.0,
        });
        tree[node].children.push(child);
        node = child;
    }
    // Simulation.
    let mut plies = 0;
    let status = loop {
        let status = pos.status();
        if status != Status::Ongoing || plies >= MAX_PLAYOUT_PLIES {
            break status;
        }
        moves.clear();
        let whole = pos.generate_moves_until(moves, &mut bounded(keep_going));
        if !whole && !keep_going() {
            return false;
        }
        if moves.is_empty() {
            break status;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos.make_move(mv);
        plies += 1;
    };
    // Backpropagation.
    while node != usize::MAX {
        let n = &mut tree[node];
        n.visits += 1;
        n.reward += reward(status, n.mover);
        node = n.parent;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::search::testgame::*;

    fn budget(playouts: u64) -> UctBudget {
        UctBudget {
            playouts: Some(playouts),
            time: None,
        }
    }

    #[test]
    fn uct_is_deterministic_and_legal() {
        let pos = ConnectFour::new();
        let stop = AtomicBool::new(false);
        let a = uct_search(&pos, budget(300), 7, &stop);
        let b = uct_search(&pos, budget(300), 7, &stop);
        assert_eq!(a.best_move, b.best_move);
        assert_eq!(a.playouts, 300);
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        assert!(legal.contains(&a.best_move.expect("moves exist")));
    }

    #[test]
    fn uct_takes_an_immediate_win() {
        // First to move: a b c on the bottom row, d completes four.
        let pos = ConnectFour::from_moves("a f b f c f").expect("legal line");
        let stop = AtomicBool::new(false);
        let r = uct_search(&pos, budget(2_000), 3, &stop);
        assert_eq!(r.best_move, pos.parse_move("d").ok());
        assert!(r.value > 0.9, "{r:?}");
    }

    #[test]
    fn uct_stops_on_the_flag() {
        let pos = ConnectFour::new();
        let stop = AtomicBool::new(true);
        let r = uct_search(&pos, UctBudget::default(), 1, &stop);
        assert_eq!(r.playouts, 0);
        assert!(r.best_move.is_some());
    }
}
