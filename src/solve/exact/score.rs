//! `Score`: a value from player 0's point of view, with an optional
//! preference for short wins and long losses folded in.

/// What a search returns for a position: player 0's utility under optimal
/// play, then a tie-break on the distance to the end of the game.
///
/// Scores compare lexicographically, `value` first. `key` is zero unless
/// the search prefers short games (seed Extension A); then it is
/// `-plies` when player 0 wins (`value > 0`: a faster win is larger, so
/// player 0, who maximizes, prefers it and player 1 delays it), `+plies`
/// when player 0 loses (a slower loss is larger), and zero for a draw.
/// The distance is counted from the position the score belongs to, not
/// from the root, so a memo entry stays valid wherever the position recurs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Score {
    pub(crate) value: f64,
    pub(crate) key: i64,
}

/// Lexicographic, `value` first. The comparisons are written out: the search
/// makes several per node, and the derived ones go through `partial_cmp`.
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        match self.value.partial_cmp(&other.value)? {
            std::cmp::Ordering::Equal => Some(self.key.cmp(&other.key)),
            unequal => Some(unequal),
        }
    }

    #[inline]
    fn lt(&self, other: &Score) -> bool {
        self.value < other.value || (self.value == other.value && self.key < other.key)
    }

    #[inline]
    fn le(&self, other: &Score) -> bool {
        self.value < other.value || (self.value == other.value && self.key <= other.key)
    }

    #[inline]
    fn gt(&self, other: &Score) -> bool {
        other.lt(self)
    }

    #[inline]
    fn ge(&self, other: &Score) -> bool {
        other.le(self)
    }
}

impl Score {
    /// Below every real score.
    pub(crate) const MIN: Score = Score {
        value: f64::NEG_INFINITY,
        key: i64::MIN / 2,
    };
    /// Above every real score.
    pub(crate) const MAX: Score = Score {
        value: f64::INFINITY,
        key: i64::MAX / 2,
    };

    /// The score of a terminal position worth `value` to player 0.
    pub(crate) fn terminal(value: f64) -> Score {
        // `+ 0.0` turns -0.0 into 0.0, so a draw is a draw however it was computed.
        Score {
            value: value + 0.0,
            key: 0,
        }
    }

    /// A child's score seen from its parent: one ply further from the end.
    /// A strictly increasing bijection, so it maps search windows too.
    pub(crate) fn up(self, prefer_short: bool) -> Score {
        if !prefer_short {
            self
        } else if self.value > 0.0 {
            Score {
                key: self.key - 1,
                ..self
            }
        } else if self.value < 0.0 {
            Score {
                key: self.key + 1,
                ..self
            }
        } else {
            self
        }
    }

    /// The inverse of [`Score::up`]: a parent's score (or window bound) seen from a child.
    pub(crate) fn down(self, prefer_short: bool) -> Score {
        if !prefer_short {
            self
        } else if self.value > 0.0 {
            Score {
                key: self.key + 1,
                ..self
            }
        } else if self.value < 0.0 {
            Score {
                key: self.key - 1,
                ..self
            }
        } else {
            self
        }
    }

    /// The largest bound below `self`: no real score lies strictly between
    /// them, because real keys are integers.
    pub(crate) fn just_below(self) -> Score {
        Score {
            key: self.key - 1,
            ..self
        }
    }

    /// The smallest bound above `self`.
    pub(crate) fn just_above(self) -> Score {
        Score {
            key: self.key + 1,
            ..self
        }
    }

    /// Whether the player to move prefers `a` to `b`: player 0 maximizes, player 1 minimizes.
    pub(crate) fn better(maximize: bool, a: Score, b: Score) -> bool {
        if maximize { a > b } else { a < b }
    }

    /// The larger of two scores.
    pub(crate) fn max(self, other: Score) -> Score {
        if other > self { other } else { self }
    }

    /// The smaller of two scores.
    pub(crate) fn min(self, other: Score) -> Score {
        if other < self { other } else { self }
    }

    /// The highest score a position with moves can have when no utility
    /// exceeds `hi`: winning on the next move, when short wins are preferred
    /// (above a loss, a longer one is always better: no limit then).
    pub(crate) fn top_with_moves(hi: f64, prefer_short: bool) -> Score {
        if !prefer_short || hi == 0.0 {
            Score::terminal(hi)
        } else if hi > 0.0 {
            Score::terminal(hi).up(true)
        } else {
            Score::MAX
        }
    }

    /// The lowest score a position with moves can have when no utility is
    /// below `lo`: the mirror of [`Score::top_with_moves`].
    pub(crate) fn bottom_with_moves(lo: f64, prefer_short: bool) -> Score {
        if !prefer_short || lo == 0.0 {
            Score::terminal(lo)
        } else if lo < 0.0 {
            Score::terminal(lo).up(true)
        } else {
            Score::MIN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn comparisons_agree_with_the_ordering() {
        let scores = [
            Score::MIN,
            Score { value: -1.0, key: 3 },
            Score { value: -1.0, key: 4 },
            Score::terminal(0.0),
            Score { value: 0.5, key: -2 },
            Score { value: 1.0, key: -1 },
            Score::terminal(1.0),
            Score::MAX,
        ];
        for (i, a) in scores.iter().enumerate() {
            for (j, b) in scores.iter().enumerate() {
                assert_eq!(a.partial_cmp(b), Some(i.cmp(&j)), "{a:?} {b:?}");
                assert_eq!((a < b, a <= b, a > b, a >= b), (i < j, i <= j, i > j, i >= j));
            }
        }
    }

    #[test]
    fn up_and_down_are_inverse_and_monotone() {
        let scores = [
            Score::terminal(1.0),
            Score { value: 1.0, key: -3 },
            Score { value: -1.0, key: 4 },
            Score::terminal(0.0),
            Score { value: 0.0, key: -1 },
        ];
        for &a in &scores {
            assert_eq!(a.up(true).down(true), a);
            assert_eq!(a.up(false), a);
            for &b in &scores {
                assert_eq!(a < b, a.up(true) < b.up(true), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn no_position_with_moves_scores_past_its_limits() {
        let after = |s: Score, n: usize| (0..n).fold(s, |s, _| s.up(true));
        for ps in [false, true] {
            let (top, bottom) = (Score::top_with_moves(2.0, ps), Score::bottom_with_moves(-3.0, ps));
            for v in [-3.0, -1.0, 0.0, 2.0] {
                for n in 1..4 {
                    let s = if ps {
                        after(Score::terminal(v), n)
                    } else {
                        Score::terminal(v)
                    };
                    assert!(bottom <= s && s <= top, "{s:?}");
                }
            }
            assert_eq!(top, after(Score::terminal(2.0), usize::from(ps)));
            assert_eq!(bottom, after(Score::terminal(-3.0), usize::from(ps)));
        }
        assert_eq!(Score::top_with_moves(-1.0, true), Score::MAX);
        assert_eq!(Score::bottom_with_moves(0.0, true), Score::terminal(0.0));
    }

    #[test]
    fn short_wins_and_long_losses_are_preferred() {
        let win_in = |n: i64| (0..n).fold(Score::terminal(1.0), |s, _| s.up(true));
        let lose_in = |n: i64| (0..n).fold(Score::terminal(-1.0), |s, _| s.up(true));
        assert!(win_in(1) > win_in(3));
        assert!(lose_in(5) > lose_in(3));
        assert!(lose_in(9) < win_in(9));
        assert_eq!(Score::terminal(-0.0), Score::terminal(0.0));
        assert!(Score::MIN < lose_in(100) && win_in(0) < Score::MAX);
    }
}
