//! Every weight of the REBUS evaluation and its move-ordering hints, in one
//! place.
//!
//! Units are centi-squares (one controlled square = 100). Hints are unitless
//! (only their order matters).

/// The evaluation's terms, in the order of [`RebusWeights::w`]. The evaluation
/// is linear in them: `score = Σ w[i] · feature[i] / DIVISOR[i]` (centi-squares;
/// plus `EvalParams::lock_bonus` per lock of lead, which a level sets and no fit
/// touches), so a tuner can fit the weights to game results (`tools/tune`,
/// `docs/tuning.md`). A feature is the side to move's value minus the
/// opponent's unless it says otherwise.
pub const FEATURES: usize = 22;

/// Short names of the terms (the tuner's output and `docs/tuning.md` use them).
pub const NAMES: [&str; FEATURES] = [
    "square",
    "near_51",
    "star1",
    "star2",
    "star3",
    "star4",
    "star5",
    "locked_square",
    "lock_near_break",
    "threatened",
    "attackable",
    "green_reach",
    "chain_mover",
    "chain_other",
    "restorable",
    "tempo",
    "late_square",
    "late_threatened",
    "late_attackable",
    "late_chain_mover",
    "late_chain_other",
    "late_tempo",
];

/// Indices into the feature vector, in the order of [`NAMES`].
pub const SQUARE: usize = 0;
pub const NEAR_51: usize = 1;
/// `star1`; `star2`…`star5` follow it.
pub const STAR1: usize = 2;
pub const LOCKED_SQUARE: usize = 7;
pub const LOCK_NEAR_BREAK: usize = 8;
pub const THREATENED: usize = 9;
pub const ATTACKABLE: usize = 10;
pub const GREEN_REACH: usize = 11;
pub const CHAIN_MOVER: usize = 12;
pub const CHAIN_OTHER: usize = 13;
pub const RESTORABLE: usize = 14;
pub const TEMPO: usize = 15;
/// `late_square`; the other late copies follow it in the order of [`LATE_OF`].
pub const LATE_SQUARE: usize = 16;

/// The features that have a late copy, in the order of the late copies: each
/// copy is the feature times `max(0, LATE_PLIES − plies left before the turn
/// limit)`, divided by [`LATE_PLIES`], so it grows from nothing
/// [`LATE_PLIES`] plies before the limit to the feature itself on the last ply
/// (0 without a turn limit). Most games end at the limit, scored by control,
/// and what predicts that score near the end is not what predicts it earlier.
pub const LATE_OF: [usize; 6] = [
    SQUARE,
    THREATENED,
    ATTACKABLE,
    CHAIN_MOVER,
    CHAIN_OTHER,
    TEMPO,
];

/// Plies before the turn limit from which the late copies count.
pub const LATE_PLIES: i32 = 64;

/// What each feature is divided by after weighting: 1 for the counts,
/// [`LATE_PLIES`] for the late copies.
pub const DIVISOR: [i32; FEATURES] = {
    let mut d = [1; FEATURES];
    let mut i = LATE_SQUARE;
    while i < FEATURES {
        d[i] = LATE_PLIES;
        i += 1;
    }
    d
};

/// Control from which the `near_51` term starts (51 squares win outright).
pub const NEAR_51_FROM: i32 = 40;

/// The weights of `impl Evaluate for Position` (see `eval.rs` for how each
/// feature is measured). Units: centi-squares per unit of the feature.
///
/// - `square`: one controlled square of lead.
/// - `near_51`: `max(0, control − NEAR_51_FROM)²`, so the bonus climbs
///   steeply near 51.
/// - `star1`…`star5`: having exactly that many active Stars (5 is the cap: a
///   side at five can gain no Star, and Stars reach two squares); the feature
///   is 1 for the mover's count, −1 for the opponent's.
/// - `locked_square`: squares of locks held (each is safe but cannot attack).
/// - `lock_near_break`: squares of locks one covered edge from breaking
///   (threshold 2 mixed, 3 uniform): they lose most of their value.
/// - `threatened`: own squares the opponent could take on its next turn (first
///   capture or chain step; what the opponent captured last turn is protected
///   only against us); the mover's side only.
/// - `attackable`: opponent squares the mover can take now (protection
///   counts); one-sided.
/// - `green_reach`: Green squares in each side's reach.
/// - `chain_mover`: the largest same-symbol region the mover could sweep in
///   one turn (an upper bound on its best chain); one-sided.
/// - `chain_other`: the same for the opponent's next turn; one-sided.
/// - `restorable`: opponent squares over a buried mover tile minus mover
///   squares over a buried opponent tile (a capture there restores the
///   capturer's own tile, so such a square is cheap to win back).
/// - `tempo`: 1 (having the move).
/// - `late_square`, `late_threatened`, `late_attackable`, `late_chain_mover`,
///   `late_chain_other`, `late_tempo`: the late copies of those six features
///   (see [`LATE_OF`]); a weight here is what the feature gains on the last
///   ply before the turn limit, reached in [`LATE_PLIES`] equal steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RebusWeights {
    pub w: [i32; FEATURES],
}

