//! Whether a bot does better on a deal it has met before than the first
//! time it met it: the trace of a bot that remembers deals across games.
//! Pure.
//!
//! Every deal is played in every order of the bots, so a bot that could
//! carry what it saw from one game of a deal into another would know cards
//! it should not. No process of a bot meets a deal twice (its processes
//! live for a lane, see the arena's `schedule::lanes`), and a sandboxed bot
//! keeps nothing writable that outlives its process; this test looks for
//! what gets through anyway: processes kept for a whole run (`--restart
//! off`), files a bot without the sandbox keeps, a channel not closed.
//!
//! For each bot and each deal it played at least twice, the *difference* is
//! its mean margin in its later games of the deal minus its margin in its
//! first one, a margin being its final score minus the mean final score of
//! the other sides. A run plays first the game of a deal whose key is the
//! least ([`records::seeds::play_key`]), a keyed shuffle, so which game of a
//! deal comes first has nothing to do with how the games go: for a bot that
//! plays each game on its own, each of its games of a deal is equally likely
//! to be the first, whatever its margins, and the difference is 0 in
//! expectation. The test is that randomization's: the sum of the differences
//! against its spread over which game of each deal came first, which the
//! deal's margins give exactly (a deal of `k` games with margins `m` adds
//! `(k Σm² − (Σm)²) / (k − 1)²` to its variance), a one-sided z-test (the
//! normal approximation, from [`MIN_DEALS`] deals on). A spread estimated
//! from the differences themselves would not hold the test's rate at 3 and
//! 4 players in short runs: a first game is a single hand, which a big pot
//! sometimes decides, so the differences are skewed, and their mean and
//! their sample spread move together. A bot is flagged when its p-value is
//! below [`FAMILY_ALPHA`] divided by the number of bots tested
//! (Bonferroni), so that a field of honest bots raises no flag 99 times in
//! 100.

use crate::ratings::normal::normal_cdf;
pub use records::standings::RepeatedDeals;
use std::collections::BTreeMap;

/// The fewest repeated deals a bot is tested on.
pub const MIN_DEALS: u64 = 20;
/// The chance that some honest bot of a field is flagged.
pub const FAMILY_ALPHA: f64 = 0.01;

/// One bot's meetings with one deal so far.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Meetings {
    /// The play key of its first game of the deal.
    first_key: u64,
    /// Its margin in that game, scaled.
    first: i128,
    /// Its margins in all its games of the deal, scaled.
    sum: i128,
    /// Their squares.
    squares: i128,
    /// Its games of the deal.
    games: u64,
}

/// The repeated deals of one bot whose games are all in, summed exactly
/// (so that the sums do not depend on the order the deals end in), by the
/// number of the bot's later games of a deal.
#[derive(Debug, Clone, Default, PartialEq)]
struct Folded {
    /// By later games `k`: the sum over the deals of `k·(mean later margin −
    /// first margin)`, and that of `k²·(the difference's variance)`.
    by_later: BTreeMap<u64, (i128, i128)>,
    /// The deals summed.
    deals: u64,
}

impl Meetings {
    /// Adds these meetings, of a deal met at least twice, to `folded`.
    fn fold_into(&self, folded: &mut Folded) {
        if self.games < 2 {
            return;
        }
        let games = i128::from(self.games);
        let (difference, spread) = folded.by_later.entry(self.games - 1).or_default();
        // k·(mean later − first) = (sum − first) − k·first = sum − games·first;
        // k²·variance = games·Σm² − (Σm)² (see the module's documentation).
        *difference += self.sum - games * self.first;
        *spread += games * self.squares - self.sum * self.sum;
        folded.deals += 1;
    }
}

/// Every bot's meetings with every deal: those of deals that may still
/// have games to come, and the sums of those closed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repeats {
    meetings: BTreeMap<(usize, u64), Meetings>,
    folded: BTreeMap<usize, Folded>,
}

impl Repeats {
    /// Notes that bot `bot` played a game of deal `deal` whose play key is
    /// `key`, with this margin (scaled by a constant, the same for every game).
    pub fn add(&mut self, bot: usize, deal: u64, key: u64, margin: i128) {
        let met = self.meetings.entry((bot, deal)).or_insert(Meetings {
            first_key: key,
            first: margin,
            sum: 0,
            squares: 0,
            games: 0,
        });
        if key < met.first_key {
            met.first_key = key;
            met.first = margin;
        }
        met.sum += margin;
        met.squares += margin * margin;
        met.games += 1;
    }

