//! [`Table`]: rows written once, shown as aligned text and saved as CSV.

use std::fmt::{self, Display, Write as _};

/// A table of results: a header and rows of cells, each cell text as it will appear. The same
/// rows give the CSV file ([`to_csv`](Table::to_csv)) and the text a tool prints
/// ([`Display`]), so the two never disagree.
///
/// ```
/// use arena::Table;
///
/// let mut table = Table::new(["agent", "games", "score"]);
/// table.row(["uct", "200", "0.6150"]);
/// table.row(["mc, flat", "200", "0.3850"]);
/// assert_eq!(table.to_csv(), "agent,games,score\nuct,200,0.6150\n\"mc, flat\",200,0.3850\n");
/// assert_eq!(
///     table.to_string(),
///     "agent     games   score\nuct         200  0.6150\nmc, flat    200  0.3850\n"
/// );
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names and no rows.
    pub fn new<S: Display>(header: impl IntoIterator<Item = S>) -> Self {
        Table {
            header: header.into_iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row, one cell per column (missing cells are empty, extra ones are kept).
    pub fn row<S: Display>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows
            .push(cells.into_iter().map(|s| s.to_string()).collect());
    }

    /// The rows so far.
    #[must_use]
    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }

    /// The table as CSV (RFC 4180): the header, then a line per row; a cell with a comma, a
    /// quote or a line break is quoted.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut csv = String::new();
        for line in std::iter::once(&self.header).chain(&self.rows) {
            let cells: Vec<String> = line.iter().map(|cell| csv_cell(cell)).collect();
            csv.push_str(&cells.join(","));
            csv.push('\n');
        }
        csv
    }
}

/// One CSV cell, quoted when it must be.
fn csv_cell(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_owned()
    }
}

impl Display for Table {
    /// The table as aligned text: two spaces between columns, numbers to the right, other text
    /// to the left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let columns = std::iter::once(&self.header)
            .chain(&self.rows)
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let width = |c: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .filter_map(|line| line.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        // A column is numeric when every row's cell in it is a number.
        let numeric: Vec<bool> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|row| row.get(c))
                    .all(|cell| cell.parse::<f64>().is_ok())
            })
            .collect();
        for line in std::iter::once(&self.header).chain(&self.rows) {
            let mut text = String::new();
            for (c, &w) in widths.iter().enumerate() {
                let cell = line.get(c).map_or("", String::as_str);
                if c > 0 {
                    text.push_str("  ");
                }
                if numeric[c] {
                    let _ = write!(text, "{cell:>w$}");
                } else {
                    let _ = write!(text, "{cell:<w$}");
                }
            }
            writeln!(f, "{}", text.trim_end())?;
        }
        Ok(())
    }
}
