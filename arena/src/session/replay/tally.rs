//! The differences a replay lists as it finds them, counted, and its summary at the end.

use super::ReplayRequest;
use super::record::GameReplay;
use crate::check::replay::{Difference, kind};
use crate::session::exit::{self, Failure, unwritten, usage};
use crate::session::program;
use crate::terminal::console::{errln, outln};
use crate::terminal::untrusted;
use std::collections::BTreeMap;
use std::path::Path;

/// The decisions of one kind of recorded move.
#[derive(Debug, Default)]
struct Kind {
    /// Decisions of this kind.
    decisions: usize,
    /// Those where the bot chose differently, by the kind of its choice.
    instead: BTreeMap<String, usize>,
}

/// What the replays found so far.
#[derive(Debug, Default)]
pub(super) struct Totals {
    /// Games replayed (in one seat or more).
    games: usize,
    /// Games with at least one different choice.
    differing_games: usize,
    /// Decisions asked.
    decisions: usize,
    /// Decisions that differ from the record.
    differences: usize,
    /// Differences the filters let through.
    matching: usize,
    /// Differences listed.
    listed: usize,
    /// Thinking time in microseconds.
    time_us: u64,
    /// The decisions by the kind of the recorded move.
    kinds: BTreeMap<String, Kind>,
    /// The differences by what the chosen move scores at once less what the recorded one scores.
    gains: BTreeMap<i64, usize>,
}

/// How the command that opens a difference's position starts: this arena
/// program's `view` of the records file.
pub(super) struct ViewCommand(String);

impl ViewCommand {
    pub(super) fn new(path: &Path) -> ViewCommand {
        ViewCommand(format!("{} view {}", program(), shell_words::quote(&path.display().to_string())))
    }

    /// The command that writes the page of game `id` opening at
    /// `difference`'s decision, marked with what seat `seat` recorded there
    /// and what the bot `name` chose.
    fn at(&self, id: u64, seat: usize, name: &str, difference: &Difference) -> String {
        let step = difference.event;
        let mark = format!("seat {seat}: recorded {}, {name} chose {}", difference.recorded, difference.chosen);
        let mark = shell_words::quote(&untrusted::escape(&mark)).into_owned();
        format!("{} --game {id} --step {step} --mark {mark} -o game-{id}-{step}.html", self.0)
    }
}

/// Whether the filters of `args` list `difference`.
fn wanted(args: &ReplayRequest, difference: &Difference) -> bool {
    let of_kind = |only: &String| kind(&difference.recorded) == *only || kind(&difference.chosen) == *only;
    let apart = difference.chosen_gain.abs_diff(difference.recorded_gain);
    args.only.as_ref().is_none_or(of_kind) && args.min_diff.is_none_or(|least| apart >= least)
}

/// A score gain, signed: `+10`, `0`, `-5`.
fn signed(gain: i64) -> String {
    if gain > 0 { format!("+{gain}") } else { gain.to_string() }
}

/// Lists the differences of `game` the filters let through (up to the
/// limit, each with the command that opens its position), and counts them all.
pub(super) fn list(
    args: &ReplayRequest,
    name: &str,
    view: &ViewCommand,
    totals: &mut Totals,
    game: &GameReplay,
) -> Result<(), Failure> {
    let id = game.id;
    totals.games += usize::from(!game.seats.is_empty());
    totals.differing_games += usize::from(game.seats.iter().any(|(_, replayed)| !replayed.differences.is_empty()));
    for (seat, replayed) in &game.seats {
        for (of, decisions) in &replayed.kinds {
            totals.kinds.entry(of.clone()).or_default().decisions += decisions;
        }
        for difference in &replayed.differences {
            let of = totals.kinds.entry(kind(&difference.recorded)).or_default();
            *of.instead.entry(kind(&difference.chosen)).or_default() += 1;
            *totals.gains.entry(difference.chosen_gain - difference.recorded_gain).or_default() += 1;
            if !wanted(args, difference) {
                continue;
            }
            totals.matching += 1;
            if args.limit.is_some_and(|limit| totals.listed >= limit) {
                continue;
            }
            totals.listed += 1;
            outln!(
                "game {id}, seat {seat} ({}), event {}: recorded {} (scores {}), {name} chose {} (scores {})\n  {}",
                untrusted::escape(&game.bots[*seat]),
                difference.event,
                difference.recorded,
                signed(difference.recorded_gain),
                difference.chosen,
                signed(difference.chosen_gain),
                view.at(id, *seat, name, difference)
            )
            .map_err(unwritten)?;
        }
        totals.decisions += replayed.decisions;
        totals.differences += replayed.differences.len();
        totals.time_us += replayed.time_us;
    }
    Ok(())
}

