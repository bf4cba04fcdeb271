//! A deliberately simple, slow reference implementation of rules.md §2, written
//! independently of `src/games/rebus`: plain arrays of letters, every attacker
//! and every chain path enumerated explicitly, moves deduplicated by effect
//! (attacker symbol, captured set, nomination), canonical tokens as the minimum
//! over every token the reference can write for a move.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

pub type Sq = (usize, usize); // (file, rank), 0-based

/// Every token written, with its move key (attacker symbol, sorted set).
pub type Tokens = Option<Vec<(String, (char, Vec<Sq>))>>;

#[derive(Clone, Debug)]
pub struct RefPos {
    /// [file][rank] -> (owner letter, symbol letter)
    pub vis: [[(char, char); 9]; 9],
    pub boxes: [[Option<(char, char)>; 9]; 9],
    pub side: char,
    /// (file, rank, size, owner, uniform)
    pub locks: Vec<(usize, usize, usize, char, bool)>,
    pub protected: [[bool; 9]; 9],
    /// Who yielded (the game is then over).
    pub yielded: Option<char>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefMove {
    Capture {
        s: char,
        set: Vec<Sq>,
        nom: Option<Sq>,
    },
    Lock(Sq, usize),
    Pass,
    Yield,
}

pub fn name(q: Sq) -> String {
    format!("{}{}", (b'a' + q.0 as u8) as char, q.1 + 1)
}

fn other(side: char) -> char {
    if side == 'r' { 'b' } else { 'r' }
}

impl RefPos {
    pub fn parse(s: &str) -> RefPos {
        let f: Vec<&str> = s.split(' ').collect();
        let mut p = RefPos {
            vis: [[('g', 'H'); 9]; 9],
            boxes: [[None; 9]; 9],
            side: if f[1] == "red" { 'r' } else { 'b' },
            locks: vec![],
            protected: [[false; 9]; 9],
            yielded: None,
        };
        for (i, rank) in f[0].split('/').enumerate() {
            let r = 8 - i;
            let c: Vec<char> = rank.chars().collect();
            let mut k = 0;
            let mut file = 0;
            while k < c.len() {
                p.vis[file][r] = (c[k], c[k + 1]);
                k += 2;
                if k < c.len() && c[k] == '(' {
                    p.boxes[file][r] = Some((c[k + 1], c[k + 2]));
                    k += 4;
                }
                file += 1;
            }
        }
        if f[2] != "-" {
            for l in f[2].split(',') {
                let b: Vec<char> = l.chars().collect();
                let q = ((b[0] as u8 - b'a') as usize, (b[1] as u8 - b'1') as usize);
                let size = (b[3] as u8 - b'0') as usize;
                let owner = p.vis[q.0][q.1].0;
                let s0 = p.vis[q.0][q.1].1;
                let mut uniform = true;
                for df in 0..size {
                    for dr in 0..size {
                        if p.vis[q.0 + df][q.1 + dr].1 != s0 {
                            uniform = false;
                        }
                    }
                }
                p.locks.push((q.0, q.1, size, owner, uniform));
            }
        }
        if f[3] != "-" {
            for t in f[3].split(',') {
                let b = t.as_bytes();
                p.protected[(b[0] - b'a') as usize][(b[1] - b'1') as usize] = true;
            }
        }
        p
    }

    pub fn is_locked(&self, q: Sq) -> bool {
        self.locks
            .iter()
            .any(|&(f, r, k, _, _)| q.0 >= f && q.0 < f + k && q.1 >= r && q.1 < r + k)
    }

    pub fn count(&self, owner: char) -> usize {
        let mut n = 0;
        for f in 0..9 {
            for r in 0..9 {
                if self.vis[f][r].0 == owner {
                    n += 1;
                }
            }
        }
        n
    }

    fn stars(&self, owner: char) -> usize {
        let mut n = 0;
        for f in 0..9 {
            for r in 0..9 {
                if self.vis[f][r] == (owner, 'S') {
                    n += 1;
                }
            }
        }
        n
    }

    /// Whether capturing q with attacker symbol s gives `me` one more active Star.
    fn gains_star(&self, me: char, s: char, q: Sq) -> bool {
        match self.boxes[q.0][q.1] {
            Some(b) => b == (me, 'S'),
            None => s == 'S',
        }
    }

    fn target_ok(&self, me: char, q: Sq, use_protection: bool) -> bool {
        self.vis[q.0][q.1].0 != me
            && !self.is_locked(q)
            && !(use_protection && self.protected[q.0][q.1])
    }

    fn reaches(a: Sq, q: Sq, star: bool) -> bool {
        let d = (a.0 as i32 - q.0 as i32)
            .abs()
            .max((a.1 as i32 - q.1 as i32).abs());
        d >= 1 && d <= if star { 2 } else { 1 }
    }

    fn all_squares() -> Vec<Sq> {
        let mut v = vec![];
        for f in 0..9 {
            for r in 0..9 {
                v.push((f, r));
            }
        }
        v
    }

