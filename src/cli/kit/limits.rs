//! The limits of a search, as every command that searches takes them:
//! `--time-limit` and `--max-nodes` read and checked, and the memo table's
//! share of the memory limit (`--max-memory`, for every command, in
//! `GameArgs`).

use crate::runtime::{Interpreted, State};
use crate::solve::SolveOptions;

/// The longest `--time-limit`: about 31 years, and far from where adding it
/// to the clock would overflow.
pub const MAX_SECONDS: f64 = 1e9;
/// The shortest `--time-limit`: the clock is read about once a millisecond.
pub const MIN_SECONDS: f64 = 0.001;

/// `--time-limit`: seconds from [`MIN_SECONDS`] to [`MAX_SECONDS`].
pub fn time_limit(text: &str) -> Result<f64, String> {
    seconds(text, MIN_SECONDS, MAX_SECONDS)
}

/// A number of seconds from `min` to `max`.
pub fn seconds(text: &str, min: f64, max: f64) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (min..=max).contains(&s) => Ok(s),
        _ => Err(format!("a number of seconds from {min} to {}", plain(max))),
    }
}

/// A whole number at least 1.
pub fn positive_count(text: &str) -> Result<u64, String> {
    count_in(text, 1, u64::MAX)
}

/// A whole number from `min` to `max`, written with digits (`1000000`) or,
/// when it is whole, as a decimal (`1e6`).
pub fn count_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let n = t.parse::<u64>().ok().or_else(|| {
        // 1e6, 2.5e3: whole numbers written as decimals, up to 2^53 where
        // every whole number is exact.
        let x: f64 = t.parse().ok()?;
        (x.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&x)).then_some(x as u64)
    });
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ if max == u64::MAX => Err(format!("a whole number, at least {min}")),
        _ => Err(format!("a whole number from {min} to {max}")),
    }
}

/// `1e9` as `1000000000`.
pub fn plain(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{}", x as i64)
    } else {
        x.to_string()
    }
}

/// The memo table's cap for `opts`: the tighter of `--max-states` (if any)
/// and the memory's share; and whether the memory's is the one that binds.
pub fn cap_memo(opts: &mut SolveOptions, root: &State, share: usize) -> bool {
    crate::solve::agents::budgeted::cap_memo::<Interpreted>(opts, root, share)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_digits_and_whole_decimals() {
        assert_eq!(count_in("1000", 1, u64::MAX), Ok(1000));
        assert_eq!(count_in("1e6", 1, u64::MAX), Ok(1_000_000));
        assert!(count_in("1.5", 1, u64::MAX).is_err());
        assert!(count_in("-1", 1, u64::MAX).is_err());
        assert!(count_in("0", 1, 10).is_err());
        assert!(count_in("1e300", 1, u64::MAX).is_err());
        assert_eq!(count_in("18446744073709551615", 1, u64::MAX), Ok(u64::MAX));
    }

    #[test]
    fn seconds_are_bounded_both_ways() {
        assert_eq!(time_limit("2"), Ok(2.0));
        for bad in ["0", "-1", "1e-300", "1e20", "nan", "inf", "x"] {
            assert!(time_limit(bad).is_err(), "{bad}");
        }
        assert_eq!(
            time_limit("1e20").unwrap_err(),
            "a number of seconds from 0.001 to 1000000000"
        );
    }
}
