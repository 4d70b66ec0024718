//! A run's directory as it is written: [`Watch::poll`] reads the lines added
//! to `games.jsonl` since the last poll (a line not yet ended waits for its
//! end) and keeps what the live page shows: the standings and the SPRT of
//! every game so far, computed by the code that writes `standings.json` and
//! `sprt.json` (once the run has written them, the files themselves), the
//! games per second, the latest games and faults, and where each record is.
//! A run served by its own process hands over its games as it records them
//! and its own standings and SPRT, which are then not counted again here
//! ([`Watch::fed`]). It only reads the directory.

use crate::engine::spec::{Engine, Identity};
use crate::league::config::{LeagueConfig, SprtConfig};
use crate::report::store::GameStore;
use crate::run::flights::{Flights, RecordedGame};
use crate::schedule::Seating;
use crate::stats::sprt::DealSequence;
use crate::stats::sprt::report::Summary;
use crate::stats::standings::Standings;
use crate::store::output::{GAMES, LEAGUE, SPRT_CONFIG, SPRT_RESULT};
use crate::store::record::GameSummary;
use crate::store::record_file::Header;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many of the latest games and faults the page is sent.
const LATEST: usize = 40;
/// The games/s are those of this last stretch of time.
const RATE_WINDOW: Duration = Duration::from_secs(10);
/// The standings (their ratings replay every game) are made again for the
/// page only once this many times what making them last took has passed,
/// so that they take at most 1% of a core however many games there are.
const STANDINGS_SHARE: u32 = 100;

/// What ran in the directory.
enum Setup {
    Match,
    League(Box<LeagueConfig>),
    Sprt(Box<SprtConfig>),
}

/// The game of the records, once known.
struct Game {
    name: String,
    /// Whether an engine program played it.
    program: bool,
}

/// The test of an SPRT, fed as the games come.
struct Test {
    sequence: DealSequence,
    names: Vec<String>,
}

/// A run's directory, read as it grows.
pub struct Watch {
    dir: PathBuf,
    setup: Setup,
    game: Option<Game>,
    /// The engine program that played the games, as their first record says.
    engine: Option<Identity>,
    names: Vec<String>,
    /// The standings: counted here, or the run's own ([`Watch::fed`]).
    standings: Option<Standings>,
    /// The SPRT's test: fed here, or the run's own.
    test: Option<Test>,
    /// How far `games.jsonl` is read, and the start of a line not yet ended.
    offset: u64,
    pending: Vec<u8>,
    /// The file read (its inode): a run that ends puts `games.jsonl` in id
    /// order in a new file, whose records are then found elsewhere.
    file: Option<u64>,
    /// Where each game's record is: id → (offset, length).
    spans: HashMap<u64, (u64, usize)>,
    /// Every game read, to count them again when a match's bot first
    /// appears (none when the run counts them: [`Watch::fed`]).
    store: GameStore,
    /// The latest [`LATEST`] games read.
    recent: VecDeque<GameSummary>,
    games: u64,
    faults: VecDeque<Value>,
    fault_count: u64,
    /// When games were read, with the count then, over [`RATE_WINDOW`].
    arrivals: VecDeque<(Instant, u64)>,
    /// Lines that are not records, with why.
    damaged: Vec<String>,
    /// The run of this process that hands over the games it records, if it does.
    feed: Option<Arc<Flights>>,
    /// The standings last made for the page ([`STANDINGS_SHARE`]).
    shown: Option<Shown>,
}

/// Standings made for the page: of how many games, when, and what making them took.
struct Shown {
    games: u64,
    value: Value,
    at: Instant,
    took: Duration,
}

/// Why a directory cannot be watched: the message names the cause and the fix.
#[derive(Debug)]
pub struct NotARun(pub String);