    /// Whether `me` has a legal first capture step.
    pub fn has_capture(&self, me: char, use_protection: bool) -> bool {
        let stars = self.stars(me);
        for a in Self::all_squares() {
            if self.vis[a.0][a.1].0 != me || self.is_locked(a) {
                continue;
            }
            let s = self.vis[a.0][a.1].1;
            for q in Self::all_squares() {
                if Self::reaches(a, q, s == 'S')
                    && self.target_ok(me, q, use_protection)
                    && self.vis[q.0][q.1].1 != s
                    && stars + self.gains_star(me, s, q) as usize <= 5
                {
                    return true;
                }
            }
        }
        false
    }

    /// rules.md §2.7: the opponent controls 41 or more, the mover fewer.
    pub fn may_yield(&self) -> bool {
        let (me, them) = (self.count(self.side), self.count(other(self.side)));
        self.yielded.is_none() && !self.over() && them >= 41 && me < them
    }

    pub fn over(&self) -> bool {
        if self.yielded.is_some() {
            return true;
        }
        if self.count('r') >= 51 || self.count('b') >= 51 {
            return true;
        }
        !self.has_capture(self.side, true) && !self.has_capture(other(self.side), false)
    }

    /// Every capture (s, sorted set) with the smallest token prefix that makes it,
    /// found by walking every path of every attacker. `None` when the number of
    /// paths exceeds `budget`.
    pub fn capture_sets(&self, budget: usize) -> Option<BTreeMap<(char, Vec<Sq>), String>> {
        self.capture_sets_with_tokens(budget, &mut None)
    }

    /// As [`RefPos::capture_sets`], also listing every token written (with its key).
    pub fn capture_sets_with_tokens(
        &self,
        budget: usize,
        all: &mut Tokens,
    ) -> Option<BTreeMap<(char, Vec<Sq>), String>> {
        let me = self.side;
        let stars = self.stars(me);
        let mut out: BTreeMap<(char, Vec<Sq>), String> = BTreeMap::new();
        let mut work = 0usize;
        for a in Self::all_squares() {
            if self.vis[a.0][a.1].0 != me || self.is_locked(a) {
                continue;
            }
            let s = self.vis[a.0][a.1].1;
            for q in Self::all_squares() {
                if !Self::reaches(a, q, s == 'S') || !self.target_ok(me, q, true) {
                    continue;
                }
                let t = self.vis[q.0][q.1].1;
                if t == s {
                    continue;
                }
                let g = self.gains_star(me, s, q) as usize;
                if stars + g > 5 {
                    continue;
                }
                let mut path = vec![q];
                self.walk(
                    a,
                    s,
                    t,
                    &mut path,
                    stars + g,
                    &mut out,
                    &mut work,
                    budget,
                    all,
                );
                if work > budget {
                    return None;
                }
            }
        }
        Some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        a: Sq,
        s: char,
        t: char,
        path: &mut Vec<Sq>,
        stars: usize,
        out: &mut BTreeMap<(char, Vec<Sq>), String>,
        work: &mut usize,
        budget: usize,
        all: &mut Tokens,
    ) {
        *work += 1;
        if *work > budget {
            return;
        }
        let mut token = name(a);
        for &q in path.iter() {
            token.push('x');
            token.push_str(&name(q));
        }
        let mut set = path.clone();
        set.sort();
        if let Some(v) = all.as_mut() {
            v.push((token.clone(), (s, set.clone())));
        }
        let e = out.entry((s, set)).or_insert_with(|| token.clone());
        if token < *e {
            *e = token;
        }
        let last = *path.last().unwrap();
        let (f, r) = (last.0 as i32, last.1 as i32);
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (nf, nr) = (f + df, r + dr);
            if !(0..9).contains(&nf) || !(0..9).contains(&nr) {
                continue;
            }
            let n = (nf as usize, nr as usize);
            if path.contains(&n) || self.vis[n.0][n.1].1 != t || !self.target_ok(self.side, n, true)
            {
                continue;
            }
            let g = self.gains_star(self.side, s, n) as usize;
            if stars + g > 5 {
                continue;
            }
            path.push(n);
            self.walk(a, s, t, path, stars + g, out, work, budget, all);
            path.pop();
        }
    }

    fn edge_covered(&self, sqs: &[Sq], by: char) -> bool {
        !sqs.is_empty() && sqs.iter().all(|&q| self.vis[q.0][q.1].0 == by)
    }

    /// Outside edges of a block covered by `by`.
    fn covered(&self, f: usize, r: usize, k: usize, by: char) -> usize {
        let mut edges: Vec<Vec<Sq>> = vec![vec![], vec![], vec![], vec![]];
        for i in 0..k {
            if r > 0 {
                edges[0].push((f + i, r - 1));
            }
            if r + k < 9 {
                edges[1].push((f + i, r + k));
            }
            if f > 0 {
                edges[2].push((f - 1, r + i));
            }
            if f + k < 9 {
                edges[3].push((f + k, r + i));
            }
        }
        edges.iter().filter(|e| self.edge_covered(e, by)).count()
    }

