//! `arena engine NAME`: a built-in game served over the engine protocol
//! (`engines/ENGINES.md`), the protocol's reference implementation.
//!
//! [`Server`] is pure: it turns one request into one answer. [`serve`] is
//! the shell around it that reads requests from stdin and writes answers to
//! stdout.

use game::Game;
use protocol::engine::{
    Answer, ENGINE_VERSION, EngineInfo, OptionInfo, OutcomeInfo, Raw, Request, ScoringInfo, Step, StepEvent,
    VariantInfo,
};
use serde::Serialize;
use serde_json::Value;
use std::io::{BufRead, Write};

/// The longest request line the server reads; a longer one is refused.
const MAX_REQUEST: usize = 1 << 20;

/// A game engine answering requests, with the game in progress (if any).
pub struct Server<G: Game> {
    game: Option<G>,
    /// How many of the game's events have been sent.
    sent: usize,
    /// Whether the steps of the game in progress describe everything the
    /// protocol lets them: each seat's private information (for `arena
    /// check-engine`) and the text of the game for a person (for `arena
    /// play`). A game started with `"describe":false` has no use for them.
    described: bool,
}

impl<G: Game> Default for Server<G> {
    fn default() -> Self {
        Server { game: None, sent: 0, described: true }
    }
}

/// A JSON value of a payload; the game's payloads always serialize.
fn value<T: Serialize>(payload: &T) -> Value {
    serde_json::to_value(payload).expect("a game's payloads serialize")
}

/// A payload as JSON text, written once.
fn raw<T: Serialize>(payload: &T) -> Raw {
    serde_json::value::to_raw_value(payload).expect("a game's payloads serialize")
}

fn error(message: impl Into<String>) -> Answer<Raw> {
    Answer::Error { message: message.into() }
}

impl<G: Game> Server<G> {
    /// The answer to `request`, or `None` for `bye`.
    pub fn answer(&mut self, request: Request) -> Option<Answer<Raw>> {
        Some(match request {
            Request::Hello { .. } => Answer::Engine(info::<G>()),
            Request::Variant { settings } => match G::parse_variant(&settings) {
                Ok(variant) => Answer::Variant(VariantInfo {
                    seats: G::seats(&variant),
                    teams: G::teams(&variant),
                    variant: value(&variant),
                }),
                Err(e) => error(e.0),
            },
            Request::Start { variant, seed, setup, describe } => {
                self.described = describe;
                self.start(variant, seed, setup)
            }
            Request::Play { index } => match &mut self.game {
                None => error("no game: start one first"),
                Some(game) if game.to_act().is_none() => error("the game is over"),
                Some(game) => match game.play(index) {
                    Ok(()) => Answer::Step(self.step()),
                    Err(e) => error(format!("choice {} is not legal: there are {}", e.index, e.legal)),
                },
            },
            Request::Find { named } => match &self.game {
                None => error("no game: start one first"),
                Some(game) => match serde_json::from_value::<G::Move>(named) {
                    Ok(named) => Answer::Found { index: game.find_move(&named), why: game.why_illegal(&named) },
                    Err(e) => Answer::Found { index: None, why: Some(format!("not a move of {}: {e}", G::NAME)) },
                },
            },
            Request::Observe { seat } => match &self.game {
                None => error("no game: start one first"),
                Some(game) if seat >= game.scores().len() => error(format!("there is no seat {seat}")),
                Some(game) => Answer::Observe { state: raw(&game.state(seat)) },
            },
            Request::Forfeit { faulted } => match &self.game {
                None => error("no game: start one first"),
                Some(game) => Answer::Scores { scores: game.forfeit_scores(&faulted) },
            },
            Request::Page { record } => Answer::Page { html: G::html_page(&record.to_string()) },
            Request::Bye => return None,
        })
    }

    fn start(&mut self, variant: Value, seed: Option<u64>, setup: Option<Value>) -> Answer<Raw> {
        let variant: G::Variant = match serde_json::from_value(variant) {
            Ok(variant) => variant,
            Err(e) => return error(format!("not a variant of {}: {e}", G::NAME)),
        };
        if let Err(e) = G::check_variant(&variant) {
            return error(e.0);
        }
        let game = match (seed, setup) {
            (Some(seed), None) => G::new(&variant, seed),
            (None, Some(setup)) => {
                let setup = match serde_json::from_value::<G::Setup>(setup) {
                    Ok(setup) => setup,
                    Err(e) => return error(format!("not a setup of {}: {e}", G::NAME)),
                };
                match G::from_setup(&variant, &setup) {
                    Ok(game) => game,
                    Err(e) => return error(e),
                }
            }
            _ => return error("start takes a seed or a setup, not both"),
        };
        self.game = Some(game);
        self.sent = 0;
        Answer::Step(self.step())
    }

    /// Everything new since the last step.
    fn step(&mut self) -> Step<Raw> {
        let game = self.game.as_ref().expect("a game in progress");
        let seats = game.scores().len();
        let all = self.described;
        // Only the texts name the seats.
        let names: Vec<String> = match all {
            true => (0..seats).map(|seat| format!("seat {seat}")).collect(),
            false => Vec::new(),
        };
        let events = game
            .events_since(self.sent)
            .into_iter()
            .map(|event| {
                let views: Vec<_> = (0..seats).map(|seat| game.view(&event, seat)).collect();
                let texts = all.then(|| {
                    let text = |(seat, view): (usize, &Option<G::View>)| {
                        view.as_ref().map(|view| G::text_view(view, seat, &names))
                    };
                    views.iter().enumerate().map(text).collect()
                });
                StepEvent {
                    views: views.iter().map(|view| view.as_ref().map(raw)).collect(),
                    event: raw(&event),
                    texts,
                }
            })
            .collect();
        self.sent = game.event_count();
        let to_act = game.to_act();
        Step {
            events,
            to_act,
            choices: game.choices().iter().map(raw).collect(),
            state: to_act.map_or_else(|| raw(&Value::Null), |seat| raw(&game.state(seat))),
            scores: game.scores(),
            outcome: game.outcome().map(|o| OutcomeInfo { reason: o.reason.to_string(), ranks: o.ranks }),
            private: match all {
                true => (0..seats).map(|seat| game.private(seat)).collect(),
                false => None,
            },
            text: to_act.filter(|_| all).map(|seat| game.text_turn(seat, &names)),
        }
    }
}

