//! Connect Four's knowledge against a naive reference: a grid of cells and a scan for four in
//! a row, on random positions.

use game_core::{
    Game, Player,
    knowledge::{PlayoutPolicy, Prior},
};
use games_connect4::{Column, Connect4, Threats, WinBlock};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The board as a grid, `grid[column][row]`, row 0 at the bottom.
fn grid(position: &Connect4) -> Vec<Vec<Option<Player>>> {
    (0..7)
        .map(|c| (0..6).map(|r| position.at(c, r)).collect())
        .collect()
}

/// Whether `player`'s stone at `(column, row)` would complete four in a row, by scanning.
fn completes_four(grid: &[Vec<Option<Player>>], player: Player, column: i32, row: i32) -> bool {
    let at = |c: i32, r: i32| {
        (0..7).contains(&c) && (0..6).contains(&r) && grid[c as usize][r as usize] == Some(player)
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
        let run = |sign: i32| {
            (1..4)
                .take_while(|&k| at(column + sign * k * dc, row + sign * k * dr))
                .count()
        };
        run(1) + run(-1) >= 3
    })
}

/// The lowest empty row of `column`, if any.
fn landing(grid: &[Vec<Option<Player>>], column: usize) -> Option<usize> {
    grid[column].iter().position(Option::is_none)
}

/// Random positions that are still going: up to 30 random moves from the start.
fn positions() -> impl Strategy<Value = Connect4> {
    (any::<u64>(), 0usize..30).prop_map(|(seed, moves)| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Connect4::new();
        for _ in 0..moves {
            let before = position.clone();
            match position.random_action(&mut rng) {
                Some(action) => position.play(action),
                None => break,
            }
            if position.status().is_over() {
                return before;
            }
        }
        position
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The policy takes a win when there is one, else blocks one, else avoids the columns that
    /// hand the opponent a win in the cell above (when it can).
    #[test]
    fn win_block_plays_what_the_reference_allows(position in positions(), seed in any::<u64>()) {
        let grid = grid(&position);
        let (me, them) = (position.to_move(), position.to_move().opponent());
        let open: Vec<usize> = (0..7).filter(|&c| landing(&grid, c).is_some()).collect();
        let wins_for = |player| -> Vec<usize> {
            open.iter()
                .copied()
                .filter(|&c| completes_four(&grid, player, c as i32, landing(&grid, c).unwrap() as i32))
                .collect()
        };
        let (wins, blocks) = (wins_for(me), wins_for(them));
        let safe: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| {
                let above = landing(&grid, c).unwrap() as i32 + 1;
                above >= 6 || !completes_four(&grid, them, c as i32, above)
            })
            .collect();
        let allowed = if !wins.is_empty() {
            wins
        } else if !blocks.is_empty() {
            blocks
        } else if !safe.is_empty() {
            safe
        } else {
            open
        };
        let action = WinBlock.action(&position, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        prop_assert!(
            allowed.contains(&usize::from(action.index())),
            "played {action}, allowed {allowed:?} in\n{position}"
        );
    }

    /// The prior gives a win, then a block, the most weight.
    #[test]
    fn the_prior_ranks_a_win_then_a_block_first(position in positions()) {
        let grid = grid(&position);
        let actions = position.legal_actions_vec();
        let mut weights = Vec::new();
        Threats.weigh(&position, &actions, &mut weights);
        prop_assert_eq!(weights.len(), actions.len());
        let wins = |player: Player, action: &Column| {
            let c = usize::from(action.index());
            completes_four(&grid, player, c as i32, landing(&grid, c).unwrap() as i32)
        };
        let best = actions[weights.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0];
        if actions.iter().any(|a| wins(position.to_move(), a)) {
            prop_assert!(wins(position.to_move(), &best));
        } else if actions.iter().any(|a| wins(position.to_move().opponent(), a)) {
            prop_assert!(wins(position.to_move().opponent(), &best));
        }
    }
}
