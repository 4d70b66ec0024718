"use strict";
// The page of `arena report`: draws the standings, the matrices, the ratings'
// course, a learning league's rounds, the SPRT, the bots' faults and move
// times and the game list from the report's data (every number computed by
// the arena; nothing is re-derived here), and opens a game's replay from the
// record chunks written beside the page. Every number taken from
// standings.json or sprt.json is marked with data-key (its path in that file,
// as JSON) and data-value (the number), so that a test can check the page
// against the files.

// Errors are shown on the page's root (data-errors), for the tests and anyone curious.
const ERRORS = [];
function noteError(message) {
  ERRORS.push(message);
  document.getElementById("page").dataset.errors = ERRORS.join(" | ");
}
window.addEventListener("error", (e) => noteError(String(e.message)));
window.addEventListener("unhandledrejection", (e) => noteError(String(e.reason)));
const consoleError = console.error.bind(console);
console.error = (...args) => { noteError(args.join(" ")); consoleError(...args); };

const $ = (id) => document.getElementById(id);
const SVG = $("svg-namespace").namespaceURI;
const D = parseExact($("report").textContent);
const S = D.standings;
const PAGE_SIZE = 50;
const COLORS = ["#2f6fb3", "#d9480f", "#2b8a3e", "#7048e8", "#0b7285", "#c2255c", "#5c940d", "#e67700",
  "#1864ab", "#862e9c", "#495057", "#a61e4d"];
const color = (i) => COLORS[i % COLORS.length];
// The SPRT's own figures (its LLR, its estimate): in no bot's colour, since
// they belong to neither bot (the page's ink, light or dark).
const INK = "var(--ink)";

function el(tag, attrs = {}, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Marks `node` as showing the number at `path` of standings.json (or of sprt.json, under "sprt").
function keyed(node, path, value) {
  node.setAttribute("data-key", JSON.stringify(path));
  node.setAttribute("data-value", String(value));
  return node;
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
// A difference with its sign, as rounded: −0.3 reads "0", not "−0".
const signed = (x, digits = 0) => {
  const size = Math.abs(x).toFixed(digits);
  return Number(size) === 0 ? size : `${x > 0 ? "+" : "−"}${size}`;
};
const micros = (us) => (us >= 1000 ? `${(us / 1000).toFixed(us >= 100000 ? 0 : 1)} ms` : `${us} µs`);

// ---- Charts: a frame with axes, in user units mapped to the SVG.

function niceTicks(lo, hi, count) {
  const span = hi - lo || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toFixed(10)));
  return ticks;
}

