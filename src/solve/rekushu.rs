//! The exact solver: the value of a Rekushu position under perfect play.
//!
//! **Value.** The final tile margin still to be won by the side to move — the
//! tiles it claims from here on minus the tiles the opponent claims — with both
//! sides maximising their own margin. Tiles claimed before the position do not
//! change what is best from it (they only block, whoever owns them), so the
//! solved state is the stones (as the mover's and the opponent's), the claimed
//! tiles (not their owners), the opponent's last placement with its mirror
//! types, and the mover's own last types (rules.md §1.5: the mover's ban is the
//! images of the opponent's last placement under the mover's last types). The
//! game's result adds the margin to the tile counts so far.
//!
//! **Method.** Fail-soft negamax alpha-beta over every legal move (no pruning
//! that is not exact), with a transposition table of exact keys: each state is
//! packed into a `u128` (n ≤ 6) under each of the 8 symmetries of the square
//! and the smallest is the key, so symmetric states share an entry. A
//! symmetry that swaps the axes swaps mirror types h and v (a reflection across
//! one axis becomes a reflection across the other), and the rotation type r is
//! kept, so the mirror rule is preserved. The opponent's last placement and
//! the mover's types enter the key only where they can still matter (an
//! image that may be played). Values are bounded by the unclaimed tiles; a
//! side that can never make a first claim while its opponent does not claim
//! either holds the opponent to at least 0 (and a position where no side can
//! is worth 0). The value is found by MTD(f) (null-window searches from a
//! guess of 0). Moves are ordered by the table's move, then claims by area,
//! then placements by the rectangles they spoil: the opponent's, counted
//! twice (more where the opponent already holds two or three corners), less
//! the mover's own. A side is also held to nothing where its opponent has a
//! pairing strategy (`Solver::pairing_blocks`), at once or after one move
//! of its own (`Solver::pairing_after_move`). Near the root each move is
//! first tried with a small node budget (`PROBE_PLIES`). A move keeps the
//! value when one null window says so, which lets those cuts fire.

use crate::core::Game;

use crate::games::rekushu::Board;
use crate::games::rekushu::mirror::{self, H, R, Types, V};
use crate::games::rekushu::{Move, Rect};

/// The largest board the exact keys cover.
pub const MAX_SOLVE_SIZE: usize = 6;

/// One table entry: the exact key and what is known of the value.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The key + 1 (0 marks an empty slot).
    key: u128,
    lo: i8,
    hi: i8,
    /// The best move found, in the key's frame (`pack_move` + 1; 0 = none).
    best: u32,
    /// log2 of the nodes its search took: the replacement priority.
    work: u8,
}

impl Entry {
    /// The best move stored, in the frame of a position whose key was made
    /// under symmetry `s` on an n×n board.
    fn best_move(&self, s: usize, n: usize) -> Option<Move> {
        (self.best != 0).then(|| sym_move(inverse(s), unpack_move(self.best - 1), n))
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The margin for the side to move under perfect play.
    pub value: i32,
    /// Every root move that keeps `value` (empty when the game is over).
    pub best_moves: Vec<Move>,
    /// A principal variation: optimal moves from the root to the end.
    pub pv: Vec<Move>,
    pub nodes: u64,
}

/// An exact solver with its table; reusable across positions of one size.
pub struct Solver {
    table: Vec<[Entry; 2]>,
    nodes: u64,
    /// One move list per ply, reused.
    lists: Vec<Vec<(i64, Move)>>,
    scratch: Vec<Move>,
    /// Every rectangle of a `rects_n`×`rects_n` board, as masks.
    rects: Vec<RectMask>,
    rects_n: usize,
    /// Per vertex, its three mirror images (rules.md §1.5) as a mask.
    mirrors: Vec<u64>,
    /// Whether the pairing cut ([`Solver::pairing_blocks`]) is used; off
    /// only in tests that check it against the search without it.
    pairing: bool,
    /// Where a probe ([`PROBE_PLIES`]) stops: the node count at which the
    /// search gives up (`u64::MAX` outside a probe), and whether it did.
    limit: u64,
    aborted: bool,
    /// How many probes ran out of nodes.
    aborts: u64,
    /// [`PROBE_PLIES`] and [`PROBE_BUDGET`]; tests change them.
    probe_plies: usize,
    probe_budget: u64,
}

/// Probes: at a node fewer than this many plies below the root of a search,
/// each move is first searched with at most [`PROBE_BUDGET`] nodes, in the
/// usual order, and the first that proves a cutoff within it is taken; only
/// when none does are the moves searched in full. Where the first move in
/// the order needs a huge proof and a later one a small one, this finds the
/// small one. A probe that runs out of nodes is dropped whole: none of the
/// nodes it left unfinished stores anything in the table, so the values
/// stay exact; the subtrees it finished stay in the table and make the full
/// searches cheaper. On the 5×5 position after `E3 C3 A2` the value took
/// more than 200 s without probes and 30,274 nodes (0.03 s) with them; on
/// positions whose value needs every move refuted they cost a little (the
/// `hard` line's 5×5 position after `… B2 A3 A1`: 4,436,229 nodes without,
/// 4,649,545 with). Budgets of 100 and 1,000 nodes cost more there (8.9 and
/// 6.8 million); 20, 30 or 60 plies made no difference (docs/history/solver.md).
const PROBE_PLIES: usize = 30;
const PROBE_BUDGET: u64 = 10_000;

/// One rectangle as masks: its corner vertices and its other vertices (bit
/// `y * n + x`), and its tiles (bit `y * (n - 1) + x`).
#[derive(Clone, Copy)]
struct RectMask {
    corners: u64,
    others: u64,
    tiles: u64,
}

/// A position as masks, in [`RectMask`]'s bits: each side's stones (as
/// `Board::stones`), all stones and the claimed tiles.
#[derive(Clone, Copy)]
struct Masks {
    stones: [u64; 2],
    occ: u64,
    claimed: u64,
}

impl Masks {
    fn of(b: &Board) -> Masks {
        let (n, m) = (b.n, b.n - 1);
        let (mut stones, mut claimed) = ([0u64; 2], 0u64);
        for y in 0..n {
            for (side, mask) in stones.iter_mut().enumerate() {
                *mask |= (b.stones[side].rows[y] as u64) << (y * n);
            }
            if y < m {
                claimed |= (b.claimed.rows[y] as u64) << (y * m);
            }
        }
        Masks {
            stones,
            occ: stones[0] | stones[1],
            claimed,
        }
    }