    pub fn locks_legal(&self) -> Vec<(Sq, usize)> {
        let me = self.side;
        let mut v = vec![];
        for k in [2, 3] {
            for f in 0..=9 - k {
                for r in 0..=9 - k {
                    let mut ok = true;
                    let mut uniform = true;
                    for df in 0..k {
                        for dr in 0..k {
                            let q = (f + df, r + dr);
                            if self.vis[q.0][q.1].0 != me || self.is_locked(q) {
                                ok = false;
                            }
                            if self.vis[q.0][q.1].1 != self.vis[f][r].1 {
                                uniform = false;
                            }
                        }
                    }
                    if ok && self.covered(f, r, k, other(me)) < if uniform { 3 } else { 2 } {
                        v.push(((f, r), k));
                    }
                }
            }
        }
        v
    }

    fn nominable(&self, set: &[Sq]) -> Vec<Sq> {
        Self::all_squares()
            .into_iter()
            .filter(|&q| {
                self.vis[q.0][q.1].0 == self.side && !self.is_locked(q) && !set.contains(&q)
            })
            .collect()
    }

    /// All legal moves with their canonical tokens; `None` if over budget.
    pub fn moves(&self, budget: usize) -> Option<Vec<(RefMove, String)>> {
        if self.over() {
            return Some(vec![]);
        }
        let sets = self.capture_sets(budget)?;
        let mut v = vec![];
        for ((s, set), tok) in &sets {
            v.push((
                RefMove::Capture {
                    s: *s,
                    set: set.clone(),
                    nom: None,
                },
                tok.clone(),
            ));
            for n in self.nominable(set) {
                v.push((
                    RefMove::Capture {
                        s: *s,
                        set: set.clone(),
                        nom: Some(n),
                    },
                    format!("{tok}+{}", name(n)),
                ));
            }
        }
        if sets.is_empty() {
            v.push((RefMove::Pass, "pass".to_string()));
        }
        for (q, k) in self.locks_legal() {
            v.push((RefMove::Lock(q, k), format!("{}L{k}", name(q))));
        }
        Some(v)
    }

    /// Every capture token the reference can write (no nomination), each with
    /// the canonical token of its move.
    pub fn all_capture_tokens(&self, budget: usize) -> Option<Vec<(String, String)>> {
        let mut all = Some(vec![]);
        let sets = self.capture_sets_with_tokens(budget, &mut all)?;
        Some(
            all.unwrap_or_default()
                .into_iter()
                .map(|(t, k)| (t, sets[&k].clone()))
                .collect(),
        )
    }

    /// The number of legal moves, without writing them.
    pub fn count_moves(&self, budget: usize) -> Option<u64> {
        if self.over() {
            return Some(0);
        }
        let sets = self.capture_sets(budget)?;
        let mut n = 0u64;
        for (_, set) in sets.keys() {
            n += 1 + self.nominable(set).len() as u64;
        }
        if sets.is_empty() {
            n += 1;
        }
        Some(n + self.locks_legal().len() as u64)
    }

    pub fn apply(&self, m: &RefMove) -> RefPos {
        let mut p = self.clone();
        let me = self.side;
        p.protected = [[false; 9]; 9];
        match m {
            RefMove::Capture { s, set, nom } => {
                for &q in set {
                    match p.boxes[q.0][q.1].take() {
                        Some(b) => p.vis[q.0][q.1] = b,
                        None => {
                            p.boxes[q.0][q.1] = Some(p.vis[q.0][q.1]);
                            p.vis[q.0][q.1] = (me, *s);
                        }
                    }
                    p.protected[q.0][q.1] = true;
                }
                if let Some(n) = nom {
                    p.protected[n.0][n.1] = true;
                }
            }
            RefMove::Lock(q, k) => {
                let s0 = p.vis[q.0][q.1].1;
                let mut uniform = true;
                for df in 0..*k {
                    for dr in 0..*k {
                        if p.vis[q.0 + df][q.1 + dr].1 != s0 {
                            uniform = false;
                        }
                    }
                }
                p.locks.push((q.0, q.1, *k, me, uniform));
            }
            // A yield is a turn like any other (protection ends, locks are
            // checked below), and then the game is over.
            RefMove::Pass => {}
            RefMove::Yield => p.yielded = Some(me),
        }
        let snapshot = p.clone();
        p.locks.retain(|&(f, r, k, owner, uniform)| {
            snapshot.covered(f, r, k, other(owner)) < if uniform { 3 } else { 2 }
        });
        p.side = other(me);
        p
    }

    pub fn canonical_set(moves: &[(RefMove, String)]) -> BTreeSet<String> {
        moves.iter().map(|(_, t)| t.clone()).collect()
    }

    pub fn perft(&self, depth: u32, budget: usize) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if depth == 1 {
            return self.count_moves(budget);
        }
        let ms = self.moves(budget)?;
        let mut n = 0;
        for (m, _) in &ms {
            n += self.apply(m).perft(depth - 1, budget)?;
        }
        Some(n)
    }
}
