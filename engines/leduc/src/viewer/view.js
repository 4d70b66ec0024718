"use strict";
// Replays a Leduc record: the position after the first N events (step N),
// from step 0 (before the deal) unless the address gives #step=N.
// The DOM says what is shown, for tests: #viewer carries data-step and
// data-steps, each seat's element data-seat, data-put-in and data-card,
// #pot data-pot and #public data-card.
const record = parseExact(document.getElementById("record").textContent);
const events = record.events;
const seats = record.bots.length;
const SUITS = { s: "♠", h: "♥" };
const $ = (id) => document.getElementById(id);
let step = 0;

function card(name) {
  const span = document.createElement("span");
  span.className = "card" + (name ? " " + name[1] : " none");
  span.textContent = name ? name[0] + SUITS[name[1]] : "?";
  span.dataset.card = name || "";
  return span;
}

function describe(e) {
  switch (e.type) {
    case "deal": return "dealt " + e.cards.map((c, s) => "seat " + s + ": " + c).join(", ") + "; antes 1 each";
    case "act": {
      const name = e.action === "call" && e.chips === 0 ? "checks" : e.action + "s";
      return record.bots[e.seat] + " (seat " + e.seat + ") " + name + (e.chips ? " " + e.chips : "") + ", pot " + e.pot;
    }
    case "public": return "public card " + e.card;
    case "hand_end": return "hand over (" + e.reason + "): payoffs " + e.payoffs.map((p) => (p > 0 ? "+" : "") + p).join(", ");
    default: return e.type;
  }
}

// The position after the first n events.
function position(n) {
  const p = { putIn: Array(seats).fill(1), folded: Array(seats).fill(false), public: null, round: 1, end: null, cards: [] };
  for (const e of events.slice(0, n)) {
    if (e.type === "deal") p.cards = e.cards;
    if (e.type === "act") {
      p.putIn[e.seat] += e.chips;
      if (e.action === "fold") p.folded[e.seat] = true;
      p.round = e.round;
    }
    if (e.type === "public") { p.public = e.card; p.round = 2; }
    if (e.type === "hand_end") p.end = e;
  }
  const next = events[n];
  p.toAct = next && next.type === "act" ? next.seat : null;
  return p;
}

function draw() {
  const p = position(step);
  $("viewer").dataset.step = step;
  $("slider").value = step;
  $("public").replaceChildren(card(p.public));
  $("public").dataset.card = p.public || "";
  const pot = p.putIn.reduce((a, b) => a + b, 0);
  $("pot").textContent = "pot " + pot;
  $("pot").dataset.pot = pot;
  $("round").textContent = p.end ? "hand over" : "round " + p.round;
  $("seats").replaceChildren(...p.putIn.map((putIn, s) => {
    const div = document.createElement("div");
    div.className = "seat" + (p.folded[s] ? " folded" : "") + (p.toAct === s ? " to-act" : "");
    div.dataset.seat = s;
    div.dataset.putIn = putIn;
    div.dataset.card = p.cards[s] || "";
    const name = document.createElement("div");
    name.textContent = "seat " + s + ": " + record.bots[s];
    const bet = document.createElement("div");
    const payoff = p.end ? ", payoff " + (p.end.payoffs[s] > 0 ? "+" : "") + p.end.payoffs[s] : "";
    bet.textContent = "in for " + putIn + (p.folded[s] ? " (folded)" : "") + payoff;
    div.append(name, card(p.cards[s]), bet);
    return div;
  }));
  [...$("log").children].forEach((li, i) => { li.className = i < step - 1 ? "" : i === step - 1 ? "current" : "future"; });
  $("status").textContent = step === 0 ? "before the deal" : describe(events[step - 1]);
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === events.length;
}

function go(n) { step = Math.max(0, Math.min(events.length, n)); draw(); }

// The tab names the game, the bots and who won, as All Fives's does.
const winners = [...new Set(record.bots.filter((_, s) => record.result.ranks[s] === 0))];
const chips = record.result.scores.map((n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n)).join(", ");
document.title = "Leduc Hold'em · game " + record.id + ": " + record.bots.join(" vs ") + " · " +
  (winners.length === new Set(record.bots).size ? "split" : winners.join(" & ") + " won") + " (" + chips + ")";
$("meta").textContent = "game " + record.id + ", deal " + record.deal + ", seed " + record.seed + ", " + seats + " players";
$("result").textContent = "result: " + record.result.reason + "; scores " + record.result.scores.join(", ");
$("viewer").dataset.steps = events.length;
$("slider").max = events.length;
$("log").replaceChildren(...events.map((e) => { const li = document.createElement("li"); li.textContent = describe(e); return li; }));
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
go(wanted ? Number(wanted[1]) : 0);