    /// Closes deal `deal` for bots `0..bots`: all its games are in, so
    /// its meetings are kept as sums only (the memory of a run does not
    /// grow with its deals). A game of it added after would count as a
    /// deal of its own.
    pub fn close(&mut self, deal: u64, bots: usize) {
        for bot in 0..bots {
            if let Some(met) = self.meetings.remove(&(bot, deal)) {
                met.fold_into(self.folded.entry(bot).or_default());
            }
        }
    }

    /// The test for each of `bots` bots (`None` before [`MIN_DEALS`]
    /// repeated deals), margins unscaled by `scale`.
    pub fn tested(&self, bots: usize, scale: f64) -> Vec<Option<RepeatedDeals>> {
        let mut folded: Vec<Folded> = (0..bots).map(|bot| self.folded.get(&bot).cloned().unwrap_or_default()).collect();
        for (&(bot, _), met) in &self.meetings {
            if let Some(sums) = folded.get_mut(bot) {
                met.fold_into(sums);
            }
        }
        let tested = folded.iter().filter(|f| f.deals >= MIN_DEALS).count().max(1);
        folded.iter().map(|f| test(f, scale, FAMILY_ALPHA / tested as f64)).collect()
    }
}

/// The warnings under the standings, one per flagged bot, in rank order.
pub fn warnings(ranking: &super::Ranking) -> Vec<String> {
    let unit = &ranking.standings.scoring.unit;
    ranking
        .bots()
        .filter_map(|(i, bot)| ranking.repeated[i].filter(|r| r.flagged).map(|r| (bot, r)))
        .map(|(bot, r)| {
            format!(
                "warning: {} scored {:+.2} ± {:.2} {unit}/game more on deals it had met before than on its first game \
                 of each ({} deals; one-sided p = {:.1e}): it may carry what it saw of a deal into its other games; \
                 unless its processes were kept (--restart off), that went outside them: run bots you do not trust \
                 with --sandbox bwrap",
                bot.name, r.gain, r.interval, r.deals, r.p
            )
        })
        .collect()
}

