//! `arena check-engine`: a conformance test of a game engine that runs as a
//! process, for its author (see `engines/ENGINES.md`, "What check-engine can
//! catch"). Games are played with seeded random choices; every answer is
//! checked as it comes ([`rules`]), the first games are replayed in a second
//! process to see that the engine is a function of its requests, and both
//! processes must exit on `bye` leaving nothing running. An engine's failure
//! is a failed check, never an error of the arena.

use crate::bot::orphans;
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::check::conformance::{Failure, Outcome, Timing, Verdict};
use crate::engine::process::{EngineError, EngineProcess, granted, name};
use crate::engine::rules;
use protocol::engine::{Answer, Request, Step, VariantInfo};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// How many games the determinism check replays in a second process.
const REPLAYED: usize = 3;
/// Every how many steps an index past the choices is sent, to be refused.
const REFUSAL_EVERY: usize = 5;

/// What a check-engine run needs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The engine's command.
    pub command: String,
    /// Its working directory.
    pub dir: PathBuf,
    /// The variant settings to check it with (none: its default variant).
    pub variant: Vec<(String, String)>,
    /// How many games to play.
    pub games: usize,
    /// The seed of the games and of the random choices.
    pub seed: u64,
    /// How long each answer may take.
    pub timeout: Duration,
    /// The most moves a game may last.
    pub max_moves: usize,
}

/// A failed check's verdict, with the fix pointing to a section of ENGINES.md.
fn fail(problem: impl Into<String>, stderr: Vec<String>, fix: &str, section: &str) -> Verdict {
    Verdict::Fail(Box::new(Failure {
        problem: problem.into(),
        sent: Vec::new(),
        stderr,
        fix: format!("{fix}: see engines/ENGINES.md#{section}"),
    }))
}

fn outcome(name: &str, verdict: Verdict) -> Outcome {
    Outcome { name: name.to_string(), expect: None, verdict, timing: Timing::default() }
}

/// The verdict for an engine that failed while a check awaited it.
fn engine_failed(error: EngineError) -> Verdict {
    fail(
        error.message,
        error.stderr,
        "answer every request with one JSON line on stdout, flushed, within the timeout, and keep running until bye",
        "lines",
    )
}

/// Runs every check and returns the checklist, in order. Every process is
/// recorded in `registry` while it lives.
pub fn run(settings: &Settings, registry: Registry) -> Vec<Outcome> {
    orphans::adopt();
    let watch = orphans::watch(&registry);
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    let mut outcomes = runtime.block_on(run_all(settings, &registry));
    drop(watch);
    let swept = orphans::sweep(&registry);
    let verdict = match (registry.escaped(), swept.remaining) {
        (0, 0) => Verdict::Pass("nothing the engine started outlived it".to_string()),
        (escaped, remaining) => fail(
            format!("{escaped} process(es) started by the engine left its process group; {remaining} still running"),
            Vec::new(),
            "keep child processes in the engine's process group, and end them before exiting",
            "lines",
        ),
    };
    outcomes.push(outcome("no-leftovers", verdict));
    outcomes
}

/// One game as played: each request and the answer line it got.
type Transcript = Vec<(Request, Vec<u8>)>;

/// What the checks found, the first failure of each.
#[derive(Default)]
struct Findings {
    steps: Option<String>,
    refusal: Option<String>,
    observe: Option<String>,
    find: Option<String>,
    forfeit: Option<String>,
    leak: Option<String>,
    declared_private: bool,
    /// Observations in which a value was not looked for, the observing seat holding one equal to it.
    shared: usize,
    moves: usize,
    refusals: usize,
    scanned: usize,
}

fn note(slot: &mut Option<String>, problem: String) {
    slot.get_or_insert(problem);
}

