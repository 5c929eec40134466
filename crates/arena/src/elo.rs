//! Elo ratings from a table of results, with error bars.

/// A player's rating: Elo points relative to the field's average, and a 95% interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    /// The rating; the players' ratings average 0.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo points.
    pub margin: f64,
}

/// Ratings from `points[i][j]`, the points player `i` scored against player `j` (a win 1, a
/// draw 1/2), and `games[i][j]`, the games the two played (so `games[i][j] == games[j][i]`
/// and `points[i][j] + points[j][i] == games[i][j]`).
///
/// The Bradley-Terry model (the Elo model with a logistic curve), fitted by maximum likelihood
/// with Hunter's MM iteration. Each pair that met also gets one virtual draw, a weak prior
/// that keeps the ratings finite when a player wins every game (BayesElo does the same with
/// its default prior); with few games it pulls the ratings slightly towards each other. The
/// interval is ±1.96 standard errors from each player's Fisher information, holding the
/// others fixed.
///
/// For two players this is the familiar `-400 log10(1/p - 1)` of the score `p`:
///
/// ```
/// // 75 points out of 100 (with the virtual draw, 75.5 of 101).
/// let ratings = arena::ratings(&[vec![0.0, 75.0], vec![25.0, 0.0]], &[vec![0, 100], vec![100, 0]]);
/// let difference = ratings[0].elo - ratings[1].elo;
/// let p: f64 = 75.5 / 101.0;
/// assert!((difference - -400.0 * (1.0 / p - 1.0).log10()).abs() < 0.01);
/// assert!(ratings[0].margin > 20.0 && ratings[0].margin < 100.0);
/// ```
///
/// # Panics
///
/// If the tables are not square and of the same size.
#[must_use]
pub fn ratings(points: &[Vec<f64>], games: &[Vec<u32>]) -> Vec<Rating> {
    let n = points.len();
    assert!(
        games.len() == n
            && points.iter().all(|r| r.len() == n)
            && games.iter().all(|r| r.len() == n),
        "square tables of the same size"
    );
    // Games and points with the virtual draw of each pair that met.
    let met = |i: usize, j: usize| i != j && games[i][j] > 0;
    let played = |i: usize, j: usize| f64::from(games[i][j]) + 1.0;
    let scored: Vec<f64> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| met(i, j))
                .map(|j| points[i][j] + 0.5)
                .sum()
        })
        .collect();
    let mut gamma = vec![1.0_f64; n];
    for _ in 0..10_000 {
        let mut change = 0.0_f64;
        for i in 0..n {
            let denominator: f64 = (0..n)
                .filter(|&j| met(i, j))
                .map(|j| played(i, j) / (gamma[i] + gamma[j]))
                .sum();
            if denominator > 0.0 {
                let next = scored[i] / denominator;
                change = change.max((next.ln() - gamma[i].ln()).abs());
                gamma[i] = next;
            }
        }
        // Mean log-strength 0.
        let mean = gamma.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut gamma {
            *g = (g.ln() - mean).exp();
        }
        if change < 1e-10 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..n)
        .map(|i| {
            let information: f64 = (0..n)
                .filter(|&j| met(i, j))
                .map(|j| {
                    let p = gamma[i] / (gamma[i] + gamma[j]);
                    played(i, j) * p * (1.0 - p)
                })
                .sum();
            Rating {
                elo: scale * gamma[i].ln(),
                margin: if information > 0.0 {
                    1.959_964 * scale / information.sqrt()
                } else {
                    f64::INFINITY
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_stays_finite_and_order_is_kept() {
        // A beats B 10-0, B beats C 7-3, A beats C 9-1.
        let points = vec![
            vec![0.0, 10.0, 9.0],
            vec![0.0, 0.0, 7.0],
            vec![1.0, 3.0, 0.0],
        ];
        let games = vec![vec![0, 10, 10], vec![10, 0, 10], vec![10, 10, 0]];
        let r = ratings(&points, &games);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.margin.is_finite()));
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
        assert!((r.iter().map(|x| x.elo).sum::<f64>()).abs() < 1e-6);
    }

    #[test]
    fn equal_players_rate_equal_and_more_games_narrow_the_interval() {
        let few = ratings(
            &[vec![0.0, 5.0], vec![5.0, 0.0]],
            &[vec![0, 10], vec![10, 0]],
        );
        let many = ratings(
            &[vec![0.0, 500.0], vec![500.0, 0.0]],
            &[vec![0, 1000], vec![1000, 0]],
        );
        assert!(few[0].elo.abs() < 1e-9 && many[1].elo.abs() < 1e-9);
        assert!(many[0].margin < few[0].margin / 5.0);
    }

    #[test]
    fn players_who_never_met_anyone_have_no_interval() {
        let r = ratings(&vec![vec![0.0; 3]; 3], &vec![vec![0; 3]; 3]);
        assert!(r.iter().all(|x| x.elo == 0.0 && x.margin.is_infinite()));
    }
}
