//! Every weight of the Rekushu evaluation, in one place.
//!
//! Units are centi-tiles (one claimed tile = 100) unless a field says
//! "percent", in which case it scales a tile count already worth 100 per tile.
//! Move-ordering hints are unitless (only their order matters) and stay well
//! inside the searcher's `±1_000_000` hint range.

/// The weights of `impl Evaluate for Board` (see `eval.rs` for how each is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RekushuWeights {
    /// Value of one claimed tile of lead.
    pub tile: i32,
    /// Extra value (at the very end) of one tile of lead: the tile value rises
    /// linearly from `tile` to `tile + tile_late_bonus` as the empty placeable
    /// vertices fall from `late_empty_per_line * N` to zero.
    pub tile_late_bonus: i32,
    /// The late-game phase starts below this many placeable vertices per board line.
    pub late_empty_per_line: i32,
    /// Percent of the one-round claim race (see `eval.rs`) that counts: the
    /// side to move claims its best available rectangle (a completed one, or a
    /// 3-corner threat it completes and claims in the same move) or blocks the
    /// opponent's best; the opponent answers with its best remaining claim.
    pub race_percent: i32,
    /// Percent of the area of the side to move's second-best available claim
    /// (it may survive to the next move).
    pub second_claim_percent: i32,
    /// Percent of the area of a 3-corner threat of the side to move whose
    /// missing corner the mirror rule forbids this move (it may be taken next
    /// move, unless blocked).
    pub mirror_latent_percent: i32,
    /// Per available claim beyond the first two, per side (a loose measure of
    /// claim pressure), in centi-tiles.
    pub extra_claim: i32,
    /// Per own stone whose nearest stones along its row and its column (in
    /// one quadrant) are both its own: a rectangle needs only one more corner.
    pub pivot: i32,
    /// Per legal placement of lead (mirror bans differ between the sides);
    /// fades to zero in the late game.
    pub mobility: i32,
}

impl RekushuWeights {
    pub const DEFAULT: RekushuWeights = RekushuWeights {
        tile: 100,
        tile_late_bonus: 50,
        late_empty_per_line: 2,
        race_percent: 90,
        second_claim_percent: 25,
        mirror_latent_percent: 40,
        extra_claim: 10,
        pivot: 4,
        mobility: 2,
    };
}

impl Default for RekushuWeights {
    fn default() -> Self {
        RekushuWeights::DEFAULT
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