async fn run_all(settings: &Settings, registry: &Registry) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let skip = |outcomes: &mut Vec<Outcome>, names: &[&str], why: &str| {
        outcomes.extend(names.iter().map(|name| outcome(name, Verdict::Skip(why.to_string()))));
    };
    const AFTER_HELLO: [&str; 10] = [
        "variant",
        "unknown-setting",
        "games",
        "steps",
        "refuses-illegal",
        "observe",
        "find",
        "forfeit",
        "hidden-information",
        "deterministic",
    ];
    let start =
        EngineProcess::start(&settings.command, &settings.dir, settings.timeout, registry, Placement::default(), None)
            .await;
    let (mut engine, info) = match start {
        Ok(started) => started,
        Err(e) => {
            outcomes.push(outcome("hello", engine_failed(e)));
            skip(&mut outcomes, &AFTER_HELLO, "the engine did not answer hello");
            skip(&mut outcomes, &["bye"], "the engine did not answer hello");
            return outcomes;
        }
    };
    outcomes.push(outcome(
        "hello",
        Verdict::Pass(format!(
            "{} {} ({}, {} variant settings{})",
            info.name,
            info.version,
            info.scoring.unit,
            info.options.len(),
            match info.step_ms {
                Some(asked) => format!(
                    "; it asks {asked} ms an answer, and is given {} ms",
                    granted(settings.timeout, info.step_ms).as_millis()
                ),
                None => String::new(),
            }
        )),
    ));
    let variant = match engine.ask(&Request::Variant { settings: settings.variant.clone() }).await {
        Ok(Answer::Variant(variant)) => match rules::check_teams(&variant) {
            Ok(()) => {
                outcomes.push(outcome(
                    "variant",
                    Verdict::Pass(format!("{} seats, teams {:?}", variant.seats, variant.teams)),
                ));
                variant
            }
            Err(problem) => {
                outcomes.push(outcome(
                    "variant",
                    fail(problem.to_string(), Vec::new(), "give every seat one team", "variant"),
                ));
                skip(&mut outcomes, &AFTER_HELLO[1..], "no variant to play");
                outcomes.push(bye(engine).await);
                return outcomes;
            }
        },
        Ok(other) => {
            let problem = match &other {
                Answer::Error { message } => format!("the settings {:?} were refused: {message}", settings.variant),
                other => format!("answered variant with {}", name(other)),
            };
            outcomes.push(outcome("variant", fail(problem, Vec::new(), "answer variant with \"variant\"", "variant")));
            skip(&mut outcomes, &AFTER_HELLO[1..], "no variant to play");
            outcomes.push(bye(engine).await);
            return outcomes;
        }
        Err(e) => {
            outcomes.push(outcome("variant", engine_failed(e)));
            skip(&mut outcomes, &AFTER_HELLO[1..], "the engine failed");
            skip(&mut outcomes, &["bye"], "the engine failed");
            return outcomes;
        }
    };
    let unknown = Request::Variant { settings: vec![("no-such-setting".to_string(), "1".to_string())] };
    outcomes.push(outcome(
        "unknown-setting",
        match engine.ask(&unknown).await {
            Ok(Answer::Error { message }) => Verdict::Pass(format!("refused: {message}")),
            Ok(other) => fail(
                format!("the setting no-such-setting=1 was answered with {}", name(&other)),
                Vec::new(),
                "refuse a setting the engine does not know with an error that names it",
                "variant",
            ),
            Err(e) => engine_failed(e),
        },
    ));
    let mut findings = Findings::default();
    let mut transcripts = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut failure = None;
    for game in 0..settings.games {
        let seed = rng.next_u64();
        match play(&mut engine, &variant, seed, settings.max_moves, &mut rng, &mut findings).await {
            Ok(transcript) => transcripts.push(transcript),
            Err(e) => {
                failure = Some((game, e));
                break;
            }
        }
    }
    let games_verdict = match failure {
        None => Verdict::Pass(format!("{} games, {} moves", settings.games, findings.moves)),
        Some((game, Played::Engine(e))) => {
            outcomes.push(outcome("games", engine_failed(e)));
            skip(&mut outcomes, &AFTER_HELLO[3..], "the engine failed during the games");
            skip(&mut outcomes, &["bye"], "the engine failed");
            let _ = game;
            return outcomes;
        }
        Some((game, Played::Endless)) => fail(
            format!("game {game} did not end within {} moves", settings.max_moves),
            Vec::new(),
            "end every game: an outcome and no seat to act",
            "step",
        ),
        Some((game, Played::Refused(problem))) => fail(
            format!("in game {game}, {problem}"),
            Vec::new(),
            "make every listed choice playable: list exactly the moves the rules allow",
            "step",
        ),
    };
    outcomes.push(outcome("games", games_verdict));
    outcomes.push(finding("steps", findings.steps.take(), "every step followed the rules of a step", "step"));
    outcomes.push(finding(
        "refuses-illegal",
        findings.refusal.take(),
        &format!("{} indices past the choices refused, the game unchanged", findings.refusals),
        "step",
    ));
    outcomes.push(finding(
        "observe",
        findings.observe.take(),
        "observe of the seat to act is its state",
        "found-observe-scores",
    ));
    outcomes.push(finding(
        "find",
        findings.find.take(),
        "every choice sent back as it is was found at its index",
        "found-observe-scores",
    ));
    outcomes.push(finding("forfeit", findings.forfeit.take(), "a score for every seat", "found-observe-scores"));
    outcomes.push(match (findings.leak.take(), findings.declared_private) {
        (Some(problem), _) => outcome(
            "hidden-information",
            fail(problem, Vec::new(), "show each seat only what it may know", "declaring-private-values"),
        ),
        (None, true) => outcome(
            "hidden-information",
            Verdict::Pass(format!(
                "{} observations scanned: no seat saw another's private values{}",
                findings.scanned,
                match findings.shared {
                    0 => String::new(),
                    shared => format!(
                        " (in {shared} the observing seat held a value equal to another seat's, not looked for there)"
                    ),
                }
            )),
        ),
        (None, false) => outcome(
            "hidden-information",
            Verdict::Skip(
                "the engine declares no private information (a step's `private`), so nothing could be checked"
                    .to_string(),
            ),
        ),
    });
    outcomes.push(outcome("deterministic", deterministic(settings, registry, &transcripts).await));
    outcomes.push(bye(engine).await);
    outcomes
}

