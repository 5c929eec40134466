//! Hex's text for the tools, with its swap, its analyses and its solver.

use game_core::{Player, solve::Solve};
use games_hex::{Cell, Hex, Move};
use search::{Agent, AgentSpec, SpecError};

use super::{MoveError, SizeError, TextGame};

impl TextGame for Hex {
    // --- 1. Required ------------------------------------------------------------------------

    const NAME: &'static str = "hex";

    fn size_text(&self) -> String {
        format!("{0}x{0}", self.size())
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError> {
        let size = match *dimensions {
            [n] => n,
            [columns, rows] if columns == rows => columns,
            _ => {
                return Err(SizeError::Shape {
                    dimensions: dimensions.to_vec(),
                    expected: "one size, or two equal sizes (Hex boards here are square)",
                });
            }
        };
        let board = u8::try_from(size)
            .map_err(|_| games_hex::SizeError(size))
            .and_then(|size| {
                if self.swap_rule() {
                    Hex::with_swap(size)
                } else {
                    Hex::new(size)
                }
            });
        board.map_err(|e| SizeError::Refused {
            dimensions: dimensions.to_vec(),
            source: Box::new(e),
            restart: false,
        })
    }

    fn cleared(&self) -> Self {
        self.resized(&[u32::from(self.size())])
            .expect("the size of an existing board")
    }

    // --- 2. Tool text -----------------------------------------------------------------------

    fn why_won(&self, player: Player) -> Option<String> {
        self.connection(player).map(|c| c.to_string())
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let action: Move = text
            .trim()
            .parse()
            .map_err(|e| MoveError::Unreadable(Box::new(e)))?;
        self.check(action)
            .map_err(|e| MoveError::Refused(Box::new(e)))?;
        Ok(action)
    }

    // --- 3. Agents --------------------------------------------------------------------------

    /// RAVE (no exploration term) with the bridge-saving playouts, the learned shape prior as
    /// a progressive bias (which leaves the dead and captured cells out) and the virtual
    /// connections asked of nodes visited 200 times: 59.0% over 200 games on 9x9 and 68% over
    /// 100 on 11x11 (100 ms a move) against the same knowledge under UCT with PUCT
    /// (`uct:playout=game,prior=game,puct=3,examine=200`, the `best` before it, itself 95%
    /// against plain UCT on 11x11); `docs/journal/hex.md`.
    const BEST: &'static str = "rave:playout=game,prior=game,examine=200,c=0,bias=5";

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, |_: &Self| 0, games_hex::knowledge())
    }

    /// Up to 5x5 the brute-force solver (`games_hex::Solver`, 64 MiB table: 4x4 at once, 5x5
    /// within about a minute and a half), which proves the fastest win; on larger boards
    /// df-pn with virtual connections (`games_hex::Dfpn`, 64 MiB table), which reaches some
    /// 9x9 middle games in seconds.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(HexSolver {
            small: games_hex::Solver::with_table_bytes(64 << 20),
            large: games_hex::Dfpn::with_table_bytes(64 << 20),
        })
    }

    // --- 4. GTP hooks -----------------------------------------------------------------------

    fn swap_rule(&self) -> Option<bool> {
        Some(Hex::swap_rule(self))
    }

    fn with_swap_rule(&self, on: bool) -> Option<Self> {
        let size = self.size();
        let board = if on {
            Hex::with_swap(size)
        } else {
            Hex::new(size)
        };
        board.ok()
    }

    fn exchanges_colours(action: Move) -> bool {
        action == Move::Swap
    }

    fn exchanged(action: Move) -> Move {
        match action {
            Move::Place(cell) => Move::Place(cell.transposed()),
            Move::Swap => Move::Swap,
        }
    }

    fn to_string_exchanged(&self) -> String {
        Hex::to_string_exchanged(self)
    }

    /// What the fill-in and the virtual connections find for the player to move
    /// ([`Hex::inferior_cells`], [`Hex::proven_moves`]).
    const ANALYSES: &'static [(&'static str, &'static str)] = &[
        ("hex-winning", "Winning moves (virtual connections)"),
        ("hex-losing", "Losing moves (virtual connections)"),
        ("hex-finishing", "Moves that close a won connection"),
        ("hex-inferior", "Inferior cells (dead, captured, dominated)"),
        ("hex-dead", "Dead cells"),
        ("hex-captured", "Captured cells (both players)"),
    ];

    fn analyse(&self, command: &str) -> Option<Vec<Move>> {
        // Several lists as one, in board order.
        let merged = |lists: &[&[Cell]]| {
            let mut cells = lists.concat();
            cells.sort_unstable_by_key(|c| (c.row(), c.column()));
            cells
        };
        let cells = match command {
            "hex-winning" => self.proven_moves().winning,
            "hex-losing" => self.proven_moves().losing,
            "hex-finishing" => self.proven_moves().finishing,
            "hex-inferior" => {
                let found = self.inferior_cells();
                merged(&[&found.dead, &found.black, &found.white, &found.dominated])
            }
            "hex-dead" => self.inferior_cells().dead,
            "hex-captured" => {
                let found = self.inferior_cells();
                merged(&[&found.black, &found.white])
            }
            _ => return None,
        };
        Some(cells.into_iter().map(Move::Place).collect())
    }

    // --- 5. Web drawing ---------------------------------------------------------------------

    /// Row 1 at the top, column a on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        let n = self.size();
        (0..n)
            .map(|row| {
                (0..n)
                    .map(|column| self.at(Cell::new(column, row)))
                    .collect()
            })
            .collect()
    }
}

