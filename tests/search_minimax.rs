//! The searcher with the TT, PVS, aspiration windows and every ordering trick
//! (but no reductions) must return the plain-minimax value at a fixed depth, with
//! the same quiescence definition on both sides.

use std::sync::atomic::AtomicBool;

use tessera::core::{Game, SplitMix64, Status};
use tessera::search::eval::{DRAW, EvalParams, Evaluate, WIN};
use tessera::search::testgame::ConnectFour;
use tessera::search::{Level, LevelConfig, Limits, SearchParams, Searcher};

/// Quiescence as the searcher defines it: stand pat or a noisy move, for at
/// most `qmax` plies; finished games score ±(WIN - ply).
fn quiesce(g: &mut ConnectFour, ply: i32, qply: i32, qmax: i32, ep: &EvalParams) -> i32 {
    if let Some(s) = terminal(g, ply) {
        return s;
    }
    let stand = g.evaluate(ep);
    if qply >= qmax {
        return stand;
    }
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let mut best = stand;
    for mv in moves {
        if !g.is_noisy(mv) {
            continue;
        }
        g.make_move(mv);
        best = best.max(-quiesce(g, ply + 1, qply + 1, qmax, ep));
        g.unmake_move(mv);
    }
    best
}

fn terminal(g: &ConnectFour, ply: i32) -> Option<i32> {
    match g.status() {
        Status::Ongoing => None,
        Status::Draw => Some(DRAW),
        Status::Won(s) if s == g.side_to_move() => Some(WIN - ply),
        Status::Won(_) => Some(-(WIN - ply)),
    }
}

/// Plain depth-limited negamax: no pruning, no table, no ordering.
fn minimax(g: &mut ConnectFour, depth: i32, ply: i32, qmax: i32, ep: &EvalParams) -> i32 {
    if depth == 0 {
        return quiesce(g, ply, 0, qmax, ep);
    }
    if let Some(s) = terminal(g, ply) {
        return s;
    }
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let mut best = -WIN - 1;
    for mv in moves {
        g.make_move(mv);
        best = best.max(-minimax(g, depth - 1, ply + 1, qmax, ep));
        g.unmake_move(mv);
    }
    best
}

fn random_positions(count: usize, seed: u64) -> Vec<ConnectFour> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = ConnectFour::new();
        let plies = rng.below(18);
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            g.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.make_move(moves[rng.below(moves.len() as u64) as usize]);
        }
        if g.status() == Status::Ongoing {
            out.push(g);
        }
    }
    out
}

fn check(params: SearchParams, depth: u32, positions: usize, seed: u64) {
    let config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..Level::Hard.config()
    };
    let mut searcher = Searcher::<ConnectFour>::new(4);
    searcher.set_params(params);
    let stop = AtomicBool::new(false);
    let mut mismatches = Vec::new();
    for (i, pos) in random_positions(positions, seed).into_iter().enumerate() {
        // Each position gets an empty table: entries left by a search from another
        // root could carry values of a different depth.
        searcher.new_game();
        let result = searcher.search(&pos, &Limits::depth(depth), &config, &stop, &mut |_| {});
        let mut g = pos.clone();
        let expected = minimax(&mut g, depth as i32, 0, params.qsearch_plies, &config.eval);
        let Some(mv) = result.best_move else {
            panic!("position {i}: no move returned");
        };
        // The chosen move itself must achieve the value.
        g.make_move(mv);
        let via_move = -minimax(
            &mut g,
            depth as i32 - 1,
            1,
            params.qsearch_plies,
            &config.eval,
        );
        if result.score != expected || via_move != expected {
            mismatches.push((i, result.score, expected, via_move));
        }
    }
    assert!(
        mismatches.is_empty(),
        "(position, search, minimax, minimax via best move): {mismatches:?}"
    );
}

#[test]
fn equals_minimax_without_quiescence() {
    let params = SearchParams {
        qsearch_plies: 0,
        ..SearchParams::EXACT
    };
    check(params, 5, 300, 1);
}

#[test]
fn equals_minimax_with_quiescence() {
    check(SearchParams::EXACT, 5, 300, 2);
}

#[test]
fn equals_minimax_with_narrow_aspiration_windows() {
    // A tiny window from depth 2 on forces fail-highs, fail-lows and re-searches.
    let params = SearchParams {
        aspiration_delta: 5,
        aspiration_min_depth: 2,
        ..SearchParams::EXACT
    };
    check(params, 6, 200, 3);
}

/// Multi-PV (analysis): each of the first `multipv` root moves gets an exact
/// score equal to minimax, they are the best moves by minimax, and each line
/// starts with its move and is playable.
#[test]
fn multipv_scores_equal_minimax() {
    const MULTIPV: usize = 3;
    let depth = 5;
    let params = SearchParams::EXACT;
    let config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..Level::Hard.config()
    };
    let mut searcher = Searcher::<ConnectFour>::new(4);
    searcher.set_params(params);
    let stop = AtomicBool::new(false);
    for (i, pos) in random_positions(120, 4).into_iter().enumerate() {
        searcher.new_game();
        let mut last = None;
        let result = searcher.search_multipv(
            &pos,
            &Limits::depth(depth),
            &config,
            MULTIPV,
            &stop,
            &mut |info| last = Some(info.clone()),
        );
        let info = last.expect("an iteration");
        // A proven result ends the deepening early.
        let depth = info.depth;
        let mut g = pos.clone();
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        let mut values: Vec<i32> = moves
            .iter()
            .map(|&mv| {
                g.make_move(mv);
                let v = -minimax(
                    &mut g,
                    depth as i32 - 1,
                    1,
                    params.qsearch_plies,
                    &config.eval,
                );
                g.unmake_move(mv);
                v
            })
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        let n = MULTIPV.min(moves.len());
        assert_eq!(info.lines.len(), n, "position {i}");
        assert_eq!(result.score, values[0], "position {i}");
        assert_eq!(result.depth, depth, "position {i}");
        for (k, rm) in info.root_moves.iter().take(n).enumerate() {
            assert!(rm.exact, "position {i}: root move {k} is a bound");
            g.make_move(rm.mv);
            let v = -minimax(
                &mut g,
                depth as i32 - 1,
                1,
                params.qsearch_plies,
                &config.eval,
            );
            g.unmake_move(rm.mv);
            assert_eq!(rm.score, v, "position {i}: root move {k}");
            assert_eq!(rm.score, values[k], "position {i}: rank {k}");
            let line = &info.lines[k];
            assert_eq!(line.first(), Some(&rm.mv), "position {i}: line {k}");
            let mut p = pos.clone();
            for &mv in line {
                let mut legal = Vec::new();
                p.generate_moves(&mut legal);
                assert!(legal.contains(&mv), "position {i}: line {k} {line:?}");
                p.make_move(mv);
            }
        }
    }
}
