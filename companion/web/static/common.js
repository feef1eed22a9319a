// Shared by the pages: a live socket that reconnects, their words in the page's language,
// and small DOM helpers.
"use strict";

// The page's words: the scripts pass them through t, the HTML marks them with data-t (both
// extracted into the gettext catalogues, context "web"); /i18n/LANG.json gives them in LANG.
// Placeholders in braces are filled from the second argument.
let WORDS = {};
let LANGUAGE = "en";
function t(message, values) {
  const text = WORDS[message] || message;
  return text.replace(/\{(\w+)\}/g, (all, key) => (values && key in values ? values[key] : all));
}

// Marks a string for the catalogue where it is kept; t translates it where it is shown.
function mark(message) { return message; }

// Shows message (marked) in node, and again in another language when the page changes.
function say(node, message) {
  node.dataset.t = message;
  node.textContent = t(message);
}

function translatePage() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-t-title]")) node.title = t(node.dataset.tTitle);
  for (const node of document.querySelectorAll("[data-t-alt]")) node.alt = t(node.dataset.tAlt);
  document.documentElement.lang = LANGUAGE;
}

async function useLanguage(lang) {
  if (!lang || lang === LANGUAGE) return;
  const response = await fetch(`/i18n/${lang}.json`, {cache: "no-store", credentials: "omit"});
  if (!response.ok) return;
  WORDS = await response.json();
  LANGUAGE = lang;
  translatePage();
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function replace(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// The server's operations on a channel (companion/web/delta.py, docs/web.md): each names
// the path of keys and indices to the value it changes.
function applyChanges(state, ops) {
  const at = (path) => path.reduce((value, key) => value[key], state);
  for (const [kind, path, value] of ops) {
    if (kind === "set" && path.length === 0) { state = value; continue; }
    if (kind === "set") at(path.slice(0, -1))[path[path.length - 1]] = value;
    else if (kind === "del") delete at(path.slice(0, -1))[path[path.length - 1]];
    else if (kind === "add") at(path).push(...value);
    else if (kind === "cut") at(path).splice(value);
    else if (kind === "drop") at(path).splice(0, value);
    else if (kind === "splice") at(path).splice(value[0], value[1], ...value[2]);
    else throw new Error(`unknown change ${kind}`);
  }
  return state;
}

// Opens path (relative to the page) as a WebSocket; onMessage gets each channel as it stands
// after each message (a channel comes whole on connecting, then as what changed in it).
// Reconnects after a drop, unless the server closed it for good (onGone gets the code).
function live(path, onMessage, onGone) {
  const state = document.getElementById("connection");
  let wait = 500;
  function open() {
    const url = new URL(path, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    socket.onopen = () => { wait = 500; if (state) say(state, mark("live")); };
    // In order, each drawn once the words of its language are there.
    let chain = Promise.resolve();
    const channels = {}, versions = {};  // by kind: each channel as it stands, its version
    socket.onmessage = (message) => {
      let data = JSON.parse(message.data);
      if ("full" in data || "ops" in data) {
        const kind = data.kind;
        if ("full" in data) channels[kind] = data.full;
        else if (versions[kind] === data.v - 1) channels[kind] = applyChanges(channels[kind], data.ops);
        else { socket.close(); return; }  // a change missed: reconnect, whole again
        versions[kind] = data.v;
        data = structuredClone(channels[kind]);  // the page keeps it as it was shown
      }
      chain = chain.then(() => useLanguage(data.lang)).catch(() => {}).then(() => onMessage(data));
    };
    socket.onclose = (closed) => {
      if (state) say(state, mark("reconnecting..."));
      if (closed.code === 4403 || closed.code === 1008) { if (onGone) onGone(closed.code); return; }
      setTimeout(open, wait);
      wait = Math.min(wait * 2, 5000);
    };
  }
  open();
}

async function post(path, body) {
  const response = await fetch(new URL(path, window.location.href), {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body), cache: "no-store", credentials: "omit",
  });
  let answer = {};
  try { answer = await response.json(); } catch (e) { answer = {error: response.statusText}; }
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// The score table: one row per seat, one column per finished round, then the total.
// ``names``: the seats' names as the page says them (an unnamed seat's in its language).
function scoreTable(api, names = api.seats) {
  const head = el("tr", {}, el("th", {}, t("Seat")),
    ...api.rounds.map((_, i) => el("th", {}, t("R{n}", {n: i + 1}))), el("th", {}, t("Total")));
  const rows = names.map((name, seat) => el("tr",
    {class: api.winners.includes(seat) && api.finished ? "winner" : ""},
    el("td", {}, name),
    ...api.rounds.map((round) => el("td", {}, round[seat])),
    el("td", {class: "total", "data-seat": seat}, api.totals[seat])));
  return el("table", {class: "scores"}, el("thead", {}, head), el("tbody", {}, ...rows));
}

const COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
                 "#9a6324"];

// The scores as a chart: running totals round by round, or bars of the totals.
function scoreChart(api, names = api.seats) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const width = 600, height = 260, pad = 34;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const running = api.seats.map((_, seat) => {
    let sum = 0;
    return [0, ...api.rounds.map((round) => (sum += round[seat]))];
  });
  const values = api.rounds.length ? running.flat() : api.totals;
  // The scale reaches 1 at least (a flat chart still has a height), but the axis names only
  // scores there are: 0, and the highest when it is more (no lone "1" over all-zero scores).
  const highest = Math.max(...values);
  const top = Math.max(1, highest), bottom = Math.min(0, ...values);
  const y = (v) => height - pad - ((v - bottom) / (top - bottom)) * (height - 2 * pad);
  add("line", {x1: pad, y1: y(0), x2: width - 10, y2: y(0), stroke: "#888"});
  add("text", {x: 4, y: y(0) + 4, class: "axis"}, 0);
  if (highest > 0) add("text", {x: 4, y: y(highest) + 4, class: "axis"}, highest);
  if (api.rounds.length) {
    const step = (width - pad - 80) / api.rounds.length;  // room on the right for the names
    running.forEach((points, seat) => {
      const path = points.map((v, i) => `${pad + i * step},${y(v)}`).join(" ");
      add("polyline", {points: path, fill: "none", stroke: COLOURS[seat % 8], "stroke-width": 4});
      add("text", {x: pad + api.rounds.length * step + 2, y: y(points.at(-1)) + 5,
                   fill: COLOURS[seat % 8], class: "label"}, names[seat]);
    });
  } else {
    const step = (width - pad - 20) / api.seats.length;
    api.totals.forEach((v, seat) => {
      add("rect", {x: pad + seat * step + 6, y: Math.min(y(v), y(0)), width: step - 12,
                   height: Math.abs(y(0) - y(v)), fill: COLOURS[seat % 8]});
      add("text", {x: pad + seat * step + 8, y: height - 8, class: "label"}, names[seat]);
    });
  }
  return svg;
}