/// The outcome of a check that the games fed.
fn finding(name: &str, problem: Option<String>, passed: &str, section: &str) -> Outcome {
    outcome(
        name,
        match problem {
            None => Verdict::Pass(passed.to_string()),
            Some(problem) => fail(problem, Vec::new(), "follow the protocol's description of these answers", section),
        },
    )
}

/// An answer as the engine wrote it (near enough: re-encoded).
fn shown(answer: &Answer) -> String {
    serde_json::to_string(answer).expect("answers serialize")
}

/// Why a game could not be played on.
enum Played {
    Engine(EngineError),
    Endless,
    Refused(String),
}

impl From<EngineError> for Played {
    fn from(e: EngineError) -> Self {
        Played::Engine(e)
    }
}

/// Asks and keeps the request and answer in `transcript`.
async fn ask(engine: &mut EngineProcess, transcript: &mut Transcript, request: Request) -> Result<Answer, EngineError> {
    let (answer, line) = engine.ask_raw(&request).await?;
    transcript.push((request, line));
    Ok(answer)
}

/// Plays one game from `seed` with random choices, checking every answer.
async fn play(
    engine: &mut EngineProcess,
    variant: &VariantInfo,
    seed: u64,
    max_moves: usize,
    rng: &mut ChaCha8Rng,
    findings: &mut Findings,
) -> Result<Transcript, Played> {
    let mut transcript = Vec::new();
    let start = Request::Start { variant: variant.variant.clone(), seed: Some(seed), setup: None, describe: true };
    let mut step = match ask(engine, &mut transcript, start).await? {
        Answer::Step(step) => step,
        other => return Err(Played::Refused(format!("start was answered {}", shown(&other)))),
    };
    // The start's views are scanned as every step's: against what is private
    // once the deal is done, as all of it was while it was dealt.
    let mut private: Option<Vec<Vec<Value>>> = step.private.clone();
    let mut moves = 0;
    loop {
        scan(engine, &mut transcript, &step, variant.seats, private.as_deref(), findings).await?;
        private = step.private.clone();
        if let Err(problem) = rules::check_step(&step, variant.seats, &variant.teams) {
            note(&mut findings.steps, format!("after {moves} moves from seed {seed}: {problem}"));
        }
        let Some(seat) = step.to_act else { break };
        if step.choices.is_empty() {
            break;
        }
        if moves >= max_moves {
            return Err(Played::Endless);
        }
        match ask(engine, &mut transcript, Request::Observe { seat }).await? {
            Answer::Observe { state } if state == step.state => {}
            other => note(
                &mut findings.observe,
                format!("observe of seat {seat} (to act) was answered {}, not its state {}", shown(&other), step.state),
            ),
        }
        let index = (rng.next_u64() % step.choices.len() as u64) as usize;
        match ask(engine, &mut transcript, Request::Find { named: step.choices[index].clone() }).await? {
            Answer::Found { index: Some(found), .. } if step.choices.get(found) == Some(&step.choices[index]) => {}
            other => note(
                &mut findings.find,
                format!("choice {index} ({}) sent back as it is was answered {}", step.choices[index], shown(&other)),
            ),
        }
        if moves == 1 {
            match ask(engine, &mut transcript, Request::Forfeit { faulted: vec![seat] }).await? {
                Answer::Scores { scores } if scores.len() == variant.seats => {}
                other => note(&mut findings.forfeit, format!("forfeit of seat {seat} was answered {}", shown(&other))),
            }
        }
        if moves % REFUSAL_EVERY == 0 {
            findings.refusals += 1;
            let past = step.choices.len();
            match ask(engine, &mut transcript, Request::Play { index: past }).await? {
                Answer::Error { .. } => {}
                other => note(
                    &mut findings.refusal,
                    format!("play {past} (there are {past} choices) was answered {}", name(&other)),
                ),
            }
            match ask(engine, &mut transcript, Request::Observe { seat }).await? {
                Answer::Observe { state } if state == step.state => {}
                _ => note(&mut findings.refusal, format!("the refused play {past} changed what seat {seat} observes")),
            }
        }
        step = match ask(engine, &mut transcript, Request::Play { index }).await? {
            Answer::Step(next) => next,
            other => {
                return Err(Played::Refused(format!(
                    "choice {index} of {} ({}) was answered {}",
                    step.choices.len(),
                    step.choices[index],
                    shown(&other)
                )));
            }
        };
        moves += 1;
        findings.moves += 1;
    }
    Ok(transcript)
}

