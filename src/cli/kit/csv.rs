//! The one CSV writer of the commands (match, league, tournament, solve
//! sweeps): a line of cells, each quoted where it needs it (RFC 4180). No
//! crate for it: every table gdl writes is a line of short strings.

/// A CSV line, quoting the cells that need it.
pub fn csv_line<S: AsRef<str>>(cells: &[S]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|c| {
            let c = c.as_ref();
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("{}\n", quoted.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_cells_that_need_it_are_quoted() {
        assert_eq!(csv_line(&["a", "b c", "1"]), "a,b c,1\n");
        assert_eq!(
            csv_line(&["x,y", "say \"hi\"", "two\nlines", "cr\r"]),
            "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n"
        );
    }
}
