"use strict";
// Replays the record of a game of an engine program: the events so far
// (step N shows the first N), as the engine gave them, each move with the
// seat that made it, its choice and its time. The DOM says what is shown,
// for tests: #viewer carries data-step and data-steps, each item of #log
// data-seat when its event names a seat. When the engine was asked (arena
// view --engine), #told holds what the seats were told of each event: each
// item of #log then carries data-told (the seats told, "0,1"; "" for none)
// and a .text element for each seat's text, with its data-seat.
const record = parseExact(document.getElementById("record").textContent);
const events = record.events;
const told = JSON.parse(document.getElementById("told").textContent);
const $ = (id) => document.getElementById(id);
let step = 0;

// An event as the engine gave it: every field but the arena's own.
function text(e) {
  const own = {};
  for (const [key, value] of Object.entries(e)) if (key !== "time_us" && key !== "choice" && key !== "clock_us") own[key] = value;
  return JSON.stringify(own);
}

function who(e) {
  if (typeof e.seat !== "number" && typeof e.seat !== "string") return "";
  const bot = record.bots[Number(e.seat)];
  const move = e.choice === undefined ? "" : ", choice " + e.choice + (e.time_us === undefined ? "" : " in " + (e.time_us / 1000).toFixed(1) + " ms")
    + (e.clock_us === undefined ? "" : ", " + (e.clock_us / 1000).toFixed(1) + " ms left on its clock");
  return "seat " + e.seat + (bot === undefined ? "" : " (" + bot + ")") + move;
}

// The seat `s` as the page names it: its number and its bot.
function seatName(s) {
  const bot = record.bots[s];
  return "seat " + s + (bot === undefined ? "" : " (" + bot + ")");
}

// Who was told of event i: every seat, some, or none.
function toldTo(i) {
  const seats = told[i].seats;
  if (seats.length === 0) return "told to no seat";
  if (seats.length === record.bots.length && seats.length > 1) return "told to every seat";
  return "told to " + seats.map(seatName).join(", ");
}

function draw() {
  $("viewer").dataset.step = step;
  $("slider").value = step;
  [...$("log").children].forEach((li, i) => { li.className = i < step - 1 ? "" : i === step - 1 ? "current" : "future"; });
  $("status").textContent = step === 0 ? "before the first event" : "event " + (step - 1) + ": " + text(events[step - 1]);
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === events.length;
}

function go(n) { step = Math.max(0, Math.min(events.length, n)); draw(); }

const engine = record.engine ? " · engine " + record.engine.command + " " + record.engine.version : "";
$("title").textContent = record.game;
document.title = record.game + " · game " + record.id + ": " + record.bots.join(" vs ");
$("meta").textContent = "game " + record.id + ", deal " + record.deal + ", arrangement " + record.arrangement +
  ", seed " + record.seed + engine;
$("seats").textContent = record.bots.map((bot, s) => "seat " + s + ": " + bot).join(" · ");
$("result").textContent = "result: " + record.result.reason + "; scores " + record.result.scores.join(", ") +
  "; places " + record.result.ranks.map((r) => r + 1).join(", ");
if (record.faults.length) {
  $("faults-panel").hidden = false;
  $("faults").replaceChildren(...record.faults.map((f) => {
    const li = document.createElement("li");
    li.textContent = "seat " + f.seat + " (" + f.bot + "): " + f.kind + ": " + f.message;
    return li;
  }));
}
$("viewer").dataset.steps = events.length;
$("slider").max = events.length;
$("log").replaceChildren(...events.map((e, i) => {
  const li = document.createElement("li");
  const label = who(e);
  if (label) {
    li.dataset.seat = e.seat;
    const span = document.createElement("span");
    span.className = "who";
    span.textContent = label;
    li.append(span);
  }
  li.append(document.createTextNode(text(e)));
  if (told) {
    li.dataset.told = told[i].seats.join(",");
    const to = document.createElement("span");
    to.className = "told";
    to.textContent = toldTo(i);
    li.append(to);
    (told[i].texts || []).forEach((line, s) => {
      if (line === null) return;
      const div = document.createElement("div");
      div.className = "text";
      div.dataset.seat = s;
      div.textContent = seatName(s) + ": " + line;
      li.append(div);
    });
  }
  return li;
}));
$("described").textContent = told
  ? "each event with the seats told of it and what the engine says each was told, from the engine asked now"
  : "what each seat was told of each event, and the engine's texts, are not in the record: " +
    "arena view --engine COMMAND (or --run-recorded-engine) asks the engine for them";
$("first").onclick = () => go(0);
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
$("last").onclick = () => go(events.length);
$("slider").oninput = () => go(Number($("slider").value));
document.addEventListener("keydown", (e) => {
  const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: events.length };
  if (e.key in keys) { go(keys[e.key]); e.preventDefault(); }
});
const wanted = /step=(\d+)/.exec(location.hash);
go(wanted ? Number(wanted[1]) : events.length);
