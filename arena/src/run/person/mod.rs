//! `arena play`: a person takes a seat, against bots, at the terminal.
//!
//! The game is played like any game of a match ([`play_seated`]), the
//! person's seat answered from standard input instead of by a process: at
//! each of its turns the seat's view of the game is printed (what happened
//! since, then the position and the legal moves numbered from 1, as the game
//! draws them in text) and a number is read. Moves can be piped in, so a
//! game can be scripted. With an output directory the games are recorded
//! like any others, so `arena view` replays them and `arena verify` checks
//! them.

use crate::bot::orphans;
use crate::bot::placement::Placement;
use crate::bot::pool::{self, Pool};
use crate::bot::signals;
use crate::engine::running::{Origin, Running};
use crate::engine::spec::Mirror;
use crate::run::play::{Person, Unplayable, play_seated};
use crate::run::table::Table;
use crate::schedule::GameSpec;
use crate::schedule::seeds;
use crate::stats::standings::Standings;
use crate::store::output::OutDir;
use crate::store::record::GameResult;
use crate::terminal::console::outln;
use crate::terminal::untrusted::{escape, escape_lines};
use protocol::engine::{Raw, StepEvent};
use std::borrow::Cow;
use std::io::{BufRead, IsTerminal, Write};
use tokio::sync::mpsc;

/// A person's sitting at `arena play`: which seat, how many games, where
/// they are recorded.
pub struct Sitting {
    /// The seat the person takes.
    pub seat: usize,
    /// The person's name in the records.
    pub name: String,
    /// The bot of each seat, an index into the table's bots (not read for
    /// the person's seat).
    pub seating: Vec<usize>,
    /// How many games are played one after another (deals 0, 1, …).
    pub games: u64,
    /// Where the games are recorded, if anywhere.
    pub out: Option<OutDir>,
    /// The arena as it was run, for the commands the output suggests.
    pub program: String,
}

/// How a sitting ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every game was played to its end.
    Played,
    /// The person left a game (it is not recorded; those before it are, if
    /// there is somewhere to record them).
    Left,
}

/// What the arena could not do (never the person's doing, nor a bot's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed(pub String);

