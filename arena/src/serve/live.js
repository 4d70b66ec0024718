// The live page of a run: draws each state the server sends (/events), as
// text only: every name, message and stderr line a bot or an engine wrote is
// put in with textContent, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
// When each game was first on the page (ms since the epoch), by id, for the tests.
window.arrivals = {};
let following = null;
let last = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function num(x, digits) {
  return x === null || x === undefined ? "–" : Number(x).toFixed(digits);
}

function signed(x, digits) {
  if (x === null || x === undefined) return "–";
  const t = Math.abs(x).toFixed(digits);
  return (x < 0 && Number(t) !== 0 ? "−" : "+") + t;
}

// A number cell, its exact value in data-exact.
function cell(text, exact) {
  const td = el("td", text, "n");
  if (exact !== undefined) td.dataset.exact = exact === null ? "null" : String(exact);
  return td;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "unknown";
  const s = Math.round(seconds);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

function drawStandings(standings) {
  const body = $("standings").tBodies[0];
  const rows = (standings ? standings.bots : []).map((b) => {
    const tr = el("tr");
    tr.dataset.bot = b.name;
    tr.append(cell(b.rank, b.rank), el("td", b.name, "name"),
      cell(signed(b.rating, 0) + " ± " + num(b.rating_interval, 0), b.rating),
      cell(num(b.points_for, 1) + " ± " + num(b.points_for_interval, 1), b.points_for),
      cell(b.games, b.games), cell(b.wins, b.wins), cell(b.draws, b.draws), cell(b.losses, b.losses),
      cell(num(b.score, 3), b.score), cell(b.faults, b.faults),
      cell(b.los_next === null ? "–" : num(100 * b.los_next, 1) + "%", b.los_next));
    tr.children[2].dataset.interval = String(b.rating_interval);
    return tr;
  });
  body.replaceChildren(...rows);
}

function drawSprt(sprt) {
  $("sprt").hidden = !sprt;
  if (!sprt) return;
  const verdicts = { H1: "H1 accepted: " + sprt.new + " is better", H0: "H0 accepted: " + sprt.new + " is not better",
    inconclusive: "inconclusive: every game played without a verdict", interrupted: "no verdict yet" };
  $("verdict").textContent = verdicts[sprt.conclusion] || sprt.conclusion;
  $("verdict").dataset.conclusion = sprt.conclusion;
  $("llr").textContent = "LLR " + num(sprt.llr, 3) + " between " + num(sprt.lower, 3) + " (H0) and " + num(sprt.upper, 3) + " (H1)";
  $("llr").dataset.exact = String(sprt.llr);
  const share = Math.max(0, Math.min(1, (sprt.llr - sprt.lower) / (sprt.upper - sprt.lower)));
  $("llr-mark").style.left = "calc(" + (100 * share).toFixed(2) + "% - 1px)";
  let estimate = "estimate: none yet";
  if (sprt.elo) estimate = "Elo " + signed(sprt.elo.elo, 1) + " ± " + num(sprt.elo.margin, 1) + " (95%)";
  else if (sprt.payoff) estimate = "mean payoff " + signed(sprt.payoff.mean, 3) + " ± " + num(sprt.payoff.margin, 3) + " (95%)";
  $("estimate").textContent = estimate + " · " + sprt.new + " against " + sprt.base;
  $("estimate").dataset.exact = JSON.stringify(sprt.elo || sprt.payoff || null);
  const left = sprt.left === null || sprt.left === undefined ? "unknown" : "about " + sprt.left;
  $("sprt-games").textContent = sprt.games + " games counted (" + sprt.games_played + " played), " + left + " left";
  $("sprt-games").dataset.games = String(sprt.games);
}

function drawLeague(league) {
  $("league").hidden = !league;
  if (!league) return;
  $("league-summary").textContent = league.format + " league of " + league.bots.length + " bots: " +
    league.bots.join(", ") + (league.rounds ? " · " + league.rounds + " rounds" : "");
  $("changes").replaceChildren(...(league.changes || []).map((c) => {
    const added = c.added || [], retired = c.retired || [];
    return el("li", (c.at ? c.at + ": " : "") + (added.length ? "entered " + added.join(", ") : "") +
      (added.length && retired.length ? "; " : "") + (retired.length ? "retired " + retired.join(", ") : ""));
  }));
}

function drawLatest(latest, bots) {
  const now = performance.timeOrigin + performance.now();
  const rows = latest.slice().reverse().map((g) => {
    if (!(g.id in window.arrivals)) window.arrivals[g.id] = now;
    const tr = el("tr");
    tr.dataset.id = g.id;
    const open = el("button", "game " + g.id);
    open.onclick = () => show("/game/" + g.id, g.id, "recorded");
    const id = el("td");
    id.append(open);
    tr.append(id, el("td", g.bots.join(" · ")), el("td", g.scores.join(", "), "n"),
      el("td", g.ranks.map((r) => r + 1).join(", "), "n"), el("td", g.reason),
      el("td", g.faults.map((f) => g.bots[f[0]] + ": " + f[1]).join("; ")));
    return tr;
  });
  $("latest").tBodies[0].replaceChildren(...rows);
}

function drawFaults(faults, count) {
  $("fault-count").textContent = "(" + count + ")";
  $("faults").replaceChildren(...faults.slice().reverse().map((f) => {
    const li = el("li");
    li.dataset.game = f.game;
    li.append(el("span", "game " + f.game + ", seat " + f.seat + ", "), el("b", f.bot, "bot"),
      el("span", ": " + f.kind + ": "), el("span", f.message, "message"));
    if (f.stderr.length) li.append(el("pre", f.stderr.join("\n"), "stderr"));
    return li;
  }));
}

function drawFlights(flights) {
  $("in-flight").hidden = flights === null;
  if (flights === null) return;
  $("flights-none").hidden = flights.length > 0;
  $("flights").replaceChildren(...flights.map((f) => {
    const li = el("li");
    li.dataset.id = f.id;
    const follow = el("button", "follow game " + f.id);
    follow.onclick = () => { following = f.id; show(flightUrl(f), f.id, "in flight"); };
    li.append(follow, el("span", " " + f.bots.join(" · ") + ", " + f.events + " events"));
    return li;
  }));
  // The address #follow opens the first game in flight once there is one.
  if (following === null && location.hash === "#follow" && flights.length) {
    following = flights[0].id;
    show(flightUrl(flights[0]), following, "in flight");
  }
  if (following === null) return;
  const followed = flights.find((f) => f.id === following);
  const box = $("following");
  // Reloaded at its last move once the page before is drawn, not faster.
  if (followed && box.dataset.events !== String(followed.events) && box.dataset.loaded === "yes") {
    show(flightUrl(followed), followed.id, "in flight");
  } else if (!followed && box.dataset.kind === "in flight" && following in window.arrivals) {
    show("/game/" + following, following, "recorded");
  }
}

function flightUrl(f) {
  return "/flight/" + f.id + "?events=" + f.events + "#step=" + f.events;
}

// Opens `url` (game `id`, `kind`: in flight or recorded) in the frame. Two
// frames take turns: the next position loads in the hidden one, which is
// shown once loaded, so that a game followed does not flash as it moves.
function show(url, id, kind) {
  const box = $("following");
  box.hidden = false;
  $("follow-id").textContent = id;
  $("follow-state").textContent = kind;
  $("follow-tab").href = url;
  box.dataset.id = id;
  box.dataset.kind = kind;
  const events = /events=(\d+)/.exec(url);
  box.dataset.events = events ? events[1] : "";
  box.dataset.loaded = "no";
  if (kind === "in flight") {
    const seen = (box.dataset.seen || "").split(",").filter((x) => x);
    seen.push(id + ":" + box.dataset.events);
    box.dataset.seen = seen.join(",");
  }
  const frames = [...box.querySelectorAll("iframe")];
  const next = frames.find((f) => f.hidden) || frames[1];
  next.onload = () => {
    box.dataset.loaded = "yes";
    for (const f of frames) f.hidden = f !== next;
  };
  next.src = url;
}

function draw(state) {
  if (state.waiting) {
    $("status").textContent = "waiting for the run to begin writing " + state.waiting;
    $("status").dataset.status = "waiting";
    return;
  }
  last = state;
  window.state = state;
  const kind = { match: "match", league: "league", sprt: "SPRT" }[state.kind];
  $("what").textContent = kind + " of " + (state.game || "?") + " in " + state.dir;
  document.title = "arena · " + kind + " · " + state.games + " games";
  $("status").textContent = state.finished ? "finished: the numbers are those of the run's files" : "live";
  $("status").dataset.status = state.finished ? "finished" : "live";
  let progress = state.games + " games";
  if (state.total) progress += " of " + state.total;
  if (!state.finished) {
    progress += " · " + num(state.rate, 1) + " games/s";
    if (state.left !== null) progress += " · " + (state.sprt ? "about " : "") + state.left + " left, " + duration(state.seconds_left);
  }
  $("progress").textContent = progress;
  $("progress").dataset.games = String(state.games);
  drawSprt(state.sprt);
  drawStandings(state.standings);
  drawLeague(state.league);
  drawFlights(state.flights);
  drawLatest(state.latest);
  drawFaults(state.faults, state.fault_count);
  $("damaged").hidden = state.damaged.length === 0;
  $("damaged").textContent = state.damaged.length ? "lines that are not records: " + state.damaged.join("; ") : "";
}

const source = new EventSource("/events");
source.addEventListener("state", (e) => draw(JSON.parse(e.data)));
source.onerror = () => {
  if (last && last.finished) return;
  $("status").textContent = "disconnected: the server is gone (the run ended?); reload to see it again";
  $("status").dataset.status = "disconnected";
};
