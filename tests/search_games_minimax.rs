//! On both real games, the searcher (table, PVS, aspiration, every ordering
//! trick; no reductions) returns the plain-minimax value at a fixed depth. Both
//! sides search the same moves (`generate_search_moves` at the level's settings)
//! with the same quiescence, so any difference is a search bug.

use std::sync::atomic::AtomicBool;

use tessera::bench::random_line;
use tessera::core::{Game, SplitMix64, Status};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;
use tessera::search::eval::{DRAW, EvalParams, Evaluate, ListAt, WIN};
use tessera::search::{Level, LevelConfig, Limits, SearchParams, Searcher};

fn terminal<G: Game>(g: &G, ply: i32) -> Option<i32> {
    match g.status() {
        Status::Ongoing => None,
        Status::Draw => Some(DRAW),
        Status::Won(s) if s == g.side_to_move() => Some(WIN - ply),
        Status::Won(_) => Some(-(WIN - ply)),
    }
}

fn moves_of<G: Evaluate>(g: &G, ep: &EvalParams, at: ListAt) -> Vec<G::Move> {
    let mut moves = Vec::new();
    g.generate_search_moves(&mut moves, ep, at);
    moves
}

/// The list the searcher asks for at `ply`.
fn list_at(ply: i32) -> ListAt {
    if ply == 0 { ListAt::Root } else { ListAt::Tree }
}

/// Stand pat or a noisy move, for at most `qmax` plies.
fn quiesce<G: Evaluate>(g: &mut G, ply: i32, qply: i32, qmax: i32, ep: &EvalParams) -> i32 {
    if let Some(s) = terminal(g, ply) {
        return s;
    }
    let stand = g.evaluate(ep);
    if qply >= qmax {
        return stand;
    }
    let mut best = stand;
    for mv in moves_of(g, ep, list_at(ply)) {
        if g.is_noisy(mv) {
            g.make_move(mv);
            best = best.max(-quiesce(g, ply + 1, qply + 1, qmax, ep));
            g.unmake_move(mv);
        }
    }
    best
}

/// Plain depth-limited negamax: no pruning, no table, no ordering.
fn minimax<G: Evaluate>(g: &mut G, depth: i32, ply: i32, qmax: i32, ep: &EvalParams) -> i32 {
    if let Some(s) = terminal(g, ply) {
        return s;
    }
    if depth == 0 {
        return quiesce(g, ply, 0, qmax, ep);
    }
    let mut best = -WIN - 1;
    for mv in moves_of(g, ep, list_at(ply)) {
        g.make_move(mv);
        best = best.max(-minimax(g, depth - 1, ply + 1, qmax, ep));
        g.unmake_move(mv);
    }
    best
}

/// Checks every position; returns how many were compared.
fn compare<G: Evaluate>(positions: &[G], level: Level, depth: u32, qmax: i32) -> usize {
    compare_with(positions, level.config(), depth, qmax)
}

fn compare_with<G: Evaluate>(positions: &[G], config: LevelConfig, depth: u32, qmax: i32) -> usize {
    let level = config.level;
    let config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..config
    };
    let ep = config.eval;
    let params = SearchParams {
        qsearch_plies: qmax,
        ..SearchParams::EXACT
    };
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<G>::new(4);
    searcher.set_params(params);
    for (i, pos) in positions.iter().enumerate() {
        searcher.new_game();
        let result = searcher.search(pos, &Limits::depth(depth), &config, &stop, &mut |_| {});
        let mut g = pos.clone();
        let expected = minimax(&mut g, depth as i32, 0, qmax, &ep);
        assert_eq!(
            result.score, expected,
            "position {i} ({level}, depth {depth})"
        );
        let best = result.best_move.expect("an ongoing position has a move");
        assert!(moves_of(pos, &config.eval, ListAt::Root).contains(&best));
    }
    positions.len()
}

fn positions<G: Game>(start: impl Fn(u64) -> G, count: usize, max_plies: u64, seed: u64) -> Vec<G> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let s = rng.next();
        let g = random_line(start(s), rng.below(max_plies) as usize, s);
        if g.status() == Status::Ongoing {
            out.push(g);
        }
    }
    out
}

#[test]
fn rekushu_search_equals_minimax() {
    let small = positions(|_| Board::new(5).expect("size"), 150, 18, 1);
    assert_eq!(compare(&small, Level::Hard, 3, 2), 150);
    let larger = positions(|_| Board::new(8).expect("size"), 60, 50, 2);
    assert_eq!(compare(&larger, Level::Mike, 2, 2), 60);
}

#[test]
fn rebus_search_equals_minimax() {
    // Plain minimax over REBUS's branching is slow: many positions at depth 1
    // with two plies of quiescence, fewer at depth 2.
    let many = positions(Position::random, 100, 40, 5);
    assert_eq!(compare(&many, Level::Hard, 1, 2), 100);
    let deals = positions(Position::random, 20, 40, 3);
    assert_eq!(compare(&deals, Level::Hard, 2, 1), 20);
    let standard = positions(|_| Position::standard(), 12, 30, 4);
    assert_eq!(compare(&standard, Level::Mike, 2, 1), 12);
    // Exact lists in the whole tree, as `mike` searched before its root-only switch.
    let mut exact_tree = Level::Mike.config();
    exact_tree.eval.exact_at_root_only = false;
    assert_eq!(compare_with(&standard[..6], exact_tree, 2, 1), 6);
}
