//! The game clock of a GTP session (`time_settings`, `time_left`) and how much of it a move
//! may use.

use std::time::Duration;

use game_core::{Game, Player};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Canadian byo-yomi as GTP's `time_settings` sets it: `main` time, then `stones` moves in
/// every period of `byo_yomi` (no periods when `stones` is 0); and what `time_left` says each
/// player has left (or what the engine has counted itself since).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Clock {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
    /// Per player (by [`Player::index`]): time left, and stones left in the current period
    /// (0 while in main time).
    left: [(Duration, u32); 2],
}

/// What a move may use: `base` for a normal move, up to `most` when the search is unsure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Allotment {
    pub(crate) base: Duration,
    pub(crate) most: Duration,
}

/// What is always kept back: the time a move takes to travel, to start the search and to stop
/// it (a search checks its clock every few iterations), and the controller's own rounding.
const OVERHEAD: Duration = Duration::from_millis(60);

/// Reads a number of seconds as GTP writes them (whole, or with a fraction).
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{text:?} is not a number of seconds"))
}

/// Reads a count of stones.
fn stones(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a number of stones"))
}

impl Clock {
    /// The clock of `time_settings MAIN BYO_YOMI STONES`; `None` for no time limit (GTP's
    /// `byo_yomi > 0` with 0 stones, or all three 0).
    pub(crate) fn from_settings(arguments: &[&str]) -> Result<Option<Clock>, String> {
        let [main, byo_yomi, count] = arguments else {
            return Err(
                "time_settings takes main time, byo-yomi time and stones, as in `time_settings 300 0 0`"
                    .to_owned(),
            );
        };
        let (main, byo_yomi, count) = (seconds(main)?, seconds(byo_yomi)?, stones(count)?);
        let unlimited = (byo_yomi > Duration::ZERO && count == 0)
            || (main.is_zero() && byo_yomi.is_zero() && count == 0);
        if unlimited {
            return Ok(None);
        }
        let mut clock = Clock {
            main,
            byo_yomi,
            stones: count,
            left: [(Duration::ZERO, 0); 2],
        };
        clock.restart();
        Ok(Some(clock))
    }

    /// Both players' full time again, for a new game.
    pub(crate) fn restart(&mut self) {
        let start = if self.main.is_zero() {
            (self.byo_yomi, self.stones)
        } else {
            (self.main, 0)
        };
        self.left = [start; 2];
    }

    /// `time_left COLOR TIME STONES` for `player`.
    pub(crate) fn set_left(&mut self, player: Player, arguments: &[&str]) -> Result<(), String> {
        let [time, count] = arguments else {
            return Err("time_left takes a colour, seconds and stones".to_owned());
        };
        self.left[player.index()] = (seconds(time)?, stones(count)?);
        Ok(())
    }

    /// Counts `used` on `player`'s clock (for controllers that do not send `time_left`):
    /// main time first, then byo-yomi periods.
    pub(crate) fn spend(&mut self, player: Player, used: Duration) {
        let (time, count) = &mut self.left[player.index()];
        if *count == 0 {
            match time.checked_sub(used) {
                Some(rest) => *time = rest,
                None if self.stones > 0 => {
                    // Main time ran out: into the first period.
                    *time = self.byo_yomi.saturating_sub(used - *time);
                    *count = self.stones - 1;
                    if *count == 0 {
                        (*time, *count) = (self.byo_yomi, self.stones);
                    }
                }
                None => *time = Duration::ZERO,
            }
        } else {
            *time = time.saturating_sub(used);
            *count -= 1;
            if *count == 0 {
                // A period is done: the next starts full.
                (*time, *count) = (self.byo_yomi, self.stones);
            }
        }
    }

    /// What `player`'s next move may use, with about `moves_to_go` of its moves left in the
    /// game: in main time an even share of what is left (a period's worth more when periods
    /// follow), in a period an even share of the period; never more than what is left after
    /// the overhead, and a quarter of it when the search is unsure.
    pub(crate) fn allot(&self, player: Player, moves_to_go: u32) -> Allotment {
        let (time, count) = self.left[player.index()];
        let usable = time.saturating_sub(OVERHEAD + time / 20);
        let (base, most) = if count > 0 {
            let base = usable / count;
            (base, if count > 1 { usable / 2 } else { base })
        } else {
            let moves = moves_to_go.max(8);
            let period = if self.stones > 0 {
                self.byo_yomi / self.stones
            } else {
                Duration::ZERO
            };
            let base = usable / moves + period.saturating_sub(OVERHEAD) / 2;
            (base.min(usable), usable / 4)
        };
        let floor = Duration::from_millis(1);
        Allotment {
            base: base.max(floor),
            most: most.max(base).max(floor),
        }
    }
}