    /// Whether `side` could still claim `r` one day if the other side never
    /// claims: no claimed tile in it, no stone on it but at its corners, and
    /// none of the other side's stones at them (stones leave the board only
    /// through their owner's claims).
    fn claimable(&self, r: &RectMask, side: usize) -> bool {
        r.tiles & self.claimed == 0
            && r.others & self.occ == 0
            && r.corners & self.stones[1 - side] == 0
    }
}

/// Every rectangle of an n×n board (n ≤ [`MAX_SOLVE_SIZE`]).
fn rect_masks(n: usize) -> Vec<RectMask> {
    let m = n - 1;
    let mut out = Vec::new();
    for y1 in 0..n {
        for y2 in y1 + 1..n {
            for x1 in 0..n {
                for x2 in x1 + 1..n {
                    let mut r = RectMask {
                        corners: 0,
                        others: 0,
                        tiles: 0,
                    };
                    for y in y1..=y2 {
                        for x in x1..=x2 {
                            let bit = 1u64 << (y * n + x);
                            if (x == x1 || x == x2) && (y == y1 || y == y2) {
                                r.corners |= bit;
                            } else {
                                r.others |= bit;
                            }
                            if x < x2 && y < y2 {
                                r.tiles |= 1u64 << (y * m + x);
                            }
                        }
                    }
                    out.push(r);
                }
            }
        }
    }
    out
}

/// Finds disjoint pairs so that each set in `sets` holds both vertices of a
/// pair (see [`Solver::pairing_blocks`]); `partner[v]` is v's partner + 1
/// (0: unpaired). Backtracks at most `budget` times in all.
fn cover(
    sets: &[u64],
    mirrors: &[u64],
    partner: &mut [u8; 64],
    paired: u64,
    budget: &mut u32,
) -> bool {
    let covered = |e: u64| {
        let mut bits = e & paired;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            if e >> (partner[p] - 1) & 1 != 0 {
                return true;
            }
            bits &= bits - 1;
        }
        false
    };
    let Some(i) = sets.iter().position(|&e| !covered(e)) else {
        return true;
    };
    let free = sets[i] & !paired;
    let mut ps = free;
    while ps != 0 {
        let p = ps.trailing_zeros() as usize;
        ps &= ps - 1;
        let mut qs = ps & !mirrors[p];
        while qs != 0 {
            let q = qs.trailing_zeros() as usize;
            qs &= qs - 1;
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            partner[p] = q as u8 + 1;
            partner[q] = p as u8 + 1;
            if cover(
                &sets[i + 1..],
                mirrors,
                partner,
                paired | 1 << p | 1 << q,
                budget,
            ) {
                return true;
            }
            partner[p] = 0;
            partner[q] = 0;
        }
    }
    false
}

/// Placement ordering weights: per rectangle the opponent could still claim
/// that a stone on the vertex would spoil (as its corner or on its edge or
/// inside), and per rectangle of the mover's own that a stone there would
/// spoil (on its edge or inside). Tried on five 4×4 positions (the empty
/// board, and two, two, four and six plies in): 2 and 1 took the fewest nodes
/// in total (docs/history/solver.md).
///
/// An opponent's rectangle weighs more the more of its corners the opponent
/// holds: [`SPOIL_THEIRS_HALF`] at two, and at three (a claim next move
/// unless the mover puts a stone on it) [`SPOIL_THREAT`], more than any
/// number of other rectangles can add up to in practice. On the empty 4×4
/// board this took the nodes from 10,010 to 486, and on the 5×5 position 12
/// plies into docs/history/solver.md's `medium` line from 1,090,061 to 168 (weights 100
/// and 2: 390 and 203).
const SPOIL_THEIRS: i64 = 2;
const SPOIL_THEIRS_HALF: i64 = 4;
const SPOIL_THREAT: i64 = 100;
const SPOIL_OWN: i64 = 1;

/// The tiles `mv` claims.
fn gain(mv: Move) -> i32 {
    mv.claim().map_or(0, |r| r.area() as i32)
}

