//! Selection: which tried child an iteration goes to. UCB1 ([`select`]), RAVE's blend
//! ([`select_rave`]), and the open child beside a proven draw ([`select_open`]).
//!
//! These loops are the largest cost of an iteration in games with many moves (121 children
//! per node on an empty 11x11 Hex board), so each child costs one multiply-add: nodes keep
//! their mean and `1 / sqrt(n)` ([`Node::record`]), `c * sqrt(ln N)` is computed once per
//! node, and the best score is found by [`first_best`], [`LANES`] children side by side.
//! `docs/perf-notes.md` lists the layouts measured and dropped.

use super::node::{Amaf, Node, Proof, Stats};

/// RAVE's weight `β = sqrt(k / (3n + k))` of a child's AMAF mean, by the child's visits `n`:
/// from a table for the counts below 4096, else computed. The table holds the computed values,
/// so selection is the same either way; it saves a division and a square root per child.
#[derive(Clone, Debug)]
pub(crate) struct RaveWeights {
    k: f32,
    table: Vec<f32>,
}

impl RaveWeights {
    /// The weights for `k` (above 0).
    pub(crate) fn new(k: f32) -> Self {
        let table = (0..4096).map(|n| Self::compute(k, n)).collect();
        RaveWeights { k, table }
    }

    fn compute(k: f32, visits: u32) -> f32 {
        (k / (3.0 * visits as f32 + k)).sqrt()
    }

    #[inline]
    pub(crate) fn get(&self, visits: u32) -> f32 {
        match self.table.get(visits as usize) {
            Some(&beta) => beta,
            None => Self::compute(self.k, visits),
        }
    }
}

/// How many scores [`first_best`] weighs side by side.
const LANES: usize = 8;

/// `ln(n)` of a visit count, for the exploration term: from a table for the counts below 4096
/// that most nodes on a path have, else by `f32::ln`. The table holds what `f32::ln` gives, so
/// the search is the same; the call to the logarithm was 7-9% of a Connect Four search.
#[inline]
pub(crate) fn ln_visits(n: u32) -> f32 {
    const SMALL: usize = 4096;
    static TABLE: std::sync::OnceLock<[f32; SMALL]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| std::array::from_fn(|i| (i as f32).ln()));
    match table.get(n as usize) {
        Some(&ln) => ln,
        None => (n as f32).ln(),
    }
}

/// The index of the first item with the largest `score`; 0 when no score is a number.
///
/// With many items, a single running maximum makes every item wait for the comparison of the
/// one before. So the best score is first found with [`LANES`] independent running maxima (no
/// indices), then the first item with that score is looked up a chunk of [`LANES`] at a time:
/// `score` is computed the same way both times, so the equality is exact.
#[inline]
fn first_best<T>(items: &[T], score: impl Fn(&T) -> f32) -> usize {
    if items.len() < 2 * LANES {
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, item) in items.iter().enumerate() {
            let s = score(item);
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        return best;
    }
    let chunks = items.chunks_exact(LANES);
    let mut lanes = [f32::NEG_INFINITY; LANES];
    for chunk in chunks.clone() {
        for (lane, item) in lanes.iter_mut().zip(chunk) {
            let s = score(item);
            // `if`, not `f32::max`: the processor's max instruction as it is (a NaN score
            // never wins), without the extra instructions `max` needs to ignore NaN.
            if s > *lane {
                *lane = s;
            }
        }
    }
    let best = chunks
        .remainder()
        .iter()
        .map(&score)
        .chain(lanes)
        .fold(f32::NEG_INFINITY, f32::max);
    let first_in = |items: &[T]| items.iter().position(|item| score(item) == best);
    let mut start = 0;
    for chunk in chunks.clone() {
        if chunk
            .iter()
            .fold(false, |hit, item| hit | (score(item) == best))
        {
            return start + first_in(chunk).unwrap_or(0);
        }
        start += LANES;
    }
    first_in(chunks.remainder()).map_or(0, |i| start + i)
}

