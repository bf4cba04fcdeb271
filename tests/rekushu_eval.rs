//! The Rekushu evaluation through the public searcher: hand-made tactics that
//! `hard` and `mike` must find at a fixed depth (one thread, so deterministic),
//! sanity of `evaluate` and `move_to_u32` over random positions, and
//! `bench_signature`: the Rekushu `hard` part of `tessera bench` is
//! reproducible (the `Bench: N` of commit messages is the whole of
//! `tessera bench`; CONTRIBUTING.md):
//!
//! `cargo test --release --test all rekushu_eval::bench_signature -- --nocapture`

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use tessera::core::eval::{EvalChoice, EvalParams, Evaluate, WIN_BOUND};
use tessera::core::{Game, Notation, SplitMix64, Status};
use tessera::games::rekushu::{Board, Move, Rect};
use tessera::search::bench::bench;
use tessera::search::{Level, LevelConfig, Limits, SearchResult, Searcher};

/// Plays `moves` (alternating colours, Black first) on an empty `n`×`n` board.
fn position(n: usize, moves: &[&str]) -> Board {
    let mut b = Board::new(n).expect("valid size");
    for text in moves {
        let mv = b
            .parse_move(text)
            .unwrap_or_else(|e| panic!("test line: {text}: {e}"));
        b.make_move(mv);
    }
    assert_eq!(b.status(), Status::Ongoing);
    b
}

fn one_thread(level: Level) -> LevelConfig {
    LevelConfig {
        threads: 1,
        tt_mb: 16,
        noise_margin: 0,
        ..level.config()
    }
}

fn search(b: &Board, level: Level, depth: u32) -> SearchResult<Move> {
    let config = one_thread(level);
    let stop = AtomicBool::new(false);
    Searcher::<Board>::new(config.tt_mb).search(
        b,
        &Limits::depth(depth),
        &config,
        &stop,
        &mut |_| {},
    )
}

fn rect(b: &Board, text: &str) -> Rect {
    // A claim's rectangle, read through the notation: "<corner>-<corner>".
    let (a, c) = text.split_once('-').expect("test rect");
    let (ax, ay) = vertex(b, a);
    let (cx, cy) = vertex(b, c);
    Rect::from_corners(ax, ay, cx, cy).expect("test rect")
}

fn vertex(b: &Board, text: &str) -> (usize, usize) {
    let col = text.as_bytes()[0].to_ascii_uppercase() - b'A';
    let row: usize = text[1..].parse().expect("test vertex");
    assert!((col as usize) < b.size() && row <= b.size());
    (col as usize, row - 1)
}

const TACTIC_LEVELS: [Level; 2] = [Level::Hard, Level::Mike];

/// (a) Black has a completed 3×3 rectangle C3-F6 and White a 3-corner threat
/// (H8, J8, H10; J10 missing). Black must claim now, and the best move also
/// places its stone on White's threat, so White is left with nothing.
#[test]
fn tactic_claim_now_and_block() {
    let b = position(10, &["C3", "H8", "F3", "J8", "C6", "H10", "F6", "A1"]);
    let own = rect(&b, "C3-F6");
    let theirs = rect(&b, "H8-J10");
    for level in TACTIC_LEVELS {
        for depth in [1, 3] {
            let r = search(&b, level, depth);
            let mv = r.best_move.expect("a move");
            assert_eq!(
                mv.claim(),
                Some(own),
                "{level} d{depth}: {}",
                b.format_move(mv)
            );
            let (x, y) = mv.vertex();
            assert!(
                theirs.covers(x, y),
                "{level} d{depth}: {}",
                b.format_move(mv)
            );
            assert!(r.score >= 800, "{level} d{depth}: score {}", r.score);
        }
    }
}

/// (b1) White threatens C3-G6 (4×3 = 12 tiles; G6 missing); Black has no
/// claim of its own and must place on the rectangle or on G6.
#[test]
fn tactic_block_threat() {
    let b = position(10, &["J10", "C3", "I9", "G3", "H8", "C6"]);
    let theirs = rect(&b, "C3-G6");
    for level in TACTIC_LEVELS {
        for depth in [1, 2, 3] {
            let r = search(&b, level, depth);
            let mv = r.best_move.expect("a move");
            let (x, y) = mv.vertex();
            assert!(
                theirs.covers(x, y),
                "{level} d{depth}: {}",
                b.format_move(mv)
            );
        }
    }
}

