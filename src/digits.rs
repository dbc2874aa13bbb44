//! Numbers as people read them in gdl's messages and reports.

/// A count with thousands separated: `8,339,730`. One copy for every
/// stage: the file reader's limits, the compiler's, the reports.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(8902u64), "8,902");
        assert_eq!(thousands(119_060_324u64), "119,060,324");
        assert_eq!(thousands(u128::from(u64::MAX) + 1), "18,446,744,073,709,551,616");
    }
}
