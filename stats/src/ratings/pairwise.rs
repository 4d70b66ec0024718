//! Pairwise results: every finished game, read as one result between each
//! pair of distinct bots in it, and their order-free tally.

use records::record::GameSummary;

/// Each bot's place in `game`, indexed like `names`: the best rank among the
/// bot's seats (a bot may hold several seats as partners), `None` for a bot
/// not in the game. Seats held by bots not in `names` are ignored.
pub fn places(game: &GameSummary, names: &[String]) -> Vec<Option<u32>> {
    names
        .iter()
        .map(|name| {
            game.bots.iter().zip(&game.result.ranks).filter(|(bot, _)| *bot == name).map(|(_, &rank)| rank).min()
        })
        .collect()
}

/// An `n × n` tally of pairwise results. Every entry is a sum of counts, so
/// the tally does not depend on the order results were added in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairwise {
    n: usize,
    /// `games[i * n + j]`: results between `i` and `j` (symmetric).
    games: Vec<u64>,
    /// `half_points[i * n + j]`: `i`'s score against `j`, in half points.
    half_points: Vec<u64>,
}

impl Pairwise {
    /// An empty tally for `n` bots.
    pub fn new(n: usize) -> Pairwise {
        Pairwise { n, games: vec![0; n * n], half_points: vec![0; n * n] }
    }

    /// The number of bots.
    pub fn bots(&self) -> usize {
        self.n
    }

    /// Adds one game, given each bot's place (as from [`places`]): every pair
    /// of bots in it gets one result, a win (1) for the lower place, a draw
    /// (½ each) for equal places.
    pub fn add_game(&mut self, places: &[Option<u32>]) {
        assert_eq!(places.len(), self.n, "one place per bot");
        for (i, a) in places.iter().enumerate() {
            for (j, b) in places.iter().enumerate().skip(i + 1) {
                if let (Some(a), Some(b)) = (a, b) {
                    let half_points_i = match a.cmp(b) {
                        std::cmp::Ordering::Less => 2,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Greater => 0,
                    };
                    self.add_result(i, j, half_points_i);
                }
            }
        }
    }

    /// Adds `wins`, `draws` and `losses` of bot `i` against bot `j`.
    pub fn add_results(&mut self, i: usize, j: usize, wins: u64, draws: u64, losses: u64) {
        assert!(i != j && i < self.n && j < self.n, "two distinct bots");
        self.games[i * self.n + j] += wins + draws + losses;
        self.games[j * self.n + i] += wins + draws + losses;
        self.half_points[i * self.n + j] += 2 * wins + draws;
        self.half_points[j * self.n + i] += 2 * losses + draws;
    }

    fn add_result(&mut self, i: usize, j: usize, half_points_i: u64) {
        match half_points_i {
            2 => self.add_results(i, j, 1, 0, 0),
            1 => self.add_results(i, j, 0, 1, 0),
            _ => self.add_results(i, j, 0, 0, 1),
        }
    }

    /// Results between `i` and `j`.
    pub fn games(&self, i: usize, j: usize) -> u64 {
        self.games[i * self.n + j]
    }

    /// `i`'s score against `j`: wins plus half the draws.
    pub fn score(&self, i: usize, j: usize) -> f64 {
        self.half_points[i * self.n + j] as f64 / 2.0
    }

    /// `i`'s score against `j` as a fraction of their games, `None` if they never met.
    pub fn fraction(&self, i: usize, j: usize) -> Option<f64> {
        let games = self.games(i, j);
        (games > 0).then(|| self.score(i, j) / games as f64)
    }

    /// Whether bot `i` has at least one pairwise result.
    pub fn has_played(&self, i: usize) -> bool {
        (0..self.n).any(|j| self.games(i, j) > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use records::record::GameResult;

    fn summary(bots: &[&str], ranks: &[u32]) -> GameSummary {
        GameSummary {
            id: 0,
            origin: Default::default(),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            result: GameResult { reason: "target".into(), scores: vec![0; bots.len()], ranks: ranks.to_vec() },
            faults: vec![],
        }
    }

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_bot_takes_the_best_place_of_its_seats() {
        let names = names(&["x", "y", "z"]);
        assert_eq!(places(&summary(&["y", "x", "y", "x"], &[1, 0, 1, 0]), &names), vec![Some(0), Some(1), None]);
        assert_eq!(places(&summary(&["z", "x", "y"], &[2, 0, 0]), &names), vec![Some(0), Some(0), Some(2)]);
    }

    #[test]
    fn every_pair_in_a_free_for_all_gets_one_result() {
        let mut tally = Pairwise::new(4);
        // Bot 3 is not in the game; 1 and 2 tie for second.
        tally.add_game(&[Some(0), Some(1), Some(1), None]);
        assert_eq!((tally.games(0, 1), tally.score(0, 1), tally.score(1, 0)), (1, 1.0, 0.0));
        assert_eq!((tally.games(1, 2), tally.score(1, 2), tally.score(2, 1)), (1, 0.5, 0.5));
        assert_eq!((tally.games(2, 0), tally.score(2, 0)), (1, 0.0));
        assert_eq!(tally.games(0, 3), 0);
        assert_eq!(tally.fraction(0, 3), None);
        assert!(!tally.has_played(3));
        tally.add_results(0, 1, 1, 2, 0);
        assert_eq!(tally.fraction(0, 1), Some(3.0 / 4.0));
        assert_eq!(tally.fraction(1, 0), Some(1.0 / 4.0));
    }
}