/// (b2) White has a completed C3-G6 (12 tiles) and Black a smaller threat of
/// its own (A8, B8, A10 with B10 missing: 1×2 tiles). Claiming the small one
/// loses 12 for 2: Black must block on C3-G6's edges or inside.
#[test]
fn tactic_block_completed_rectangle() {
    let b = position(10, &["A8", "C3", "B8", "G3", "A10", "C6", "J1", "G6"]);
    let theirs = rect(&b, "C3-G6");
    for level in TACTIC_LEVELS {
        for depth in [1, 2, 3] {
            let r = search(&b, level, depth);
            let mv = r.best_move.expect("a move");
            let (x, y) = mv.vertex();
            assert!(
                theirs.covers(x, y),
                "{level} d{depth}: {}",
                b.format_move(mv)
            );
        }
    }
}

/// (c) Black's stones B5, H5, E2, E8 surround E5: a stone there makes four
/// 3-corner threats of 9 tiles (one per quadrant); one White stone blocks at
/// most two of them, so Black claims 9 next move. At depth 1 only the
/// evaluation can see it (the claim comes two plies later). From depth 3 the
/// search also sees White's best defence, C5, which blocks two threats and
/// makes a 5-tile threat of White's own (C5, C10, D10; D5 missing): +9 - 5.
#[test]
fn tactic_double_threat() {
    let b = position(10, &["H5", "A10", "E8", "B10", "B5", "C10", "E2", "D10"]);
    let key = vertex(&b, "E5");
    for level in TACTIC_LEVELS {
        for depth in [1, 2, 3] {
            let r = search(&b, level, depth);
            let mv = r.best_move.expect("a move");
            assert_eq!(mv.vertex(), key, "{level} d{depth}: {}", b.format_move(mv));
            assert!(r.score >= 300, "{level} d{depth}: score {}", r.score);
        }
    }
}

/// (d) White threatens the same pattern (White B5, H5, E2, E8 around E5), and
/// Black has only the four board corners (every rectangle they could start
/// holds a White stone, so no counter-threats): Black must take the key point
/// itself, or break the lines to it, before White plays it. Found at depth 2 (White's double
/// threat is the reply). Checked by a deeper search for White afterwards:
/// White must not have a forced claim of 9 tiles (a careless C3 lets
/// White score about +400 at that depth).
#[test]
fn tactic_prevent_double_threat() {
    let b = position(10, &["A1", "H5", "J1", "E8", "A10", "B5", "J10", "E2"]);
    for level in TACTIC_LEVELS {
        for depth in [2, 3] {
            let r = search(&b, level, depth);
            let mv = r.best_move.expect("a move");
            let mut after = b.clone();
            after.make_move(mv);
            let reply = search(&after, Level::Hard, 4);
            assert!(
                reply.score < 250,
                "{level} d{depth}: {} lets White score {}",
                b.format_move(mv),
                reply.score
            );
        }
    }
}

/// Deterministic random play: picks moves from `generate_moves` order.
fn random_line(n: usize, plies: usize, seed: u64) -> Board {
    let mut b = Board::new(n).expect("valid size");
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        b.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        b.make_move(mv);
    }
    b
}

/// Random positions of every stage, claims included (random lines claim
/// whenever a claim move is drawn, which is often once claims exist).
fn sample_positions() -> Vec<Board> {
    let mut out = Vec::new();
    let mut rng = SplitMix64::new(77);
    for &n in &[5usize, 8, 10, 14, 20] {
        for g in 0..6 {
            let mut b = Board::new(n).expect("valid size");
            let mut moves = Vec::new();
            loop {
                moves.clear();
                b.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                if b.ply().is_multiple_of(3 + g) {
                    out.push(b.clone());
                }
                // Prefer claims half of the time so positions hold claimed tiles.
                let claims: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.claim().is_some())
                    .collect();
                let mv = if !claims.is_empty() && rng.below(2) == 0 {
                    claims[rng.below(claims.len() as u64) as usize]
                } else {
                    moves[rng.below(moves.len() as u64) as usize]
                };
                b.make_move(mv);
            }
        }
    }
    out
}

