//! [`TreeGame`]: a game tree written as text, for testing searches on trees whose answer can
//! be read off the page.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use crate::{Game, Outcome, Player, Status, mix64};

/// A game given by its whole tree, written as text: `B` is a finished game that Black won, `W`
/// one that White won, `=` a draw, and `(...)` a position whose moves lead to the nodes
/// inside, in order. Black moves at the root; every move passes the turn.
///
/// The moves of a position are its children's letters, `a` for the first: a search's answer
/// on a small literal is checked by reading the literal.
///
/// ```
/// use game_core::{Game, Outcome, Player, Status, testing::TreeGame};
///
/// // Black's first move loses (White then has a win); the second wins whatever White does.
/// let game: TreeGame = "((BW)(BB))".parse()?;
/// assert_eq!(game.legal_actions_vec().len(), 2);
/// let after = game.after("b".parse()?).after("a".parse()?);
/// assert_eq!(after.status(), Status::Over(Outcome::Win(Player::Black)));
/// assert_eq!(game.value(), Outcome::Win(Player::Black)); // minimax over the literal
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TreeGame {
    tree: Arc<Tree>,
    node: u32,
    to_move: Player,
}

/// The nodes of a literal, children stored contiguously.
#[derive(Debug, PartialEq, Eq)]
struct Tree {
    nodes: Vec<Node>,
    /// The most children of any node: the action space.
    widest: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Leaf(Outcome),
    /// Children `first..first + len`.
    Inner {
        first: u32,
        len: u32,
    },
}

/// A move of a [`TreeGame`]: the child to go to, by its place among its siblings. Written as a
/// letter, `a` for the first child.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Branch(pub u8);

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", char::from(b'a' + self.0))
    }
}

/// A text that is not a [`Branch`]: one lowercase letter.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{0:?} is not a branch: expected a letter a-z")]
pub struct ParseBranchError(pub String);

impl FromStr for Branch {
    type Err = ParseBranchError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            &[letter @ b'a'..=b'z'] => Ok(Branch(letter - b'a')),
            _ => Err(ParseBranchError(s.to_owned())),
        }
    }
}

/// A text that is not a game tree, and where it went wrong.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("bad game tree {input:?} at byte {at}: {reason}")]
pub struct ParseTreeError {
    /// The whole text.
    pub input: String,
    /// Where it went wrong.
    pub at: usize,
    /// What was wrong.
    pub reason: &'static str,
}

impl FromStr for TreeGame {
    type Err = ParseTreeError;

    /// Parses a literal such as `"(B(WB)=)"`; spaces are ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bytes: Vec<(usize, u8)> = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| !b.is_ascii_whitespace())
            .collect();
        let error = |at: usize, reason| ParseTreeError {
            input: text.to_owned(),
            at,
            reason,
        };
        // Each node's children as parsed, then laid out breadth first, children contiguous.
        let mut parsed: Vec<(Option<Outcome>, Vec<usize>)> = Vec::new();
        let mut at = 0;
        let root = parse_node(&bytes, &mut at, &mut parsed).map_err(|(i, r)| error(i, r))?;
        if let Some(&(i, _)) = bytes.get(at) {
            return Err(error(i, "text after the tree"));
        }
        let mut nodes = vec![Node::Leaf(Outcome::Draw)];
        let mut order = vec![root];
        let mut i = 0;
        while i < order.len() {
            nodes[i] = match &parsed[order[i]] {
                (Some(outcome), _) => Node::Leaf(*outcome),
                (None, children) => {
                    let first = order.len() as u32;
                    order.extend(children);
                    nodes.resize(order.len(), Node::Leaf(Outcome::Draw));
                    Node::Inner {
                        first,
                        len: children.len() as u32,
                    }
                }
            };
            i += 1;
        }
        let widest = parsed.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
        Ok(TreeGame {
            tree: Arc::new(Tree { nodes, widest }),
            node: 0,
            to_move: Player::Black,
        })
    }
}

