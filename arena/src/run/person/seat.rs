//! A person's seat, whatever it is played from: the game as the seat sees
//! it (what it was told since its last move, the position and its moves,
//! drawn in text by the game, or else as the engine gives them) and its
//! answers, handed to a [`Front`] that shows them and asks for a move: the
//! terminal ([`super::terminal`]), or a page in the browser (`arena play --web`).

use super::Ending;
use super::Failed;
use crate::engine::games::Mirror;
use crate::engine::origin::Origin;
use crate::engine::running::Running;
use crate::run::play::Person;
use crate::run::table::Table;
use crate::store::record::GameResult;
use crate::terminal::untrusted::{escape, escape_lines};
use protocol::engine::{Raw, StepEvent};
use std::borrow::Cow;

/// Where a person's seat is shown and its moves come from.
pub trait Front {
    /// Shows `lines` of the game: what the seat was told, a game's end.
    fn show(&mut self, lines: Vec<String>);
    /// Says `line` (it may start with an empty line) of the sitting: its
    /// games, the running totals, a fault, where the games are recorded.
    fn say(&mut self, line: String);
    /// The person's answer to `turn`: an index into its choices, or `None`
    /// when the person leaves the game.
    fn ask(&mut self, turn: Turn<'_>) -> impl Future<Output = Option<usize>>;
    /// Notes how the sitting ended (nothing is asked or shown after it).
    fn finish(&mut self, ended: &Result<Ending, Failed>);
}

/// A turn of the person's seat, as a [`Front`] shows it.
pub struct Turn<'a> {
    /// The position as the seat sees it, then its moves numbered from 1,
    /// a line each: the terminal's text.
    pub text: String,
    /// The seat's legal moves as the engine lists them (untrusted, for an
    /// engine program).
    pub choices: &'a [Raw],
    /// What the seat observes, as the engine gives it (idem).
    pub state: &'a Raw,
    /// What the seat was told of each event of the game so far (those it
    /// was told of), as the engine gives it (idem).
    pub views: &'a [Raw],
}

/// A person's seat played from `front`.
pub struct Seat<F> {
    seat: usize,
    name: String,
    /// Each seat's name, as shown.
    names: Vec<String>,
    /// What the seat was told since the last events shown, as lines (when the game is not drawn by a mirror).
    news: Vec<String>,
    /// The game drawn in text, for a built-in game.
    mirror: Option<Box<dyn Mirror>>,
    /// What the seat was told of each event of the game so far.
    views: Vec<Raw>,
    /// Where it is shown and answered.
    pub front: F,
}

impl<F: Front> Seat<F> {
    /// Seat `seat`, named `name`, of a table whose seats are named `names`, played from `front`.
    pub fn new(seat: usize, name: String, names: Vec<String>, front: F) -> Seat<F> {
        Seat { seat, name, names, news: Vec::new(), mirror: None, views: Vec::new(), front }
    }

    /// A number per seat, each after its seat: `seat 0 (you) 20 · seat 1 (greedy) -15`.
    pub fn per_seat(&self, numbers: &[i64]) -> String {
        let shown: Vec<String> =
            numbers.iter().enumerate().map(|(seat, n)| format!("seat {seat} ({}) {n}", self.names[seat])).collect();
        shown.join(" · ")
    }

    /// Shows what the seat was told since the last events shown: as the
    /// game (or the engine) draws them, or else as they are.
    fn show_events(&mut self) {
        let news = match self.mirror.as_mut() {
            Some(mirror) => mirror.news(self.seat, &self.names),
            None => std::mem::take(&mut self.news),
        };
        self.front.show(news);
    }

    /// The position and the moves numbered from 1: as the game (or the
    /// engine) draws them, or else the state and each choice as they are.
    fn turn(&self, game: &Running<'_>) -> String {
        if let Some(mirror) = &self.mirror {
            return mirror.turn(self.seat, &self.names);
        }
        if let Some(text) = game.text() {
            return format!("{}\n", escape_lines(text.trim_end()));
        }
        let mut text = format!("{}\n", escape(game.state().get()));
        for (number, choice) in (1..).zip(game.choices()) {
            text.push_str(&format!("  {number}. {}\n", escape(choice.get())));
        }
        text
    }
}

impl<F: Front> Person for Seat<F> {
    fn seat(&self) -> usize {
        self.seat
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn begin(&mut self, table: &Table, origin: Origin<'_>) {
        self.news.clear();
        self.views.clear();
        self.mirror = table.engine.mirror(&table.variant, origin);
    }

    fn tell(&mut self, event: &StepEvent<Raw>) {
        self.views.extend(event.views[self.seat].clone());
        if self.mirror.is_some() {
            return;
        }
        let line = match &event.texts {
            Some(texts) => texts[self.seat].as_deref().map(escape),
            None => event.views[self.seat].as_ref().map(|view| escape(view.get())),
        };
        self.news.extend(line.map(Cow::into_owned));
    }

    fn played(&mut self, index: usize) {
        if let Some(mirror) = self.mirror.as_mut() {
            mirror.played(index);
        }
    }

    async fn choose(&mut self, game: &Running<'_>) -> Option<usize> {
        self.show_events();
        let text = self.turn(game);
        self.front.ask(Turn { text, choices: game.choices(), state: game.state(), views: &self.views }).await
    }

    fn game_over(&mut self, _: &Running<'_>, result: &GameResult) {
        self.show_events();
        let who = |seat: usize| format!("seat {seat} ({})", self.names[seat]);
        let places: Vec<String> = result
            .ranks
            .iter()
            .enumerate()
            .map(|(seat, rank)| format!("{} {}", who(seat), ordinal(rank + 1)))
            .collect();
        let over = format!("game over ({}): scores {}", result.reason, self.per_seat(&result.scores));
        self.front.show(vec![String::new(), over, format!("places: {}", places.join(" · "))]);
    }
}

/// `1st`, `2nd`, `3rd`, `4th`.
fn ordinal(place: u32) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}
