//! REBUS evaluation and search: a chain that reaches 51, a lock that must be
//! made, `mike`'s root list on the clock and on `stop` in a huge cluster,
//! legal results over many positions at every level, a reply that outlives a
//! nomination (what the root's refutation transfer relies on), and the
//! evaluation's bounds and determinism.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tessera::bench::random_line;
use tessera::core::{Game, Notation, Status};
use tessera::games::rebus::{Move, MoveKind, Position};
use tessera::search::eval::{EvalParams, Evaluate, ListAt, WIN_BOUND};
use tessera::search::{Level, LevelConfig, Limits, SearchResult, Searcher};

fn one_thread(level: Level) -> LevelConfig {
    LevelConfig {
        threads: 1,
        noise_margin: 0,
        ..level.config()
    }
}

fn search(pos: &Position, limits: &Limits, config: &LevelConfig) -> SearchResult<Move> {
    let stop = AtomicBool::new(false);
    Searcher::<Position>::new(8).search(pos, limits, config, &stop, &mut |_| {})
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

/// A position string from nine ranks (9 down to 1) of nine tokens each.
fn position(ranks: [&str; 9], rest: &str) -> Position {
    let board: Vec<String> = ranks
        .iter()
        .map(|r| r.split_whitespace().collect())
        .collect();
    let text = format!("{} {rest}", board.join("/"));
    Position::from_position_string(&text).expect("valid test position")
}

fn squares(names: &[&str]) -> u128 {
    names
        .iter()
        .map(|n| {
            let b = n.as_bytes();
            1u128 << ((b[1] - b'1') as u32 * 9 + (b[0] - b'a') as u32)
        })
        .fold(0, |a, b| a | b)
}

/// Red holds 45 squares; the six Theta tiles a6–f6 form one chain its rank-5
/// tiles reach, and taking all six (no fewer) makes 51. Both sides' tiles
/// alternate two symbols: a big same-symbol cluster would let Blue's replies
/// explode at `mike`, which enumerates every chain set (see the report).
fn chain_to_51() -> Position {
    position(
        [
            "bO bT bO bT bO bT bO bT bO",
            "bT bO bT bO bT bO bT bO bT",
            "bO bT bO bT bO bT bO bT bO",
            "gH gH gH gH gH gH gF gF gF",
            "rW rP rW rP rW rP rW rP rW",
            "rP rW rP rW rP rW rP rW rP",
            "rW rP rW rP rW rP rW rP rW",
            "rP rW rP rW rP rW rP rW rP",
            "rW rP rW rP rW rP rW rP rW",
        ],
        "red - -",
    )
}

#[test]
fn chain_to_51_is_found_by_hard_and_mike() {
    let pos = chain_to_51();
    assert_eq!(pos.status(), Status::Ongoing);
    let winning = squares(&["a6", "b6", "c6", "d6", "e6", "f6"]);
    // Only the whole chain wins: every shorter set of it leaves Red below 51.
    let wins: Vec<Move> = legal(&pos)
        .into_iter()
        .filter(|&m| m.squares() == winning)
        .collect();
    assert!(!wins.is_empty());
    for level in [Level::Hard, Level::Mike] {
        let r = search(&pos, &Limits::depth(3), &one_thread(level));
        let best = r.best_move.expect("a move");
        assert_eq!(best.squares(), winning, "{level}: {best:?}");
        assert!(r.score >= WIN_BOUND, "{level}: score {}", r.score);
        assert!(wins.contains(&best));
    }
}

/// Red's only free tiles are the Omega block a1–b2; Blue's Star on a3 reaches
/// it and would chain through all four. With `protected` a3,b3,c1,c2,c3,
/// everything Red could capture is protected and the rest of Red is locked, so
/// Red may pass or lock a1L2 (uniform: two covered edges do not break it).
/// Locking ends the game (no one can capture) with Red ahead 44–37; passing
/// lets Blue take the block and lead 41–40 with no captures left.
fn lock_or_lose(protected: &str) -> Position {
    position(
        [
            "bO bO bO bO bO bO bO rQ rQ",
            "bO bO bO bO bO bO bO rQ rQ",
            "bO bO bO bO bO bO bO bO bO",
            "bO bO bO rQ rQ rQ rQ rQ rQ",
            "bO bO bO rQ rQ rQ rQ rQ rQ",
            "bO bO bO rQ rQ rQ rQ rQ rQ",
            "bS bO bO rQ rQ rQ rQ rQ rQ",
            "rW rW bO rQ rQ rQ rQ rQ rQ",
            "rW rW bO rQ rQ rQ rQ rQ rQ",
        ],
        &format!("red d1L3,d4L3,g1L3,g4L3,h8L2 {protected}"),
    )
}

/// Every level locks when locking wins (issue #12: `mike` "locking when
/// locking wins"), whether the other choice is a pass or captures: with c1
/// unprotected Red may capture it instead (b1xc1, bare or with one of four
/// nominations, so pass is illegal), and the lock still wins at once.
#[test]
fn lock_that_must_be_made_is_made() {
    for (protected, moves) in [("a3,b3,c1,c2,c3", 2), ("a3,b3,c2,c3", 6)] {
        let pos = lock_or_lose(protected);
        assert_eq!(pos.status(), Status::Ongoing);
        let legal = legal(&pos);
        assert_eq!(legal.len(), moves, "{legal:?}");
        assert_eq!(legal.contains(&Move::PASS), moves == 2);
        for level in Level::ALL {
            let r = search(&pos, &Limits::depth(3), &one_thread(level));
            let best = r.best_move.expect("a move");
            assert_eq!(
                best.kind(),
                MoveKind::Lock { origin: 0, size: 2 },
                "{level}, {protected} protected"
            );
            assert!(r.score >= WIN_BOUND, "{level}: {}", r.score);
        }
    }
    // Passing instead loses.
    let pos = lock_or_lose("a3,b3,c1,c2,c3");
    let mut after = pos.clone();
    after.make_move(Move::PASS);
    let r = search(&after, &Limits::depth(2), &one_thread(Level::Hard));
    assert!(r.score >= WIN_BOUND, "Blue wins after a pass: {}", r.score);
}

/// Blue's Omegas over a 45-square Theta cluster over Red's rank of Pi: every
/// chain Red starts on rank 2 may wander the whole cluster. `mike` lists its
/// root exactly (every chain set, up to the per-start valve): 80,186 moves
/// here, where `hard` lists 504.
fn theta_cluster() -> Position {
    position(
        [
            "bW bW bW bW bW bW bW bW bW",
            "bW bW bW bW bW bW bW bW bW",
            "bW bW bW bW bW bW bW bW bW",
            "gH gH gH gH gH gH gH gH gH",
            "gH gH gH gH gH gH gH gH gH",
            "gH gH gH gH gH gH gH gH gH",
            "gH gH gH gH gH gH gH gH gH",
            "gH gH gH gH gH gH gH gH gH",
            "rP rP rP rP rP rP rP rP rP",
        ],
        "red - -",
    )
}

/// Whether `mv` is a legal move of `pos` (the legal list of a huge cluster is
/// too long to make: `play`'s parser checks the move instead).
fn is_legal(pos: &Position, mv: Move) -> bool {
    pos.parse_move(&pos.format_move(mv)).ok() == Some(mv)
}

/// The untimed search of the cluster at `mike` (depth 1, one thread) and the
/// length of `mike`'s whole exact root list.
fn untimed_mike_root_list(pos: &Position) -> (usize, usize) {
    let mut exact = Vec::new();
    pos.generate_search_moves(&mut exact, &Level::Mike.config().eval, ListAt::Root);
    let untimed = search(pos, &Limits::depth(1), &one_thread(Level::Mike));
    (untimed.root_moves.len(), exact.len())
}

/// `mike`'s exact chain planning never stalls a move (issue #12): its root
/// list is made on the clock. Untimed, the searcher stops listing at about
/// `MAX_LIST` (65,536) moves, short of the exact list; with 1 ms per move the
/// clock cuts the list much shorter still, and the search returns a legal
/// move. (Listing up to `MAX_LIST` takes about 5 ms here, so at 0.2 s per
/// move `MAX_LIST` ends the list before its share of the time, an eighth, is
/// spent: the clock is what bounds it at shorter times or on slower machines.
/// What is checked is which list was cut, never how long anything took.)
#[test]
fn mike_root_list_is_cut_by_the_clock() {
    let pos = theta_cluster();
    let (untimed, exact) = untimed_mike_root_list(&pos);
    assert!(untimed < exact, "untimed {untimed} of {exact}");
    for threads in [1, Level::Mike.config().threads] {
        let config = LevelConfig {
            threads,
            ..Level::Mike.config()
        };
        let r = search(&pos, &Limits::movetime(Duration::from_millis(1)), &config);
        let best = r.best_move.expect("a move");
        assert!(is_legal(&pos, best), "{best:?}");
        // With several threads the result may be a helper's iteration, whose
        // root list only `stop`, the search's end or `MAX_LIST` cut.
        if threads == 1 {
            assert!(
                r.root_moves.len() < untimed,
                "the clock did not cut the list: {} moves, {untimed} untimed",
                r.root_moves.len()
            );
        }
    }
}

/// A `stop` that arrives while `mike` makes its root list ends the list: with
/// the flag set as the search starts, the list's first question is answered
/// no, and an infinite search returns at once (no iteration completed) with a
/// legal move from a list far shorter than the untimed one.
#[test]
fn stop_ends_mike_root_list() {
    let pos = theta_cluster();
    let (untimed, _) = untimed_mike_root_list(&pos);
    for config in [one_thread(Level::Mike), Level::Mike.config()] {
        let stop = AtomicBool::new(true);
        let r = Searcher::<Position>::new(8).search(
            &pos,
            &Limits::infinite(),
            &config,
            &stop,
            &mut |_| {},
        );
        assert_eq!(r.depth, 0, "{} threads", config.threads);
        let best = r.best_move.expect("a move");
        assert!(is_legal(&pos, best), "{best:?}");
        assert!(
            r.root_moves.len() < untimed,
            "{} threads: stop did not cut the list: {} moves, {untimed} untimed",
            config.threads,
            r.root_moves.len()
        );
    }
}

fn sample_positions() -> Vec<Position> {
    let mut out = vec![Position::standard()];
    for seed in 0..24u64 {
        let plies = (seed as usize * 11) % 90;
        let p = random_line(Position::random(seed), plies, seed ^ 0x5EED);
        if p.status() == Status::Ongoing {
            out.push(p);
        }
    }
    out
}

#[test]
fn search_returns_legal_moves_at_every_level() {
    let positions = sample_positions();
    assert!(positions.len() >= 15);
    for level in Level::ALL {
        let config = LevelConfig {
            threads: 1,
            ..level.config()
        };
        for (i, pos) in positions.iter().enumerate() {
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::depth(3)
            };
            let r = search(pos, &limits, &config);
            let best = r.best_move.expect("an ongoing game has a move");
            assert!(legal(pos).contains(&best), "{level} #{i}: {best:?}");
        }
    }
}

