//! Behaviour of the public searcher: determinism, stopping, limits, levels,
//! legality of the result, and reporting.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use tessera::core::{Game, Notation, SplitMix64, Status};
use tessera::search::eval::{WIN, is_decisive};
use tessera::search::testgame::{ConnectFour, Drop};
use tessera::search::{
    Level, LevelConfig, Limits, SearchInfo, SearchParams, SearchResult, Searcher,
};

fn hard1() -> LevelConfig {
    LevelConfig {
        threads: 1,
        ..Level::Hard.config()
    }
}

fn legal_moves(g: &ConnectFour) -> Vec<Drop> {
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    moves
}

fn run(pos: &ConnectFour, limits: &Limits, config: &LevelConfig) -> SearchResult<Drop> {
    let stop = AtomicBool::new(false);
    Searcher::<ConnectFour>::new(config.tt_mb.min(16)).search(
        pos,
        limits,
        config,
        &stop,
        &mut |_| {},
    )
}

fn midgame() -> ConnectFour {
    ConnectFour::from_moves("c d c d b").expect("legal moves")
}

#[test]
fn one_thread_is_deterministic() {
    for params in [SearchParams::DEFAULT, SearchParams::EXACT] {
        let results: Vec<_> = (0..2)
            .map(|_| {
                let stop = AtomicBool::new(false);
                let mut s = Searcher::<ConnectFour>::new(8);
                s.set_params(params);
                let mut infos = Vec::new();
                let r = s.search(&midgame(), &Limits::depth(9), &hard1(), &stop, &mut |i| {
                    infos.push(i.clone())
                });
                (
                    r.best_move,
                    r.score,
                    r.nodes,
                    r.pv,
                    infos.iter().map(|i| (i.nodes, i.score)).collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(results[0], results[1]);
        assert!(results[0].2 > 1000, "a real search happened");
    }
}

#[test]
fn noisy_level_is_deterministic_for_a_seed() {
    let config = LevelConfig {
        threads: 1,
        ..Level::Easy.config()
    };
    let a = run(&ConnectFour::new(), &Limits::depth(4), &config);
    let b = run(&ConnectFour::new(), &Limits::depth(4), &config);
    assert_eq!(
        (a.best_move, a.score, a.nodes),
        (b.best_move, b.score, b.nodes)
    );
}

#[test]
fn stop_from_another_thread_returns_a_legal_move() {
    let pos = midgame();
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<()>();
    let result = std::thread::scope(|s| {
        let stop = &stop;
        let stopper = s.spawn(move || {
            // Stop as soon as the first iteration is reported.
            if rx.recv().is_ok() {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let mut searcher = Searcher::<ConnectFour>::new(8);
        let mut tx = Some(tx);
        let r = searcher.search(&pos, &Limits::infinite(), &hard1(), stop, &mut |_| {
            if let Some(tx) = tx.take() {
                let _ = tx.send(());
            }
        });
        drop(tx);
        let _ = stopper.join();
        r
    });
    let mv = result.best_move.expect("a move");
    assert!(legal_moves(&pos).contains(&mv));
    assert!(result.depth >= 1);
}

#[test]
fn stop_before_start_still_gives_a_legal_move() {
    let pos = midgame();
    let stop = AtomicBool::new(true);
    let mut calls = 0;
    let r = Searcher::<ConnectFour>::new(1).search(
        &pos,
        &Limits::infinite(),
        &hard1(),
        &stop,
        &mut |_| calls += 1,
    );
    assert_eq!(calls, 0);
    assert_eq!(r.depth, 0);
    assert!(legal_moves(&pos).contains(&r.best_move.expect("a move")));
}

/// A search stopped in the middle of an iteration answers the last completed
/// iteration's move, unless the stopped iteration has already searched another
/// move to the end and found it better than that one: then that move, with the
/// stopped iteration's depth. One thread and a node limit make the stop
/// reproducible: until it, the search walks the same tree as one to a fixed
/// depth, so each node limit between the totals of depth d − 1 and depth d
/// stops the iteration of depth d.
#[test]
fn a_stopped_iteration_answers_a_better_move_it_found() {
    use tessera::search::params::CHECK_EVERY;
    let mut rng = SplitMix64::new(5);
    let mut positions = ConnectFour::bench_positions();
    while positions.len() < 12 {
        let mut g = ConnectFour::new();
        for _ in 0..4 + rng.below(8) {
            let moves = legal_moves(&g);
            g.make_move(moves[rng.below(moves.len() as u64) as usize]);
        }
        if g.status() == Status::Ongoing {
            positions.push(g);
        }
    }
    let (mut stopped, mut changed) = (0, 0);
    for pos in &positions {
        let mut last = run(pos, &Limits::depth(1), &hard1());
        for depth in 2..=12 {
            let full = run(pos, &Limits::depth(depth), &hard1());
            // The limit is looked at every `CHECK_EVERY` nodes: the search
            // stops at most that far past it, before depth d ends.
            let span = full.nodes.saturating_sub(last.nodes + 2 * CHECK_EVERY);
            for k in (0..10).filter(|_| span > 0) {
                let nodes = last.nodes + 1 + span * k / 10;
                let r = run(pos, &Limits::nodes(nodes), &hard1());
                stopped += 1;
                if r.depth == depth {
                    changed += 1;
                    assert_ne!(r.best_move, last.best_move, "{pos:?} at {nodes} nodes");
                    assert_eq!(r.pv.first(), r.best_move.as_ref());
                } else {
                    assert_eq!(r.depth, depth - 1, "{pos:?} at {nodes} nodes");
                    assert_eq!(
                        (r.best_move, r.score),
                        (last.best_move, last.score),
                        "{pos:?} at {nodes} nodes"
                    );
                }
            }
            last = full;
        }
    }
    assert!(
        changed > 0,
        "no stopped iteration changed its move ({stopped} stops)"
    );
    eprintln!("{changed} of {stopped} stopped iterations answered a better move");
}

#[test]
fn node_limit_is_respected() {
    let r = run(&ConnectFour::new(), &Limits::nodes(20_000), &hard1());
    assert!(r.nodes >= 20_000, "{}", r.nodes);
    assert!(
        r.nodes < 20_000 + 2 * tessera::search::params::CHECK_EVERY,
        "{}",
        r.nodes
    );
    assert!(r.best_move.is_some());
}

#[test]
fn result_is_legal_on_random_positions_at_every_level() {
    let mut rng = SplitMix64::new(11);
    for level in Level::ALL {
        let config = LevelConfig {
            threads: 1,
            tt_mb: 1,
            ..level.config()
        };
        let mut searcher = Searcher::<ConnectFour>::for_level(&config);
        let stop = AtomicBool::new(false);
        for game in 0..30 {
            let mut g = ConnectFour::new();
            let plies = rng.below(25);
            for _ in 0..plies {
                let moves = legal_moves(&g);
                if moves.is_empty() {
                    break;
                }
                g.make_move(moves[rng.below(moves.len() as u64) as usize]);
            }
            let limits = if game % 2 == 0 {
                Limits::nodes(3_000)
            } else {
                Limits::depth(3)
            };
            let r = searcher.search(&g, &limits, &config, &stop, &mut |_| {});
            let moves = legal_moves(&g);
            match r.best_move {
                Some(mv) => assert!(moves.contains(&mv), "{level}: illegal {mv:?}"),
                None => assert!(
                    moves.is_empty(),
                    "{level}: no move although {} exist",
                    moves.len()
                ),
            }
            if let Some(first) = r.pv.first() {
                assert_eq!(Some(*first), r.best_move);
            }
            // The principal variation is a legal line.
            let mut line = g.clone();
            for &mv in &r.pv {
                assert!(
                    legal_moves(&line).contains(&mv),
                    "{level}: illegal PV {:?}",
                    r.pv
                );
                line.make_move(mv);
            }
        }
    }
}

#[test]
fn finished_game_has_no_move() {
    let g = ConnectFour::from_moves("a b a b a b a").expect("legal");
    assert_ne!(g.status(), Status::Ongoing);
    let r = run(&g, &Limits::depth(3), &hard1());
    assert_eq!(r.best_move, None);
    assert!(r.root_moves.is_empty());
}

#[test]
fn easy_noise_varies_but_stays_legal() {
    let pos = ConnectFour::new();
    let mut chosen = HashSet::new();
    for seed in 0..24 {
        let config = LevelConfig {
            threads: 1,
            seed,
            ..Level::Easy.config()
        };
        let r = run(&pos, &Limits::depth(4), &config);
        let mv = r.best_move.expect("a move");
        assert!(legal_moves(&pos).contains(&mv));
        chosen.insert(mv);
    }
    assert!(
        chosen.len() >= 2,
        "noise never changed the move: {chosen:?}"
    );
}

/// A noisy level's first iteration is the plain search (a move is known in
/// milliseconds); its noise widens the windows from depth 2 on, or at depth 1
/// when that is the deepest asked.
#[test]
fn noise_starts_after_the_first_iteration() {
    let pos = midgame();
    let infos = |config: &LevelConfig, depth: u32| {
        let mut out: Vec<SearchInfo<Drop>> = Vec::new();
        let stop = AtomicBool::new(false);
        Searcher::<ConnectFour>::new(4).search(
            &pos,
            &Limits::depth(depth),
            config,
            &stop,
            &mut |i| out.push(i.clone()),
        );
        out
    };
    let easy = LevelConfig {
        threads: 1,
        ..Level::Easy.config()
    };
    let plain = LevelConfig {
        noise_margin: 0,
        ..easy
    };
    let (noisy, quiet) = (infos(&easy, 3), infos(&plain, 3));
    assert_eq!(noisy[0].root_moves, quiet[0].root_moves);
    assert_eq!(noisy[0].nodes, quiet[0].nodes);
    // Depth 2 searches more with the margin: every move within it is exact.
    assert!(noisy[1].nodes > quiet[1].nodes);
    let exact = |i: &SearchInfo<Drop>| i.root_moves.iter().filter(|r| r.exact).count();
    assert!(exact(&noisy[1]) > exact(&quiet[1]));
    // Depth 1 alone: the margin applies to it.
    let only = infos(&easy, 1);
    assert!(only[0].nodes > quiet[0].nodes);
}

#[test]
fn finds_the_immediate_win_and_the_fastest_win() {
    // First has three in column a and is to move.
    let g = ConnectFour::from_moves("a b a b a c").expect("legal");
    let r = run(&g, &Limits::depth(6), &hard1());
    assert_eq!(r.best_move, Some(Drop(0)));
    assert_eq!(r.score, WIN - 1);
    // Even the noisiest level does not leave a forced win.
    let easy = LevelConfig {
        threads: 1,
        ..Level::Easy.config()
    };
    for seed in 0..10 {
        let r = run(&g, &Limits::depth(4), &LevelConfig { seed, ..easy });
        assert_eq!(r.best_move, Some(Drop(0)));
    }
}

#[test]
fn sees_a_forced_loss_and_blocks() {
    // Second must block column a; anything else loses at once.
    let g = ConnectFour::from_moves("a b a b a").expect("legal");
    let r = run(&g, &Limits::depth(5), &hard1());
    assert_eq!(r.best_move, Some(Drop(0)));
    let lost = r
        .root_moves
        .iter()
        .filter(|m| m.mv != Drop(0))
        .all(|m| m.score <= -(WIN - 2));
    assert!(lost, "{:?}", r.root_moves);
}

#[test]
fn reports_every_iteration_in_order() {
    let mut infos: Vec<SearchInfo<Drop>> = Vec::new();
    let stop = AtomicBool::new(false);
    let r = Searcher::<ConnectFour>::new(4).search(
        &midgame(),
        &Limits::depth(7),
        &hard1(),
        &stop,
        &mut |i| infos.push(i.clone()),
    );
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    let last = infos.last().expect("reports");
    assert_eq!(last.pv.first().copied(), r.best_move);
    assert_eq!(last.score, r.score);
    assert!(last.seldepth >= last.depth);
    assert_eq!(last.root_moves.len(), legal_moves(&midgame()).len());
    assert_eq!(last.root_moves[0].mv, r.best_move.expect("a move"));
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    // Notation round trip of the PV.
    assert!(r.pv.iter().all(|&mv| !midgame().format_move(mv).is_empty()));
}

#[test]
fn several_threads_return_a_legal_move() {
    let config = LevelConfig {
        threads: 3,
        ..Level::Hard.config()
    };
    let pos = midgame();
    let r = run(&pos, &Limits::depth(10), &config);
    assert!(legal_moves(&pos).contains(&r.best_move.expect("a move")));
    assert!((1..=10).contains(&r.depth), "{}", r.depth);
    // Helpers searched too: more nodes than the main thread alone would need is
    // typical but not guaranteed, so only check the total is counted at all.
    assert!(r.nodes > 0);
}

#[test]
fn table_persists_between_moves_until_new_game() {
    let stop = AtomicBool::new(false);
    let mut s = Searcher::<ConnectFour>::new(8);
    let first = s.search(&midgame(), &Limits::depth(9), &hard1(), &stop, &mut |_| {});
    let again = s.search(&midgame(), &Limits::depth(9), &hard1(), &stop, &mut |_| {});
    assert!(
        again.nodes < first.nodes,
        "{} vs {}",
        again.nodes,
        first.nodes
    );
    s.new_game();
    let fresh = s.search(&midgame(), &Limits::depth(9), &hard1(), &stop, &mut |_| {});
    assert_eq!(fresh.nodes, first.nodes);
}

#[test]
fn finished_game_scores_its_result() {
    // First won; Second is to move and has lost.
    let g = ConnectFour::from_moves("a b a b a b a").expect("legal");
    assert_eq!(run(&g, &Limits::depth(3), &hard1()).score, -WIN);
}

#[test]
fn absurd_settings_do_not_panic() {
    let pos = midgame();
    let config = LevelConfig {
        threads: usize::MAX,
        tt_mb: 1,
        max_depth: u32::MAX,
        ..Level::Hard.config()
    };
    let limits = Limits {
        depth: Some(u32::MAX),
        nodes: Some(5_000),
        ..Limits::default()
    };
    let r = run(
        &pos,
        &limits,
        &LevelConfig {
            threads: 2,
            ..config
        },
    );
    assert!(legal_moves(&pos).contains(&r.best_move.expect("a move")));
    let clock = Limits::clock(std::time::Duration::MAX, std::time::Duration::MAX, Some(0));
    let r = run(
        &pos,
        &Limits {
            nodes: Some(5_000),
            ..clock
        },
        &hard1(),
    );
    assert!(r.best_move.is_some());
    let mut s = Searcher::<ConnectFour>::new(0);
    s.apply_level(&LevelConfig {
        tt_mb: 2,
        ..hard1()
    });
    assert_eq!(s.tt().size_mb(), 2);
}

#[test]
fn timed_searches_return_legal_moves() {
    let pos = midgame();
    let moves = legal_moves(&pos);
    let limits = [
        Limits::movetime(std::time::Duration::from_millis(40)),
        Limits::clock(
            std::time::Duration::from_millis(600),
            std::time::Duration::ZERO,
            None,
        ),
        Limits::default(), // the level's own time per move
    ];
    for limits in limits {
        let r = run(
            &pos,
            &limits,
            &LevelConfig {
                threads: 1,
                ..Level::Easy.config()
            },
        );
        assert!(moves.contains(&r.best_move.expect("a move")), "{limits:?}");
    }
}

/// With two threads the search still ends at the depth asked for (whichever
/// thread completes it first), each depth is reported once, in order, and the
/// last iteration reported is the result.
#[test]
fn two_threads_reach_the_depth_asked_and_report_the_result() {
    let pos = midgame();
    for depth in [3, 6, 9] {
        let stop = AtomicBool::new(false);
        let mut s = Searcher::<ConnectFour>::new(8);
        let mut infos = Vec::new();
        let config = LevelConfig {
            threads: 2,
            ..hard1()
        };
        let r = s.search(&pos, &Limits::depth(depth), &config, &stop, &mut |i| {
            infos.push(i.clone())
        });
        assert!(
            r.depth == depth || is_decisive(r.score),
            "{} of {depth}",
            r.depth
        );
        assert!(legal_moves(&pos).contains(&r.best_move.expect("a move")));
        // Each depth is reported once, whichever thread completed it.
        assert!(
            infos.windows(2).all(|w| w[0].depth < w[1].depth),
            "{:?}",
            infos.iter().map(|i| i.depth).collect::<Vec<_>>()
        );
        let last = infos.last().expect("an iteration was reported");
        assert_eq!((last.depth, last.score), (r.depth, r.score));
        assert_eq!(last.pv.first(), r.best_move.as_ref());
    }
}
