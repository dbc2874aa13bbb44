//! Tree reuse between the moves of one game: the root moves down to the
//! position the game reached, keeping the subtree below it.

use super::*;

impl<G: Game> Search<G> {
    /// Moves the root to the node below it whose position is `state`, if
    /// one within a few moves is, keeping that subtree and dropping the
    /// rest; false (the tree unchanged) otherwise.
    pub fn advance_to(&mut self, game: &G, state: &G::State, player: Player) -> Result<bool, GameError> {
        // Under a repetition rule a node's subtree holds for the line that
        // led to it, and the game may have reached the position by another.
        if self.determinized || player != self.player || self.full || self.repeated.is_some() {
            return Ok(false);
        }
        if *state == self.root_state {
            return Ok(true);
        }
        // Depth-first to a few plies, replaying the moves from the root.
        let mut stack: Vec<(u32, G::State, usize)> = vec![(0, self.root_state.clone(), 0)];
        let mut found = NONE;
        while let Some((n, s, depth)) = stack.pop() {
            if depth >= 4 {
                continue;
            }
            let mut c = self.child_after(n as usize, NONE);
            while c != NONE {
                if self.nodes[c as usize].visits > 0 {
                    let mut t = s.clone();
                    let node = &self.nodes[c as usize];
                    match &node.mv {
                        Some(mv) => game.apply(&mut t, mv)?,
                        None => {
                            let at = node.joint as usize;
                            game.apply_joint(&mut t, &self.joints[at..at + self.np])?;
                        }
                    }
                    if t == *state {
                        found = c;
                        break;
                    }
                    stack.push((c, t, depth + 1));
                }
                c = self.child_after(n as usize, c);
            }
            if found != NONE {
                break;
            }
        }
        if found == NONE {
            return Ok(false);
        }
        self.reroot(found);
        self.root_state = state.clone();
        self.simulations = 0;
        Ok(true)
    }

    /// Keeps only the subtree of `top`, renumbered from 0.
    fn reroot(&mut self, top: u32) {
        let np = self.np;
        let mut nodes: Vec<Node<G::Move>> = Vec::new();
        let mut sums = Vec::new();
        let mut joints = Vec::new();
        let mut stats = Vec::new();
        // (old index, new parent); children are copied in the order met.
        let mut queue = std::collections::VecDeque::from([(top, NONE)]);
        while let Some((old, parent)) = queue.pop_front() {
            let new = nodes.len() as u32;
            let o = &self.nodes[old as usize];
            let mut node = o.clone();
            node.parent = parent;
            node.first_child = NONE;
            node.block = 0;
            node.extra = NONE;
            node.next_sibling = NONE;
            if parent == NONE {
                node.mv = None;
                node.joint = NONE;
            } else if o.mv.is_none() {
                let at = o.joint as usize;
                node.joint = joints.len() as u32;
                joints.extend(self.joints[at..at + np].iter().cloned());
            }
            // The decoupled statistics, in their order.
            let mut s = o.stats;
            let mut copied = Vec::new();
            while s != NONE {
                copied.push(self.stats[s as usize].clone());
                s = self.stats[s as usize].next;
            }
            node.stats = NONE;
            for mut st in copied.into_iter().rev() {
                st.next = node.stats;
                node.stats = stats.len() as u32;
                stats.push(st);
            }
            nodes.push(node);
            sums.extend_from_slice(&self.sums[old as usize * np..old as usize * np + np]);
            let first_block = nodes.len() as u32 + queue.len() as u32;
            let mut count = 0u32;
            let mut c = self.child_after(old as usize, NONE);
            let mut in_block = o.block;
            let mut extras = Vec::new();
            while c != NONE {
                if in_block > 0 {
                    queue.push_back((c, new));
                    count += 1;
                    in_block -= 1;
                } else {
                    extras.push(c);
                }
                c = self.child_after(old as usize, c);
            }
            if count > 0 {
                nodes[new as usize].first_child = first_block;
                nodes[new as usize].block = count;
            }
            for c in extras {
                queue.push_back((c, new | EXTRA_FLAG));
            }
        }
        // Extra children were queued with a flag on their parent: link them now.
        for i in 0..nodes.len() {
            let parent = nodes[i].parent;
            if parent != NONE && parent & EXTRA_FLAG != 0 {
                let p = (parent & !EXTRA_FLAG) as usize;
                nodes[i].parent = p as u32;
                nodes[i].next_sibling = nodes[p].extra;
                nodes[p].extra = i as u32;
            }
        }
        self.nodes = nodes;
        self.sums = sums;
        self.joints = joints;
        self.stats = stats;
        // The root keeps only what its children prove (see `bounds_from_children`).
        let (lo, hi) = self.bounds_from_children(0).unwrap_or(self.range);
        self.nodes[0].lo = lo;
        self.nodes[0].hi = hi;
    }
}