#[test]
fn evaluation_is_bounded_and_deterministic() {
    let params = [
        EvalParams::default(),
        Level::Mike.config().eval,
        Level::Easy.config().eval,
    ];
    for pos in sample_positions() {
        let mut p = pos.clone();
        for ply in 0..40 {
            if p.status() != Status::Ongoing {
                break;
            }
            for ep in &params {
                let a = p.evaluate(ep);
                assert!(a.abs() < WIN_BOUND);
                assert_eq!(a, p.clone().evaluate(ep));
            }
            let moves = legal(&p);
            p.make_move(moves[(ply * 7 + 3) % moves.len()]);
        }
    }
}

#[test]
fn one_thread_search_is_deterministic() {
    let pos = random_line(Position::random(5), 30, 9);
    let config = one_thread(Level::Hard);
    let a = search(&pos, &Limits::depth(3), &config);
    let b = search(&pos, &Limits::depth(3), &config);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.score, b.score);
}

/// Each game shapes its own default search: REBUS quiescence two plies,
/// late-move pruning, reverse futility and the null move to or from three
/// plies; Rekushu the searcher's quiescence with its own pruning (late moves
/// pruned to four plies, reduced logarithmically); a caller's `set_params`
/// replaces both.
#[test]
fn each_game_gets_its_default_search_shape() {
    use tessera::games::rekushu::Board;
    use tessera::search::SearchParams;
    let rebus = *Searcher::<Position>::new(1).params();
    assert_eq!(rebus.qsearch_plies, 2);
    assert_eq!(rebus.lmp_depth, 3);
    let rekushu = *Searcher::<Board>::new(1).params();
    assert_eq!(rekushu.qsearch_plies, SearchParams::DEFAULT.qsearch_plies);
    assert_eq!(
        (
            rekushu.lmp_depth,
            rekushu.lmp_base,
            rekushu.rfp_depth,
            rekushu.null_min_depth,
            rekushu.lmr_log_divisor
        ),
        (4, 5, 3, 3, 225)
    );
    assert_eq!(
        SearchParams {
            lmp_depth: 0,
            lmp_base: SearchParams::DEFAULT.lmp_base,
            rfp_depth: 0,
            rfp_margin: 0,
            null_min_depth: 0,
            lmr_log_divisor: 0,
            ..rekushu
        },
        SearchParams::DEFAULT
    );
    assert_eq!(
        (rebus.rfp_depth, rebus.rfp_margin, rebus.null_min_depth),
        (3, 150, 3)
    );
    assert_eq!(SearchParams::DEFAULT.lmp_depth, 0);
    let mut s = Searcher::<Position>::new(1);
    s.set_params(SearchParams::EXACT);
    assert_eq!(*s.params(), SearchParams::EXACT);
}