impl RebusWeights {
    pub const DEFAULT: RebusWeights = RebusWeights {
        // The first 16 fitted to 838 games by tools/tune with the Star
        // weights fixed (docs/history/tuning-rounds.md, REBUS round 1); 64.4% in 80 games
        // against the hand-set weights `[100, 10, 60, 110, 150, 180, 200, 20,
        // -15, -15, 10, 3, 20, -8, 10, 20]` (docs/history/strength-rounds.md, round 4). The
        // six late copies fitted to 514 games with the first 16 fixed
        // (docs/tuning.md, "REBUS, late copies"); 58.0% in 200 games against
        // the same weights without them (docs/history/strength-rounds.md, round 11).
        w: [
            100, 5, 60, 110, 150, 180, 200, 4, -5, -18, 22, 4, 25, -20, 2, 73, 157, -4, 7, 69, -75,
            161,
        ],
    };

    /// The score of a feature vector, centi-squares.
    #[inline]
    pub fn score(&self, f: &[i32; FEATURES]) -> i32 {
        crate::core::eval::weighted_sum(&self.w, f, &DIVISOR)
    }
}

/// Move-ordering hints (unitless; larger is tried earlier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RebusHints {
    /// Per captured square.
    pub square: i32,
    /// Extra per captured opponent square (a two-square swing).
    pub from_opponent: i32,
    /// Extra per captured opponent Star.
    pub star_capture: i32,
    /// Extra per square restored to our own tile.
    pub restore: i32,
    /// Extra per square when the attacker copied is a Star.
    pub star_copy: i32,
    /// A capture that reaches 51.
    pub wins: i32,
    /// A nomination of a square the opponent might take.
    pub nominate: i32,
    /// Extra when the nominee shows a Star.
    pub nominate_star: i32,
    /// A lock, plus `lock_square` per square, plus 10 × `EvalParams::lock_bonus`.
    pub lock: i32,
    pub lock_square: i32,
}

impl RebusHints {
    pub const DEFAULT: RebusHints = RebusHints {
        square: 100,
        from_opponent: 60,
        star_capture: 150,
        restore: 80,
        star_copy: 40,
        wins: 100_000,
        nominate: 20,
        nominate_star: 60,
        lock: 50,
        lock_square: 20,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::eval::LinearEval;
    use crate::games::rebus::Position;

    #[test]
    fn indices_match_the_names() {
        let named = [
            (SQUARE, "square"),
            (NEAR_51, "near_51"),
            (STAR1, "star1"),
            (STAR1 + 4, "star5"),
            (LOCKED_SQUARE, "locked_square"),
            (LOCK_NEAR_BREAK, "lock_near_break"),
            (THREATENED, "threatened"),
            (ATTACKABLE, "attackable"),
            (GREEN_REACH, "green_reach"),
            (CHAIN_MOVER, "chain_mover"),
            (CHAIN_OTHER, "chain_other"),
            (RESTORABLE, "restorable"),
            (TEMPO, "tempo"),
            (LATE_SQUARE, "late_square"),
            (FEATURES - 1, "late_tempo"),
        ];
        for (i, name) in named {
            assert_eq!(Position::feature_index(name), Some(i), "{name}");
        }
        for (k, &i) in LATE_OF.iter().enumerate() {
            assert_eq!(NAMES[LATE_SQUARE + k], format!("late_{}", NAMES[i]));
        }
    }

    /// The late copies are nothing without a turn limit and `LATE_PLIES` or
    /// more plies before it, and grow one `LATE_PLIES`-th of their feature a
    /// ply from there to the feature itself on the last ply.
    #[test]
    fn late_copies_grow_towards_the_turn_limit() {
        let mut p = Position::random(11);
        let mut moves = Vec::new();
        for _ in 0..6 {
            crate::core::Game::generate_moves(&p, &mut moves);
            crate::core::Game::make_move(&mut p, moves[moves.len() / 3]);
        }
        let ply = p.ply;
        let base = p.eval_features();
        assert!(LATE_OF.iter().any(|&i| base[i] != 0));
        for (limit, factor) in [
            (0, 0),
            (ply + 400, 0),
            (u32::MAX, 0),
            (i32::MAX as u32 + 100, 0),
            (ply + LATE_PLIES as u32, 0),
            (ply + LATE_PLIES as u32 - 1, 1),
            (ply + 10, LATE_PLIES - 10),
            (ply + 1, LATE_PLIES - 1),
        ] {
            p.set_turn_limit(limit);
            let f = p.eval_features();
            assert_eq!(f[..LATE_SQUARE], base[..LATE_SQUARE], "limit {limit}");
            for (k, &i) in LATE_OF.iter().enumerate() {
                assert_eq!(
                    f[LATE_SQUARE + k],
                    base[i] * factor,
                    "limit {limit}, {}",
                    NAMES[i]
                );
            }
        }
    }
}
