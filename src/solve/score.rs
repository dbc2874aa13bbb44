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
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(crate) struct Score {
    pub(crate) value: f64,
    pub(crate) key: i64,
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
}

#[cfg(test)]
mod tests {
    use super::Score;

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