/// The evaluation is the weighted features plus the level's bonus per lock of
/// lead, on positions with and without locks, far from the turn limit and
/// within the late copies' reach of it (the tuner relies on it).
#[test]
fn the_score_is_the_weighted_features() {
    use tessera::games::rebus::evalparams::{LATE_SQUARE, RebusWeights, TEMPO};
    let with_lock = EvalParams {
        lock_bonus: 37,
        ..EvalParams::default()
    };
    let (mut locks_seen, mut late_seen) = (0, 0);
    for (pos, near_limit) in sample_positions()
        .into_iter()
        .flat_map(|p| [(p.clone(), false), (p, true)])
    {
        let mut p = pos;
        if near_limit {
            // The 30 plies below end one ply before the limit.
            p.set_turn_limit(p.ply() as u32 + 31);
        }
        for ply in 0..30 {
            if p.status() != Status::Ongoing {
                break;
            }
            let f = p.eval_features();
            assert_eq!(f[TEMPO], 1);
            if near_limit {
                // The tempo's copy at least: the tempo is always 1.
                assert!(
                    f[LATE_SQUARE..].iter().any(|&x| x != 0),
                    "late copies near the limit"
                );
                late_seen += 1;
            } else {
                assert!(
                    f[LATE_SQUARE..].iter().all(|&x| x == 0),
                    "late copies far from the limit"
                );
            }
            let weighted = RebusWeights::DEFAULT.score(&f);
            assert_eq!(p.evaluate(&EvalParams::default()), weighted);
            let me = p.side_to_move().index() as u8;
            let lead: i32 = p
                .locks()
                .iter()
                .map(|l| if l.owner == me { 1 } else { -1 })
                .sum();
            locks_seen += p.locks().len();
            assert_eq!(p.evaluate(&with_lock), weighted + 37 * lead);
            let moves = legal(&p);
            // Locks when there are any, so the lock terms are exercised.
            let lock = moves
                .iter()
                .copied()
                .find(|m| matches!(m.kind(), MoveKind::Lock { .. }));
            p.make_move(lock.unwrap_or(moves[(ply * 5 + 1) % moves.len()]));
        }
    }
    assert!(locks_seen > 0, "no position with a lock was checked");
    assert!(late_seen > 0, "no position near the turn limit was checked");
}

