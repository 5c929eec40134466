//! The two players.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the two players of a game.
///
/// Every game in this library calls its first player [`Black`](Player::Black) and its second
/// [`White`](Player::White), as the Go Text Protocol does for every game: Black moves first in
/// Hex, Othello, Connect Four and tic-tac-toe alike.
///
/// ```
/// use game_core::Player;
///
/// assert_eq!(Player::Black.opponent(), Player::White);
/// assert_eq!("w".parse::<Player>(), Ok(Player::White));
/// assert_eq!(Player::White.to_string(), "white");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Player {
    /// The player who moves first.
    Black,
    /// The player who moves second.
    White,
}

impl Player {
    /// Both players, in move order.
    pub const BOTH: [Player; 2] = [Player::Black, Player::White];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// `0` for Black, `1` for White: an index into per-player arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for Black, `-1` for White.
    #[inline]
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Player::Black => 1,
            Player::White => -1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Black => "black",
            Player::White => "white",
        })
    }
}

/// The error of [`Player::from_str`]: the text named no player.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown player {0:?}: expected black, white, b or w")]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// Parses `black`, `white`, `b` or `w` in any case, as GTP colours are written.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Player::Black),
            "white" | "w" => Ok(Player::White),
            _ => Err(ParsePlayerError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution_and_indices_are_distinct() {
        for p in Player::BOTH {
            assert_eq!(p.opponent().opponent(), p);
            assert_ne!(p.opponent().index(), p.index());
            assert_eq!(p.sign(), -p.opponent().sign());
        }
    }

    #[test]
    fn parses_gtp_colours_and_rejects_others() {
        for (text, p) in [
            ("BLACK", Player::Black),
            ("b", Player::Black),
            ("White", Player::White),
        ] {
            assert_eq!(text.parse::<Player>(), Ok(p));
        }
        assert_eq!("red".parse::<Player>(), Err(ParsePlayerError("red".into())));
        for p in Player::BOTH {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
    }
}