/// Plays `sitting`'s games at `table`, the person at the terminal: each
/// game's end and the running total are shown, and the games played to
/// their end are recorded (with the standings) when there is somewhere to.
///
/// # Errors
/// When a game cannot be played (see [`Unplayable`]), or its record cannot
/// be written.
pub fn play(table: Table, sitting: Sitting) -> Result<Ending, Failed> {
    let (engine, registry, seed, seats) = (&table.engine, &table.registry, table.seed, table.seats());
    let name = engine.name().to_string();
    let spec = |id: u64| GameSpec {
        id,
        deal: id,
        arrangement: 0,
        nth: id,
        seed: seeds::deal_seed(seed, id),
        seats: sitting.seating.clone(),
        bot_seeds: (0..seats).map(|seat| seeds::bot_seed(seed, id, seat)).collect(),
    };
    let mut names: Vec<String> =
        sitting.seating.iter().map(|&bot| table.bots.get(bot).map_or("", |b| &b.name).into()).collect();
    names[sitting.seat] = sitting.name.clone();
    let _ = outln!("{name}: you are seat {} ({}), seed {seed}", sitting.seat, sitting.name);
    let _ = match engine.program_of() {
        None => outln!("rules: {} (`{} rules --game {name}` explains them)", rules(&table.variant), sitting.program),
        Some(_) => outln!("rules: {}", rules(&table.variant)),
    };

    let interruption = signals::exit_on_interrupt(registry.clone());
    orphans::adopt();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed(format!("cannot start the runtime: {e}")))?;
    let mut terminal = Terminal::new(sitting.seat, sitting.name.clone(), names.clone());
    let mut records = Vec::new();
    let (left, unplayable) = runtime.block_on(async {
        let pool = Pool::new(Placement::default(), pool::cap(1, seats, seats), table.limits.exit_grace);
        let mut link = match engine.connect(registry, Placement::default()).await {
            Ok(link) => link,
            Err(e) => return (false, Some(Unplayable::from(e))),
        };
        let mut totals = vec![0i64; seats];
        let mut ended = (false, None);
        for id in 0..sitting.games {
            if sitting.games > 1 {
                let _ = outln!("\ngame {} of {}", id + 1, sitting.games);
            }
            match play_seated(&table, &pool, link.as_mut(), &spec(id), 0, Some(&mut terminal)).await {
                Ok(Some(record)) => {
                    for fault in &record.faults {
                        let message = escape(&fault.message);
                        let _ = outln!("fault: seat {} ({}): {}: {message}", fault.seat, fault.bot, fault.kind);
                    }
                    totals.iter_mut().zip(&record.result.scores).for_each(|(total, score)| *total += score);
                    records.push(record);
                    if sitting.games > 1 {
                        let _ = outln!(
                            "after {} of {} games: totals {}",
                            id + 1,
                            sitting.games,
                            terminal.per_seat(&totals)
                        );
                    }
                }
                Ok(None) => {
                    ended = (true, None);
                    break;
                }
                Err(unplayable) => {
                    ended = (false, Some(unplayable));
                    break;
                }
            }
        }
        pool.close_all().await;
        if let Err(e) = link.close().await {
            let _ = outln!("warning: {e}");
        }
        ended
    });
    orphans::sweep(registry);
    interruption.settle();
    if let Some(unplayable) = unplayable {
        return Err(Failed(unplayable.why));
    }
    match (left, records.len()) {
        (true, 0) => {
            let _ = outln!("you left the game: it is not recorded");
        }
        (true, done) if sitting.out.is_some() => {
            let _ = outln!("you left game {}: it is not recorded (the {done} before it are)", done + 1);
        }
        (true, done) => {
            let _ = outln!(
                "you left game {}: no game is recorded, neither it nor the {done} before it (--out DIR records them)",
                done + 1
            );
        }
        (false, _) => {}
    }
    if let (Some(mut out), false) = (sitting.out, records.is_empty()) {
        let lines: Vec<String> = records.iter().map(|r| serde_json::to_string(r).expect("records serialize")).collect();
        out.append(records.iter().zip(&lines).map(|(record, line)| (record.id, line.as_str()))).map_err(|e| {
            Failed(format!("cannot write {}: {e}", out.path().join(crate::store::output::GAMES).display()))
        })?;
        let mut everyone = table.bots.iter().map(|bot| bot.name.clone()).collect::<Vec<_>>();
        everyone.push(sitting.name.clone());
        let mut standings = Standings::new(&everyone, engine.scoring());
        for record in &records {
            standings.add(&record.summary());
        }
        let path = out.path().to_path_buf();
        out.finish(&standings.to_json(&name, seed))
            .map_err(|e| Failed(format!("cannot finish {}: {e}", path.display())))?;
        let _ = outln!(
            "recorded in {}: `{} view {} --game 0 -o game.html` replays it",
            path.join(crate::store::output::GAMES).display(),
            sitting.program,
            path.display()
        );
    }
    Ok(if left { Ending::Left } else { Ending::Played })
}