/// The one-sided z-test of a positive mean difference over the deals of
/// `folded` (margins unscaled by `scale`), flagged below `alpha`.
fn test(folded: &Folded, scale: f64, alpha: f64) -> Option<RepeatedDeals> {
    let n = folded.deals;
    if n < MIN_DEALS {
        return None;
    }
    let count = n as f64;
    let (mut sum, mut variance) = (0.0, 0.0);
    for (&later, &(difference, spread)) in &folded.by_later {
        let later = later as f64;
        sum += difference as f64 / later;
        variance += spread as f64 / (later * later);
    }
    let mean = sum / scale / count;
    let error = variance.sqrt() / scale / count;
    let p = if error > 0.0 {
        1.0 - normal_cdf(mean / error)
    } else if mean > 0.0 {
        0.0
    } else {
        1.0
    };
    Some(RepeatedDeals { deals: n, gain: mean, interval: 1.96 * error, p, flagged: p < alpha })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// A uniform number in `[-half, half)`.
    fn uniform(rng: &mut ChaCha8Rng, half: f64) -> f64 {
        ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * half
    }

    /// Bot 0 gains `gain` on every game of a deal after its first, bot 1
    /// never does; both with noise of standard deviation about 3.
    fn field(gain: f64, deals: u64) -> Vec<Option<RepeatedDeals>> {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut repeats = Repeats::default();
        for deal in 0..deals {
            let mut tags: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
            for bot in 0..2 {
                let first = *tags.iter().min().unwrap();
                for &tag in &tags {
                    let edge = if bot == 0 && tag != first { gain } else { 0.0 };
                    let noise: f64 = (0..3).map(|_| uniform(&mut rng, 3.0)).sum::<f64>();
                    repeats.add(bot, deal, tag, ((edge + noise) * 100.0).round() as i128);
                }
                tags.reverse(); // the order the games came in does not matter
            }
        }
        repeats.tested(2, 100.0)
    }

    #[test]
    fn a_bot_that_gains_on_deals_it_met_is_flagged_and_an_honest_one_is_not() {
        let tested = field(1.5, 400);
        let (cheat, honest) = (tested[0].unwrap(), tested[1].unwrap());
        assert!(cheat.flagged && cheat.p < 1e-6, "{cheat:?}");
        assert!((cheat.gain - 1.5).abs() < cheat.interval, "{cheat:?}");
        assert!(!honest.flagged && honest.p > 0.01, "{honest:?}");
        assert!(honest.gain.abs() < honest.interval, "{honest:?}");
    }

    #[test]
    fn honest_fields_are_rarely_flagged_and_few_deals_are_not_tested() {
        let flagged = (0..50u64)
            .filter(|&seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut repeats = Repeats::default();
                for deal in 0..100 {
                    for bot in 0..4 {
                        for _ in 0..2 {
                            repeats.add(bot, deal, rng.next_u64(), uniform(&mut rng, 500.0) as i128);
                        }
                    }
                }
                repeats.tested(4, 1.0).iter().any(|t| t.unwrap().flagged)
            })
            .count();
        assert!(flagged <= 3, "{flagged} of 50 honest fields flagged at a family rate of 1%");
        assert_eq!(field(5.0, MIN_DEALS - 1), vec![None, None]);
        let mut once = Repeats::default();
        for deal in 0..100 {
            once.add(0, deal, deal, 5);
        }
        assert_eq!(once.tested(1, 1.0), vec![None], "a deal met once is no repeat");
    }

    /// Fields of honest bots whose margins have a long tail, as at 3 and 4
    /// players, where a first game is a single hand that a big pot
    /// sometimes decides: a deal of 6 games, each won by a big pot 1 time
    /// in 12. A spread estimated from the differences flagged such fields
    /// several times the family's rate over few deals.
    #[test]
    fn skewed_honest_fields_are_flagged_at_the_family_rate_at_most() {
        let runs = 400u64;
        let flagged = (0..runs)
            .filter(|&seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut repeats = Repeats::default();
                for deal in 0..34 {
                    for bot in 0..3 {
                        for _ in 0..6 {
                            let pot = if rng.next_u64() % 12 == 0 { 40.0 } else { 0.0 };
                            repeats.add(bot, deal, rng.next_u64(), (pot + uniform(&mut rng, 2.0)) as i128);
                        }
                    }
                }
                repeats.tested(3, 1.0).iter().any(|t| t.unwrap().flagged)
            })
            .count();
        assert!(flagged <= 8, "{flagged} of {runs} skewed honest fields flagged at a family rate of 1%");
    }

    /// Deals closed as they end, in any order, test as the same deals kept
    /// open; closed, they are kept as sums only.
    #[test]
    fn closing_deals_in_any_order_keeps_the_test_and_no_meetings() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut games = Vec::new();
        for deal in 0..60 {
            for bot in 0..2 {
                for _ in 0..2 + deal % 3 {
                    games.push((bot, deal, rng.next_u64(), uniform(&mut rng, 900.0) as i128 + 40));
                }
            }
        }
        let (mut open, mut closed) = (Repeats::default(), Repeats::default());
        games.iter().for_each(|&(bot, deal, key, margin)| open.add(bot, deal, key, margin));
        for deal in (0..60).rev() {
            games
                .iter()
                .filter(|g| g.1 == deal)
                .for_each(|&(bot, deal, key, margin)| closed.add(bot, deal, key, margin));
            closed.close(deal, 2);
        }
        assert!(closed.meetings.is_empty());
        let tested = closed.tested(2, 7.0);
        assert_eq!(tested, open.tested(2, 7.0));
        assert!(tested.iter().all(|t| t.is_some_and(|t| t.deals == 60)), "{tested:?}");
    }

    #[test]
    fn a_deal_s_variance_is_its_spread_over_which_game_came_first() {
        // Two games: the difference is ±(m₁ − m₂), its variance (m₁ − m₂)².
        let mut repeats = Repeats::default();
        for deal in 0..MIN_DEALS {
            repeats.add(0, deal, 1, 3);
            repeats.add(0, deal, 2, 7);
        }
        let tested = repeats.tested(1, 1.0)[0].unwrap();
        let error = (16.0 * MIN_DEALS as f64).sqrt() / MIN_DEALS as f64;
        assert_eq!((tested.gain, tested.interval), (4.0, 1.96 * error));
        assert!(tested.flagged && tested.p < 1e-5, "{tested:?}");
    }
}