#[test]
fn evaluate_is_bounded_and_deterministic() {
    let positions = sample_positions();
    assert!(positions.len() > 500, "{}", positions.len());
    let params = EvalParams::default();
    let mut nonzero = 0;
    for b in &positions {
        let v = b.evaluate(&params);
        assert!(v > -WIN_BOUND && v < WIN_BOUND, "{v}");
        assert_eq!(v, b.clone().evaluate(&params));
        nonzero += usize::from(v != 0);
    }
    assert!(nonzero > positions.len() / 2, "{nonzero}");
}

/// Claimed tiles count for the side to move: after a claim, the same position
/// seen by the opponent is worse for it by at least the claimed area.
#[test]
fn evaluate_counts_tiles_for_the_side_to_move() {
    // Black claims C3-F6 (9 tiles) with the A1 placement after the tactic line.
    let mut b = position(10, &["C3", "H8", "F3", "J8", "C6", "H10", "F6", "A1"]);
    let mv = b.parse_move("J10:C3-F6").expect("legal");
    b.make_move(mv);
    // White to move, 9 tiles behind, nothing to claim: clearly negative.
    assert!(b.evaluate(&EvalParams::default()) <= -700);
}

#[test]
fn move_to_u32_is_injective_per_position() {
    let mut checked = 0;
    let mut moves = Vec::new();
    for b in sample_positions().iter().step_by(3) {
        moves.clear();
        b.generate_moves(&mut moves);
        let codes: HashSet<u32> = moves.iter().map(|&m| b.move_to_u32(m)).collect();
        assert_eq!(codes.len(), moves.len());
        checked += moves.len();
    }
    assert!(checked > 10_000, "{checked}");
}

/// Noisy moves are few: every claim that completes a rectangle with the
/// placed stone, one placement per old claim, and a handful of blocks.
#[test]
fn noisy_moves_are_a_small_subset() {
    let mut moves = Vec::new();
    let (mut all, mut noisy) = (0, 0);
    for b in sample_positions().iter().step_by(5) {
        moves.clear();
        b.generate_moves(&mut moves);
        all += moves.len();
        noisy += moves.iter().filter(|&&m| b.is_noisy(m)).count();
        // A claim that completes with the placed stone is always noisy.
        for &m in &moves {
            if let Some(r) = m.claim()
                && r.corners().contains(&m.vertex())
            {
                assert!(b.is_noisy(m));
            }
        }
    }
    assert!(noisy * 5 < all, "{noisy} of {all}");
}

fn bench_positions() -> Vec<Board> {
    vec![
        random_line(20, 0, 1),
        random_line(20, 30, 2),
        random_line(20, 120, 3),
        random_line(14, 60, 4),
        random_line(8, 20, 5),
    ]
}