/// Parses the node at `bytes[*at]` into `parsed`, returning its index there.
fn parse_node(
    bytes: &[(usize, u8)],
    at: &mut usize,
    parsed: &mut Vec<(Option<Outcome>, Vec<usize>)>,
) -> Result<usize, (usize, &'static str)> {
    let end = bytes.last().map_or(0, |&(i, _)| i + 1);
    let &(i, byte) = bytes.get(*at).ok_or((end, "the tree ends early"))?;
    *at += 1;
    let leaf = match byte {
        b'B' => Some(Outcome::Win(Player::Black)),
        b'W' => Some(Outcome::Win(Player::White)),
        b'=' => Some(Outcome::Draw),
        b'(' => None,
        _ => return Err((i, "expected B, W, = or (")),
    };
    if let Some(outcome) = leaf {
        parsed.push((Some(outcome), Vec::new()));
        return Ok(parsed.len() - 1);
    }
    let mut children = Vec::new();
    loop {
        match bytes.get(*at) {
            Some(&(_, b')')) => {
                *at += 1;
                break;
            }
            Some(_) => children.push(parse_node(bytes, at, parsed)?),
            None => return Err((end, "a ( is not closed")),
        }
    }
    if children.is_empty() {
        return Err((
            i,
            "a position without moves: write B, W or = for a finished game",
        ));
    }
    if children.len() > 26 {
        return Err((i, "more than 26 moves in one position"));
    }
    parsed.push((None, children));
    Ok(parsed.len() - 1)
}

impl TreeGame {
    /// The node's entry in the tree.
    fn entry(&self) -> Node {
        self.tree.nodes[self.node as usize]
    }

    /// The outcome with best play from here (plain minimax over the literal): what a solver
    /// must find.
    #[must_use]
    pub fn value(&self) -> Outcome {
        match self.entry() {
            Node::Leaf(outcome) => outcome,
            Node::Inner { len, .. } => (0..len as u8)
                .map(|k| self.after(Branch(k)).value())
                .max_by_key(|outcome| outcome.for_player(self.to_move))
                .expect("an inner node has children"),
        }
    }
}

impl PartialEq for TreeGame {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node && self.to_move == other.to_move && self.tree == other.tree
    }
}

impl Eq for TreeGame {}

impl fmt::Display for TreeGame {
    /// The subtree from this position, as a literal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entry() {
            Node::Leaf(Outcome::Win(Player::Black)) => f.write_str("B"),
            Node::Leaf(Outcome::Win(Player::White)) => f.write_str("W"),
            Node::Leaf(Outcome::Draw) => f.write_str("="),
            Node::Inner { len, .. } => {
                f.write_str("(")?;
                for k in 0..len as u8 {
                    self.after(Branch(k)).fmt(f)?;
                }
                f.write_str(")")
            }
        }
    }
}

impl Game for TreeGame {
    type Action = Branch;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn status(&self) -> Status {
        match self.entry() {
            Node::Leaf(outcome) => Status::Over(outcome),
            Node::Inner { .. } => Status::Ongoing,
        }
    }

    fn legal_actions<E: Extend<Branch>>(&self, out: &mut E) {
        if let Node::Inner { len, .. } = self.entry() {
            out.extend((0..len as u8).map(Branch));
        }
    }

    fn play_unchecked(&mut self, action: Branch) {
        if let Node::Inner { first, len } = self.entry()
            && u32::from(action.0) < len
        {
            self.node = first + u32::from(action.0);
            self.to_move = self.to_move.opponent();
        }
    }

    fn position_hash(&self) -> u64 {
        mix64(u64::from(self.node))
    }

    fn action_space(&self) -> Option<usize> {
        Some(self.tree.widest)
    }

    fn action_index(&self, action: Branch) -> usize {
        usize::from(action.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Conformance;

    #[test]
    fn literals_round_trip_and_pass_the_kit() {
        for text in ["B", "=", "(BW)", "((BW)(BB))", "(=(W(B=))W(BBB))"] {
            let game: TreeGame = text.parse().unwrap();
            assert_eq!(game.to_string(), text);
            Conformance::new().cases(16).assert(&game);
        }
    }

    #[test]
    fn values_are_minimax_over_the_literal() {
        let value = |text: &str| text.parse::<TreeGame>().unwrap().value();
        assert_eq!(value("(BW)"), Outcome::Win(Player::Black));
        assert_eq!(value("((BW)(WB))"), Outcome::Win(Player::White));
        assert_eq!(value("((BW)(=B))"), Outcome::Draw);
        assert_eq!(value("(W(BB))"), Outcome::Win(Player::Black));
    }

    #[test]
    fn bad_literals_say_where() {
        for (text, at) in [("", 0), ("(", 1), ("()", 0), ("(BX)", 2), ("(B))", 3)] {
            let error = text.parse::<TreeGame>().unwrap_err();
            assert_eq!(error.at, at, "{text}: {error}");
        }
    }
}