/// What the engine of `G` says of itself.
pub fn info<G: Game>() -> EngineInfo {
    EngineInfo {
        name: G::NAME.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        protocol: ENGINE_VERSION,
        scoring: ScoringInfo { unit: G::SCORING.unit.to_string(), rank_by_mean: G::SCORING.rank_by_mean },
        options: G::variant_options()
            .into_iter()
            .map(|o| OptionInfo {
                key: o.key.to_string(),
                values: o.values.to_string(),
                default: o.default.to_string(),
                help: o.help.to_string(),
            })
            .collect(),
        page: true,
        step_ms: None,
    }
}

/// Serves game `G` on `input` and `output` until `bye` or the end of the
/// input. A line that is not a request is answered with an error.
///
/// # Errors
/// When reading or writing fails.
pub fn serve<G: Game>(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut server = Server::<G>::default();
    let mut input = input.take(0);
    let mut line = Vec::new();
    loop {
        line.clear();
        input.set_limit(MAX_REQUEST as u64 + 1);
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let answer = if line.len() > MAX_REQUEST && !line.ends_with(b"\n") {
            // Skip the rest of the over-long line.
            loop {
                input.set_limit(MAX_REQUEST as u64);
                let mut rest = Vec::new();
                if input.read_until(b'\n', &mut rest)? == 0 || rest.ends_with(b"\n") {
                    break;
                }
            }
            error(format!("a request longer than {MAX_REQUEST} bytes"))
        } else {
            match protocol::line::decode::<Request>(protocol::line::trim_json_whitespace(&line)) {
                Ok(request) => match server.answer(request) {
                    Some(answer) => answer,
                    None => return Ok(()),
                },
                Err(e) => error(format!("not a request: {e}")),
            }
        };
        output.write_all(&protocol::line::encode(&answer))?;
        output.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leduc::Leduc;

    fn ask(server: &mut Server<Leduc>, request: &str) -> Answer<Raw> {
        server.answer(serde_json::from_str(request).expect("a request")).expect("an answer")
    }

    #[test]
    fn a_hand_is_served_step_by_step_and_refuses_what_is_not_legal() {
        let mut server = Server::<Leduc>::default();
        assert!(matches!(ask(&mut server, r#"{"type":"play","index":0}"#), Answer::Error { .. }));
        let Answer::Variant(variant) = ask(&mut server, r#"{"type":"variant","settings":[["players","3"]]}"#) else {
            panic!("a variant")
        };
        assert_eq!((variant.seats, variant.teams), (3, vec![vec![0], vec![1], vec![2]]));
        let start = format!(r#"{{"type":"start","variant":{},"seed":7}}"#, variant.variant);
        let Answer::Step(step) = ask(&mut server, &start) else { panic!("a step") };
        assert_eq!(step.to_act, Some(0));
        assert!(step.events.iter().all(|event| event.views.len() == 3));
        let private = step.private.expect("Leduc declares each seat's card");
        assert!(private.iter().all(|cards| cards.len() == 1), "{private:?}");
        let illegal = format!(r#"{{"type":"play","index":{}}}"#, step.choices.len());
        assert!(matches!(ask(&mut server, &illegal), Answer::Error { .. }));
        let Answer::Step(next) = ask(&mut server, r#"{"type":"play","index":0}"#) else { panic!("a step") };
        assert_eq!(next.to_act, Some(1), "the first event is the move itself: {:?}", next.events);
        assert!(server.answer(Request::Bye).is_none());
    }

    #[test]
    fn a_game_started_without_describe_leaves_its_texts_and_private_out() {
        for (describe, described) in [("", true), (r#","describe":true"#, true), (r#","describe":false"#, false)] {
            let mut server = Server::<Leduc>::default();
            let Answer::Variant(variant) = ask(&mut server, r#"{"type":"variant","settings":[]}"#) else {
                panic!("a variant")
            };
            let start = format!(r#"{{"type":"start","variant":{},"seed":7{describe}}}"#, variant.variant);
            let Answer::Step(step) = ask(&mut server, &start) else { panic!("a step") };
            let Answer::Step(next) = ask(&mut server, r#"{"type":"play","index":0}"#) else { panic!("a step") };
            for step in [step, next] {
                assert_eq!(step.private.is_some(), described, "{start}");
                assert_eq!(step.text.is_some(), described, "{start}");
                assert!(step.events.iter().all(|event| event.texts.is_some() == described), "{start}");
            }
        }
    }

    #[test]
    fn over_long_and_broken_lines_are_answered_with_errors() {
        let mut input = vec![b'x'; MAX_REQUEST + 10];
        input.extend_from_slice(b"\nnot json\n{\"type\":\"hello\",\"protocol\":1}\n{\"type\":\"bye\"}\n");
        let mut output = Vec::new();
        serve::<Leduc>(&input[..], &mut output).expect("served");
        let answers: Vec<Answer> = output
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(matches!(&answers[0], Answer::Error { message } if message.contains("longer")));
        assert!(matches!(&answers[1], Answer::Error { message } if message.contains("not a request")));
        assert!(matches!(&answers[2], Answer::Engine(info) if info.name == "leduc"));
    }
}
