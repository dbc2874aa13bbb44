//! Selection at simultaneous nodes: each player's move by regret matching
//! (SM-MCTS) or by UCB1 over its own statistics, then the joint move's
//! child. A part of [`Search`], kept apart from the rest of the tree's
//! work so that tree.rs holds one search step by step.

use super::*;

impl<G: Game> Search<G> {
    /// At a simultaneous node: each player's move (by regret matching or by
    /// UCB1 over its own statistics), then the child of the joint move.
    pub(super) fn select_joint(&mut self, game: &G, node: u32) -> Result<Option<u32>, GameError> {
        let n = node as usize;
        self.joint.clear();
        for p in 0..self.np {
            game.legal_moves_of(&self.state, p, &mut self.moves)?;
            if self.moves.is_empty() {
                return Err(GameError::new(
                    RuntimeKind::NoMoves,
                    format!("{} has no move at a simultaneous node", game.player_name(p)),
                )
                .in_state(game.state_text(&self.state)));
            }
            let at_random = match self.cfg.simultaneous {
                SimultaneousSelect::OthersRandom => p != self.player,
                SimultaneousSelect::OthersHalfRandom => p != self.player && self.rng.random::<bool>(),
                _ => false,
            };
            if at_random {
                let i = self.rng.random_range(0..self.moves.len());
                self.joint.push(self.moves[i].clone());
                continue;
            }
            // Each legal move's statistics (NONE where a full tree has none).
            let start = self.rm_avail.len();
            let mut missing = false;
            for i in 0..self.moves.len() {
                let s = self.move_stat(n, p, i);
                missing |= s == NONE;
                self.rm_avail.push(s);
            }
            let pick = if missing {
                // Full: the move is drawn as in a playout, and nothing learnt here.
                self.rm_avail.truncate(start);
                let i = self.rng.random_range(0..self.moves.len());
                self.joint.push(self.moves[i].clone());
                continue;
            } else if self.regret_matching() {
                self.pick_regret(start)
            } else {
                self.pick_ucb(start)
            };
            let s = self.rm_avail[start + pick];
            self.chosen.push(s);
            if !self.regret_matching() {
                self.rm_avail.truncate(start);
            }
            self.joint.push(self.moves[pick].clone());
        }
        game.apply_joint(&mut self.state, &self.joint)?;
        let np = self.np;
        let mut c = self.child_after(n, NONE);
        while c != NONE {
            let at = self.nodes[c as usize].joint as usize;
            if self.joints[at..at + np] == self.joint[..] {
                break;
            }
            c = self.child_after(n, c);
        }
        if c == NONE {
            if !self.can_grow(1, 0, np) {
                return Ok(None);
            }
            let at = self.joints.len() as u32;
            self.joints.extend(self.joint.iter().cloned());
            c = self.push_extra(node, None, at);
        }
        self.nodes[c as usize].avail += 1;
        Ok(Some(c))
    }

    pub(super) fn regret_matching(&self) -> bool {
        matches!(
            self.cfg.simultaneous,
            SimultaneousSelect::RegretMatching | SimultaneousSelect::RegretMatchingMixed
        )
    }

    /// Player `p`'s statistics at simultaneous node `n` for `self.moves[i]`,
    /// made when first needed; NONE when the tree is full.
    fn move_stat(&mut self, n: usize, p: Player, i: usize) -> u32 {
        let mut s = self.nodes[n].stats;
        while s != NONE {
            let st = &self.stats[s as usize];
            if st.player as usize == p && st.mv == self.moves[i] {
                break;
            }
            s = st.next;
        }
        if s == NONE {
            if !self.can_grow(0, 1, 0) {
                return NONE;
            }
            s = self.stats.len() as u32;
            self.stats.push(MoveStat {
                mv: self.moves[i].clone(),
                player: p as u32,
                next: self.nodes[n].stats,
                visits: 0,
                avail: 0,
                sum: 0.0,
                regret: 0.0,
                strategy: 0.0,
            });
            self.nodes[n].stats = s;
        }
        self.stats[s as usize].avail += 1;
        s
    }

    /// Decoupled UCT: UCB1 over the statistics `rm_avail[start..]`, an
    /// unvisited move first; the index of the move chosen.
    fn pick_ucb(&mut self, start: usize) -> usize {
        let mut best = 0usize;
        let mut best_score = f64::NEG_INFINITY;
        let mut unvisited = 0u32;
        for i in 0..self.rm_avail.len() - start {
            let st = &self.stats[self.rm_avail[start + i] as usize];
            if st.visits == 0 {
                unvisited += 1;
                if self.rng.random_range(0..unvisited) == 0 {
                    best = i;
                }
                continue;
            }
            if unvisited > 0 {
                continue;
            }
            let score = self.scaled(st.sum, st.visits)
                + self.cfg.exploration * (f64::from(st.avail).ln() / f64::from(st.visits)).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Regret matching over the statistics `rm_avail[start..]`: a move drawn
    /// from the positive regrets' distribution mixed with uniform
    /// exploration; the strategy (without exploration) is added to the
    /// average, and the draw is kept for the regrets' update. The index of
    /// the move chosen.
    fn pick_regret(&mut self, start: usize) -> usize {
        let k = self.rm_avail.len() - start;
        let positive: f64 = self.rm_avail[start..]
            .iter()
            .map(|&s| self.stats[s as usize].regret.max(0.0))
            .sum();
        let sigma = |regret: f64| {
            if positive > 0.0 {
                regret.max(0.0) / positive
            } else {
                1.0 / k as f64
            }
        };
        let gamma = REGRET_EXPLORATION;
        let mut x: f64 = self.rng.random();
        let (mut pick, mut probability) = (k - 1, 0.0);
        let mut drawn = false;
        for i in 0..k {
            let st = &mut self.stats[self.rm_avail[start + i] as usize];
            let s = sigma(st.regret);
            st.strategy += s;
            let q = gamma / k as f64 + (1.0 - gamma) * s;
            if !drawn && (x < q || i == k - 1) {
                // The last move takes what rounding leaves.
                (pick, probability, drawn) = (i, q, true);
            }
            x -= q;
        }
        self.rm_chosen.push(RegretDraw {
            stat: self.rm_avail[start + pick],
            probability,
            start: start as u32,
            end: self.rm_avail.len() as u32,
        });
        pick
    }
}