/// The claim behind the root's refutation transfer: a reply to a bare capture
/// that `reply_outlives` the same capture with a nomination is legal after it
/// too and leads to the very same position; the replies it does not pass are
/// the captures of the nominee and the locks, and a capture of the nominee is
/// indeed illegal after the nomination.
#[test]
fn a_reply_that_outlives_a_nomination_meets_the_bare_line() {
    let (mut outlived, mut refused) = (0usize, 0usize);
    for pos in sample_positions().iter().take(16) {
        let mut moves = Vec::new();
        pos.generate_search_moves(&mut moves, &Level::Mike.config().eval, ListAt::Root);
        let all = legal(pos);
        for &mv in moves
            .iter()
            .filter(|m| pos.root_base(**m).is_some())
            .take(40)
        {
            let base = pos.root_base(mv).expect("filtered");
            assert!(
                all.contains(&base),
                "{mv:?} narrows a move that is not legal"
            );
            let MoveKind::Capture {
                nominee: Some(n), ..
            } = mv.kind()
            else {
                panic!("only a nominated capture narrows another: {mv:?}");
            };
            let (mut after_base, mut after_mv) = (pos.clone(), pos.clone());
            after_base.make_move(base);
            after_mv.make_move(mv);
            let replies_after_mv = legal(&after_mv);
            for reply in legal(&after_base) {
                if pos.reply_outlives(mv, reply) {
                    outlived += 1;
                    assert_eq!(after_mv.status(), Status::Ongoing);
                    assert!(replies_after_mv.contains(&reply), "{mv:?} then {reply:?}");
                    let (mut a, mut b) = (after_base.clone(), after_mv.clone());
                    a.make_move(reply);
                    b.make_move(reply);
                    // Everything but the history of moves made.
                    assert_eq!(
                        a.position_string(),
                        b.position_string(),
                        "{mv:?} then {reply:?}"
                    );
                    assert_eq!((a.hash(), a.status()), (b.hash(), b.status()));
                } else {
                    refused += 1;
                    if let MoveKind::Capture { squares, .. } = reply.kind()
                        && squares >> n & 1 == 1
                    {
                        assert!(!replies_after_mv.contains(&reply), "{mv:?} then {reply:?}");
                    }
                }
            }
        }
    }
    assert!(
        outlived > 1000 && refused > 10,
        "{outlived} outlived, {refused} refused"
    );
}