/// Hex's solver for the tools: by the board's size, [`games_hex::Solver`] (up to 5x5) or
/// [`games_hex::Dfpn`].
struct HexSolver {
    small: games_hex::Solver,
    large: games_hex::Dfpn,
}

impl HexSolver {
    /// The solver for `position`'s board, by games-hex's rule ([`games_hex::Solver::handles`]).
    fn pick(&mut self, position: &Hex) -> &mut dyn Solve<Hex> {
        if games_hex::Solver::handles(position.size()) {
            &mut self.small
        } else {
            &mut self.large
        }
    }
}

impl Solve<Hex> for HexSolver {
    fn prove(
        &mut self,
        position: &Hex,
        deadline: Option<std::time::Instant>,
    ) -> Option<game_core::solve::Proven> {
        self.pick(position).prove(position, deadline)
    }

    fn nodes(&self) -> u64 {
        self.small.nodes() + self.large.nodes()
    }

    fn solve(
        &mut self,
        position: &Hex,
        deadline: Option<std::time::Instant>,
    ) -> game_core::solve::Solution<Move> {
        self.pick(position).solve(position, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_moves_are_explained() {
        let hex = Hex::new(5).unwrap().after_moves("c3").unwrap();
        assert_eq!(
            hex.parse_move("c3").unwrap_err().to_string(),
            "c3 is occupied"
        );
        let error = hex.parse_move("z9").unwrap_err();
        assert!(matches!(error, MoveError::Unreadable(_)), "{error:?}");
        assert!(error.to_string().contains("not a Hex move"));
        assert!(
            hex.parse_move("f1")
                .unwrap_err()
                .to_string()
                .contains("off the 5x5 board")
        );
        assert!(
            hex.parse_move("swap")
                .unwrap_err()
                .to_string()
                .contains("swap is only allowed")
        );
    }

    #[test]
    fn sizes_change_within_what_the_type_allows() {
        let hex = Hex::with_swap(11).unwrap();
        let small = hex.resized(&[7]).unwrap();
        assert_eq!((small.size(), small.swap_rule()), (7, true));
        assert_eq!(hex.resized(&[9, 9]).unwrap().size(), 9);
        let error = hex.resized(&[9, 7]).unwrap_err();
        assert!(matches!(error, SizeError::Shape { .. }), "{error:?}");
        assert_eq!(error.dimensions(), [9, 7]);
        assert!(
            hex.resized(&[20])
                .unwrap_err()
                .to_string()
                .contains("19x19")
        );
    }

    /// The `play` tool's legend names the marks the board is drawn with.
    #[test]
    fn the_marks_are_the_drawings() {
        let drawing = Hex::new(3)
            .unwrap()
            .after_moves("a1 b2")
            .unwrap()
            .to_string();
        let [black, white] = Hex::MARKS;
        assert!(
            drawing.contains(black) && drawing.contains(white),
            "{drawing}"
        );
    }

    #[test]
    fn final_scores_name_the_winner() {
        let hex = Hex::new(2).unwrap().after_moves("a1 b1 a2").unwrap();
        assert_eq!(hex.final_score().as_deref(), Some("B+"));
        assert_eq!(Hex::new(2).unwrap().final_score(), None);
    }

    /// The `solver` agent on 9x9 Hex (df-pn) plays a proven win that our engine missed in a
    /// game against MoHex 2.0 (`scripts/data/hex-9x9-missed-wins.txt`: Black wins by c3, i4,
    /// g6 or g7), and says it is proven.
    #[test]
    fn the_hex_solver_agent_plays_a_proven_win_on_9x9() {
        let moves = "a5 e5 d6 d5 b6 b7 c6 d7 c7 b9 c8 c9 d8 f7 e9 b5 c5 d3 h2 g3 h3 e6 f6 e7 d4 e3";
        let position = Hex::new(9).unwrap().after_moves(moves).unwrap();
        // The proof takes df-pn 159 nodes, 0.16 s at opt-level=1: the 20 s are a hundredfold
        // margin, and a proof grown costly fails the bound on nodes, not the clock.
        let spec: AgentSpec = "solver:time=20s,fallback=uct,share=1".parse().unwrap();
        let mut agent = Hex::agent(&spec, 1).unwrap();
        let action = agent.choose(&position, &spec.budget()).unwrap().to_string();
        assert!(
            ["c3", "i4", "g6", "g7"].contains(&action.as_str()),
            "{action}"
        );
        let proven = agent.report().unwrap().proven.unwrap();
        assert_eq!(proven.outcome, game_core::Wdl::Win);
        let nodes = agent.report().unwrap().nodes;
        assert!(nodes < 2_000, "{nodes} nodes");
    }
}
