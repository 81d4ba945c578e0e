//! Plain-text tables with columns sized to their contents.

/// How a column's cells are aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text: padded on the right.
    Left,
    /// Numbers: padded on the left.
    Right,
}

/// A table: a header row and body rows, rendered with two spaces between columns.
#[derive(Debug)]
pub struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers and alignments.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = (S, Align)>) -> Self {
        let (headers, align) = columns.into_iter().map(|(h, a)| (h.into(), a)).unzip();
        Table {
            headers,
            align,
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing trailing cells are left empty.
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert!(cells.len() <= self.headers.len());
        self.rows.push(cells);
    }

    /// The table as text, one line per row (header first), each ending in a newline and
    /// without trailing spaces.
    pub fn render(&self) -> String {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            let mut line = String::new();
            for (i, (&w, &align)) in widths.iter().zip(&self.align).enumerate() {
                let cell = row.get(i).map(String::as_str).unwrap_or("");
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = w - cell.chars().count();
                match align {
                    Align::Left => {
                        line.push_str(cell);
                        line.extend(std::iter::repeat_n(' ', pad));
                    }
                    Align::Right => {
                        line.extend(std::iter::repeat_n(' ', pad));
                        line.push_str(cell);
                    }
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_aligned() {
        let mut t = Table::new([("name", Align::Left), ("n", Align::Right)]);
        t.row(vec!["a".into(), "1234".into()]);
        t.row(vec!["long name".into(), "5".into()]);
        assert_eq!(
            t.render(),
            "name          n\na          1234\nlong name     5\n"
        );
    }
}