/// The index of the child with the largest UCB1 score `mean + c * sqrt(ln N / n)` (the first
/// one on a tie); every child has been tried.
#[inline]
pub(crate) fn select<C: Stats>(children: &[C], c: f32, log_parent_visits: f32) -> usize {
    let scale = c * log_parent_visits.sqrt();
    first_best(children, |child| child.q() + scale * child.inv_sqrt())
}

/// RAVE's selection among all the children of a node, the first `tried` of them tried: the
/// place of the child with the largest score, the first one on a tie. A tried child scores
/// `(1 - β) mean + β amaf + c sqrt(ln N / n)` (`scale` is `c sqrt(ln N)`, `amaf` the AMAF
/// statistics to use for each child; `β` is 0 while the child has no AMAF statistics). An
/// untried child scores its AMAF mean, the value RAVE gives a move with no visits (`β` is 1 at
/// `n = 0`), plus the exploration term of one visit (`scale`), so that a move the playouts
/// already show to be bad is not tried only because it has not been, as in MoGo and Fuego; one
/// of which AMAF knows nothing scores `+inf` (it is tried first, as UCT would). A proven child
/// keeps its exact value, as in [`select`].
///
/// With a [`Bias`], every child also gains the progressive bias `weight · P / sqrt(n + 1)` of
/// its prior `P`, an untried child of which AMAF knows nothing scores 0.5 (a draw's worth)
/// instead of `+inf`, so that the prior orders those, and a child whose prior is 0 is never
/// chosen (`-inf`).
///
/// The scores are written into `scores` first, then [`first_best`] finds the best of them:
/// computing `β` twice per child would cost more than the store.
pub(crate) fn select_rave<A>(
    children: &[Node<A>],
    tried: usize,
    amaf: &[Amaf],
    scale: f32,
    weights: &RaveWeights,
    bias: Option<Bias<'_>>,
    scores: &mut Vec<f32>,
) -> usize {
    scores.clear();
    let Some(Bias { priors, weight }) = bias else {
        let (tried_children, untried) = children.split_at(tried);
        let (tried_amaf, untried_amaf) = amaf.split_at(tried);
        scores.extend(
            tried_children
                .iter()
                .zip(tried_amaf)
                .map(|(child, amaf)| rave_tried(child, amaf, scale, weights, None)),
        );
        scores.extend(
            untried_amaf[..untried.len()]
                .iter()
                .map(|amaf| rave_untried(amaf, scale, None)),
        );
        return first_best(scores, |&s| s);
    };
    scores.extend(children.iter().zip(amaf).zip(priors).enumerate().map(
        |(i, ((child, amaf), &prior))| {
            if prior == 0.0 {
                f32::NEG_INFINITY
            } else if i < tried {
                rave_tried(child, amaf, scale, weights, Some((prior, weight)))
            } else {
                rave_untried(amaf, scale, Some((prior, weight)))
            }
        },
    ));
    first_best(scores, |&s| s)
}

/// [`select_rave`] for the lock-free tree, whose children keep the order they were published
/// in: an untried child is one without visits (wherever it is), scored as `select_rave`
/// scores the untried ones; the others as its tried ones. `amaf` holds each child's AMAF
/// statistics and `priors` (with a bias) their priors, in the children's order.
pub(crate) fn select_rave_unordered<C: Stats>(
    children: &[C],
    amaf: &[Amaf],
    scale: f32,
    weights: &RaveWeights,
    bias: Option<Bias<'_>>,
    scores: &mut Vec<f32>,
) -> usize {
    scores.clear();
    scores.extend(
        children
            .iter()
            .zip(amaf)
            .enumerate()
            .map(|(i, (child, amaf))| {
                let bias = bias.map(|b| (b.priors[i], b.weight));
                if bias.is_some_and(|(prior, _)| prior == 0.0) {
                    f32::NEG_INFINITY
                } else if child.n() > 0 {
                    rave_tried(child, amaf, scale, weights, bias)
                } else {
                    rave_untried(amaf, scale, bias)
                }
            }),
    );
    first_best(scores, |&s| s)
}