/// The hidden-information scan of a step: every seat's state now, and what
/// each was told of the step's events, against what the engine declares
/// private (`before` the step, and after it in `step.private`; for the
/// start, `before` is what is private after it).
async fn scan(
    engine: &mut EngineProcess,
    transcript: &mut Transcript,
    step: &Step,
    seats: usize,
    before: Option<&[Vec<Value>]>,
    findings: &mut Findings,
) -> Result<(), EngineError> {
    let Some(after) = &step.private else { return Ok(()) };
    findings.declared_private = true;
    let hidden_from_views = before.map(|before| rules::still_private(before, after));
    for seat in 0..seats.min(after.len()) {
        if let Some(hidden) = &hidden_from_views {
            for event in &step.events {
                if let Some(Some(view)) = event.views.get(seat) {
                    findings.scanned += 1;
                    findings.shared += usize::from(rules::shares(seat, hidden));
                    if let Some((other, secret)) = rules::leak(view, seat, hidden) {
                        note(
                            &mut findings.leak,
                            format!("seat {seat} was told {view}, which shows {secret}, private to seat {other}"),
                        );
                    }
                }
            }
        }
        if let Answer::Observe { state } = ask(engine, transcript, Request::Observe { seat }).await? {
            findings.scanned += 1;
            findings.shared += usize::from(rules::shares(seat, after));
            if let Some((other, secret)) = rules::leak(&state, seat, after) {
                note(
                    &mut findings.leak,
                    format!("seat {seat} observes {state}, which shows {secret}, private to seat {other}"),
                );
            }
        }
    }
    Ok(())
}

/// Replays the first games in a fresh process: every answer must be the same, byte for byte.
async fn deterministic(settings: &Settings, registry: &Registry, transcripts: &[Transcript]) -> Verdict {
    let (mut engine, _) = match EngineProcess::start(
        &settings.command,
        &settings.dir,
        settings.timeout,
        registry,
        Placement::default(),
        None,
    )
    .await
    {
        Ok(started) => started,
        Err(e) => return engine_failed(e),
    };
    let mut answers = 0;
    for (game, transcript) in transcripts.iter().take(REPLAYED).enumerate() {
        for (n, (request, first)) in transcript.iter().enumerate() {
            let again = match engine.ask_raw(request).await {
                Ok((_, line)) => line,
                Err(e) => return engine_failed(e),
            };
            if &again != first {
                engine.kill().await;
                return fail(
                    format!(
                        "replayed in a second process, request {n} of game {game} ({}) was answered {} the first time and {} the second",
                        serde_json::to_string(request).expect("requests serialize"),
                        String::from_utf8_lossy(first),
                        String::from_utf8_lossy(&again)
                    ),
                    Vec::new(),
                    "draw every chance event from the seed given in start, never from the clock or the system",
                    "lines",
                );
            }
            answers += 1;
        }
    }
    // Whether it exits on bye is the bye check's business.
    engine.kill().await;
    Verdict::Pass(format!(
        "{} games replayed in a second process: {answers} answers the same",
        transcripts.len().min(REPLAYED)
    ))
}

/// The check that the engine exits on `bye`.
async fn bye(engine: EngineProcess) -> Outcome {
    outcome(
        "bye",
        match engine.bye().await {
            Ok(()) => Verdict::Pass("exited on bye".to_string()),
            Err(e) => fail(
                e.message,
                e.stderr,
                "exit within 2 seconds of bye (and at the end of input)",
                "requests-and-answers",
            ),
        },
    )
}
