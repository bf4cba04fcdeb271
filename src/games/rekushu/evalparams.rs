//! Every weight of the Rekushu evaluation, in one place.
//!
//! Units are centi-tiles (one claimed tile = 100) unless a field says
//! "percent", in which case it scales a tile count already worth 100 per tile.
//! Move-ordering hints are unitless (only their order matters) and stay well
//! inside the searcher's `±1_000_000` hint range.

/// The evaluation's terms, in the order of [`RekushuWeights::w`]. The
/// evaluation is linear in them: `score = Σ w[i] · feature[i] / DIVISOR[i]`
/// (centi-tiles), so a tuner can fit the weights to game results (see
/// `tools/tune` and `docs/tuning.md`). Every feature is the side to move's
/// value minus the opponent's unless it says otherwise.
pub const FEATURES: usize = 14;

/// Short names of the terms (the tuner's output and `docs/tuning.md` use them).
pub const NAMES: [&str; FEATURES] = [
    "tile",
    "tile_late",
    "race",
    "second_claim",
    "mirror_latent",
    "extra_claim",
    "pivot",
    "mobility",
    "edge",
    "edge_length",
    "centre",
    "bank",
    "threat_moves",
    "double_moves",
];

/// What each feature is divided by after weighting (a feature that carries a
/// phase factor in 1/256ths is divided by 256).
pub const DIVISOR: [i32; FEATURES] = [1, 256, 1, 1, 1, 1, 1, 256, 1, 1, 1, 1, 1, 1];

/// The weights of `impl Evaluate for Board` (see `eval.rs` for how each
/// feature is measured). Units: centi-tiles per unit of the feature.
///
/// - `tile`: one claimed tile of lead.
/// - `tile_late`: extra value of a tile of lead at the very end (the feature is
///   the lead times the late phase, 0–256: the phase rises from 0 to 256 as the
///   empty placeable vertices fall from `LATE_EMPTY_PER_LINE · N` to zero).
/// - `race`: the one-round claim race in tiles: the side to move claims its
///   best available rectangle (a completed one, or a 3-corner threat it
///   completes and claims in the same move) or blocks the opponent's best; the
///   opponent answers with its best remaining claim.
/// - `second_claim`: the area of the mover's second-best available claim (it
///   may survive to the next move).
/// - `mirror_latent`: the area of the mover's 3-corner threats whose missing
///   corner the mirror rule forbids this move (next move, unless blocked).
/// - `extra_claim`: available claims beyond the first two (claim pressure).
/// - `pivot`: own stones whose nearest stones along the row and the column (in
///   one quadrant) are both own: a rectangle needs one more corner.
/// - `mobility`: legal placements of lead (mirror bans differ between the
///   sides), times the early phase (256 − late phase).
/// - `edge`: open edges, two stones of one colour that are nearest
///   neighbours along a row or a column: a possible side of a rectangle.
/// - `edge_length`: their lengths (capped at `EDGE_CAP` each).
/// - `centre`: each stone's distance from the nearest two board edges (capped
///   at `CENTRE_CAP` per axis).
/// - `bank`: completed 1×1 squares no stone can block (corners not shared
///   with another one counted): tiles in hand, cashable on any later move.
/// - `threat_moves`: the mover's placements that would pivot a 3-corner threat
///   (the mover's side only).
/// - `double_moves`: those that would pivot two or more at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RekushuWeights {
    pub w: [i32; FEATURES],
}

/// The late-game phase starts below this many placeable vertices per line.
pub const LATE_EMPTY_PER_LINE: i32 = 2;
/// Longest edge length counted by `edge_length`.
pub const EDGE_CAP: i32 = 4;
/// Largest per-axis distance from the board edge counted by `centre`.
pub const CENTRE_CAP: i32 = 3;

impl RekushuWeights {
    pub const DEFAULT: RekushuWeights = RekushuWeights {
        w: [100, 37, 49, 16, -7, 27, 2, -3, -2, 1, 0, 12, 4, -3],
    };

    /// The score of a feature vector, centi-tiles.
    #[inline]
    pub fn score(&self, f: &[i32; FEATURES]) -> i32 {
        crate::core::eval::weighted_sum(&self.w, f, &DIVISOR)
    }
}

/// Move-ordering hints (`move_hint`), largest first.
pub mod hint {
    /// A claim: this base plus `CLAIM_PER_TILE` per tile of the rectangle.
    pub const CLAIM: i32 = 500_000;
    pub const CLAIM_PER_TILE: i32 = 1_000;
    /// A placement that blocks the opponent's available claims: per tile blocked.
    pub const BLOCK_PER_TILE: i32 = 800;
    pub const BLOCK: i32 = 20_000;
    /// A placement that pivots 3-corner threats of the mover (its nearest row and
    /// column stones are its own and the far corner is empty and clear): per
    /// tile of threat, and a bonus for two or more at once (a double threat).
    pub const THREAT: i32 = 10_000;
    pub const THREAT_PER_TILE: i32 = 400;
    pub const DOUBLE_THREAT: i32 = 30_000;
    /// A placement beside an own stone (nearest along a line) that has an own
    /// nearest neighbour on the perpendicular line: it may be a threat's third
    /// corner (not checked further, to keep hints cheap).
    pub const EXTEND: i32 = 3_000;
    /// A placement whose nearest row or column neighbour is an own stone.
    pub const ALIGNED: i32 = 50;
}