/// RAVE's score of a tried child: its blend with AMAF and the exploration bonus, and with a
/// prior (`bias`: the child's prior and the bias's weight) the progressive bias
/// `weight·P/sqrt(n + 1)`.
#[inline]
fn rave_tried<C: Stats>(
    child: &C,
    amaf: &Amaf,
    scale: f32,
    weights: &RaveWeights,
    bias: Option<(f32, f32)>,
) -> f32 {
    let score = blend(child, amaf, weights) + scale * child.inv_sqrt();
    match bias {
        Some((prior, weight)) => score + weight * prior / ((child.n() + 1) as f32).sqrt(),
        None => score,
    }
}

/// RAVE's score of an untried child: its AMAF mean and the exploration bonus; without AMAF
/// statistics `+inf` (tried first), or with a prior 0.5 and its progressive bias `weight·P`.
#[inline]
fn rave_untried(amaf: &Amaf, scale: f32, bias: Option<(f32, f32)>) -> f32 {
    match bias {
        None if amaf.visits == 0 => f32::INFINITY,
        None => amaf.mean() + scale,
        Some((prior, weight)) => {
            let q = if amaf.visits == 0 { 0.5 } else { amaf.mean() };
            q + scale + weight * prior
        }
    }
}

/// The progressive bias of RAVE's selection with a prior (Chaslot et al. 2008, as MoHex 2.0
/// uses it): the children's prior probabilities and the bias's weight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bias<'a> {
    pub(crate) priors: &'a [f32],
    pub(crate) weight: f32,
}

/// RAVE's value of a tried child: `(1 - β) mean + β amaf`, with `β` 0 while the child has no
/// AMAF statistics or is proven.
#[inline]
fn blend<C: Stats>(child: &C, amaf: &Amaf, weights: &RaveWeights) -> f32 {
    if amaf.visits == 0 || child.proven() != Proof::Open {
        return child.q();
    }
    let beta = weights.get(child.n());
    child.q() + beta * (amaf.mean() - child.q())
}

/// PUCT's two constants for one node: `scale` is `c·sqrt(N)` (`c` the PUCT constant, `N` the
/// node's visits) and `fpu` what an untried child's `Q` is reduced by (first play urgency).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Puct {
    pub(crate) scale: f32,
    pub(crate) fpu: f32,
}

impl Puct {
    /// `scale`, with no reduction of first play urgency.
    #[cfg(test)]
    pub(crate) fn scale(scale: f32) -> Self {
        Puct { scale, fpu: 0.0 }
    }
}