/// Every rule setting of `variant`, as `arena rules` names them: `players=2 target=250 …`.
fn rules(variant: &impl serde::Serialize) -> String {
    match serde_json::to_value(variant) {
        Ok(serde_json::Value::Object(settings)) => settings
            .iter()
            .map(|(key, value)| match value {
                serde_json::Value::String(text) => format!("{key}={text}"),
                other => format!("{key}={other}"),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// The longest answer read, in bytes: a longer line is cut there (the rest
/// of it is skipped), so that no input makes the arena hold more.
const ANSWER_CAP: usize = 1024;
/// How many answers are read ahead of the game, at most (the reader then
/// waits), so that piped input is never buffered whole.
const READ_AHEAD: usize = 16;

/// The next line of `input`, without its line ending, cut to [`ANSWER_CAP`]
/// bytes and lossily decoded; `None` at the end of the input (or when it
/// cannot be read).
fn read_answer(input: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    loop {
        let chunk = input.fill_buf().ok()?;
        if chunk.is_empty() {
            return (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let take = end.map_or(chunk.len(), |at| at + 1);
        let room = ANSWER_CAP.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if end.is_some() {
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            return Some(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// A person at the terminal: the seat's view of the game on stdout, moves
/// read from stdin (on a thread of its own, so that the bots' processes are
/// served meanwhile).
struct Terminal {
    seat: usize,
    name: String,
    /// Each seat's name, as shown.
    names: Vec<String>,
    /// What the seat was told since the last events shown, as lines (when the game is not drawn by a mirror).
    news: Vec<String>,
    /// The game drawn in text, for a built-in game.
    mirror: Option<Box<dyn Mirror>>,
    /// Lines of standard input; closed at its end.
    input: mpsc::Receiver<String>,
    /// Whether to show the answers read (when they do not come from a terminal, which shows them).
    echo: bool,
}

impl Terminal {
    fn new(seat: usize, name: String, names: Vec<String>) -> Terminal {
        let (tx, input) = mpsc::channel(READ_AHEAD);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            while let Some(line) = read_answer(&mut stdin) {
                if tx.blocking_send(line).is_err() {
                    break;
                }
            }
        });
        Terminal { seat, name, names, news: Vec::new(), mirror: None, input, echo: !std::io::stdin().is_terminal() }
    }

    /// A number per seat, each after its seat: `seat 0 (you) 20 · seat 1 (greedy) -15`.
    fn per_seat(&self, numbers: &[i64]) -> String {
        let shown: Vec<String> =
            numbers.iter().enumerate().map(|(seat, n)| format!("seat {seat} ({}) {n}", self.names[seat])).collect();
        shown.join(" · ")
    }

    /// Prints what the seat was told since the last events shown: as the
    /// game (or the engine) draws them, or else as they are.
    fn show_events(&mut self) {
        let mut out = std::io::stdout().lock();
        let news = match self.mirror.as_mut() {
            Some(mirror) => mirror.news(self.seat, &self.names),
            None => std::mem::take(&mut self.news),
        };
        for line in news {
            let _ = writeln!(out, "{line}");
        }
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

impl Person for Terminal {
    fn seat(&self) -> usize {
        self.seat
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn begin(&mut self, table: &Table, origin: Origin<'_>) {
        self.news.clear();
        self.mirror = table.engine.mirror(&table.variant, origin);
    }

    fn tell(&mut self, event: &StepEvent<Raw>) {
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
        let count = game.choices().len();
        let _ = crate::terminal::console::out(format_args!("\n{}", self.turn(game)));
        let range = if count == 1 { "1".to_string() } else { format!("1-{count}") };
        loop {
            let _ = crate::terminal::console::out(format_args!("your move ({range}, q to quit): "));
            let Some(line) = self.input.recv().await else {
                let _ = outln!("\n(the end of the input)");
                return None;
            };
            if self.echo {
                let _ = outln!("{line}");
            }
            let answer = line.trim();
            if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
                return None;
            }
            match answer.parse::<usize>() {
                Ok(number) if (1..=count).contains(&number) => {
                    let _ = outln!("");
                    return Some(number - 1);
                }
                _ => {
                    let _ = outln!("{answer:?} is not a move: answer with a number from 1 to {count}, or q to quit");
                }
            }
        }
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
        let _ = outln!("\ngame over ({}): scores {}", result.reason, self.per_seat(&result.scores));
        let _ = outln!("places: {}", places.join(" · "));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_a_line_at_a_time_and_cut_at_the_cap() {
        let long = "7".repeat(3 * ANSWER_CAP);
        let text = format!("1\r\n{long}\n\nlast");
        let mut input = std::io::BufReader::with_capacity(100, text.as_bytes());
        assert_eq!(read_answer(&mut input).as_deref(), Some("1"));
        assert_eq!(read_answer(&mut input), Some("7".repeat(ANSWER_CAP)), "cut, and the rest skipped");
        assert_eq!(read_answer(&mut input).as_deref(), Some(""));
        assert_eq!(read_answer(&mut input).as_deref(), Some("last"));
        assert_eq!(read_answer(&mut input), None);
    }
}