class Frame {
  constructor(svg, { width = 900, height = 300, left = 60, right = 20, top = 14, bottom = 34, x, y, xLabel, yLabel }) {
    Object.assign(this, { svg, width, height, left, right, top, bottom });
    const pad = (lo, hi) => (lo === hi ? [lo - 1, hi + 1] : [lo, hi]);
    [this.x0, this.x1] = pad(...x);
    [this.y0, this.y1] = pad(...y);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.textContent = "";
    const axis = this.add("svg:g", { class: "axis" });
    for (const t of niceTicks(this.y0, this.y1, 5)) {
      axis.append(el("svg:line", { class: "grid-line", x1: left, x2: width - right, y1: this.Y(t), y2: this.Y(t) }));
      axis.append(el("svg:text", { x: left - 6, y: this.Y(t) + 4, "text-anchor": "end" }, String(t)));
    }
    for (const t of niceTicks(this.x0, this.x1, 8)) {
      axis.append(el("svg:line", { x1: this.X(t), x2: this.X(t), y1: height - bottom, y2: height - bottom + 4 }));
      axis.append(el("svg:text", { x: this.X(t), y: height - bottom + 16, "text-anchor": "middle" }, String(t)));
    }
    axis.append(el("svg:line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }));
    if (xLabel) axis.append(el("svg:text", { class: "muted", x: width - right, y: height - 4, "text-anchor": "end" }, xLabel));
    if (yLabel) axis.append(el("svg:text", { class: "muted", x: 4, y: top - 2 }, yLabel));
  }
  X(v) { return this.left + ((v - this.x0) / (this.x1 - this.x0)) * (this.width - this.left - this.right); }
  Y(v) { return this.top + ((this.y1 - v) / (this.y1 - this.y0)) * (this.height - this.top - this.bottom); }
  add(tag, attrs, text) { const node = el(tag, attrs, text); this.svg.append(node); return node; }
  line(points, attrs) {
    return this.add("svg:polyline", { fill: "none", "stroke-width": 2, ...attrs,
      points: points.map(([x, y]) => `${this.X(x).toFixed(1)},${this.Y(y).toFixed(1)}`).join(" ") });
  }
  band(points, attrs) {
    const upper = points.map(([x, , hi]) => `${this.X(x).toFixed(1)},${this.Y(hi).toFixed(1)}`);
    const lower = points.map(([x, lo]) => `${this.X(x).toFixed(1)},${this.Y(lo).toFixed(1)}`).reverse();
    return this.add("svg:polygon", { "fill-opacity": 0.15, stroke: "none", ...attrs, points: [...upper, ...lower].join(" ") });
  }
}

// A rating per row with its interval: rows of {name, value, half, keys: [valuePath, halfPath], halfValue}.
function dotChart(svg, rows, xLabel) {
  const rated = rows.filter((r) => r.value !== null && r.value !== undefined);
  const values = rated.flatMap((r) => [r.value - r.half, r.value + r.half]);
  const lo = values.length ? Math.min(...values) : -1;
  const hi = values.length ? Math.max(...values) : 1;
  const margin = (hi - lo) * 0.05 || 1;
  const rowHeight = 26;
  const left = Math.min(260, 30 + 7 * Math.max(...rows.map((r) => r.name.length), 4));
  const frame = new Frame(svg, { height: rows.length * rowHeight + 48, left, right: 110, top: 10, x: [lo - margin, hi + margin], y: [0, rows.length], xLabel });
  // The y grid of the frame is meaningless here: bots are rows.
  frame.svg.querySelectorAll(".grid-line").forEach((n) => n.remove());
  frame.svg.querySelectorAll(".axis text:not(.muted)").forEach((n) => { if (n.getAttribute("text-anchor") === "end") n.remove(); });
  rows.forEach((r, i) => {
    const y = frame.top + (i + 0.5) * rowHeight;
    frame.add("svg:text", { x: left - 8, y: y + 4, "text-anchor": "end" }, r.name);
    if (r.value === null || r.value === undefined) {
      frame.add("svg:text", { class: "muted", x: left + 4, y: y + 4 }, "no rating");
      return;
    }
    const bar = frame.add("svg:line", { x1: frame.X(r.value - r.half), x2: frame.X(r.value + r.half), y1: y, y2: y,
      stroke: color(i), "stroke-width": 3, "stroke-linecap": "round" });
    keyed(bar, r.keys[1], r.halfValue);
    const dot = frame.add("svg:circle", { cx: frame.X(r.value), cy: y, r: 5, fill: color(i) });
    keyed(dot, r.keys[0], r.value);
    frame.add("svg:text", { x: frame.X(r.value + r.half) + 6, y: y + 4, class: "muted" }, r.label);
  });
  if (lo < 0 && hi > 0) {
    frame.add("svg:line", { x1: frame.X(0), x2: frame.X(0), y1: frame.top, y2: frame.height - frame.bottom, class: "grid-line" });
  }
}

// ---- Tables.

function gridTable(table, grid) {
  table.textContent = "";
  const head = el("tr");
  grid.header.forEach((h) => head.append(el("th", {}, h)));
  table.appendChild(el("thead")).append(head);
  const body = table.appendChild(el("tbody"));
  for (const row of grid.rows) {
    const tr = body.appendChild(el("tr"));
    row.forEach((cell, i) => tr.append(el("td", grid.numeric[i] ? { class: "num" } : {}, cell)));
  }
}

// A matrix of the bots in rank order; `cell(row, column)` gives {text, games, shade, key, value} or null.
function heatTable(table, cell) {
  const names = S.bots.map((b) => b.name);
  const head = el("tr");
  head.append(el("th"));
  names.forEach((n) => head.append(el("th", { scope: "col" }, n)));
  table.appendChild(el("thead")).append(head);
  const body = table.appendChild(el("tbody"));
  for (const row of names) {
    const tr = body.appendChild(el("tr"));
    tr.append(el("th", { scope: "row" }, row));
    for (const column of names) {
      const c = row === column ? null : cell(row, column);
      if (!c) { tr.append(el("td", { class: "none" }, "—")); continue; }
      const td = el("td", { style: `background: ${shade(c.shade)}` });
      td.append(keyed(el("span", {}, c.text), c.key, c.value));
      td.append(" ");
      td.append(keyed(el("small", {}, `(${c.games})`), c.gamesKey, c.games));
      tr.append(td);
    }
  }
}

// 0 → red, ½ → none, 1 → blue: a fraction's distance from even.
function shade(fraction) {
  const strength = Math.min(1, Math.abs(fraction - 0.5) * 2);
  const hue = fraction >= 0.5 ? "var(--good)" : "var(--bad)";
  return `hsla(${hue}, 75%, 50%, ${(0.08 + 0.5 * strength).toFixed(3)})`;
}

// ---- The sections.

function header() {
  const kind = { match: "Match", league: "League", sprt: "SPRT" }[D.kind];
  $("title").textContent = `${kind} report: ${D.game}, ${S.games} games${D.partial ? " (partial)" : ""}`;
  document.title = `Arena report · ${D.source}${D.partial ? " (partial)" : ""}`;
  const seed = S.seed === null ? "seed unknown" : `seed ${S.seed}`;
  $("meta").textContent = `${D.source} · ${S.bots.length} bots · ${seed}`;
  if (D.partial) {
    $("partial").hidden = false;
    $("partial").textContent = `Partial: ${D.partial}`;
    $("page").dataset.partial = "true";
  }
}

function standings() {
  $("main-title").textContent = `${D.tables.main_title}.`;
  gridTable($("standings"), D.tables.main);
  for (const text of D.tables.warnings) {
    const warning = document.createElement("p");
    warning.className = "warning";
    warning.textContent = text;
    $("repeat-warnings").append(warning);
  }
  const unit = D.tables.unit;
  $("mean-caption").textContent = D.tables.rank_by_mean
    ? `Mean ${unit} per game of each bot, with its 95% interval: the bots are ranked by it.`
    : `Mean ${unit} per game of each bot, with its 95% interval.`;
  dotChart($("mean-chart"), S.bots.map((b, i) => ({
    name: b.name, value: b.points_for, half: b.points_for_interval, halfValue: b.points_for_interval,
    keys: [["bots", i, "points_for"], ["bots", i, "points_for_interval"]],
    label: `${b.points_for.toFixed(2)} ± ${b.points_for_interval.toFixed(2)}`,
  })), `${unit}/game`);
  dotChart($("elo-chart"), S.bots.map((b, i) => ({
    name: b.name, value: b.rating, half: b.rating_interval ?? 0, halfValue: b.rating_interval,
    keys: [["bots", i, "rating"], ["bots", i, "rating_interval"]],
    label: b.rating === null ? "" : `${signed(b.rating)} ± ${b.rating_interval.toFixed(0)}`,
  })), "Elo");
  if (S.bots.some((b) => b.weng_lin !== undefined)) {
    $("wl-figure").hidden = false;
    dotChart($("wl-chart"), S.bots.map((b, i) => ({
      name: b.name, value: b.weng_lin ? b.weng_lin.mu : null, half: b.weng_lin ? b.weng_lin.sigma : 0,
      halfValue: b.weng_lin ? b.weng_lin.sigma : null,
      keys: [["bots", i, "weng_lin", "mu"], ["bots", i, "weng_lin", "sigma"]],
      label: b.weng_lin ? `${b.weng_lin.mu.toFixed(1)} ± ${b.weng_lin.sigma.toFixed(1)}` : "",
    })), "μ");
  }
}

function matrices() {
  $("h2h-title").textContent = "The row bot's score against the column bot, with their pairwise games.";
  heatTable($("h2h"), (row, column) => {
    const c = (S.head_to_head[row] || {})[column];
    return c && { text: pct(c.score), games: c.games, shade: c.score, key: ["head_to_head", row, column, "score"],
      value: c.score, gamesKey: ["head_to_head", row, column, "games"] };
  });
  if (S.bots.length < 3) { $("los-block").hidden = true; return; }
  const losTitle = D.tables.los_title;
  $("los-title").textContent = `${losTitle[0].toUpperCase()}${losTitle.slice(1)}, with their pairwise games.`;
  heatTable($("los"), (row, column) => {
    const p = (S.los[row] || {})[column];
    const c = (S.head_to_head[row] || {})[column];
    return p !== undefined && { text: pct(p), games: c ? c.games : 0, shade: p, key: ["los", row, column], value: p,
      gamesKey: ["head_to_head", row, column, "games"] };
  });
}

function history() {
  const points = D.history;
  const svg = $("history-chart");
  if (!points.length) { $("history-caption").textContent = "No games yet."; return; }
  const values = points.flatMap((p) => p.elo.filter((e) => e).flatMap(([r, h]) => [r - h, r + h]));
  const frame = new Frame(svg, { height: 340, x: [0, points[points.length - 1].games],
    y: [Math.min(...values, 0), Math.max(...values, 0)], xLabel: "games", yLabel: "Elo" });
  const rank = new Map(S.bots.map((b, i) => [b.name, i]));
  const legend = $("history-legend");
  legend.textContent = "";
  const entries = [];
  points[0].elo.forEach((_, bot) => {
    const series = points.filter((p) => p.elo[bot]).map((p) => [p.games, p.elo[bot][0] - p.elo[bot][1], p.elo[bot][0] + p.elo[bot][1], p.elo[bot][0]]);
    if (!series.length) return;
    const name = D.bots[bot];
    const i = rank.has(name) ? rank.get(name) : bot;
    frame.band(series, { fill: color(i) });
    frame.line(series.map(([x, , , r]) => [x, r]), { stroke: color(i) });
    const [x, , , r] = series[series.length - 1];
    const end = frame.add("svg:circle", { cx: frame.X(x), cy: frame.Y(r), r: 3.5, fill: color(i) });
    if (rank.has(name) && x === S.games) keyed(end, ["bots", i, "rating"], r);
    entries.push([i, el("span", { style: `--c: ${color(i)}` }, name)]);
  });
  // The legend in the standings' order, as the bots' colours are.
  entries.sort(([a], [b]) => a - b).forEach(([, entry]) => legend.append(entry));
  $("history-caption").textContent = `Each bot's Elo rating (line) and its 95% interval (band) after the first N games in schedule order, ` +
    `${points.length} points; the last is the standings.`;
}

// A learning league's rounds: after each, by the games played so far, how
// close its table was to the final one (Spearman's ρ) and the share of the
// pairs of bots adjacent in it whose order was known. A point per round.
function rounds() {
  const course = D.rounds;
  if (!course.length) return;
  $("rounds-section").hidden = false;
  $("toc-rounds").hidden = false;
  const last = course[course.length - 1];
  const frame = new Frame($("rounds-chart"), { height: 240, x: [0, last.games],
    y: [Math.min(0, ...course.map((r) => r.spearman)), 1], xLabel: "games" });
  const series = [
    { name: "spearman", label: "rank correlation with the final table (Spearman's ρ)",
      value: (r) => r.spearman, tell: (r) => `ρ ${r.spearman.toFixed(3)}` },
    { name: "known", label: "adjacent pairs whose order is known (at 95%)",
      value: (r) => (r.adjacent ? r.known / r.adjacent : null), tell: (r) => `${r.known} of ${r.adjacent} adjacent pairs known` },
  ];
  const legend = $("rounds-legend");
  legend.textContent = "";
  series.forEach(({ name, label, value, tell }, i) => {
    const points = course.map((r, at) => [r.games, value(r), r, at + 1]).filter(([, y]) => y !== null);
    frame.line(points, { stroke: COLORS[i], "data-series": name });
    for (const [games, y, r, round] of points) {
      const dot = frame.add("svg:circle", { cx: frame.X(games), cy: frame.Y(y), r: 3.5, fill: COLORS[i],
        "data-series": name, "data-round": String(round) });
      dot.append(el("svg:title", {}, `round ${round} (${r.pairs} pairs), ${games} games: ${tell(r)}`));
    }
    legend.append(el("span", { style: `--c: ${COLORS[i]}` }, label));
  });
  $("rounds-caption").textContent = `After each of the ${course.length} rounds, by the games played so far: Spearman's rank ` +
    `correlation of the table then with the final table (the standings), and the share of the pairs of bots adjacent in ` +
    `the table then whose order was known at 95%.`;
}

function sprt() {
  if (!D.sprt) return;
  const { summary: s, course, every } = D.sprt;
  $("sprt-section").hidden = false;
  $("toc-sprt").hidden = false;
  // The verdict is what an SPRT's reader came for: its section comes first.
  $("standings-section").before($("sprt-section"));
  $("toc").prepend($("toc-sprt"));
  // The pentanomial test (in Elo) or the payoff test (in the game's unit per game).
  const payoff = s.test === "payoff";
  const unit = payoff ? `${s.unit}/game` : s.model === "logistic" ? "Elo" : "nElo";
  const [bound0, bound1] = payoff ? ["payoff0", "payoff1"] : ["elo0", "elo1"];
  const h1 = s[bound1] > 0 ? `${s.new} is better than ${s.base}` : s[bound1] === 0 ? `${s.new} is not worse than ${s.base}`
    : `${s.new} is at most ${-s[bound1]} ${unit} worse than ${s.base}`;
  const h0 = s[bound1] > 0 ? `${s.new} is not ${s[bound1]} ${unit} better than ${s.base}` : `${s.new} is worse than ${s.base}`;
  const verdicts = { H1: `H1 accepted: ${h1}`, H0: `H0 accepted: ${h0}`,
    inconclusive: "inconclusive: the game limit was reached without a verdict", interrupted: D.partial ? "no verdict yet" : "interrupted before a verdict" };
  $("sprt-verdict").textContent = verdicts[s.conclusion];
  // Two estimates of the same games: say which is which.
  const counted = payoff ? `${s.deals} deals` : `${s.pairs} pairs`;
  $("sprt-note").textContent = payoff
    ? `The test's estimate is ${s.new}'s mean payoff over the ${counted} counted (each deal's games together); ` +
      `the standings below are over all ${s.games_played} games played.`
    : `The test's Elo is estimated from the ${counted} counted (pentanomial: each deal's games scored together); ` +
      `the standings' Elo below rates each bot about their mean, from each of the ${s.games_played} games played on its own, so the two differ.`;
  const table = $("sprt-summary");
  const digits = payoff ? 2 : 1;
  const estimate = (label, value, path) => value ? [[label, signed(value[path[1]], digits), path, value[path[1]]],
    ["± (95%)", value.margin.toFixed(digits), [path[0], "margin"], value.margin]] : [];
  const share = (label, key) => (s[key] === null ? [] : [[label, pct(s[key]), [key], s[key]]]);
  const rows = [["new", s.new], ["base", s.base], ["test", s.test], ...(payoff ? [["unit", unit]] : [["model", s.model]]),
    [bound0, s[bound0], [bound0]], [bound1, s[bound1], [bound1]],
    ["alpha", s.alpha, ["alpha"]], ["beta", s.beta, ["beta"]], ["lower bound", s.lower.toFixed(3), ["lower"], s.lower],
    ["upper bound", s.upper.toFixed(3), ["upper"], s.upper], ["LLR", s.llr.toFixed(3), ["llr"], s.llr],
    payoff ? ["deals", s.deals, ["deals"]] : ["pairs", s.pairs, ["pairs"]],
    ["games counted", s.games, ["games"]], ["games played", s.games_played, ["games_played"]],
    ...(payoff ? estimate(`${s.new}'s ${unit}, from the ${counted}`, s.payoff, ["payoff", "mean"])
      : [...estimate(`Elo, from the ${counted}`, s.logistic_elo, ["logistic_elo", "elo"]),
        ...estimate(`nElo, from the ${counted}`, s.normalized_elo, ["normalized_elo", "elo"]),
        ...share("draw ratio (pairs scoring 1 point)", "draw_ratio")]),
    ...share("LOS", "los")];
  for (const [label, text, path, value] of rows) {
    const td = el("td", { class: "num" }, String(text));
    if (path) keyed(td, ["sprt", ...path], value === undefined ? text : value);
    table.appendChild(el("tr")).append(el("th", {}, label), td);
  }
  const last = course[course.length - 1];
  const llrs = course.map((p) => p.llr);
  const llr = new Frame($("llr-chart"), { x: [0, last.games], y: [Math.min(s.lower, ...llrs), Math.max(s.upper, ...llrs)],
    xLabel: "games", yLabel: "LLR" });
  for (const [bound, label] of [["lower", "H0"], ["upper", "H1"]]) {
    keyed(llr.add("svg:line", { class: "bound", stroke: bound === "upper" ? "#15803d" : "#c2410c",
      x1: llr.left, x2: llr.width - llr.right, y1: llr.Y(s[bound]), y2: llr.Y(s[bound]) }), ["sprt", bound], s[bound]);
    llr.add("svg:text", { x: llr.width - llr.right - 4, y: llr.Y(s[bound]) - 4, "text-anchor": "end" }, `${label} ${s[bound].toFixed(2)}`);
  }
  llr.line([[0, 0], ...course.map((p) => [p.games, p.llr])], { stroke: INK });
  keyed(llr.add("svg:circle", { cx: llr.X(last.games), cy: llr.Y(last.llr), r: 4, fill: INK }), ["sprt", "llr"], last.llr);
  $("llr-caption").textContent = `The LLR after ${every === 1 ? "each deal" : `every ${every} deals`} (${course.length} points), between the bounds of H0 and H1.`;
  const what = payoff ? `${s.new}'s mean payoff per game (${unit})` : `The ${unit} estimate`;
  $("sprt-elo-caption").textContent = `${what} after each deal, with its 95% interval, between the bounds of H0 and H1.`;
  const rated = course.filter((p) => p.estimate && Number.isFinite(p.estimate[1]));
  if (rated.length) {
    const ends = rated.flatMap(({ estimate: [value, margin] }) => [value - margin, value + margin]);
    const frame = new Frame($("sprt-elo-chart"), { x: [0, last.games], y: [Math.min(...ends, s[bound0]), Math.max(...ends, s[bound1])],
      xLabel: "games", yLabel: unit });
    frame.band(rated.map(({ games, estimate: [value, margin] }) => [games, value - margin, value + margin]), { fill: INK });
    frame.line(rated.map((p) => [p.games, p.estimate[0]]), { stroke: INK });
    for (const bound of [bound0, bound1]) {
      frame.add("svg:line", { class: "bound", stroke: "var(--muted)", x1: frame.left, x2: frame.width - frame.right, y1: frame.Y(s[bound]), y2: frame.Y(s[bound]) });
    }
    const [key, final] = payoff ? [["payoff", "mean"], s.payoff && s.payoff.mean] : [["elo", "elo"], s.elo && s.elo.elo];
    if (final !== null) keyed(frame.add("svg:circle", { cx: frame.X(last.games), cy: frame.Y(final), r: 4, fill: INK }), ["sprt", ...key], final);
  } else {
    const svg = $("sprt-elo-chart");
    svg.setAttribute("viewBox", "0 0 900 40");
    svg.append(el("svg:text", { x: 10, y: 24, class: "muted" }, payoff ? "No estimate yet." : "No estimate: every pair so far scored the same."));
  }
  if (payoff) { $("pentanomial-block").hidden = true; return; }
  const penta = $("pentanomial");
  const head = el("tr");
  const counts = el("tr");
  ["LL", "LD", "WL+DD", "WD", "WW"].forEach((label, i) => {
    head.append(el("th", {}, label));
    counts.append(keyed(el("td", { class: "num" }, String(s.pentanomial[i])), ["sprt", "pentanomial", i], s.pentanomial[i]));
  });
  penta.append(head, counts);
}

function bots() {
  const box = $("bots");
  D.details.forEach((bot) => {
    const card = box.appendChild(el("div", { class: "bot" }));
    const rank = S.bots.findIndex((b) => b.name === bot.name);
    card.append(el("h3", { style: `color: ${color(rank)}` }, bot.name));
    const m = bot.moves;
    const clock = m && m.least_clock_us !== undefined ? `; least left on its clock after a move ${micros(m.least_clock_us)}` : "";
    card.append(el("p", {}, m ? `${m.moves} moves timed: median ${micros(m.median_us)}, p99 ${micros(m.p99_us)}, max ${micros(m.max_us)} (median and p99 within 1%)${clock}`
      : "no moves timed"));
    const kinds = Object.entries(bot.faults);
    if (!kinds.length) { card.append(el("p", { class: "note" }, "no faults")); return; }
    const table = card.appendChild(el("table", { class: "grid" }));
    const head = el("tr");
    ["fault", "count", "first message and stderr"].forEach((h) => head.append(el("th", {}, h)));
    table.append(head);
    for (const [kind, k] of kinds) {
      const tr = table.appendChild(el("tr"));
      tr.append(el("td", {}, kind));
      tr.append(keyed(el("td", { class: "num" }, String(k.count)), ["bots", rank, "faults_by_kind", kind], k.count));
      const what = tr.appendChild(el("td"));
      what.append(el("div", {}, k.message));
      if (k.stderr.length) what.append(el("pre", {}, k.stderr.join("\n")));
    }
  });
}

// ---- The game list: filtered, paged, each game opening its replay.

const G = { rows: D.games, shown: D.games, page: 0 };

// The bot's result in a game (as the standings count it): win, draw or loss; null when absent.
function resultOf(game, bot) {
  const [, , seats, ranks] = game;
  const mine = seats.map((b, s) => (b === bot ? ranks[s] : null)).filter((r) => r !== null);
  if (!mine.length) return null;
  if (Math.min(...mine) !== 0) return "loss";
  return seats.some((b, s) => b !== bot && ranks[s] === 0) ? "draw" : "win";
}

function setUpFilters() {
  const bot = $("filter-bot");
  bot.append(el("option", { value: "" }, "any"));
  D.bots.forEach((name, i) => bot.append(el("option", { value: String(i) }, name)));
  const fault = $("filter-fault");
  const kinds = [...new Set(D.games.flatMap((g) => g[6].map(([, k]) => k)))].sort();
  [["", "any"], ["none", "none"], ["some", "some"], ...kinds.map((k) => [k, k])]
    .forEach(([value, label]) => fault.append(el("option", { value }, label)));
  for (const id of ["filter-bot", "filter-result", "filter-fault"]) $(id).addEventListener("change", () => filter());
  $("page-prev").addEventListener("click", () => showPage(G.page - 1));
  $("page-next").addEventListener("click", () => showPage(G.page + 1));
  $("replay-close").addEventListener("click", () => $("replay").close());
  $("replay-tab").addEventListener("click", () => {
    window.open(URL.createObjectURL(new Blob([REPLAY.html], { type: "text/html" })), "_blank");
  });
  const replays = D.games.filter((g) => g[7] !== null).length;
  const elsewhere = `any game's replay: arena view ${D.source} --game ID`;
  $("replay-note").textContent = !D.viewer
    ? `This game's replay page cannot be rebuilt here; ${elsewhere}.`
    : replays === D.games.length
      ? `Replays load the records from ${D.files}/ beside this page (${D.chunk} games a file).`
      : `${replays} of the ${D.games.length} games have a replay here (the games with a fault first, then evenly ` +
        `spaced others; arena report --replays sets how many), loaded from ${D.files}/ beside this page; ${elsewhere}.`;
}

function filter() {
  const bot = $("filter-bot").value === "" ? null : Number($("filter-bot").value);
  const result = $("filter-result").value;
  const fault = $("filter-fault").value;
  G.shown = G.rows.filter((g) => {
    if (bot !== null && !g[2].includes(bot)) return false;
    if (result && bot !== null && resultOf(g, bot) !== result) return false;
    if (result && bot === null && !D.bots.some((_, b) => resultOf(g, b) === result)) return false;
    if (fault === "none" && g[6].length) return false;
    if (fault === "some" && !g[6].length) return false;
    if (fault && fault !== "none" && fault !== "some" && !g[6].some(([, k]) => k === fault)) return false;
    return true;
  });
  showPage(0);
}

function showPage(page) {
  const pages = Math.max(1, Math.ceil(G.shown.length / PAGE_SIZE));
  G.page = Math.max(0, Math.min(page, pages - 1));
  $("page-at").textContent = `page ${G.page + 1} of ${pages}`;
  $("page-prev").disabled = G.page === 0;
  $("page-next").disabled = G.page >= pages - 1;
  $("shown").textContent = `${G.shown.length} of ${G.rows.length} games`;
  const table = $("games");
  table.textContent = "";
  const head = el("tr");
  ["game", "deal", "seats (score)", "ended", "faults", ""].forEach((h) => head.append(el("th", {}, h)));
  table.appendChild(el("thead")).append(head);
  const body = table.appendChild(el("tbody"));
  for (const game of G.shown.slice(G.page * PAGE_SIZE, (G.page + 1) * PAGE_SIZE)) {
    const [id, deal, seats, ranks, scores, reason, faults] = game;
    const tr = body.appendChild(el("tr", { "data-game": String(id), class: faults.length ? "faulty" : "" }));
    tr.append(el("td", { class: "num" }, String(id)), el("td", { class: "num" }, String(deal)));
    const who = tr.appendChild(el("td"));
    seats.forEach((bot, s) => {
      if (s) who.append(" · ");
      who.append(el("span", ranks[s] === 0 ? { class: "won" } : {}, `${D.bots[bot]} (${scores[s]})`));
    });
    tr.append(el("td", {}, reason));
    tr.append(el("td", {}, faults.map(([s, k]) => `${k} (seat ${s})`).join(", ")));
    if (game[7] === null) {
      tr.append(el("td", { class: "note", title: `arena view ${D.source} --game ${id}` }, "no replay here"));
      continue;
    }
    const button = el("button", { "data-open": String(id) }, "replay");
    button.addEventListener("click", () => openReplay(game));
    tr.appendChild(el("td")).append(button);
  }
}

// Record chunks: each a script that calls arenaRecords(index, records).
const CHUNKS = new Map();
const WAITING = new Map();
window.arenaRecords = (index, records) => {
  CHUNKS.set(index, records);
  (WAITING.get(index) || []).forEach(({ resolve }) => resolve(records));
  WAITING.delete(index);
};

function chunk(index) {
  if (CHUNKS.has(index)) return Promise.resolve(CHUNKS.get(index));
  return new Promise((resolve, reject) => {
    if (!WAITING.has(index)) {
      WAITING.set(index, []);
      const script = el("script", { src: `${D.files}/records-${index}.js` });
      script.addEventListener("error", () => {
        (WAITING.get(index) || []).forEach((w) => w.reject(new Error(`cannot load ${D.files}/records-${index}.js`)));
        WAITING.delete(index);
        script.remove();
      });
      document.body.append(script);
    }
    WAITING.get(index).push({ resolve, reject });
  });
}

// The replay shown: its page and the blob: address it is loaded from.
const REPLAY = { html: "", url: null };
const TELL = "<script>parent.postMessage({ arenaReplay: document.title }, \"*\");<\/script>";
window.addEventListener("message", (e) => {
  if (e.source !== $("replay-frame").contentWindow || !e.data || typeof e.data.arenaReplay !== "string") return;
  $("replay").dataset.title = e.data.arenaReplay;
  $("replay-title").textContent = e.data.arenaReplay;
});

// As json_script writes a record into a page: <, > and & as JSON escapes.
const scriptSafe = (json) => json.replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

async function openReplay(game) {
  const [id, , , , , , , position] = game;
  const dialog = $("replay");
  const frame = $("replay-frame");
  $("replay-title").textContent = `game ${id}`;
  dialog.dataset.game = String(id);
  delete dialog.dataset.title;
  delete dialog.dataset.error;
  try {
    const records = await chunk(Math.floor(position / D.chunk));
    const record = records[position % D.chunk];
    // A document of its own (a blob: address, not srcdoc, whose relative
    // addresses would be the report's), so that the replay may set its #step.
    // Being of another origin, it tells its title (once drawn) by a message.
    REPLAY.html = D.viewer.prefix + scriptSafe(record) + D.viewer.suffix;
    const end = REPLAY.html.lastIndexOf("</body>");
    const told = end < 0 ? REPLAY.html + TELL : REPLAY.html.slice(0, end) + TELL + REPLAY.html.slice(end);
    if (REPLAY.url) URL.revokeObjectURL(REPLAY.url);
    REPLAY.url = URL.createObjectURL(new Blob([told], { type: "text/html" }));
    frame.src = REPLAY.url;
    if (!dialog.open) dialog.showModal();
  } catch (e) {
    dialog.dataset.error = String(e.message);
    $("replay-note").textContent = `${e.message}: the page needs the ${D.files}/ directory written beside it.`;
  }
}

// ---- The address: #open=ID opens game ID's replay through its button in the list.

function fromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const open = params.get("open");
  if (open === null) return;
  const at = G.shown.findIndex((g) => String(g[0]) === open);
  if (at < 0 || G.shown[at][7] === null) { $("page").dataset.error = `no replay of game ${open} here`; return; }
  showPage(Math.floor(at / PAGE_SIZE));
  document.querySelector(`#games button[data-open="${open}"]`).click();
}

function main() {
  header();
  standings();
  matrices();
  history();
  rounds();
  sprt();
  bots();
  setUpFilters();
  filter();
  fromAddress();
}

try {
  main();
} catch (e) {
  noteError(String((e && e.stack) || e));
}
$("page").dataset.state = "ready";