/// PUCT's selection (see [`UctConfig`](super::UctConfig)) among all the children of a node,
/// tried (the first `tried`) or not: the place of the child with the largest
/// `Q + scale·P/(1+n)` (`puct`), the first one on a tie. A tried child's `Q`
/// is its mean; an untried child's is the visit-weighted mean of the tried open ones less
/// `puct.fpu` (first play urgency), and an untried child whose prior is 0 is never chosen. With none tried yet
/// (or only proven ones), the untried child with the largest prior. The scores go through
/// `scores`.
///
/// With RAVE (`rave`: the AMAF statistics to use for each child, and the weights), `Q` blends
/// in the child's AMAF mean as RAVE's selection does, `(1 - β) mean + β amaf`, and an untried
/// child with AMAF statistics has its AMAF mean as `Q` (β is 1 at no visits); with none tried
/// but some AMAF statistics, the children are scored (with `Q` 0.5 where AMAF knows nothing),
/// as AMAF tells untried children apart before any is tried.
pub(crate) fn select_puct<C: Stats>(
    children: &[C],
    priors: &[f32],
    tried: usize,
    puct: Puct,
    rave: Option<(&[Amaf], &RaveWeights)>,
    leading: bool,
    scores: &mut Vec<f32>,
) -> usize {
    let scale = puct.scale;
    let (sum, visits) = children[..tried]
        .iter()
        .filter(|child| child.proven() == Proof::Open)
        .fold((0.0f32, 0u32), |(sum, n), child| {
            (sum + child.q() * child.n() as f32, n + child.n())
        });
    let amaf_known = rave.is_some_and(|(amaf, _)| amaf.iter().any(|a| a.visits > 0));
    if visits == 0 && tried < children.len() && !amaf_known {
        return tried + first_best(&priors[tried..], |&p| p);
    }
    // Without RAVE an untried child scores by its prior alone, so only the one with the
    // largest prior can be chosen; with `leading`, the caller keeps it first among the untried
    // ([`Tree::lead_untried`](super::tree::Tree::lead_untried)) and the others need no score.
    let (children, priors) = if leading && rave.is_none() {
        debug_assert!(
            priors[tried..]
                .iter()
                .all(|&p| p <= priors[tried.min(priors.len() - 1)]),
            "the untried child with the largest prior leads"
        );
        let scored = children.len().min(tried + 1);
        (&children[..scored], &priors[..scored])
    } else {
        (children, priors)
    };
    let urgency = if visits == 0 {
        0.5
    } else {
        sum / visits as f32 - puct.fpu
    };
    let (amaf, weights) = match rave {
        Some((amaf, weights)) => (amaf, Some(weights)),
        None => (&[][..], None),
    };
    scores.clear();
    scores.extend(
        children
            .iter()
            .zip(priors)
            .enumerate()
            .map(|(i, (child, &prior))| {
                let amaf = amaf.get(i).zip(weights);
                if i < tried {
                    if prior == 0.0 {
                        // A tried child whose prior became 0 (a verdict proved its move lost)
                        // is left out too: its mean, from playouts, would otherwise keep
                        // drawing iterations to a move known to lose.
                        return f32::NEG_INFINITY;
                    }
                    let q = amaf.map_or(child.q(), |(amaf, weights)| blend(child, amaf, weights));
                    q + scale * prior / (1 + child.n()) as f32
                } else if prior > 0.0 {
                    let amaf = amaf.filter(|(amaf, _)| amaf.visits > 0);
                    amaf.map_or(urgency, |(amaf, _)| amaf.mean()) + scale * prior
                } else {
                    // A prior of 0 leaves the child out (an inferior move) while another has
                    // weight.
                    f32::NEG_INFINITY
                }
            }),
    );
    first_best(scores, |&s| s)
}