/// The 8 symmetries of an n×n grid of `m = n - 1`-bounded coordinates.
#[inline]
fn sym(s: usize, x: usize, y: usize, m: usize) -> (usize, usize) {
    match s {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    }
}

/// The inverse of symmetry `s` (5 and 6 are each other's inverse).
#[inline]
fn inverse(s: usize) -> usize {
    match s {
        5 => 6,
        6 => 5,
        other => other,
    }
}

/// Mirror types under symmetry `s`: those that swap the axes swap h and v.
#[inline]
fn sym_types(s: usize, t: Types) -> Types {
    if s < 4 {
        t
    } else {
        (t & R) | if t & H != 0 { V } else { 0 } | if t & V != 0 { H } else { 0 }
    }
}

fn sym_move(s: usize, mv: Move, n: usize) -> Move {
    let (x, y) = mv.vertex();
    let (sx, sy) = sym(s, x, y, n - 1);
    match mv.claim() {
        None => Move::place(sx, sy),
        Some(r) => {
            let (ax, ay) = sym(s, r.x1 as usize, r.y1 as usize, n - 1);
            let (bx, by) = sym(s, r.x2 as usize, r.y2 as usize, n - 1);
            match Rect::from_corners(ax, ay, bx, by) {
                Some(r) => Move::with_claim(sx, sy, r),
                None => Move::place(sx, sy),
            }
        }
    }
}

fn pack_move(mv: Move) -> u32 {
    let (x, y) = mv.vertex();
    let mut code = x as u32 | (y as u32) << 3;
    if let Some(r) = mv.claim() {
        code |= 1 << 6
            | (r.x1 as u32) << 7
            | (r.y1 as u32) << 10
            | (r.x2 as u32) << 13
            | (r.y2 as u32) << 16;
    }
    code
}

fn unpack_move(code: u32) -> Move {
    let f = |shift: u32| (code >> shift & 7) as usize;
    let (x, y) = (f(0), f(3));
    if code >> 6 & 1 == 0 {
        return Move::place(x, y);
    }
    match Rect::from_corners(f(7), f(10), f(13), f(16)) {
        Some(r) => Move::with_claim(x, y, r),
        None => Move::place(x, y),
    }
}