/// A share of a whole, in per cent with one decimal.
fn percent(part: usize, whole: usize) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// Prints the summary; the exit status. The bot's thinking time, which
/// differs from run to run, goes to stderr, so that stdout is the same for
/// any `--jobs`.
pub(super) fn summarize(name: &str, args: &ReplayRequest, totals: &Totals) -> Result<i32, Failure> {
    if totals.games == 0 {
        let who = args.as_bot.as_deref().unwrap_or_default();
        return Err(usage(format!("no game of the file has a seat played by {who:?}")));
    }
    let games = match totals.games {
        1 => String::new(),
        n => format!(" in {} of {n} games", totals.differing_games),
    };
    if totals.differences == 0 {
        outln!("{name} chose as recorded at all {} decisions", totals.decisions).map_err(unwritten)?;
    } else {
        outln!(
            "{name} chose differently at {} of {} decisions ({}){games}",
            totals.differences,
            totals.decisions,
            percent(totals.differences, totals.decisions)
        )
        .map_err(unwritten)?;
    }
    outln!("by kind of the recorded move:").map_err(unwritten)?;
    let width = totals.kinds.keys().map(|of| untrusted::escape(of).chars().count()).max().unwrap_or(0);
    let digits = totals.kinds.values().map(|counts| counts.decisions.to_string().len()).max().unwrap_or(0);
    for (of, counts) in &totals.kinds {
        let differ: usize = counts.instead.values().sum();
        let mut line = format!(
            "  {:<width$}  {:>digits$} decisions, {differ} differ ({})",
            untrusted::escape(of),
            counts.decisions,
            percent(differ, counts.decisions)
        );
        if differ > 0 {
            let instead: Vec<String> =
                counts.instead.iter().map(|(to, n)| format!("{} {n}", untrusted::escape(to))).collect();
            line.push_str(&format!("; chose instead: {}", instead.join(", ")));
        }
        outln!("{line}").map_err(unwritten)?;
    }
    if totals.differences > 0 {
        outln!("by what the chosen move scores at once, less what the recorded one scores:").map_err(unwritten)?;
        for (gain, n) in &totals.gains {
            outln!("  {:>6}  {n} ({})", signed(*gain), percent(*n, totals.differences)).map_err(unwritten)?;
        }
    }
    if totals.listed < totals.differences {
        let filters = [
            args.only.as_ref().map(|only| format!("--only {}", shell_words::quote(only))),
            args.min_diff.map(|least| format!("--min-diff {least}")),
            args.limit.map(|limit| format!("--limit {limit}")),
        ];
        let filters: Vec<String> = filters.into_iter().flatten().collect();
        outln!(
            "listed {} of the {} differences ({}: {} match)",
            totals.listed,
            totals.differences,
            filters.join(" "),
            totals.matching
        )
        .map_err(unwritten)?;
    }
    if let Some(only) = &args.only {
        let mut seen = std::collections::BTreeSet::new();
        for (of, counts) in &totals.kinds {
            seen.insert(of);
            seen.extend(counts.instead.keys());
        }
        if !seen.contains(only) {
            let seen: Vec<String> = seen.into_iter().map(|of| untrusted::escape(of).into_owned()).collect();
            errln!(
                "warning: --only {}: no move of that kind was met; the kinds are: {}",
                untrusted::escape(only),
                seen.join(", ")
            );
        }
    }
    errln!("{name} thought for {:.1} ms in all", totals.time_us as f64 / 1000.0);
    Ok(exit::answer(totals.differences == 0))
}