impl Watch {
    /// Watches `dir`, the output directory of a match, a league or an SPRT
    /// (it may hold no games yet).
    ///
    /// # Errors
    /// When `dir` is not a directory, or a configuration file in it does not parse.
    pub fn new(dir: &Path) -> Result<Watch, NotARun> {
        if !dir.is_dir() {
            return Err(NotARun(format!(
                "{} is not a directory: give the output directory of `arena match --out`, `arena league --out` or `arena sprt --out`",
                dir.display()
            )));
        }
        let read = |name: &str| -> Result<Option<String>, NotARun> {
            match std::fs::read_to_string(dir.join(name)) {
                Ok(text) => Ok(Some(text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(NotARun(format!("cannot read {}: {e}", dir.join(name).display()))),
            }
        };
        let parse_error = |name: &str, e: serde_json::Error| {
            NotARun(format!("{} does not parse ({e}): is it the output directory of a run?", dir.join(name).display()))
        };
        let setup = if let Some(text) = read(SPRT_CONFIG)? {
            Setup::Sprt(Box::new(serde_json::from_str(&text).map_err(|e| parse_error(SPRT_CONFIG, e))?))
        } else if let Some(text) = read(LEAGUE)? {
            Setup::League(Box::new(serde_json::from_str(&text).map_err(|e| parse_error(LEAGUE, e))?))
        } else {
            Setup::Match
        };
        let names: Vec<String> = match &setup {
            Setup::Match => Vec::new(),
            Setup::League(config) => config.bots.iter().map(|b| b.name.clone()).collect(),
            Setup::Sprt(config) => config.games.bots.iter().map(|b| b.name.clone()).collect(),
        };
        let game = match &setup {
            Setup::Match => None,
            Setup::League(config) => Some(Game { name: config.game.clone(), program: config.engine.is_some() }),
            Setup::Sprt(config) => {
                Some(Game { name: config.games.game.clone(), program: config.games.engine.is_some() })
            }
        };
        let mut watch = Watch {
            dir: dir.to_path_buf(),
            setup,
            game,
            engine: None,
            names,
            standings: None,
            test: None,
            offset: 0,
            file: None,
            pending: Vec::new(),
            spans: HashMap::new(),
            store: GameStore::default(),
            recent: VecDeque::new(),
            games: 0,
            faults: VecDeque::new(),
            fault_count: 0,
            arrivals: VecDeque::new(),
            damaged: Vec::new(),
            feed: None,
            shown: None,
        };
        watch.start_standings(None);
        Ok(watch)
    }

    /// Whether the game, and so its scoring, is known, and the standings
    /// and the test begun (when they are counted here).
    fn started(&self) -> bool {
        self.game.is_some() && (self.feed.is_some() || self.standings.is_some())
    }

    /// The standings and the test, once the game (and so its scoring) is
    /// known; only the game's name when the run counts them ([`Watch::fed`]).
    fn start_standings(&mut self, header: Option<&Header>) {
        if self.started() {
            return;
        }
        let scoring = match (&self.game, header) {
            (Some(game), _) if !game.program => Engine::built_in(&game.name).ok().map(|engine| engine.scoring()),
            (_, Some(header)) => match &header.engine {
                Some(identity) => Some(crate::engine::spec::scoring(&identity.scoring)),
                None => Engine::built_in(&header.game).ok().map(|engine| engine.scoring()),
            },
            _ => None,
        };
        let Some(scoring) = scoring else { return };
        self.engine = header.and_then(|header| header.engine.clone());
        if let (None, Some(header)) = (&self.game, header) {
            self.game = Some(Game { name: header.game.clone(), program: header.engine.is_some() });
        }
        if self.feed.is_some() {
            return;
        }
        self.standings = Some(Standings::new(&self.names, scoring));
        if let Setup::Sprt(config) = &self.setup {
            let sides = config.games.bots.len();
            let games_per_deal = Seating::Rotations.games_per_deal(sides) as usize;
            if let Ok(sequence) = DealSequence::new(config.test, games_per_deal, sides - 1) {
                self.test = Some(Test { sequence, names: self.names.clone() });
            }
        }
    }

    /// The game's name and whether an engine program played it, once known.
    pub fn game(&self) -> Option<(&str, bool)> {
        self.game.as_ref().map(|game| (game.name.as_str(), game.program))
    }

    /// How many games the run plans, when its directory says
    /// ([`super::plan`]), counting the games read so far.
    pub fn planned(&self) -> Option<u64> {
        let Setup::League(config) = &self.setup else { return None };
        super::plan::planned(config, self.engine.as_ref(), &self.spans.keys().copied().collect())
    }

    /// Where game `id`'s record is in `games.jsonl`, if it has been read.
    pub fn span(&self, id: u64) -> Option<(u64, usize)> {
        self.spans.get(&id).copied()
    }

    /// Lists the games the run of this process hands over as it records
    /// them ([`Flights::recorded`]), instead of reading their lines back
    /// from `games.jsonl` (the lines it does not hand over, those of the
    /// games played before a resumed run and all of them until it says
    /// where its own begin, are read from the file), and shows the run's
    /// own standings and SPRT, which it hands over when asked at each poll
    /// ([`Flights::ask`]), instead of counting every game again.
    pub fn fed(mut self, flights: Arc<Flights>) -> Watch {
        self.feed = Some(flights);
        self.standings = None;
        self.test = None;
        self
    }

    /// The run's standings and test handed over since the last poll, and
    /// asks for them again.
    fn take_counted(&mut self) {
        let Some(feed) = &self.feed else { return };
        let (standings, sequence) = feed.take_counted();
        feed.ask();
        if standings.is_some() {
            self.standings = standings;
        }
        if let Some(sequence) = sequence {
            self.test = Some(Test { sequence, names: self.names.clone() });
        }
    }

    /// Reads what was added to `games.jsonl`; whether anything was.
    pub fn poll(&mut self) -> bool {
        use std::os::unix::fs::MetadataExt;
        // Taken before the file is opened: every game taken is in it.
        let taken = self.feed.as_ref().map(|feed| feed.take_recorded());
        let Ok(mut file) = std::fs::File::open(self.dir.join(GAMES)) else { return false };
        let Ok(meta) = file.metadata() else { return false };
        let before = self.games;
        if self.file.is_some_and(|read| read != meta.ino()) {
            let recorded = taken.flatten().map(|(_, recorded)| recorded).unwrap_or_default();
            if self.put_in_order(meta.len(), recorded) {
                self.file = Some(meta.ino());
                self.take_counted();
                return self.games > before;
            }
            // Put in order as the run ended: read again from the start, the
            // games handed over so far being all in the new file.
            let Ok(again) = Watch::new(&self.dir) else { return false };
            let counted = (self.standings.take(), self.test.take());
            *self = match self.feed.take() {
                // The run's standings and test as last handed over: it has ended.
                Some(feed) => Watch { standings: counted.0, test: counted.1, ..again.fed(feed) },
                None => again,
            };
            self.file = Some(meta.ino());
            self.read(&mut file, meta.len());
        } else {
            self.file = Some(meta.ino());
            match taken {
                Some(Some((from, recorded))) => {
                    self.read(&mut file, from);
                    self.take(&mut file, recorded);
                }
                _ => self.read(&mut file, meta.len()),
            }
        }
        self.take_counted();
        self.arrivals.push_back((Instant::now(), self.games));
        self.games > before
    }

    /// The run has put `games.jsonl` in id order as it ended (a new file of
    /// `length` bytes): when every line of it is a game read or handed over
    /// (`recorded`, the last ones), each is found where the lengths of the
    /// lines before it put it, without reading the file again (a run served
    /// by its own process). False, and nothing changed, otherwise.
    fn put_in_order(&mut self, length: u64, recorded: Vec<RecordedGame>) -> bool {
        let mut end = self.offset - self.pending.len() as u64;
        let follows = recorded.iter().all(|&(_, (offset, line))| {
            let next = offset == end;
            end = offset + line as u64 + 1;
            next
        });
        let lines = |spans: &HashMap<u64, (u64, usize)>| spans.values().map(|&(_, line)| line as u64 + 1).sum::<u64>();
        let handed = recorded.iter().map(|&(_, (_, line))| line as u64 + 1).sum::<u64>();
        if self.feed.is_none() || !follows || end != length || lines(&self.spans) + handed != length {
            return false;
        }
        for (summary, span) in recorded {
            self.count(summary, span);
        }
        let mut ids: Vec<(u64, usize)> = self.spans.iter().map(|(&id, &(_, line))| (id, line)).collect();
        ids.sort_unstable();
        let mut offset = 0;
        for (id, line) in ids {
            self.spans.insert(id, (offset, line));
            offset += line as u64 + 1;
        }
        (self.offset, self.pending) = (length, Vec::new());
        true
    }

    /// Counts the games handed over, each where its line is in `file`: the
    /// lines before one that were not handed over are read from `file`.
    fn take(&mut self, file: &mut std::fs::File, recorded: Vec<RecordedGame>) {
        if recorded.is_empty() {
            return;
        }
        // From the start of a line not yet ended: the run hands it over.
        self.offset -= std::mem::take(&mut self.pending).len() as u64;
        for (summary, (offset, length)) in recorded {
            if offset < self.offset {
                continue; // read from the file already
            }
            if offset > self.offset {
                self.read(file, offset);
            }
            if !self.started() {
                let mut line = vec![0; length];
                if std::os::unix::fs::FileExt::read_exact_at(&*file, &mut line, offset).is_ok()
                    && let Ok(header) = serde_json::from_slice::<Header>(&line)
                {
                    self.start_standings(Some(&header));
                }
            }
            self.count(summary, (offset, length));
            self.offset = offset + length as u64 + 1;
        }
    }

    /// Reads `file` from where it was read to up to byte `end`.
    fn read(&mut self, file: &mut std::fs::File, end: u64) {
        if end <= self.offset || file.seek(SeekFrom::Start(self.offset)).is_err() {
            return;
        }
        // What was added, read after the line not yet ended, where it begins.
        let mut bytes = std::mem::take(&mut self.pending);
        let (kept, start) = (bytes.len(), self.offset - bytes.len() as u64);
        if file.take(end - self.offset).read_to_end(&mut bytes).is_err() {
            bytes.truncate(kept);
            self.pending = bytes;
            return;
        }
        self.offset += (bytes.len() - kept) as u64;
        let ended = memchr::memrchr(b'\n', &bytes).map_or(0, |at| at + 1);
        self.pending = bytes[ended..].to_vec();
        let mut from = 0;
        for end in memchr::memchr_iter(b'\n', &bytes[..ended]) {
            self.read_line(&bytes[from..end], (start + from as u64, end - from));
            from = end + 1;
        }
    }

    /// One line of `games.jsonl`, at `span`.
    fn read_line(&mut self, line: &[u8], span: (u64, usize)) {
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        if !self.started()
            && let Ok(header) = serde_json::from_slice::<Header>(line)
        {
            self.start_standings(Some(&header));
        }
        match GameSummary::from_line(line) {
            Ok(summary) => self.count(summary, span),
            Err(e) => self.damaged.push(format!("{GAMES} at byte {}: {e}", span.0)),
        }
    }

    /// Counts game `summary`, whose line is at `span` (only lists it when
    /// the run counts its games: [`Watch::fed`]).
    fn count(&mut self, summary: GameSummary, span: (u64, usize)) {
        if self.feed.is_none() {
            self.count_here(&summary, span);
        }
        self.games += 1;
        self.spans.insert(summary.id, span);
        for fault in &summary.faults {
            self.fault_count += 1;
            push_latest(
                &mut self.faults,
                json!({"game": summary.id, "seat": fault.seat, "bot": fault.bot, "kind": fault.kind,
                       "message": fault.message, "stderr": fault.stderr}),
            );
        }
        push_latest(&mut self.recent, summary);
    }

    /// Counts game `summary` in the standings and the test.
    fn count_here(&mut self, summary: &GameSummary, span: (u64, usize)) {
        let unseen: Vec<&String> = summary.bots.iter().filter(|name| !self.names.contains(name)).collect();
        if !unseen.is_empty() {
            // A match's bots, in the order they first sit (as `arena report` takes them);
            // the standings begin again with them, over the games so far.
            for name in unseen {
                if !self.names.contains(name) {
                    self.names.push(name.clone());
                }
            }
            if let Some(standings) = &mut self.standings {
                *standings = Standings::new(&self.names, standings.scoring.clone());
                self.store.iter().for_each(|game| standings.add(&game));
            }
        }
        if let Some(standings) = &mut self.standings {
            standings.add(summary);
        }
        self.store.push(summary, span);
        if let Some(test) = &mut self.test {
            let Test { sequence, names } = test;
            sequence.add_game(summary, summary.origin.deal, summary.origin.arrangement, &names[0], &names[1..]);
        }
    }

    /// The latest [`LATEST`] games read, as the page lists them (built when
    /// the page is sent them, not for every game read).
    fn latest(&self) -> Vec<Value> {
        self.recent
            .iter()
            .map(|summary| {
                let faults: Vec<Value> = summary.faults.iter().map(|f| json!([f.seat, f.kind])).collect();
                json!({"id": summary.id, "bots": summary.bots, "scores": summary.result.scores,
                       "ranks": summary.result.ranks, "reason": summary.result.reason, "faults": faults})
            })
            .collect()
    }

    /// Games per second over the last [`RATE_WINDOW`].
    fn rate(&mut self) -> f64 {
        let now = Instant::now();
        while self.arrivals.len() > 2 && self.arrivals.front().is_some_and(|&(t, _)| now - t > RATE_WINDOW) {
            self.arrivals.pop_front();
        }
        match (self.arrivals.front(), self.arrivals.back()) {
            (Some(&(t0, g0)), Some(&(t1, g1))) if t1 > t0 => (g1 - g0) as f64 / (t1 - t0).as_secs_f64(),
            _ => 0.0,
        }
    }

    /// A JSON file of the directory, if it is there and parses.
    fn file(&self, name: &str) -> Option<Value> {
        std::fs::read_to_string(self.dir.join(name)).ok().and_then(|text| serde_json::from_str(&text).ok())
    }

    /// What the page shows, as JSON: `total` is the games the run plays, when known.
    pub fn state(&mut self, total: Option<u64>, flights: Option<Vec<(u64, Vec<String>, usize)>>) -> Value {
        let seed = match &self.setup {
            Setup::League(config) => Some(config.kept.seed),
            Setup::Sprt(config) => Some(config.games.kept.seed),
            Setup::Match => None,
        };
        let game = self.game.as_ref().map(|game| game.name.clone());
        // The run's own files, once they count every game read.
        let written = self.file("standings.json").filter(|file| file["games"].as_u64() == Some(self.games));
        let finished = written.is_some();
        let standings = written.or_else(|| self.standings_shown(game.as_deref()?, seed));
        let sprt = self.sprt_state(finished);
        let rate = self.rate();
        let left = match (&sprt, total) {
            (Some(sprt), _) => sprt["left"].as_u64(),
            (None, Some(total)) => Some(total.saturating_sub(self.games)),
            (None, None) => None,
        };
        let kind = match self.setup {
            Setup::Match => "match",
            Setup::League(_) => "league",
            Setup::Sprt(_) => "sprt",
        };
        let league = match &self.setup {
            Setup::League(config) => Some(json!({
                "format": config.kept.format,
                "rounds": config.rounds.len(),
                "games_per_pair": config.kept.games,
                "bots": config.bots.iter().map(|b| &b.name).collect::<Vec<_>>(),
                "changes": config.history,
            })),
            _ => None,
        };
        json!({
            "dir": self.dir.display().to_string(),
            "kind": kind,
            "game": game,
            "games": self.games,
            "finished": finished,
            "total": total,
            "rate": rate,
            "left": left,
            "seconds_left": left.filter(|_| rate > 0.0 && !finished).map(|left| left as f64 / rate),
            "standings": standings,
            "sprt": sprt,
            "league": league,
            "latest": self.latest(),
            "faults": self.faults,
            "fault_count": self.fault_count,
            "damaged": self.damaged.iter().rev().take(5).collect::<Vec<_>>(),
            "flights": flights.map(|flights| flights.into_iter().map(|(id, bots, events)| json!({"id": id, "bots": bots, "events": events})).collect::<Vec<_>>()),
        })
    }

    /// The standings of the games so far as JSON, made again only when
    /// games were added and [`STANDINGS_SHARE`] times what they last took
    /// has passed.
    fn standings_shown(&mut self, game: &str, seed: Option<u64>) -> Option<Value> {
        let standings = self.standings.as_ref()?;
        let now = Instant::now();
        let due = |shown: &Shown| shown.games != standings.games && now - shown.at >= shown.took * STANDINGS_SHARE;
        if self.shown.as_ref().is_none_or(due) {
            let mut value: Value =
                serde_json::from_str(&standings.to_json(game, seed.unwrap_or_default())).expect("standings are JSON");
            if seed.is_none() {
                value["seed"] = Value::Null;
            }
            self.shown = Some(Shown { games: standings.games, value, at: now, took: now.elapsed() });
        }
        self.shown.as_ref().map(|shown| shown.value.clone())
    }

    /// The SPRT's summary (`sprt.json` once written, else the test of the
    /// games so far) with about how many games are left.
    fn sprt_state(&self, finished: bool) -> Option<Value> {
        let test = self.test.as_ref()?;
        let written = self.file(SPRT_RESULT).filter(|file| file["games_played"].as_u64() == Some(self.games));
        let mut summary = match written {
            Some(file) => file,
            None => {
                let unit = self.standings.as_ref().map_or("points", |s| &*s.scoring.unit);
                let conclusion = test.sequence.conclusion(!finished);
                let summary =
                    Summary::new(&test.names[0], &test.names[1], &test.sequence, unit, self.games, conclusion);
                serde_json::to_value(&summary).expect("summaries serialize")
            }
        };
        summary["left"] = json!(games_left(&summary));
        Some(summary)
    }
}

/// About how many games an SPRT has left: at the pace its LLR has moved so
/// far, the games it takes to reach the bound it heads for (none once it
/// has a verdict or the LLR has not moved).
fn games_left(summary: &Value) -> Option<u64> {
    let (llr, lower, upper, games) =
        (summary["llr"].as_f64()?, summary["lower"].as_f64()?, summary["upper"].as_f64()?, summary["games"].as_u64()?);
    if matches!(summary["conclusion"].as_str(), Some("H0" | "H1" | "inconclusive")) {
        return Some(0);
    }
    if games == 0 || llr == 0.0 {
        return None;
    }
    let bound = if llr > 0.0 { upper } else { lower };
    Some(((bound - llr) / llr * games as f64).max(0.0).ceil() as u64)
}

/// Keeps the last [`LATEST`] of `list`.
fn push_latest<T>(list: &mut VecDeque<T>, value: T) {
    if list.len() == LATEST {
        list.pop_front();
    }
    list.push_back(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of game `id` of bots a and b, b scoring `score`.
    fn record(id: u64, score: i64) -> String {
        json!({"id": id, "game": "all-fives", "deal": id, "arrangement": 0, "seed": 1, "bot_seeds": [1, 2],
               "bots": ["a", "b"], "result": {"reason": "target", "scores": [250, score], "ranks": [0, 1]},
               "faults": [], "events": []})
        .to_string()
    }

    #[test]
    fn games_left_head_for_the_bound_the_llr_moves_to() {
        let summary = |llr: f64, conclusion: &str| json!({"llr": llr, "lower": -3.0, "upper": 3.0, "games": 100, "conclusion": conclusion});
        assert_eq!(games_left(&summary(1.0, "interrupted")), Some(200));
        assert_eq!(games_left(&summary(-1.5, "interrupted")), Some(100));
        assert_eq!(games_left(&summary(0.0, "interrupted")), None);
        assert_eq!(games_left(&summary(3.1, "H1")), Some(0));
    }

    #[test]
    fn the_standings_are_made_again_once_a_hundred_times_what_they_took_has_passed() {
        let dir = tempfile::tempdir().unwrap();
        let lines = |count: u64| (0..count).map(|id| record(id, 10) + "\n").collect::<String>();
        std::fs::write(dir.path().join(GAMES), lines(1)).unwrap();
        let mut watch = Watch::new(dir.path()).unwrap();
        watch.poll();
        assert_eq!(watch.state(None, None)["standings"]["games"], 1);
        // Ranking took long: a game later, the page still has the standings of one.
        watch.shown.as_mut().unwrap().took = Duration::from_secs(3600);
        std::fs::write(dir.path().join(GAMES), lines(2)).unwrap();
        watch.poll();
        let state = watch.state(None, None);
        assert_eq!((state["games"].clone(), state["standings"]["games"].clone()), (json!(2), json!(1)));
        // Once that has passed, they are made again.
        watch.shown.as_mut().unwrap().took = Duration::ZERO;
        assert_eq!(watch.state(None, None)["standings"]["games"], 2);
    }

    #[test]
    fn a_directory_that_is_missing_is_refused_with_what_to_give() {
        let Err(NotARun(why)) = Watch::new(Path::new("/no/such/run")) else { panic!("watched a missing directory") };
        assert!(why.contains("is not a directory") && why.contains("--out"), "{why}");
    }

    #[test]
    fn a_line_is_read_once_it_ends_and_each_game_found_where_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let first = record(0, 10) + "\n";
        let second = record(1, 10);
        std::fs::write(dir.path().join(GAMES), format!("{first}{}", &second[..10])).unwrap();
        let mut watch = Watch::new(dir.path()).unwrap();
        assert!(watch.poll());
        assert_eq!((watch.games, watch.span(0)), (1, Some((0, first.len() - 1))));
        std::fs::write(dir.path().join(GAMES), format!("{first}{second}\n")).unwrap();
        assert!(watch.poll());
        assert_eq!(watch.span(1), Some((first.len() as u64, second.len())));
        let state = watch.state(Some(10), None);
        assert_eq!(state["games"], 2);
        assert_eq!(state["left"], 8);
        assert_eq!(state["standings"]["bots"][0]["name"], "a");
        assert_eq!(state["standings"]["seed"], Value::Null);
        assert!(!watch.poll(), "nothing new");
    }

    #[test]
    fn records_put_in_order_as_the_run_ends_are_found_where_they_are_then() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (record(0, 10), record(1, 11));
        std::fs::write(dir.path().join(GAMES), format!("{second}\n{first}\n")).unwrap();
        let mut watch = Watch::new(dir.path()).unwrap();
        assert!(watch.poll());
        assert_eq!(watch.span(0), Some((second.len() as u64 + 1, first.len())));
        // As OutDir::finish does: a new file, renamed over the old one.
        std::fs::write(dir.path().join("sorted"), format!("{first}\n{second}\n")).unwrap();
        std::fs::rename(dir.path().join("sorted"), dir.path().join(GAMES)).unwrap();
        watch.poll();
        assert_eq!(
            (watch.span(0), watch.span(1)),
            (Some((0, first.len())), Some((first.len() as u64 + 1, second.len())))
        );
        assert_eq!(watch.state(None, None)["games"], 2, "each game counted once");
    }

    #[test]
    fn games_handed_over_are_listed_from_their_summaries_with_the_runs_standings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        // Game 0 was played before the run resumed: only the file has it.
        let lines: Vec<String> = (0..3).map(|id| record(id, 10)).collect();
        std::fs::write(&path, format!("{}\n", lines[0])).unwrap();
        let flights = Arc::new(Flights::default());
        let mut watch = Watch::new(dir.path()).unwrap().fed(Arc::clone(&flights));
        flights.records_from(lines[0].len() as u64 + 1);
        assert!(watch.poll(), "the game before the run, from the file");
        // Game 1's line is in the file before the run hands it over.
        std::fs::write(&path, format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..9])).unwrap();
        assert!(!watch.poll(), "a line the run has not handed over waits for it");
        std::fs::write(&path, format!("{}\n{}\n{}\n", lines[0], lines[1], lines[2])).unwrap();
        let at = |id: usize| (lines[..id].iter().map(|line| line.len() as u64 + 1).sum::<u64>(), lines[id].len());
        // Handed over with b's score 20 where the lines say 10: the summaries are what is listed.
        let handed = || (1..3).map(|id| GameSummary::from_line(record(id, 20).as_bytes()).unwrap());
        flights.recorded(handed().zip([at(1), at(2)]));
        // The run's standings, of 5 games where 3 are read: they are shown, not counted again.
        let names = ["a".to_string(), "b".to_string()];
        let mut standings = Standings::new(&names, Engine::built_in("all-fives").unwrap().scoring());
        (0..5).for_each(|id| standings.add(&GameSummary::from_line(record(id, 30).as_bytes()).unwrap()));
        flights.counted(&standings);
        assert!(watch.poll());
        assert_eq!((watch.games, watch.span(1), watch.span(2)), (3, Some(at(1)), Some(at(2))));
        let shown = |watch: &mut Watch| {
            let state = watch.state(None, None);
            let scores = state["latest"].as_array().unwrap().iter().map(|game| game["scores"][1].clone());
            (scores.collect::<Vec<_>>(), state["standings"].clone())
        };
        let mut runs: Value = serde_json::from_str(&standings.to_json("all-fives", 0)).unwrap();
        runs["seed"] = Value::Null;
        assert_eq!(shown(&mut watch), (vec![json!(10), json!(20), json!(20)], runs.clone()));
        // Put in order in a new file: read again from it, each game once, the run's standings kept.
        std::fs::write(dir.path().join("sorted"), std::fs::read(&path).unwrap()).unwrap();
        std::fs::rename(dir.path().join("sorted"), &path).unwrap();
        flights.recorded(handed().zip([at(1), at(2)]));
        watch.poll();
        assert_eq!((watch.games, shown(&mut watch)), (3, (vec![json!(10), json!(10), json!(10)], runs)));
    }

    #[test]
    fn a_served_runs_records_put_in_order_are_found_without_reading_them_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        std::fs::write(&path, "").unwrap();
        let flights = Arc::new(Flights::default());
        let mut watch = Watch::new(dir.path()).unwrap().fed(Arc::clone(&flights));
        flights.records_from(0);
        let lines = [record(1, 11), record(0, 10), record(2, 12)];
        let summary = |line: &String| GameSummary::from_line(line.as_bytes()).unwrap();
        let mut at = 0;
        let mut hand = |lines: &[String]| {
            let mut spans = Vec::new();
            for line in lines {
                spans.push((at, line.len()));
                at += line.len() as u64 + 1;
            }
            flights.recorded(lines.iter().map(summary).zip(spans));
        };
        std::fs::write(&path, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
        hand(&lines[..2]);
        assert!(watch.poll());
        // The last game handed over, then the file put in order (as
        // OutDir::finish does), its scores changed to show that it is not read.
        hand(&lines[2..]);
        let sorted: Vec<String> = (0..3).map(|id| record(id, 99)).collect();
        std::fs::write(dir.path().join("sorted"), sorted.join("\n") + "\n").unwrap();
        std::fs::rename(dir.path().join("sorted"), &path).unwrap();
        assert!(watch.poll());
        let length = sorted[0].len();
        assert_eq!(
            (watch.games, watch.span(0), watch.span(1), watch.span(2)),
            (3, Some((0, length)), Some((length as u64 + 1, length)), Some((2 * length as u64 + 2, length)))
        );
        let scores: Vec<Value> = watch.state(None, None)["latest"]
            .as_array()
            .unwrap()
            .iter()
            .map(|game| game["scores"][1].clone())
            .collect();
        assert_eq!(scores, [json!(11), json!(10), json!(12)], "listed from the summaries handed over");
        assert!(!watch.poll(), "nothing new");
    }
}