impl Solver {
    /// A solver with a table of about `mb` megabytes (at least 1), or `None`
    /// when that much memory cannot be had.
    pub fn try_new(mb: usize) -> Option<Solver> {
        let bucket = std::mem::size_of::<[Entry; 2]>();
        let want = (mb.max(1).checked_mul(1 << 20)? / bucket).max(1);
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() >> 1
        };
        let mut table = Vec::new();
        table.try_reserve_exact(len).ok()?;
        table.resize(len, [Entry::default(); 2]);
        Some(Solver {
            table,
            nodes: 0,
            lists: Vec::new(),
            scratch: Vec::with_capacity(256),
            rects: Vec::new(),
            rects_n: 0,
            mirrors: Vec::new(),
            pairing: true,
            limit: u64::MAX,
            aborted: false,
            aborts: 0,
            probe_plies: PROBE_PLIES,
            probe_budget: PROBE_BUDGET,
        })
    }

    /// [`Solver::try_new`] for sizes known to fit (tests, small tables).
    ///
    /// # Panics
    /// When the table cannot be allocated.
    pub fn new(mb: usize) -> Solver {
        Self::try_new(mb).expect("solver table allocation")
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The canonical key of the position and the symmetry that gives it.
    fn key(b: &Board) -> (u128, usize) {
        let n = b.n;
        let m = n - 1;
        let me = b.side.index();
        let opp = 1 - me;
        // The opponent's last placement matters only through its mirror
        // images that may still be played (the mover's ban now, and the types
        // of the mover's placement); the mover's own types only through the
        // images they ban. Positions differing elsewhere share a key.
        let placeable = |(x, y): (usize, usize)| !b.occ.get(x, y) && !b.dead.get(x, y);
        let (last_opp, ban) = match b.last[opp] {
            mirror::NONE => (None, 0),
            v => {
                let (ox, oy) = mirror::unpack(v);
                let live = |t| placeable(mirror::image(t, ox, oy, n));
                let ban = [H, V, R]
                    .into_iter()
                    .filter(|&t| b.types[me] & t != 0 && live(t))
                    .fold(0, |acc, t| acc | t);
                let relevant = [H, V, R].into_iter().any(live);
                (relevant.then_some((ox, oy)), ban)
            }
        };
        let mut best = (u128::MAX, 0);
        for s in 0..8 {
            let mut k: u128 = 0;
            for y in 0..n {
                let (mine, theirs) = (b.stones[me].rows[y], b.stones[opp].rows[y]);
                for x in 0..n {
                    let v = if mine >> x & 1 != 0 {
                        1
                    } else if theirs >> x & 1 != 0 {
                        2
                    } else {
                        continue;
                    };
                    let (sx, sy) = sym(s, x, y, m);
                    k |= (v as u128) << (2 * (sy * n + sx));
                }
            }
            let base = 2 * n * n;
            for y in 0..m {
                let row = b.claimed.rows[y];
                for x in 0..m {
                    if row >> x & 1 != 0 {
                        let (sx, sy) = sym(s, x, y, m - 1);
                        k |= 1u128 << (base + sy * m + sx);
                    }
                }
            }
            let mut tail = match last_opp {
                None => 63u128,
                Some((x, y)) => {
                    let (sx, sy) = sym(s, x, y, m);
                    (sy * n + sx) as u128
                }
            };
            tail |= (sym_types(s, b.types[opp]) as u128) << 6;
            tail |= (sym_types(s, ban) as u128) << 9;
            k |= tail << (base + m * m);
            if k < best.0 {
                best = (k, s);
            }
        }
        best
    }

    fn slot(&self, key: u128) -> usize {
        let h = (key as u64) ^ ((key >> 64) as u64).rotate_left(23);
        let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & (self.table.len() - 1)
    }

    fn probe(&self, key: u128) -> Option<Entry> {
        let bucket = &self.table[self.slot(key)];
        bucket
            .iter()
            .find(|e| e.key == key.wrapping_add(1))
            .copied()
    }

    fn store(&mut self, key: u128, lo: i32, hi: i32, best: Option<u32>, work: u8) {
        let i = self.slot(key);
        let tagged = key.wrapping_add(1);
        let bucket = &mut self.table[i];
        let at = match bucket.iter().position(|e| e.key == tagged) {
            Some(j) => j,
            None => {
                if bucket[0].work <= bucket[1].work {
                    0
                } else {
                    1
                }
            }
        };
        let e = &mut bucket[at];
        let (mut lo, mut hi) = (lo, hi);
        if e.key == tagged {
            lo = lo.max(e.lo as i32);
            hi = hi.min(e.hi as i32);
        }
        *e = Entry {
            key: tagged,
            lo: lo as i8,
            hi: hi as i8,
            best: best.map_or(if e.key == tagged { e.best } else { 0 }, |c| c + 1),
            work: work.max(if e.key == tagged { e.work } else { 0 }),
        };
    }

    /// The unclaimed tiles: no margin can exceed them.
    fn open_tiles(b: &Board) -> i32 {
        let m = b.n - 1;
        let claimed: u32 = (0..m).map(|y| b.claimed.rows[y].count_ones()).sum();
        (m * m) as i32 - claimed as i32
    }

    /// The rectangles of an n×n board, made when the size changes.
    fn rects_for(&mut self, n: usize) {
        if self.rects_n != n {
            self.rects = rect_masks(n);
            self.mirrors = (0..n * n)
                .map(|i| {
                    let (x, y) = (i % n, i / n);
                    [H, V, R].into_iter().fold(0u64, |acc, t| {
                        let (mx, my) = mirror::image(t, x, y, n);
                        acc | 1u64 << (my * n + mx)
                    })
                })
                .collect();
            self.rects_n = n;
        }
    }

    /// Whether the side other than `attacker` can stop `attacker` from ever
    /// claiming by a pairing strategy, while never claiming itself.
    ///
    /// A pairing is a set of disjoint pairs of empty vertices such that every
    /// rectangle `attacker` could still claim one day ([`Masks::claimable`])
    /// has both vertices of some pair among its corners, and no pair's
    /// vertices are mirror images of each other. The defender answers a
    /// stone on one vertex of a pair with the other (and plays anything
    /// legal otherwise), so every such rectangle gets a defender's stone on a
    /// corner before the attacker can hold all four. The answer is always
    /// legal: it is empty (pairs are disjoint and answered at once), it
    /// touches the rectangle's unclaimed tiles (no claims happen), and it is
    /// no mirror image of the attacker's placement, so its mirror types are
    /// empty. Stones leave the board only through their owner's claims, so
    /// rectangles never become claimable again. Under this strategy neither
    /// side claims again: the defender's margin from here is at least 0,
    /// whoever is to move. The search for a pairing is greedy with a little
    /// backtracking and may miss one (then nothing is concluded).
    fn pairing_blocks(&self, masks: &Masks, attacker: usize) -> bool {
        let mut sets: Vec<u64> = Vec::with_capacity(self.rects.len());
        for r in &self.rects {
            if masks.claimable(r, attacker) {
                let free = r.corners & !masks.occ;
                if free.count_ones() < 2 {
                    return false;
                }
                sets.push(free);
            }
        }
        sets.sort_unstable_by_key(|e| e.count_ones());
        let mut partner = [0u8; 64];
        let mut budget = 64u32;
        cover(&sets, &self.mirrors, &mut partner, 0, &mut budget)
    }

    /// A margin of at least `min_gain` that the side to move of `b` can make
    /// sure of by one move and a pairing strategy after it
    /// ([`Solver::pairing_blocks`]): a placement claiming nothing (margin 0)
    /// or a claim of at least `min_gain` tiles (its area), after which the
    /// opponent never claims and the mover claims no more. `moves` are the
    /// mover's legal moves and `masks` the position's. The pairing's answers
    /// stay legal whatever the mirror types of that move: an answer is
    /// never an image of the placement it answers. Of the placements, only
    /// stones on every rectangle where the opponent holds three corners are
    /// tried (any other leaves one of them with a single free corner, which
    /// no pair covers).
    fn pairing_after_move(
        &self,
        b: &mut Board,
        masks: &Masks,
        moves: &[Move],
        min_gain: i32,
    ) -> Option<i32> {
        let (n, mover) = (b.n, b.side.index());
        let opponent = 1 - mover;
        for &mv in moves {
            let Some(r) = mv.claim() else { continue };
            let gain = r.area() as i32;
            if gain < min_gain {
                continue;
            }
            b.make_move(mv);
            let after = Masks::of(b);
            b.unmake_move(mv);
            if self.pairing_blocks(&after, opponent) {
                return Some(gain);
            }
        }
        if min_gain > 0 {
            return None;
        }
        let mut wanted = !masks.occ;
        for r in &self.rects {
            if masks.claimable(r, opponent)
                && (r.corners & masks.stones[opponent]).count_ones() >= 3
            {
                wanted &= r.corners | r.others;
            }
        }
        let mut tried = 0u64;
        for mv in moves {
            let (x, y) = mv.vertex();
            let bit = 1u64 << (y * n + x);
            if mv.claim().is_some() || bit & wanted == 0 || bit & tried != 0 {
                continue;
            }
            tried |= bit;
            let mut after = *masks;
            after.stones[mover] |= bit;
            after.occ |= bit;
            if self.pairing_blocks(&after, opponent) {
                return Some(0);
            }
        }
        None
    }

    /// Whether side `side` (0 or 1, as `Board::stones`) could still make a
    /// claim some day if the other side never claims. Stones leave the board
    /// only through their owner's claims, so while neither side has claimed
    /// every stone stays where it is: a first claim by X needs a rectangle
    /// whose corners are X's stones or empty, whose other vertices are all
    /// empty, and with no claimed tile inside. If X has none, X's opponent
    /// can hold X to no tiles at all by never claiming, so the opponent's
    /// margin from here is at least 0; if neither side has one, no claim can
    /// ever happen and the value is 0.
    fn claim_possible(&self, masks: &Masks, side: usize) -> bool {
        self.rects.iter().any(|r| masks.claimable(r, side))
    }

    /// For each vertex (bit `y * n + x`), how good a placement there is for
    /// `mover` by the rectangles it spoils: [`SPOIL_THEIRS`] per rectangle
    /// the opponent could still claim one day ([`Masks::claimable`]) that has
    /// the vertex anywhere on it, minus [`SPOIL_OWN`] per rectangle of the
    /// mover's that has it on an edge or inside.
    fn spoil_scores(&self, masks: &Masks, mover: usize) -> [i64; 64] {
        let mut score = [0i64; 64];
        let mut add = |mut bits: u64, w: i64| {
            while bits != 0 {
                score[bits.trailing_zeros() as usize] += w;
                bits &= bits - 1;
            }
        };
        for r in &self.rects {
            if masks.claimable(r, 1 - mover) {
                let weight = match (r.corners & masks.stones[1 - mover]).count_ones() {
                    0 | 1 => SPOIL_THEIRS,
                    2 => SPOIL_THEIRS_HALF,
                    _ => SPOIL_THREAT,
                };
                add((r.corners | r.others) & !masks.occ, weight);
            }
            if masks.claimable(r, mover) {
                add(r.others, -SPOIL_OWN);
            }
        }
        score
    }

    /// `self.scratch`'s moves in the order they are searched, into `list`:
    /// the table's move, then claims, largest first, then placements that
    /// spoil the most of the opponent's rectangles and the fewest of the
    /// mover's (the evaluation's hints and a history heuristic were tried
    /// before: both cost more nodes).
    fn order(
        &self,
        masks: &Masks,
        mover: usize,
        n: usize,
        tt_move: Option<Move>,
        list: &mut Vec<(i64, Move)>,
    ) {
        list.clear();
        let spoil = self.spoil_scores(masks, mover);
        list.extend(self.scratch.iter().map(|&mv| {
            let key = if Some(mv) == tt_move {
                i64::MAX
            } else {
                let (x, y) = mv.vertex();
                i64::from(gain(mv)) * 1_000_000 + spoil[y * n + x]
            };
            (key, mv)
        }));
        list.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    }

    /// The moves of `b` in the search's order, the table's move first.
    fn ordered_moves(&mut self, b: &Board) -> Vec<Move> {
        self.scratch.clear();
        b.generate_moves(&mut self.scratch);
        self.rects_for(b.n);
        let masks = Masks::of(b);
        let (key, s) = Self::key(b);
        let tt_move = self.probe(key).and_then(|e| e.best_move(s, b.n));
        let mut list = Vec::new();
        self.order(&masks, b.side.index(), b.n, tt_move, &mut list);
        list.into_iter().map(|(_, mv)| mv).collect()
    }

    /// The exact value of `b` for the side to move if it lies in
    /// `(alpha, beta)`; otherwise a bound on the far side (fail-soft).
    pub fn search(&mut self, b: &mut Board, alpha: i32, beta: i32) -> i32 {
        self.search_at(b, alpha, beta, 0)
    }

    fn search_at(&mut self, b: &mut Board, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.aborted = true;
            return 0;
        }
        let start = self.nodes;
        self.scratch.clear();
        b.generate_moves(&mut self.scratch);
        if self.scratch.is_empty() {
            return 0;
        }
        let open = Self::open_tiles(b);
        if alpha >= open {
            return open;
        }
        if beta <= -open {
            return -open;
        }
        // One-sided cuts: a side that can never claim while its opponent
        // never claims holds the opponent's margin at or above 0.
        let mover = b.side.index();
        self.rects_for(b.n);
        let masks = Masks::of(b);
        // The same holds when a side can be stopped by a pairing strategy.
        let opponent_can = self.claim_possible(&masks, 1 - mover);
        if beta <= 0 && (!opponent_can || self.pairing && self.pairing_blocks(&masks, 1 - mover)) {
            return 0;
        }
        let mover_can = self.claim_possible(&masks, mover);
        if !mover_can && !opponent_can
            || alpha >= 0 && (!mover_can || self.pairing && self.pairing_blocks(&masks, mover))
        {
            return 0;
        }
        let (key, s) = Self::key(b);
        let mut tt_move = None;
        if let Some(e) = self.probe(key) {
            let (lo, hi) = (e.lo as i32, e.hi as i32);
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            tt_move = e.best_move(s, b.n);
        }
        if self.pairing
            && let Some(g) = self.pairing_after_move(b, &masks, &self.scratch, beta)
        {
            return g;
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, || Vec::with_capacity(64));
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.order(&masks, mover, b.n, tt_move, &mut list);
        let alpha0 = alpha;
        // A probe that proves a cutoff ends the node as the full search would.
        let cut = if ply < self.probe_plies && self.limit == u64::MAX && list.len() > 1 {
            self.probe_for_cut(b, &list, alpha, beta, ply)
        } else {
            None
        };
        let (mut best, mut best_move) = match cut {
            Some((v, mv)) => (v, Some(mv)),
            None => (-open - 1, None),
        };
        let full = if cut.is_some() { 0 } else { list.len() };
        for &(_, mv) in &list[..full] {
            let v = self.child(b, mv, alpha, beta, ply);
            if self.aborted {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        let (lo, hi) = if best <= alpha0 {
            (-open, best)
        } else if best >= beta {
            (best, open)
        } else {
            (best, best)
        };
        let work = (64 - (self.nodes - start).leading_zeros()) as u8;
        let code = best_move.map(|mv| pack_move(sym_move(s, mv, b.n)));
        self.store(key, lo, hi, code, work);
        best
    }

    /// Each move of `list` searched with at most the probe budget of nodes
    /// ([`PROBE_PLIES`]): the first that fails high, with its value. A probe
    /// that runs out of nodes is dropped.
    fn probe_for_cut(
        &mut self,
        b: &mut Board,
        list: &[(i64, Move)],
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, Move)> {
        for &(_, mv) in list {
            self.limit = self.nodes + self.probe_budget;
            let v = self.child(b, mv, alpha, beta, ply);
            self.limit = u64::MAX;
            if self.aborted {
                self.aborted = false;
                self.aborts += 1;
            } else if v >= beta {
                return Some((v, mv));
            }
        }
        None
    }

    /// The value of `mv` for the side to move of `b` (at `ply`) within
    /// `(alpha, beta)`, fail-soft: its gain less the child's value.
    fn child(&mut self, b: &mut Board, mv: Move, alpha: i32, beta: i32, ply: usize) -> i32 {
        let gain = gain(mv);
        b.make_move(mv);
        let v = gain - self.search_at(b, gain - beta, gain - alpha, ply + 1);
        b.unmake_move(mv);
        v
    }

    /// The exact value of `b` for the side to move.
    pub fn value(&mut self, b: &mut Board) -> i32 {
        let open = Self::open_tiles(b);
        // MTD(f): null-window tests from a first guess of 0 (a draw).
        let (mut lower, mut upper) = (-open, open);
        let mut g = 0;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(b, beta - 1, beta);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }

    /// Whether `mv` keeps the value `value` of `b`. No move does better than
    /// the value (the child is worth at least `gain - value` to its mover),
    /// so one null window suffices: the move keeps the value when the child
    /// is worth at most that.
    fn keeps(&mut self, b: &mut Board, mv: Move, value: i32) -> bool {
        let want = gain(mv) - value;
        b.make_move(mv);
        let c = self.search(b, want, want + 1);
        b.unmake_move(mv);
        c <= want
    }

    /// Every root move of `b` that keeps its value `value` (when `all_best`,
    /// in generation order; else the first found in the search's order) and
    /// a principal variation: at each position, the first move in the
    /// search's order (the table's move first) that keeps the value.
    pub fn best_and_line(
        &mut self,
        b: &Board,
        value: i32,
        all_best: bool,
    ) -> (Vec<Move>, Vec<Move>) {
        let mut b = b.clone();
        let mut best_moves = Vec::new();
        if all_best {
            let mut moves = Vec::new();
            b.generate_moves(&mut moves);
            for mv in moves {
                if self.keeps(&mut b, mv, value) {
                    best_moves.push(mv);
                }
            }
        }
        let mut pv = Vec::new();
        let mut v = value;
        loop {
            let list = self.ordered_moves(&b);
            let Some(&mv) = list.iter().find(|&&mv| self.keeps(&mut b, mv, v)) else {
                break;
            };
            if pv.is_empty() && !all_best {
                best_moves.push(mv);
            }
            // The child's value for its mover: gain − value.
            v = gain(mv) - v;
            b.make_move(mv);
            pv.push(mv);
        }
        (best_moves, pv)
    }

    /// Solves `b`: its value, every optimal root move (when `all_best`; else
    /// the first found) and a principal variation.
    pub fn solve(&mut self, b: &Board, all_best: bool) -> Solution {
        let value = self.value(&mut b.clone());
        let (best_moves, pv) = self.best_and_line(b, value, all_best);
        Solution {
            value,
            best_moves,
            pv,
            nodes: self.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Status;

    /// Plain minimax on the margin, no table: the definition of the value.
    fn minimax(b: &mut Board) -> i32 {
        let mut moves = Vec::new();
        b.generate_moves(&mut moves);
        if moves.is_empty() {
            return 0;
        }
        let mut best = i32::MIN;
        for mv in moves {
            let gain = mv.claim().map_or(0, |r| r.area() as i32);
            b.make_move(mv);
            best = best.max(gain - minimax(b));
            b.unmake_move(mv);
        }
        best
    }

    fn play_random(b: &mut Board, plies: usize, seed: u64) {
        let mut x = seed;
        for _ in 0..plies {
            let mut moves = Vec::new();
            b.generate_moves(&mut moves);
            if moves.is_empty() {
                return;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.make_move(moves[(x % moves.len() as u64) as usize]);
        }
    }

    #[test]
    fn move_packing_round_trips_under_every_symmetry() {
        let mv = Move::with_claim(1, 2, Rect::from_corners(1, 2, 4, 0).unwrap());
        for s in 0..8 {
            let t = sym_move(s, mv, 5);
            assert_eq!(sym_move(inverse(s), t, 5), mv, "symmetry {s}");
            assert_eq!(unpack_move(pack_move(t)), t);
        }
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        // One random game, replayed under each symmetry, move by move.
        let mut line = Vec::new();
        let mut src = Board::new(5).unwrap();
        let mut x = 99u64;
        for _ in 0..7 {
            let mut moves = Vec::new();
            src.generate_moves(&mut moves);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = moves[(x % moves.len() as u64) as usize];
            src.make_move(mv);
            line.push(mv);
        }
        let (want, _) = Solver::key(&src);
        for s in 0..8 {
            let mut b = Board::new(5).unwrap();
            for &mv in &line {
                b.make_move(sym_move(s, mv, 5));
            }
            assert_eq!(Solver::key(&b).0, want, "symmetry {s}");
        }
    }

    #[test]
    fn a_side_that_can_never_claim_is_cut_at_once() {
        use crate::core::game::Notation;
        // Black's four inner stones touch every tile of the 4x4 board, so
        // White (to move) can never claim while Black does not: White's
        // margin is at most 0, and a window at or above 0 fails low at the
        // first node. Black itself can still claim B2-C3, so the position is
        // not simply worth 0.
        let mut b = Board::new(4).unwrap();
        for text in ["B2", "A1", "C3", "D4", "B3", "A4", "C2"] {
            let mv = b.parse_move(text).unwrap();
            b.make_move(mv);
        }
        let mut solver = Solver::new(4);
        assert_eq!(solver.search(&mut b.clone(), 0, 1), 0);
        assert_eq!(solver.nodes(), 1);
        // Below 0 the bound decides nothing and the position is searched.
        let mut solver = Solver::new(4);
        solver.search(&mut b.clone(), -2, -1);
        assert!(solver.nodes() > 1);
    }

    #[test]
    fn pairs_of_mirror_images_are_not_used() {
        // On 5x5, B1 and D1 are images under v: the defender's answer would
        // be a mirror move that its previous type may forbid.
        let mut solver = Solver::new(1);
        solver.rects_for(5);
        let bit = |x: usize, y: usize| 1u64 << (y * 5 + x);
        let mut partner = [0u8; 64];
        let mut budget = 64;
        let mirror_pair = [bit(1, 0) | bit(3, 0)];
        assert!(!cover(
            &mirror_pair,
            &solver.mirrors,
            &mut partner,
            0,
            &mut budget
        ));
        let plain_pair = [bit(1, 0) | bit(2, 0)];
        assert!(cover(
            &plain_pair,
            &solver.mirrors,
            &mut partner,
            0,
            &mut budget
        ));
        // Two sets that need the same vertex in different pairs.
        let clash = [bit(0, 0) | bit(1, 0), bit(0, 0) | bit(0, 1)];
        assert!(!cover(&clash, &solver.mirrors, &mut [0u8; 64], 0, &mut 64));
        let shared = [bit(0, 0) | bit(1, 0) | bit(0, 1), bit(0, 0) | bit(0, 1)];
        assert!(cover(&shared, &solver.mirrors, &mut [0u8; 64], 0, &mut 64));
    }

    #[test]
    fn the_pairing_cut_is_sound() {
        check_pairing(4, 8, 4, 40, 104_729, (10, 5));
    }

    /// On an odd board the middle row and column are their own mirror
    /// images, and a vertex there can be the image of another under two
    /// types. The solver without the cut takes about six minutes here: run
    /// on demand (`cargo test --release --lib the_pairing_cut_is_sound_on_5x5
    /// -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn the_pairing_cut_is_sound_on_5x5() {
        check_pairing(5, 18, 3, 12, 15_485_863, (3, 1));
    }

    /// `count` positions `plies`.. `plies + spread - 1` plies into random
    /// n×n games: wherever a pairing strategy is found (at once, or after a
    /// move of the side to move), the solver without the cut (equal to plain
    /// minimax: the test below) agrees that the defender's margin is at least
    /// 0 (or the move's gain); and the solver with the cut finds the same
    /// values. Each form must be found on at least as many positions as
    /// `at_least` says (at once, after a move), so that the test tests.
    fn check_pairing(
        n: usize,
        plies: usize,
        spread: usize,
        count: u64,
        mul: u64,
        at_least: (u32, u32),
    ) {
        let (mut fired, mut after_move) = (0, 0);
        for seed in 1..=count {
            let mut b = Board::new(n).unwrap();
            play_random(&mut b, plies + (seed as usize % spread), seed * mul);
            let mut solver = Solver::new(16);
            solver.rects_for(n);
            let masks = Masks::of(&b);
            let mover = b.side.index();
            let mut plain = Solver::new(16);
            plain.pairing = false;
            let want = plain.value(&mut b.clone());
            for attacker in [mover, 1 - mover] {
                if solver.claim_possible(&masks, attacker)
                    && solver.pairing_blocks(&masks, attacker)
                {
                    fired += 1;
                    let defender_margin = if attacker == mover { -want } else { want };
                    assert!(defender_margin >= 0, "seed {seed}: value {want}");
                }
            }
            let mut moves = Vec::new();
            b.generate_moves(&mut moves);
            if solver.claim_possible(&masks, 1 - mover)
                && !solver.pairing_blocks(&masks, 1 - mover)
                && let Some(g) = solver.pairing_after_move(&mut b, &masks, &moves, -64)
            {
                after_move += 1;
                assert!(want >= g, "seed {seed}: value {want}, {g} after a move");
            }
            assert_eq!(solver.value(&mut b.clone()), want, "seed {seed}");
        }
        eprintln!(
            "{n}x{n}: pairing found on {fired} of {count} positions, after a move on {after_move}"
        );
        assert!(
            fired >= at_least.0,
            "the cut was tried on only {fired} positions"
        );
        assert!(
            after_move >= at_least.1,
            "the cut after a move was tried on only {after_move} positions"
        );
    }

    /// Probes that run out of nodes all the time (a budget of 20) and no
    /// probes at all give the same values as the default, on positions 6–13
    /// plies into random 4×4 games; the tiny budget aborts thousands of
    /// probes there.
    #[test]
    fn probes_keep_the_values() {
        let mut aborts = 0u64;
        for seed in 1..31u64 {
            let mut b = Board::new(4).unwrap();
            play_random(&mut b, 6 + (seed as usize % 8), seed * 6_700_417);
            let want = Solver::new(16).value(&mut b.clone());
            let mut none = Solver::new(16);
            none.probe_plies = 0;
            assert_eq!(none.value(&mut b.clone()), want, "seed {seed}: no probes");
            let mut tiny = Solver::new(16);
            tiny.probe_budget = 20;
            assert_eq!(tiny.value(&mut b.clone()), want, "seed {seed}: tiny probes");
            aborts += tiny.aborts;
        }
        assert!(aborts >= 1000, "only {aborts} probes ran out of nodes");
    }

    #[test]
    fn solver_equals_minimax_on_late_positions() {
        for seed in 1..21u64 {
            let mut b = Board::new(4).unwrap();
            play_random(&mut b, 18 + (seed as usize % 3), seed * 7919);
            let mut solver = Solver::new(4);
            let want = minimax(&mut b.clone());
            assert_eq!(solver.value(&mut b.clone()), want, "seed {seed}");
            // A null window just below the value fails high at exactly it
            // (fail-soft: a bound no higher than the true value), and one
            // just above fails low at exactly it.
            let high = Solver::new(4).search(&mut b.clone(), want - 1, want);
            assert_eq!(high, want, "seed {seed}: window below");
            let low = Solver::new(4).search(&mut b.clone(), want, want + 1);
            assert_eq!(low, want, "seed {seed}: window above");
            let sol = Solver::new(4).solve(&b, true);
            assert_eq!(sol.value, want);
            let mut all = Vec::new();
            b.generate_moves(&mut all);
            for &mv in &all {
                let mut c = b.clone();
                c.make_move(mv);
                let keeps = gain(mv) - minimax(&mut c) == want;
                assert_eq!(sol.best_moves.contains(&mv), keeps, "seed {seed}: --all");
            }
            // One best move and the line: every move of the line keeps the
            // value of the position it is played in, to the end of the game.
            let sol = Solver::new(4).solve(&b, false);
            assert_eq!(sol.best_moves.first(), sol.pv.first(), "seed {seed}");
            let (mut line, mut v) = (b.clone(), want);
            for &mv in &sol.pv {
                line.make_move(mv);
                let child = minimax(&mut line.clone());
                assert_eq!(gain(mv) - child, v, "seed {seed}: line move");
                v = child;
            }
            assert!(
                line.status() != Status::Ongoing,
                "seed {seed}: the line ends the game"
            );
        }
    }
}