/// The open (unproven) child with the largest UCB1 score, if there is one.
pub(crate) fn select_open<C: Stats>(
    children: &[C],
    c: f32,
    log_parent_visits: f32,
) -> Option<usize> {
    let scale = c * log_parent_visits.sqrt();
    children
        .iter()
        .enumerate()
        .filter(|(_, child)| child.proven() == Proof::Open)
        .map(|(i, child)| (i, child.q() + scale * child.inv_sqrt()))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::super::node::NodeId;
    use super::*;
    use proptest::prelude::*;

    /// A tried child with this mean and visits (`visits == 0` stands for a proven one: an
    /// infinite or exact mean and no exploration bonus).
    fn child(mean: f32, visits: u32) -> Node<u8> {
        Node {
            mean,
            inv_sqrt_visits: if visits == 0 {
                0.0
            } else {
                (visits as f32).sqrt().recip()
            },
            visits,
            first: NodeId::ROOT,
            len: 0,
            tried: 0,
            proof: Proof::Open,
            action: 0,
        }
    }

    /// Means drawn from a few values, so that ties are common, and some proven children.
    fn children() -> impl Strategy<Value = Vec<Node<u8>>> {
        let mean = prop_oneof![
            Just(0.0f32),
            Just(0.5),
            Just(1.0),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
            0.0f32..1.0,
        ];
        let visits = prop_oneof![Just(0u32), Just(1), Just(4), 1u32..1000];
        proptest::collection::vec((mean, visits), 1..140).prop_map(|v| {
            v.into_iter()
                .map(|(m, n)| child(m, if m.is_finite() { n.max(1) } else { 0 }))
                .collect()
        })
    }

    /// AMAF statistics for 140 children, some empty.
    fn amaf_stats() -> impl Strategy<Value = Vec<Amaf>> {
        let stats = (prop_oneof![Just(0u32), 1u32..50], 0.0f32..1.0);
        proptest::collection::vec(stats, 140).prop_map(|v| {
            v.into_iter()
                .map(|(visits, mean)| Amaf {
                    wins: mean * visits as f32,
                    visits,
                    index: 0,
                })
                .collect()
        })
    }

    /// RAVE's value of a tried child by the formula, `β` computed.
    fn plain_blend(child: &Node<u8>, amaf: &Amaf, k: f32) -> f32 {
        if amaf.visits == 0 || child.proof != Proof::Open {
            return child.mean;
        }
        let beta = (k / (3.0 * child.visits as f32 + k)).sqrt();
        child.mean + beta * (amaf.mean() - child.mean)
    }

    /// The index a plain scan for the first best score finds (0 when no score is a number).
    fn plain_scan(scores: impl Iterator<Item = f32>) -> usize {
        let mut expected = 0;
        let mut best = f32::NEG_INFINITY;
        for (i, score) in scores.enumerate() {
            if score > best {
                expected = i;
                best = score;
            }
        }
        expected
    }

    proptest! {
        /// The vectorised selection picks what a plain scan for the first best score picks.
        #[test]
        fn select_picks_the_first_child_with_the_best_score(
            children in children(),
            c in prop_oneof![Just(0.0f32), Just(0.4), 0.0f32..2.0],
            log_visits in 0.0f32..12.0,
        ) {
            let scale = c * log_visits.sqrt();
            let expected =
                plain_scan(children.iter().map(|child| child.mean + scale * child.inv_sqrt_visits));
            prop_assert_eq!(select(&children, c, log_visits), expected);
        }

        /// RAVE's selection picks what a plain scan for the first best score picks, with `β`
        /// computed for every tried child, the AMAF mean of every untried one (`+inf` without
        /// AMAF statistics).
        #[test]
        fn select_rave_picks_the_first_child_with_the_best_score(
            children in children(),
            tried in 0usize..140,
            amaf in amaf_stats(),
            scale in 0.0f32..3.0,
            k in prop_oneof![Just(300.0f32), 1.0f32..1000.0],
        ) {
            let tried = tried.min(children.len());
            let expected = plain_scan(children.iter().zip(&amaf).enumerate().map(|(i, (child, amaf))| {
                if i >= tried {
                    return if amaf.visits == 0 { f32::INFINITY } else { amaf.mean() + scale };
                }
                plain_blend(child, amaf, k) + scale * child.inv_sqrt_visits
            }));
            let weights = RaveWeights::new(k);
            let picked = select_rave(&children, tried, &amaf, scale, &weights, None, &mut Vec::new());
            prop_assert_eq!(picked, expected);
        }

        /// With a progressive bias, RAVE's selection picks what a plain scan picks, with the
        /// bias computed for every child, untried ones without AMAF statistics at 0.5, and
        /// children whose prior is 0 left out.
        #[test]
        fn select_rave_with_a_bias_picks_the_first_child_with_the_best_score(
            children in children(),
            tried in 0usize..140,
            amaf in amaf_stats(),
            priors in proptest::collection::vec(prop_oneof![Just(0.0f32), Just(0.25), 0.0f32..1.0], 140),
            scale in prop_oneof![Just(0.0f32), 0.0f32..3.0],
            weight in prop_oneof![Just(3.0f32), 0.0f32..10.0],
        ) {
            let tried = tried.min(children.len());
            let k = 300.0;
            let expected = plain_scan(children.iter().zip(&amaf).zip(&priors).enumerate().map(
                |(i, ((child, amaf), &prior))| {
                    if prior == 0.0 {
                        return f32::NEG_INFINITY;
                    }
                    if i >= tried {
                        let value = if amaf.visits == 0 { 0.5 } else { amaf.mean() };
                        return value + scale + weight * prior;
                    }
                    plain_blend(child, amaf, k)
                        + scale * child.inv_sqrt_visits
                        + weight * prior / ((child.visits + 1) as f32).sqrt()
                },
            ));
            let weights = RaveWeights::new(k);
            let bias = Some(Bias { priors: &priors, weight });
            let picked = select_rave(&children, tried, &amaf, scale, &weights, bias, &mut Vec::new());
            prop_assert_eq!(picked, expected);
        }

        /// Without RAVE, scoring only the tried children and the leading untried one (the
        /// untried child with the largest prior, first among the untried) chooses what scoring
        /// them all does.
        #[test]
        fn puct_with_the_leading_untried_child_chooses_as_with_all(
            children in children(),
            priors in proptest::collection::vec(prop_oneof![Just(0.0f32), Just(0.25), 0.0f32..1.0], 140),
            tried in 0usize..140,
            scale in prop_oneof![Just(0.0f32), 0.0f32..30.0],
        ) {
            let tried = tried.min(children.len());
            let mut priors = priors[..children.len()].to_vec();
            if tried < priors.len() {
                let lead = tried + first_best(&priors[tried..], |&p| p);
                priors.swap(tried, lead);
            }
            let mut scores = Vec::new();
            let all = select_puct(&children, &priors, tried, Puct::scale(scale), None, false, &mut scores);
            let led = select_puct(&children, &priors, tried, Puct::scale(scale), None, true, &mut scores);
            prop_assert_eq!(led, all);
        }

        /// Lanes or not, scores that are all NaN (proven children under RAVE) give the first.
        #[test]
        fn first_best_of_no_number_is_the_first(n in 1usize..40) {
            prop_assert_eq!(first_best(&vec![f32::NAN; n], |&s| s), 0);
        }
    }

    #[test]
    fn puct_tries_the_largest_prior_first_then_weighs_prior_against_mean() {
        let mut scores = Vec::new();
        // Nothing tried: the largest prior.
        let fresh = [child(0.0, 0), child(0.0, 0), child(0.0, 0)];
        let fresh: Vec<Node<u8>> = fresh.iter().map(|c| Node { visits: 0, ..*c }).collect();
        assert_eq!(
            select_puct(
                &fresh,
                &[0.2, 0.5, 0.3],
                0,
                Puct::scale(1.0),
                None,
                false,
                &mut scores
            ),
            1
        );
        // One child tried (mean 0.5, 4 visits): an untried one with a prior of 0.5 scores
        // 0.5 + 2·0.5 = 1.5 against 0.5 + 2·0.3/5 = 0.62.
        let some = [child(0.5, 4), child(0.0, 1), child(0.0, 1)];
        let mut some: Vec<Node<u8>> = some.to_vec();
        some[1].visits = 0;
        some[2].visits = 0;
        assert_eq!(
            select_puct(
                &some,
                &[0.3, 0.5, 0.2],
                1,
                Puct::scale(2.0),
                None,
                false,
                &mut scores
            ),
            1
        );
        // A reduced first play urgency keeps the visit with the tried child when the reduction
        // outweighs the prior's pull: the untried child scores 0.5 - fpu + 2·0.5, the tried one
        // 0.62.
        for (fpu, chosen) in [(0.9, 0), (0.8, 1)] {
            let puct = Puct { scale: 2.0, fpu };
            let best = select_puct(&some, &[0.3, 0.5, 0.2], 1, puct, None, false, &mut scores);
            assert_eq!(best, chosen, "fpu {fpu}");
        }
        // With a tiny prior the tried child keeps the visit.
        assert_eq!(
            select_puct(
                &some,
                &[0.98, 0.01, 0.01],
                1,
                Puct::scale(2.0),
                None,
                false,
                &mut scores
            ),
            0
        );

        // A prior of 0 leaves a child out: with no exploration bonus, the untried child would
        // tie the tried one at the first play urgency (0.1).
        let mut poor = vec![child(0.1, 400), child(0.0, 1)];
        poor[1].visits = 0;
        assert_eq!(
            select_puct(
                &poor,
                &[1.0, 0.0],
                1,
                Puct::scale(0.0),
                None,
                false,
                &mut scores
            ),
            0
        );
        // So does a prior that became 0 after the child was tried (a verdict proved its move
        // lost): its mean of 0.9 would win it every visit against 0.2.
        let proven_lost = [child(0.9, 300), child(0.2, 100)];
        assert_eq!(
            select_puct(
                &proven_lost,
                &[0.0, 1.0],
                2,
                Puct::scale(0.0),
                None,
                false,
                &mut scores
            ),
            1
        );
    }

    #[test]
    fn puct_with_rave_blends_the_amaf_means_in_and_orders_untried_children_by_them() {
        let mut scores = Vec::new();
        let weights = RaveWeights::new(300.0);
        let amaf = |mean: f32, visits: u32| Amaf {
            wins: mean * visits as f32,
            visits,
            index: 0,
        };
        // Two tried children, means 0.6 and 0.5 at 10 visits each, equal priors: without RAVE
        // the first; with AMAF means 0.3 and 0.9 (β near 1 at 10 visits with k = 300), the
        // second.
        let tried = [child(0.6, 10), child(0.5, 10)];
        let stats = [amaf(0.3, 500), amaf(0.9, 500)];
        let priors = [0.5, 0.5];
        assert_eq!(
            select_puct(
                &tried,
                &priors,
                2,
                Puct::scale(1.0),
                None,
                false,
                &mut scores
            ),
            0
        );
        let rave = Some((&stats[..], &weights));
        assert_eq!(
            select_puct(
                &tried,
                &priors,
                2,
                Puct::scale(1.0),
                rave,
                false,
                &mut scores
            ),
            1
        );
        // Nothing tried: without RAVE the largest prior; with AMAF statistics, the untried
        // child whose AMAF mean is far better despite a smaller prior.
        let fresh: Vec<Node<u8>> = [child(0.0, 1), child(0.0, 1)]
            .iter()
            .map(|c| Node { visits: 0, ..*c })
            .collect();
        let priors = [0.6, 0.4];
        let stats = [amaf(0.2, 50), amaf(0.8, 50)];
        assert_eq!(
            select_puct(
                &fresh,
                &priors,
                0,
                Puct::scale(0.1),
                None,
                false,
                &mut scores
            ),
            0
        );
        let rave = Some((&stats[..], &weights));
        assert_eq!(
            select_puct(
                &fresh,
                &priors,
                0,
                Puct::scale(0.1),
                rave,
                false,
                &mut scores
            ),
            1
        );
        // A prior of 0 still prunes.
        assert_eq!(
            select_puct(
                &fresh,
                &[1.0, 0.0],
                0,
                Puct::scale(0.1),
                rave,
                false,
                &mut scores
            ),
            0
        );
    }

    #[test]
    fn the_logarithm_table_gives_what_f32_ln_gives() {
        for n in (0..5000).chain([65_535, 1 << 20, u32::MAX]) {
            let (table, direct) = (ln_visits(n), (n as f32).ln());
            assert!(
                table.to_bits() == direct.to_bits(),
                "ln({n}): {table} from the table, {direct} from f32::ln"
            );
        }
    }
}
