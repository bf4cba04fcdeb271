//! A deliberately simple, slow Rekushu referee written from rules.md §1 alone:
//! plain 2-D arrays, every pair of own stones tried as opposite corners, every
//! vertex of a rectangle inspected, mirror types recomputed from the placement
//! history. It shares no code with `tessera::games::rekushu`.

#![allow(dead_code)]

pub const EMPTY: i8 = -1;

#[derive(Clone, Debug)]
pub struct RefBoard {
    pub n: usize,
    /// `stone[x][y]`: -1 empty, 0 Black, 1 White.
    pub stone: Vec<Vec<i8>>,
    /// `tile[x][y]` for the tile whose lower-left vertex is (x, y).
    pub tile: Vec<Vec<i8>>,
    /// Every placement so far, in order (players alternate, Black first).
    pub placed: Vec<(usize, usize)>,
}

/// A reference move: placement and optional rectangle (x1, y1, x2, y2), normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove {
    pub x: usize,
    pub y: usize,
    pub rect: Option<(usize, usize, usize, usize)>,
}

pub fn vtext(x: usize, y: usize) -> String {
    let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    format!("{}{}", &letters[x..x + 1], y + 1)
}

impl RefMove {
    pub fn text(&self) -> String {
        match self.rect {
            None => vtext(self.x, self.y),
            Some((x1, y1, x2, y2)) => {
                format!(
                    "{}:{}-{}",
                    vtext(self.x, self.y),
                    vtext(x1, y1),
                    vtext(x2, y2)
                )
            }
        }
    }
}

impl RefBoard {
    pub fn new(n: usize) -> RefBoard {
        RefBoard {
            n,
            stone: vec![vec![EMPTY; n]; n],
            tile: vec![vec![EMPTY; n - 1]; n - 1],
            placed: Vec::new(),
        }
    }

    pub fn to_move(&self) -> i8 {
        (self.placed.len() % 2) as i8
    }

    /// Mirror types [h, v, r] of a placement at `p` against an opponent placement `o`.
    pub fn mirror_types(&self, p: (usize, usize), o: (usize, usize)) -> [bool; 3] {
        let m = self.n - 1;
        [
            p.0 == o.0 && p.1 == m - o.1,
            p.0 == m - o.0 && p.1 == o.1,
            p.0 == m - o.0 && p.1 == m - o.1,
        ]
    }

    /// The types of the placement with index i in `placed` (empty for i = 0).
    pub fn types_of_placement(&self, i: usize) -> [bool; 3] {
        if i == 0 {
            [false; 3]
        } else {
            self.mirror_types(self.placed[i], self.placed[i - 1])
        }
    }

    /// The types a placement at p by the side to move would have.
    pub fn types_now(&self, p: (usize, usize)) -> [bool; 3] {
        match self.placed.last() {
            None => [false; 3],
            Some(&o) => self.mirror_types(p, o),
        }
    }

    fn touching_tiles(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (dx, dy) in [(-1i64, -1i64), (0, -1), (-1, 0), (0, 0)] {
            let tx = x as i64 + dx;
            let ty = y as i64 + dy;
            if tx >= 0 && ty >= 0 && tx < self.n as i64 - 1 && ty < self.n as i64 - 1 {
                v.push((tx as usize, ty as usize));
            }
        }
        v
    }

    pub fn placement_legal(&self, x: usize, y: usize) -> bool {
        if self.stone[x][y] != EMPTY {
            return false;
        }
        if self
            .touching_tiles(x, y)
            .iter()
            .all(|&(tx, ty)| self.tile[tx][ty] != EMPTY)
        {
            return false;
        }
        let len = self.placed.len();
        if len >= 2 {
            let mine = self.types_of_placement(len - 2);
            let now = self.types_now((x, y));
            if (0..3).any(|i| mine[i] && now[i]) {
                return false;
            }
        }
        true
    }

