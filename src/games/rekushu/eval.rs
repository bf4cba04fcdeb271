//! The Rekushu evaluation, move-ordering hints, noisy moves and move packing
//! (`impl Evaluate for Board`). The evaluation is linear in the named features
//! of [`Board::eval_features`]; their weights live in `evalparams.rs` and are
//! fitted to self-play results by `tools/tune` (`docs/tuning.md`).
//!
//! The central notion is an **available claim**: a rectangle a side can claim
//! on its next move. It is either *completed* (four own corners, claimable now)
//! or a *3-corner threat* (three own corners, the fourth an empty vertex, edges
//! and interior empty, no claimed tile inside): since a move places a stone and
//! then claims, the side that places on the missing corner claims at once. The
//! side to move therefore cashes its best available claim now; the opponent's
//! available claims can only be blocked by a stone on their edges or inside (or
//! on a threat's missing corner), one block per move.
//!
//! Threats are found in O(stones) with the nearest-neighbour argument of
//! `claims.rs`: a threat's corner opposite the missing one (its *pivot*) has
//! the two adjacent corners as its nearest stones along its row and column, so
//! each stone is the pivot of at most four threats (one per quadrant).
//!
//! `move_hint` and `is_noisy` are called once per generated move; what they need
//! about the position (the opponent's available claims, a canonical placement
//! to go with each old claim) is computed once per position and kept in a
//! per-thread cache keyed by the position's hash. A hash collision could only
//! misorder moves or mislabel one as noisy, never make a move illegal:
//! `evaluate` itself does not read the cache.

use std::cell::RefCell;

use crate::core::eval::{EvalParams, Evaluate, LinearEval, SearchShape, WIN_BOUND};
use crate::core::{Game, Side};

use super::board::Board;
use super::evalparams::{
    CENTRE_CAP, DIVISOR, EDGE_CAP, FEATURES, LATE_EMPTY_PER_LINE, NAMES, RekushuWeights, hint,
};
use super::grid::{Grid, MAX, bits, next_above, next_below, span, span_open};
use super::moves::{Move, Rect};

const W: RekushuWeights = RekushuWeights::DEFAULT;

/// A rectangle a side may claim on its next move; `missing` is the empty
/// fourth corner of a 3-corner threat (`None` for a completed rectangle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Avail {
    r: Rect,
    missing: Option<(u8, u8)>,
}

impl Avail {
    #[inline]
    fn area(self) -> i32 {
        self.r.area() as i32
    }
}

/// Twice the distance of vertex (x, y) from the centre of an n×n board, summed
/// over both axes (0 at the centre of an odd board).
fn centre_distance(n: usize, x: usize, y: usize) -> i32 {
    let axis = |c: usize| (2 * c as i32 - (n as i32 - 1)).abs();
    axis(x) + axis(y)
}

/// How many of a side's largest available claims the race looks at.
const TOP: usize = 4;

/// The largest available claims of one side (largest first), their number,
/// and the smaller terms gathered on the same pass.
#[derive(Clone, Copy, Debug, Default)]
struct SideScan {
    best: [Option<Avail>; TOP],
    count: i32,
    /// Total area of threats whose missing corner the mirror rule forbids now.
    latent: i32,
    /// Quadrants where a stone's nearest row and column stones are both its own.
    pivots: i32,
}