/// About how many moves the player to move in `position` still has to make: half the plies of
/// a few random playouts from it (at least 1). Generic over every game; random games end
/// sooner than real ones in some games (Connect Four), which [`Clock::allot`]'s floor of
/// moves allows for.
pub(crate) fn moves_to_go<G: Game>(position: &G) -> u32 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(position.position_hash());
    let samples = 8;
    let plies: u32 = (0..samples)
        .map(|_| position.clone().random_playout(&mut rng).plies)
        .sum();
    (plies / samples).div_ceil(2).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(settings: &str) -> Clock {
        let arguments: Vec<&str> = settings.split_whitespace().collect();
        Clock::from_settings(&arguments).unwrap().expect("a limit")
    }

    #[test]
    fn settings_without_a_limit_and_bad_ones() {
        assert_eq!(Clock::from_settings(&["0", "0", "0"]), Ok(None));
        assert_eq!(Clock::from_settings(&["300", "10", "0"]), Ok(None));
        assert!(Clock::from_settings(&["300", "0"]).is_err());
        assert!(Clock::from_settings(&["-1", "0", "0"]).is_err());
        assert!(Clock::from_settings(&["soon", "0", "0"]).is_err());
        assert!(Clock::from_settings(&["300", "0", "x"]).is_err());
    }

    #[test]
    fn sudden_death_shares_what_is_left_over_the_moves_to_go() {
        let clock = clock("60 0 0");
        let a = clock.allot(Player::Black, 30);
        // 60 s less 5% and the overhead, over 30 moves: about 1.9 s.
        assert!(a.base > Duration::from_millis(1_800) && a.base < Duration::from_millis(2_000));
        assert!(a.most >= a.base && a.most <= Duration::from_secs(15));
        // Few moves left: the floor of 8 moves keeps a reserve.
        assert!(clock.allot(Player::Black, 1).base < Duration::from_secs(8));
    }

    #[test]
    fn never_more_than_is_left() {
        let mut clock = clock("10 0 0");
        clock.set_left(Player::White, &["0.05", "0"]).unwrap();
        let a = clock.allot(Player::White, 20);
        assert_eq!(a.base, Duration::from_millis(1));
        assert_eq!(a.most, Duration::from_millis(1));
        assert!(clock.set_left(Player::White, &["1"]).is_err());
    }

    #[test]
    fn byo_yomi_periods_share_the_period() {
        let mut clock = clock("0 30 5");
        let a = clock.allot(Player::Black, 40);
        assert!(a.base > Duration::from_millis(5_500) && a.base < Duration::from_secs(6));
        // Five moves of 5 s: the period starts again full.
        for _ in 0..5 {
            clock.spend(Player::Black, Duration::from_secs(5));
        }
        assert_eq!(clock.left[0], (Duration::from_secs(30), 5));
        clock.spend(Player::Black, Duration::from_secs(5));
        assert_eq!(clock.left[0], (Duration::from_secs(25), 4));
    }

    #[test]
    fn a_new_game_starts_with_full_time() {
        let mut clock = clock("60 0 0");
        clock.spend(Player::Black, Duration::from_secs(50));
        clock.set_left(Player::White, &["3", "0"]).unwrap();
        clock.restart();
        assert_eq!(clock.left, [(Duration::from_secs(60), 0); 2]);
    }

    #[test]
    fn main_time_runs_into_the_periods() {
        let mut clock = clock("10 30 5");
        clock.spend(Player::White, Duration::from_secs(12));
        assert_eq!(clock.left[1], (Duration::from_secs(28), 4));
        // In main time, a share of the main time plus half a period's move.
        let clock = self::clock("10 30 5");
        let a = clock.allot(Player::White, 10);
        assert!(a.base > Duration::from_millis(3_500), "{a:?}");
    }
}