    pub fn placements(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                if self.placement_legal(x, y) {
                    v.push((x, y));
                }
            }
        }
        v
    }

    /// Whether `p` may claim the rectangle (x1, y1)-(x2, y2) in the current stones.
    pub fn can_claim(&self, p: i8, x1: usize, y1: usize, x2: usize, y2: usize) -> bool {
        if x1 >= x2 || y1 >= y2 {
            return false;
        }
        for x in x1..=x2 {
            for y in y1..=y2 {
                let corner = (x == x1 || x == x2) && (y == y1 || y == y2);
                if corner && self.stone[x][y] != p {
                    return false;
                }
                if !corner && self.stone[x][y] != EMPTY {
                    return false;
                }
            }
        }
        for x in x1..x2 {
            for y in y1..y2 {
                if self.tile[x][y] != EMPTY {
                    return false;
                }
            }
        }
        true
    }

    /// Every claim available to `p` now: all pairs of its stones as opposite corners.
    pub fn claims(&self, p: i8) -> Vec<(usize, usize, usize, usize)> {
        let mut own = Vec::new();
        for x in 0..self.n {
            for y in 0..self.n {
                if self.stone[x][y] == p {
                    own.push((x, y));
                }
            }
        }
        let mut v = Vec::new();
        for &(ax, ay) in &own {
            for &(bx, by) in &own {
                if ax < bx && ay < by && self.can_claim(p, ax, ay, bx, by) {
                    v.push((ax, ay, bx, by));
                }
            }
        }
        v
    }

    pub fn moves(&self) -> Vec<RefMove> {
        let p = self.to_move();
        let mut out = Vec::new();
        for (x, y) in self.placements() {
            out.push(RefMove { x, y, rect: None });
            let mut b = self.clone();
            b.stone[x][y] = p;
            for r in b.claims(p) {
                out.push(RefMove {
                    x,
                    y,
                    rect: Some(r),
                });
            }
        }
        out
    }

    pub fn apply(&mut self, m: RefMove) {
        let p = self.to_move();
        self.stone[m.x][m.y] = p;
        if let Some((x1, y1, x2, y2)) = m.rect {
            for (x, y) in [(x1, y1), (x2, y1), (x1, y2), (x2, y2)] {
                self.stone[x][y] = EMPTY;
            }
            for x in x1..x2 {
                for y in y1..y2 {
                    self.tile[x][y] = p;
                }
            }
        }
        self.placed.push((m.x, m.y));
    }

    pub fn tiles_of(&self, p: i8) -> u32 {
        self.tile
            .iter()
            .map(|c| c.iter().filter(|&&t| t == p).count() as u32)
            .sum()
    }

    /// None while the game goes on; Some(winner: 0/1, or -1 for a draw) when over.
    pub fn result(&self) -> Option<i8> {
        if !self.placements().is_empty() {
            return None;
        }
        let (b, w) = (self.tiles_of(0), self.tiles_of(1));
        Some(if b > w {
            0
        } else if w > b {
            1
        } else {
            -1
        })
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut b = self.clone();
                b.apply(m);
                b.perft(depth - 1)
            })
            .sum()
    }

    /// Parses the reference's own notation (upper case, canonical) back into a move.
    pub fn parse(&self, text: &str) -> Option<RefMove> {
        let vert = |s: &str| -> Option<(usize, usize)> {
            let c = s.bytes().next()?;
            let x = (c - b'A') as usize;
            let y: usize = s[1..].parse().ok()?;
            Some((x, y - 1))
        };
        let (p, r) = match text.split_once(':') {
            None => (text, None),
            Some((p, r)) => (p, Some(r)),
        };
        let (x, y) = vert(p)?;
        let rect = match r {
            None => None,
            Some(r) => {
                let (a, b) = r.split_once('-')?;
                let (a, b) = (vert(a)?, vert(b)?);
                Some((a.0, a.1, b.0, b.1))
            }
        };
        Some(RefMove { x, y, rect })
    }
}
