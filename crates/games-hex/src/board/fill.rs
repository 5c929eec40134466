//! Hex's random playout: fill the board at random, then find the winner once.

use game_core::{Game, Outcome, PlayedActions, Player, Playout};
use rand::{Rng, RngExt};

use super::HexBoard;
use crate::bits::Bits;

impl<const W: usize> HexBoard<W> {
    /// Fill and check: the empty cells go to the two players at random (the player to move
    /// gets the odd one), then one flood tells who connects.
    ///
    /// This gives each player exactly the winning chances of uniform random play to the end.
    /// Playing on after a win changes nothing: a stone never breaks a connection, and on a full
    /// board exactly one player connects (Hex has no draws). And the cells that uniform random
    /// play gives each player, played to the full board, are a uniformly random split of the
    /// empty cells with the mover getting half rounded up: which is what is drawn here. While
    /// the swap is still available, the first move is drawn like any random move (the swap
    /// among the cells) before the fill. `plies` counts the filled cells, as if the game had
    /// been played to the full board.
    pub(super) fn fill_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        let plies = match self.open_playout(rng, None) {
            Ok(plies) => plies,
            Err(decided) => return decided,
        };
        let empty = self.empty();
        let cells = empty.count();
        let mine = cells.div_ceil(2);
        // A uniformly random subset of `mine` empty cells: each cell with probability 1/2,
        // then random cells out or in until the count is right. Given its size, the first
        // subset is uniform, and removing (adding) uniformly chosen cells keeps it so.
        let mut subset = Bits(std::array::from_fn(|i| rng.next_u64() & empty.0[i]));
        let mut count = subset.count();
        while count > mine {
            let drop = subset.nth(rng.random_range(0..count));
            subset.0[drop / 64] &= !(1 << (drop % 64));
            count -= 1;
        }
        while count < mine {
            let rest = empty & !subset;
            let add = rest.nth(rng.random_range(0..cells - count));
            subset.0[add / 64] |= 1 << (add % 64);
            count += 1;
        }
        let mover = self.to_move.index();
        self.stones[mover] |= subset;
        self.stones[1 - mover] |= empty & !subset;
        let winner = self.full_board_winner();
        self.winner = Some(winner);
        self.plies += cells as u16;
        if cells % 2 == 1 {
            self.to_move = self.to_move.opponent();
        }
        Playout {
            outcome: Outcome::Win(winner),
            plies: plies + cells,
        }
    }

    /// The fill of [`fill_playout`](Self::fill_playout), marking afterwards the cells each
    /// player filled: the board's bits are the cells' action numbers, so a few words at a time.
    /// The first move is played and marked alone when it may be the swap.
    pub(super) fn fill_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let plies = match self.open_playout(rng, Some(played)) {
            Ok(plies) => plies,
            Err(decided) => return decided,
        };
        let empty = self.empty();
        let playout = self.fill_playout(rng);
        for player in Player::BOTH {
            let filled = self.stones[player.index()] & empty;
            let words = played.words_mut(player);
            debug_assert!(
                words.len() * 64 >= usize::from(self.n).pow(2),
                "room for every cell"
            );
            for (word, bits) in words.iter_mut().zip(filled.0) {
                *word |= bits;
            }
        }
        Playout {
            outcome: playout.outcome,
            plies: plies + playout.plies,
        }
    }

    /// The start of every playout: while the swap is available, the first move is drawn like
    /// any random move (the swap among the cells) and marked in `played` if given. Returns the
    /// plies played (0 or 1), or the finished playout when the game is already decided.
    pub(super) fn open_playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: Option<&mut PlayedActions>,
    ) -> Result<u32, Playout> {
        let mut plies = 0;
        if self.swap_available() {
            let first = self.random_action(rng).expect("the game is on");
            if let Some(played) = played {
                played.insert(self.to_move, self.action_index(first));
            }
            self.play_unchecked(first);
            plies = 1;
        }
        match self.winner {
            Some(winner) => Err(Playout {
                outcome: Outcome::Win(winner),
                plies,
            }),
            None => Ok(plies),
        }
    }
}