impl SideScan {
    #[inline]
    fn push(&mut self, a: Avail) {
        self.count += 1;
        // Insertion into a short sorted array; ties keep the first found.
        let mut item = Some(a);
        for slot in &mut self.best {
            match (*slot, item) {
                (None, _) => {
                    *slot = item;
                    return;
                }
                (Some(b), Some(x)) if x.area() > b.area() => {
                    *slot = Some(x);
                    item = Some(b);
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn area(&self, i: usize) -> i32 {
        self.best[i].map_or(0, Avail::area)
    }
}

/// Per-position facts for `move_hint` / `is_noisy`, cached per thread: every
/// per-move question becomes a table lookup, since the searcher asks them for
/// every generated move (hundreds per node on a 20×20 board).
struct Summary {
    key: u64,
    n: usize,
    /// Which parts are built for `key` ([`THREATS`], [`BLOCKS`]).
    parts: u8,
    /// Hint part for blocking the opponent's available claims, per vertex
    /// (index `y * 26 + x`); valid where `blocked` is set.
    block: [i32; Board::MAX_POINTS],
    blocked: Grid,
    /// Hint part for the 3-corner threats a stone here would pivot; valid
    /// where `threat` is set.
    threat_hint: [i32; Board::MAX_POINTS],
    threat: Grid,
    /// Placements that would pivot two threats or more at once.
    double: Grid,
    /// Empty vertices whose nearest stone along the row is the mover's, and
    /// (transposed: bit `y` of `rows[x]`) along the column ([`THREATS`]).
    along_rows: Grid,
    along_cols_t: Grid,
    /// The column stretches of `extend` below, transposed ([`THREATS`]).
    extend_cols_t: Grid,
    /// Placements whose nearest stone along the row or column is the mover's.
    aligned: Grid,
    /// Placements next to an own stone that already has an own neighbour on
    /// the perpendicular line: the stone would be a threat's third corner.
    extend: Grid,
    /// Representative blocks of the opponent's available claims (noisy).
    noisy_block: Grid,
    /// The mover's completed rectangles, each with one placement (the first
    /// legal one that does not touch it) under which claiming it is noisy.
    /// (Fixed capacity keeps the cache free of heap data, so the per-thread
    /// slot needs no destructor and each access is a plain load; rectangles
    /// beyond it are simply not noisy.)
    canon: [(Rect, (u8, u8)); CANON_CAP],
    canon_len: usize,
}

const CANON_CAP: usize = 32;

/// The summary's part the evaluation needs: `threat`, `threat_hint`,
/// `double` (the mover's threat placements) and the stretches they come from.
const THREATS: u8 = 1;
/// The part only move ordering and `is_noisy` need: `block`, `blocked`,
/// `noisy_block`, `canon` (the opponent's claims to block, the mover's to
/// cash), `aligned` and `extend`. It is built on [`THREATS`] (asking for it
/// builds both). A leaf that stands pat never needs it.
const BLOCKS: u8 = 2;

impl Summary {
    const EMPTY: Summary = Summary {
        key: 0,
        n: 0,
        parts: 0,
        block: [0; Board::MAX_POINTS],
        blocked: Grid { rows: [0; 26] },
        threat_hint: [0; Board::MAX_POINTS],
        threat: Grid { rows: [0; 26] },
        double: Grid { rows: [0; 26] },
        along_rows: Grid { rows: [0; 26] },
        along_cols_t: Grid { rows: [0; 26] },
        extend_cols_t: Grid { rows: [0; 26] },
        aligned: Grid { rows: [0; 26] },
        extend: Grid { rows: [0; 26] },
        noisy_block: Grid { rows: [0; 26] },
        canon: [(Rect::ZERO, (0, 0)); CANON_CAP],
        canon_len: 0,
    };
}

thread_local! {
    static SUMMARY: RefCell<Summary> = const { RefCell::new(Summary::EMPTY) };
}

impl Board {
    /// Calls `f(threat, pivot quadrant found)` for every 3-corner threat of
    /// `side`, and returns the number of pivot quadrants.
    fn threats(&self, side: Side, mut f: impl FnMut(Avail)) -> i32 {
        let own = &self.stones[side.index()];
        let mut pivots = 0;
        for y in 0..self.n {
            let mut line = own.rows[y];
            while line != 0 {
                let x = line.trailing_zeros() as usize;
                line &= line - 1;
                let row = self.occ.rows[y];
                let col = self.occ_cols.rows[x];
                let hs =
                    [next_above(row, x), next_below(row, x)].map(|h| h.filter(|&h| own.get(h, y)));
                if hs == [None, None] {
                    continue;
                }
                let vs =
                    [next_above(col, y), next_below(col, y)].map(|v| v.filter(|&v| own.get(x, v)));
                for h in hs.into_iter().flatten() {
                    for v in vs.into_iter().flatten() {
                        pivots += 1;
                        if self.occ.get(h, v) {
                            continue;
                        }
                        if let Some(r) = Rect::from_corners(x, y, h, v)
                            && self.clear_inside(r)
                        {
                            f(Avail {
                                r,
                                missing: Some((h as u8, v as u8)),
                            });
                        }
                    }
                }
            }
        }
        pivots
    }

    /// The available claims of `side`. `legal` (the mover's placement rows)
    /// splits the mover's threats into available and mirror-forbidden ones;
    /// `None` for the opponent, whose ban after our move is unknown.
    fn scan(&self, side: Side, legal: Option<&[u32; 26]>, mut each: impl FnMut(Avail)) -> SideScan {
        let mut s = SideScan::default();
        self.for_each_claimable(side, |r| {
            let a = Avail { r, missing: None };
            s.push(a);
            each(a);
        });
        let mut latent = 0;
        s.pivots = self.threats(side, |a| {
            let ok = match (legal, a.missing) {
                (Some(rows), Some((mx, my))) => rows[my as usize] >> mx & 1 != 0,
                _ => true,
            };
            if ok {
                s.push(a);
                each(a);
            } else {
                latent += a.area();
            }
        });
        s.latent = latent;
        s
    }

    /// Whether the mover has a legal placement inside the closed rectangle.
    #[inline]
    fn can_place_in(rows: &[u32; 26], x1: usize, y1: usize, x2: usize, y2: usize) -> bool {
        if x1 > x2 || y1 > y2 {
            return false;
        }
        let m = span(x1, x2);
        rows[y1..=y2].iter().any(|&r| r & m != 0)
    }

    /// The one-round claim race, in tiles, for the side to move: it either
    /// blocks the opponent's best claim, or claims one of its two best (a
    /// completed rectangle can be claimed together with any placement, so it
    /// blocks as well when a block is legal; a threat blocks only if its
    /// missing corner happens to lie on the opponent's rectangle); then the
    /// opponent claims its best remaining rectangle.
    fn race(rows: &[u32; 26], me: &SideScan, opp: &SideScan) -> i32 {
        let Some(b1) = opp.best[0] else {
            return me.area(0);
        };
        let blockable = |r: Rect| {
            Self::can_place_in(
                rows,
                r.x1 as usize,
                r.y1 as usize,
                r.x2 as usize,
                r.y2 as usize,
            )
        };
        // What the opponent still gets after we block b1: its largest other
        // claim that the same stone cannot block too (a double threat).
        let after_block = if !blockable(b1.r) {
            b1.area()
        } else {
            opp.best[1..]
                .iter()
                .flatten()
                .find(|b| {
                    let (r1, r2) = (b1.r, b.r);
                    !Self::can_place_in(
                        rows,
                        r1.x1.max(r2.x1) as usize,
                        r1.y1.max(r2.y1) as usize,
                        r1.x2.min(r2.x2) as usize,
                        r1.y2.min(r2.y2) as usize,
                    )
                })
                .map_or(0, |b| b.area())
        };
        let mut best = -after_block;
        for a in me.best[..2].iter().copied().flatten() {
            let blocks = match a.missing {
                None => true,
                Some((mx, my)) => b1.r.covers(mx as usize, my as usize),
            };
            let gets = if blocks { after_block } else { b1.area() };
            best = best.max(a.area() - gets);
        }
        best
    }

    /// Legal placements of the side to move and empty non-dead vertices.
    #[inline]
    fn placement_counts(&self, rows: &[u32; 26]) -> (i32, i32) {
        let full = self.full();
        let mut mine = 0;
        let mut empty = 0;
        for (y, &row) in rows.iter().enumerate().take(self.n) {
            mine += row.count_ones() as i32;
            empty += (!self.occ.rows[y] & !self.dead.rows[y] & full).count_ones() as i32;
        }
        (mine, empty)
    }

    /// The evaluation's terms for the side to move (see `evalparams.rs`).
    pub fn eval_features(&self) -> [i32; FEATURES] {
        let me = self.side;
        let op = me.opp();
        let rows = self.placement_rows();
        let mine = self.scan(me, Some(&rows), |_| {});
        let theirs = self.scan(op, None, |_| {});
        let (my_places, empty) = self.placement_counts(&rows);

        let late = LATE_EMPTY_PER_LINE * self.n as i32;
        let phase = if empty < late {
            (late - empty) * 256 / late
        } else {
            0
        };
        let lead = self.counts[me.index()] as i32 - self.counts[op.index()] as i32;
        let race = Self::race(&rows, &mine, &theirs);
        let extra = (mine.count - 2).max(0) - (theirs.count - 2).max(0);
        let (edges, lengths) = self.edges();
        let centre = self.centre();
        let bank = [me, op].map(|s| self.bank(s));
        let (threat_moves, double_moves) = self.with_summary(THREATS, |s| {
            (s.threat.count() as i32, s.double.count() as i32)
        });
        // The opponent's mobility ignores its (unknown) next mirror ban, so the
        // mobility term is zero or minus our banned vertices.
        [
            lead,
            lead * phase,
            race,
            mine.area(1),
            mine.latent,
            extra,
            mine.pivots - theirs.pivots,
            (my_places - empty) * (256 - phase),
            edges[me.index()] - edges[op.index()],
            lengths[me.index()] - lengths[op.index()],
            centre[me.index()] - centre[op.index()],
            bank[0] - bank[1],
            threat_moves,
            double_moves,
        ]
    }

    fn static_eval(&self) -> i32 {
        let f = self.eval_features();
        W.score(&f).clamp(-(WIN_BOUND - 1), WIN_BOUND - 1)
    }

    /// Open edges per side: pairs of same-coloured stones that are nearest
    /// neighbours along a row or a column; and their lengths, each capped.
    fn edges(&self) -> ([i32; 2], [i32; 2]) {
        let mut count = [0; 2];
        let mut length = [0; 2];
        let black = &self.stones[0];
        let black_cols = &self.stone_cols[0];
        let lines = (0..self.n)
            .map(|y| (self.occ.rows[y], black.rows[y]))
            .chain((0..self.n).map(|x| (self.occ_cols.rows[x], black_cols.rows[x])));
        for (occ, blk) in lines {
            let mut m = occ;
            let mut prev: Option<(usize, usize)> = None;
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                m &= m - 1;
                let c = (blk >> p & 1 == 0) as usize;
                if let Some((q, pc)) = prev
                    && pc == c
                {
                    count[c] += 1;
                    length[c] += ((p - q) as i32).min(EDGE_CAP);
                }
                prev = Some((p, c));
            }
        }
        (count, length)
    }

    /// Per side, the stones' distances from the board edge (per axis, capped).
    fn centre(&self) -> [i32; 2] {
        let n = self.n;
        let d = |i: usize| (i.min(n - 1 - i) as i32).min(CENTRE_CAP);
        let mut out = [0; 2];
        for (side, total) in out.iter_mut().enumerate() {
            for y in 0..n {
                for x in bits(self.stones[side].rows[y]) {
                    *total += d(x) + d(y);
                }
            }
        }
        out
    }

    /// Completed 1×1 squares of `side` (no stone can block them), counting a
    /// square only when none of its corners is shared with one counted before
    /// (claiming one removes its corners).
    fn bank(&self, side: Side) -> i32 {
        let own = &self.stones[side.index()];
        let mut used = Grid::default();
        let mut count = 0;
        for y in 0..self.n.saturating_sub(1) {
            // Bit x: own stones at (x, y), (x+1, y), (x, y+1), (x+1, y+1).
            let (a, b) = (own.rows[y], own.rows[y + 1]);
            let mut sq = a & (a >> 1) & b & (b >> 1) & !self.claimed.rows[y];
            while sq != 0 {
                let x = sq.trailing_zeros() as usize;
                sq &= sq - 1;
                let corners = 3u32 << x;
                if used.rows[y] & corners == 0 && used.rows[y + 1] & corners == 0 {
                    used.rows[y] |= corners;
                    used.rows[y + 1] |= corners;
                    count += 1;
                }
            }
        }
        count
    }

    /// Builds the blocking part of the per-position facts ([`BLOCKS`]), in
    /// O(claims + board): each opponent claim adds its area over its closed
    /// rectangle through a 2-D difference array, summed once over the board.
    #[inline(never)]
    fn summarise_blocks(&self, s: &mut Summary) {
        s.canon_len = 0;
        s.noisy_block = Grid::default();
        s.blocked = Grid::default();
        let rows = self.placement_rows();
        self.summarise_alignment(s, &rows);
        let n = self.n;
        // diff[y][x]: +area at the lower-left of each claim's closed
        // rectangle, with the three corrections beyond it; the prefix sums
        // then give, per vertex, the claims covering it (count and area).
        let mut area_diff = [[0i32; MAX + 1]; MAX + 1];
        let mut count_diff = [[0i32; MAX + 1]; MAX + 1];
        let noisy_block = &mut s.noisy_block;
        self.scan(self.side.opp(), None, |a| {
            let (x1, y1, x2, y2) = (
                a.r.x1 as usize,
                a.r.y1 as usize,
                a.r.x2 as usize,
                a.r.y2 as usize,
            );
            let area = a.area();
            for (x, y, sign) in [
                (x1, y1, 1),
                (x2 + 1, y1, -1),
                (x1, y2 + 1, -1),
                (x2 + 1, y2 + 1, 1),
            ] {
                area_diff[y][x] += sign * area;
                count_diff[y][x] += sign;
            }
            // The representative blocks: the missing corner, and the edge
            // vertices next to each corner (those that are legal placements).
            let mut mark = |x: usize, y: usize| {
                if rows[y] >> x & 1 != 0 {
                    noisy_block.set(x, y);
                }
            };
            if let Some((mx, my)) = a.missing {
                mark(mx as usize, my as usize);
            }
            for y in [y1, y2] {
                mark(x1 + 1, y);
                mark(x2 - 1, y);
            }
            for x in [x1, x2] {
                mark(x, y1 + 1);
                mark(x, y2 - 1);
            }
        });
        // Running sums: `col_*[x]` holds the column prefix of rows below.
        let mut col_area = [0i32; MAX + 1];
        let mut col_count = [0i32; MAX + 1];
        for (y, &row) in rows.iter().enumerate().take(n) {
            let (mut area, mut count) = (0, 0);
            for x in 0..n {
                col_area[x] += area_diff[y][x];
                col_count[x] += count_diff[y][x];
                area += col_area[x];
                count += col_count[x];
                if count > 0 && row >> x & 1 != 0 {
                    s.blocked.set(x, y);
                    s.block[y * MAX + x] = hint::BLOCK + hint::BLOCK_PER_TILE * area;
                }
            }
        }
        let (canon, canon_len) = (&mut s.canon, &mut s.canon_len);
        self.for_each_claimable(self.side, |r| {
            let first = (0..self.n).find_map(|y| {
                let mut line = rows[y];
                if (r.y1 as usize..=r.y2 as usize).contains(&y) {
                    line &= !span(r.x1 as usize, r.x2 as usize);
                }
                (line != 0).then(|| (line.trailing_zeros() as u8, y as u8))
            });
            if let Some(v) = first
                && *canon_len < CANON_CAP
            {
                canon[*canon_len] = (r, v);
                *canon_len += 1;
            }
        });
    }

    /// Builds the mover's-structures part of the per-position facts
    /// ([`THREATS`]), in O(stones) plus a few checks per threat-pivot
    /// candidate: the evaluation asks for it at every node it scores.
    #[inline(never)]
    fn summarise_threats(&self, s: &mut Summary) {
        s.threat = Grid::default();
        s.double = Grid::default();
        s.along_rows = Grid::default();
        s.along_cols_t = Grid::default();
        s.extend_cols_t = Grid::default();
        let rows = self.placement_rows();
        let n = self.n;
        let me = self.side.index();
        let (own, own_t) = (&self.stones[me], &self.stone_cols[me]);
        // The empty stretches on both sides of the stone at `p` of a line.
        let stretches = |occ: u32, p: usize| {
            let hi = next_above(occ, p).unwrap_or(n);
            let lo = next_below(occ, p).map_or(0, |q| q + 1);
            span_open(p + 1, hi) | span_open(lo, p)
        };
        // Whether a nearest stone along the line is an own one.
        let own_neighbour = |occ: u32, mine: u32, p: usize| {
            next_above(occ, p).is_some_and(|q| mine >> q & 1 != 0)
                || next_below(occ, p).is_some_and(|q| mine >> q & 1 != 0)
        };
        let mut extend_rows = Grid::default();
        for y in 0..n {
            for x in bits(own.rows[y]) {
                let st = stretches(self.occ.rows[y], x);
                s.along_rows.rows[y] |= st;
                // Own column neighbour: the row stretch makes a third corner.
                if own_neighbour(self.occ_cols.rows[x], own_t.rows[x], y) {
                    extend_rows.rows[y] |= st;
                }
            }
        }
        for x in 0..n {
            for y in bits(own_t.rows[x]) {
                let st = stretches(self.occ_cols.rows[x], y);
                s.along_cols_t.rows[x] |= st;
                if own_neighbour(self.occ.rows[y], own.rows[y], x) {
                    s.extend_cols_t.rows[x] |= st;
                }
            }
        }
        for (y, &row) in rows.iter().enumerate().take(n) {
            s.extend.rows[y] = extend_rows.rows[y];
            for x in bits(s.along_rows.rows[y] & row) {
                if s.along_cols_t.rows[x] >> y & 1 == 0 {
                    continue;
                }
                let (count, area) = self.pivot_threats(self.side, x, y);
                if count > 1 {
                    s.double.set(x, y);
                }
                if count > 0 {
                    s.threat.set(x, y);
                    s.threat_hint[y * MAX + x] = hint::THREAT
                        + hint::THREAT_PER_TILE * area
                        + if count > 1 { hint::DOUBLE_THREAT } else { 0 };
                }
            }
        }
    }

    /// Builds the hint-only grids of [`BLOCKS`] from the stretches of
    /// [`THREATS`]: `aligned` (a nearest stone along a line is own) and
    /// `extend` (a stretch beside an own stone with an own perpendicular
    /// neighbour), both among legal placements.
    fn summarise_alignment(&self, s: &mut Summary, rows: &[u32; 26]) {
        let mut along_cols = Grid::default();
        let mut extend_cols = Grid::default();
        for x in 0..self.n {
            for y in bits(s.along_cols_t.rows[x]) {
                along_cols.set(x, y);
            }
            for y in bits(s.extend_cols_t.rows[x]) {
                extend_cols.set(x, y);
            }
        }
        for (y, &row) in rows.iter().enumerate().take(self.n) {
            s.aligned.rows[y] = (s.along_rows.rows[y] | along_cols.rows[y]) & row;
            // `extend` holds the row stretches (from THREATS) until now.
            s.extend.rows[y] = (s.extend.rows[y] | extend_cols.rows[y]) & row;
        }
    }

    /// Runs `f` on this position's summary, with at least the parts `need`
    /// built (each on first use).
    #[inline]
    fn with_summary<T>(&self, need: u8, f: impl FnOnce(&Summary) -> T) -> T {
        let build = |s: &mut Summary| {
            if s.key != self.hash || s.n != self.n {
                s.key = self.hash;
                s.n = self.n;
                s.parts = 0;
            }
            // The blocking part is built on the threat part's stretches.
            let need = if need & BLOCKS != 0 {
                need | THREATS
            } else {
                need
            };
            let missing = need & !s.parts;
            if missing & THREATS != 0 {
                self.summarise_threats(s);
            }
            if missing & BLOCKS != 0 {
                self.summarise_blocks(s);
            }
            s.parts |= missing;
        };
        SUMMARY.with(|cell| match cell.try_borrow_mut() {
            Ok(mut s) => {
                build(&mut s);
                f(&s)
            }
            Err(_) => {
                let mut s = Box::new(Summary::EMPTY);
                build(&mut s);
                f(&s)
            }
        })
    }

    /// The 3-corner threats `side` would pivot with a stone of its own on the
    /// empty vertex (x, y) — its nearest row and column stones are its own and
    /// the fourth corner is empty and clear — as (number, total area).
    fn pivot_threats(&self, side: Side, x: usize, y: usize) -> (i32, i32) {
        let own = &self.stones[side.index()];
        let row = self.occ.rows[y];
        let col = self.occ_cols.rows[x];
        let mut count = 0;
        let mut area = 0;
        let hs = [next_above(row, x), next_below(row, x)].map(|h| h.filter(|&h| own.get(h, y)));
        let vs = [next_above(col, y), next_below(col, y)].map(|v| v.filter(|&v| own.get(x, v)));
        for h in hs.into_iter().flatten() {
            for v in vs.into_iter().flatten() {
                if !self.occ.get(h, v)
                    && let Some(r) = Rect::from_corners(x, y, h, v)
                    && self.clear_inside(r)
                {
                    count += 1;
                    area += r.area() as i32;
                }
            }
        }
        (count, area)
    }
}

impl LinearEval for Board {
    const NAMES: &'static [&'static str] = &NAMES;
    const DIVISOR: &'static [i32] = &DIVISOR;
    const WEIGHTS: &'static [i32] = &W.w;

    fn features(&self) -> Vec<i32> {
        self.eval_features().to_vec()
    }
}

impl Evaluate for Board {
    /// Side to move's view, centi-tiles: tile lead (worth more as the empty
    /// vertices run out), the claim race, the mover's second claim and
    /// mirror-delayed threats, claim pressure, pivot structures, mobility.
    /// The learned evaluation instead (`nnue.rs`) where `params` choose it
    /// (by default they do: `nnue::LEARNED_BY_DEFAULT`).
    fn evaluate(&self, params: &EvalParams) -> i32 {
        if params.learned(super::nnue::LEARNED_BY_DEFAULT)
            && let Some(v) = self.learned_eval()
        {
            return v;
        }
        self.static_eval()
    }

    /// A 20x20 position has some 300 placements, so what decides the depth
    /// reached is how few of them near the horizon get a search: late-move
    /// pruning to 2 plies from it, reverse futility to 3 plies (one tile a
    /// ply), and the null move from 3 plies (a free placement is nearly
    /// always worth having: one more stone towards a rectangle, or a block).
    /// Together, against the plain shape at 0.1 s a move, 32-4-4 (85.0%) in
    /// 40 games on 20x20, 9-8-23 (51.2%) on 12x12 (docs/history/strength-rounds.md).
    /// Placements are many (hundreds on 20×20) and few of them matter: late
    /// moves are pruned to 4 plies from the horizon (5 + 5·d²/2 kept) and
    /// reduced logarithmically.
    const SEARCH_SHAPE: SearchShape = SearchShape {
        late_move_pruning_depth: 4,
        late_move_pruning_base: 5,
        reverse_futility_depth: 3,
        reverse_futility_margin: 100,
        null_move_depth: 3,
        log_reduction_divisor: 225,
        ..SearchShape::PLAIN
    };

    fn make_null_move(&mut self) {
        self.toggle_side();
    }

    fn unmake_null_move(&mut self) {
        self.toggle_side();
    }

    fn move_hint(&self, mv: Move) -> i32 {
        let (x, y) = mv.vertex();
        if x >= self.n || y >= self.n {
            return 0;
        }
        if self.ply() <= 1 {
            // Each side's first placement: nothing on the board favours one
            // vertex over another to any depth the engine reaches, so the
            // order decides, and the centre comes first (not A1).
            return -centre_distance(self.n, x, y);
        }
        let i = y * MAX + x;
        let h = self.with_summary(THREATS | BLOCKS, |s| {
            let block = if s.blocked.get(x, y) { s.block[i] } else { 0 };
            match mv.claim() {
                Some(r) => hint::CLAIM + hint::CLAIM_PER_TILE * r.area() as i32 + block,
                None => {
                    let mut h = block;
                    if s.threat.get(x, y) {
                        h += s.threat_hint[i];
                    }
                    if s.extend.get(x, y) {
                        h += hint::EXTEND;
                    }
                    if s.aligned.get(x, y) {
                        h += hint::ALIGNED;
                    }
                    h
                }
            }
        });
        h.clamp(-1_000_000, 1_000_000)
    }

    /// Claims (with the placement that completes them, or that also blocks,
    /// or one canonical placement for an old rectangle) and representative
    /// blocks of the opponent's available claims.
    fn is_noisy(&self, mv: Move) -> bool {
        let (x, y) = mv.vertex();
        if x >= self.n || y >= self.n {
            return false;
        }
        self.with_summary(BLOCKS, |s| {
            let blocks = s.noisy_block.get(x, y);
            match mv.claim() {
                None => blocks,
                Some(r) => {
                    blocks
                        || r.corners().contains(&(x, y))
                        || s.canon[..s.canon_len].contains(&(r, (x as u8, y as u8)))
                }
            }
        })
    }

    /// Bits 0–9: the vertex; bit 10: a claim follows; bits 11–30: its corners.
    fn move_to_u32(&self, mv: Move) -> u32 {
        let (x, y) = mv.vertex();
        let mut code = (x as u32 & 31) | (y as u32 & 31) << 5;
        if let Some(r) = mv.claim() {
            code |= 1 << 10
                | (r.x1 as u32 & 31) << 11
                | (r.y1 as u32 & 31) << 16
                | (r.x2 as u32 & 31) << 21
                | (r.y2 as u32 & 31) << 26;
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    /// The summary's threat placements are every legal placement that would
    /// pivot a 3-corner threat (the stretch filter loses none), its double
    /// ones those that would pivot two or more, on positions of random games.
    #[test]
    fn threat_placements_are_found_by_the_stretch_filter() {
        let mut rng = SplitMix64::new(3);
        let mut moves = Vec::new();
        let mut threats_seen = 0;
        for size in [6, 9, 14, 20] {
            let mut b = Board::new(size).expect("a legal size");
            for _ in 0..size * size {
                if b.status() != crate::core::Status::Ongoing {
                    break;
                }
                let rows = b.placement_rows();
                let (threat, double) = b.with_summary(THREATS, |s| (s.threat, s.double));
                for (y, &row) in rows.iter().enumerate().take(size) {
                    for x in 0..size {
                        let legal = row >> x & 1 != 0;
                        let (count, _) = if legal {
                            b.pivot_threats(b.side, x, y)
                        } else {
                            (0, 0)
                        };
                        assert_eq!(threat.get(x, y), count > 0, "{size}x{size} ({x}, {y})");
                        assert_eq!(double.get(x, y), count > 1, "{size}x{size} ({x}, {y})");
                        threats_seen += usize::from(count > 0);
                    }
                }
                moves.clear();
                b.generate_moves(&mut moves);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                b.make_move(mv);
            }
        }
        assert!(
            threats_seen > 100,
            "too few threats to test: {threats_seen}"
        );
    }
}