#[test]
fn bench_signature() {
    let positions = bench_positions();
    for b in &positions {
        assert_eq!(b.status(), Status::Ongoing);
    }
    let a = bench(&positions, 4, 16);
    let b = bench(&positions, 4, 16);
    println!("rekushu hard part of the bench: {} nodes", a.nodes);
    println!("nps {} time {:?}", a.nps, a.time);
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

/// The same game scored by tiles alone (the hints and noisy moves are kept):
/// the baseline the tactics are checked against.
#[derive(Clone)]
struct MaterialOnly(Board);

impl Game for MaterialOnly {
    type Move = Move;
    fn side_to_move(&self) -> tessera::core::Side {
        self.0.side_to_move()
    }
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.0.generate_moves(moves);
    }
    fn make_move(&mut self, mv: Move) {
        self.0.make_move(mv);
    }
    fn unmake_move(&mut self, mv: Move) {
        self.0.unmake_move(mv);
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn status(&self) -> Status {
        self.0.status()
    }
    fn ply(&self) -> usize {
        self.0.ply()
    }
}

impl Evaluate for MaterialOnly {
    fn evaluate(&self, _: &EvalParams) -> i32 {
        let [b, w] = self.0.tile_counts();
        let lead = 100 * (b as i32 - w as i32);
        if self.0.side_to_move().index() == 0 {
            lead
        } else {
            -lead
        }
    }
    fn move_hint(&self, mv: Move) -> i32 {
        self.0.move_hint(mv)
    }
    fn is_noisy(&self, mv: Move) -> bool {
        self.0.is_noisy(mv)
    }
    fn move_to_u32(&self, mv: Move) -> u32 {
        self.0.move_to_u32(mv)
    }
}

/// Tactic (c) really needs the evaluation: scored by tiles alone, the
/// depth-1 search sees nothing in the double threat.
#[test]
fn double_threat_needs_the_evaluation() {
    let b = position(10, &["H5", "A10", "E8", "B10", "B5", "C10", "E2", "D10"]);
    let config = one_thread(Level::Hard);
    let stop = AtomicBool::new(false);
    let r = Searcher::<MaterialOnly>::new(16).search(
        &MaterialOnly(b.clone()),
        &Limits::depth(1),
        &config,
        &stop,
        &mut |_| {},
    );
    assert!(r.score < 300, "material-only score {}", r.score);
    assert!(search(&b, Level::Hard, 1).score >= 300);
}

/// The feature `name` of `b` (for the side to move).
fn feature(b: &Board, name: &str) -> i32 {
    use tessera::core::eval::LinearEval;
    let i = Board::feature_index(name).unwrap_or_else(|| panic!("no feature {name}"));
    b.eval_features()[i]
}

#[test]
fn features_count_edges_centre_and_bank() {
    // Black's 1×1 square A1 B1 A2 B2 (a bank, four edges of length 1);
    // White's stones F6, D6, F4 (two edges of length 2, and the threat D4).
    let b = position(6, &["A1", "F6", "B1", "D6", "A2", "F4", "B2"]);
    assert_eq!(b.side_to_move(), tessera::core::Side::Second);
    assert_eq!(feature(&b, "bank"), -1);
    assert_eq!(feature(&b, "edge"), 2 - 4);
    assert_eq!(feature(&b, "edge_length"), 4 - 4);
    // Black: 0 + 1 + 1 + 2; White: D6 2 + 0, F6 0, F4 0 + 2.
    assert_eq!(feature(&b, "centre"), 0);
    // White claims its threat D4-F6 (4 tiles) with D4; Black keeps its square
    // (no stone can block a 1×1 square): 4 - 1.
    assert_eq!(feature(&b, "race"), 3);
    // The same position one ply later, from Black's side: its bank counts for it.
    let mut c = b.clone();
    let mv = c.parse_move("C3").expect("legal");
    c.make_move(mv);
    assert_eq!(feature(&c, "bank"), 1);
}

/// The linear evaluation's score (`setoption eval` may choose the learned one).
#[test]
fn the_score_is_the_weighted_features() {
    use tessera::games::rekushu::evalparams::RekushuWeights;
    for b in sample_positions() {
        let f = b.eval_features();
        let expected = RekushuWeights::DEFAULT
            .score(&f)
            .clamp(-(WIN_BOUND - 1), WIN_BOUND - 1);
        let linear = EvalParams {
            eval: EvalChoice::Linear,
            ..EvalParams::default()
        };
        assert_eq!(b.evaluate(&linear), expected);
    }
}

/// `tools/timing/depth.sh` times any build (the v0.1.0 baseline too) on the
/// Rekushu positions of `tessera bench --times` through the protocol: its move
/// lines must replay, colours alternating from Black, to exactly those positions.
#[test]
fn the_timing_lines_replay_to_the_bench_positions() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/timing/rekushu-20.txt");
    let text = std::fs::read_to_string(path).expect("tools/timing/rekushu-20.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let sample = tessera::bench::rekushu_timing_sample();
    assert_eq!(lines.len(), sample.len());
    for (line, (label, expected)) in lines.iter().zip(&sample) {
        let (plies, moves) = line.split_once('\t').expect("plies, a tab, the moves");
        assert_eq!(label, &format!("20x20 +{plies}"));
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(moves.len().to_string(), plies);
        let replayed = position(20, &moves);
        assert_eq!(&replayed, expected, "{label}");
        assert_eq!(replayed.hash(), expected.hash(), "{label}");
    }
}
