//! What a search found: each root move's visits, mean and proven value,
//! and the principal line below it, as reports and agents read them.

use super::*;

impl<G: Game> Search<G> {
    /// What the search found at the root.
    pub fn result(&self, game: &G) -> MctsResult<G::Move> {
        let root = &self.nodes[0];
        let mut moves = Vec::new();
        match root.kind {
            Kind::Simultaneous => {
                let mut s = root.stats;
                while s != NONE {
                    let st = &self.stats[s as usize];
                    if st.player as usize == self.player {
                        moves.push(RootMove {
                            mv: st.mv.clone(),
                            visits: u64::from(st.visits),
                            total: st.sum,
                            lo: self.range.0,
                            hi: self.range.1,
                            line: self.joint_line(game, &st.mv),
                            strategy: if self.regret_matching() {
                                st.strategy
                            } else {
                                f64::from(st.visits)
                            },
                        });
                    }
                    s = st.next;
                }
                // The list is newest first; the game's order reads better.
                moves.reverse();
            }
            _ => {
                let p = match root.kind {
                    Kind::Player(p) => p as usize,
                    _ => self.player,
                };
                let mut c = self.child_after(0, NONE);
                while c != NONE {
                    let child = &self.nodes[c as usize];
                    let (lo, hi) = if self.solving { (child.lo, child.hi) } else { self.range };
                    moves.push(RootMove {
                        mv: child.mv.clone().expect("a root child has a move"),
                        visits: u64::from(child.visits),
                        total: self.sums[c as usize * self.np + p],
                        lo,
                        hi,
                        line: self.line_below(game, c),
                        strategy: f64::from(child.visits),
                    });
                    c = self.child_after(0, c);
                }
            }
        }
        let (lo, hi) = if self.solving { (root.lo, root.hi) } else { self.range };
        MctsResult {
            player: self.player,
            moves,
            simulations: self.simulations,
            nodes: self.nodes.len(),
            lo,
            hi,
            solving: self.solving,
            full: self.full,
            zero_sum: self.zero_sum.unwrap_or(0.0),
        }
    }

    /// The most visited line below node `c` (proven best moves first).
    fn line_below(&self, game: &G, c: u32) -> Vec<String> {
        let mut line = Vec::new();
        let mut at = c as usize;
        while line.len() < 40 {
            let mut best = NONE;
            let mut most = 0u32;
            let mut k = self.child_after(at, NONE);
            while k != NONE {
                let v = self.nodes[k as usize].visits;
                if v > most {
                    most = v;
                    best = k;
                }
                k = self.child_after(at, k);
            }
            if let (Kind::Player(_), true) = (self.nodes[at].kind, self.proven(at)) {
                // The proven value's move, however often it was visited.
                let value = self.nodes[at].lo;
                let mut k = self.child_after(at, NONE);
                while k != NONE {
                    let ch = &self.nodes[k as usize];
                    if ch.lo == value && ch.hi == value {
                        best = k;
                        break;
                    }
                    k = self.child_after(at, k);
                }
            }
            if best == NONE {
                break;
            }
            line.push(self.move_text_of(game, best));
            at = best as usize;
        }
        line
    }

    /// At a simultaneous root: the most visited joint move in which the
    /// player plays `mv` (the others' replies), then the line below it.
    fn joint_line(&self, game: &G, mv: &G::Move) -> Vec<String> {
        let mut best = NONE;
        let mut most = 0u32;
        let mut c = self.child_after(0, NONE);
        while c != NONE {
            let node = &self.nodes[c as usize];
            let at = node.joint as usize;
            if node.mv.is_none() && self.joints[at + self.player] == *mv && node.visits > most {
                most = node.visits;
                best = c;
            }
            c = self.child_after(0, c);
        }
        if best == NONE {
            return Vec::new();
        }
        let mut line = vec![self.move_text_of(game, best)];
        line.extend(self.line_below(game, best));
        line
    }

    fn move_text_of(&self, game: &G, c: u32) -> String {
        let node = &self.nodes[c as usize];
        match &node.mv {
            Some(mv) => game.move_text(mv),
            None => {
                let at = node.joint as usize;
                // As `gdl solve` writes a joint move: [A 3, B 1].
                let texts: Vec<String> = self.joints[at..at + self.np]
                    .iter()
                    .enumerate()
                    .map(|(p, m)| format!("{} {}", game.player_name(p), game.move_text(m)))
                    .collect();
                format!("[{}]", texts.join(", "))
            }
        }
    }
}
