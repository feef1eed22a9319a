// The table page: the public state of the game now playing, kept live.
"use strict";

function showTable(table) {
  shownTable = table;
  document.body.dataset.events = table.events ?? 0;
  document.body.dataset.session = table.session ?? "";
  replace("status", table.status);
  const screen = document.getElementById("screen");
  screen.hidden = !table.screen;  // the table's own screen: menus, the trap dial
  if (table.screen) screen.src = table.screen;
  replace("notice", table.notice || "");
  if (!table.api) {
    replace("words", el("li", {}, t("No game yet: choose one at the table.")));
    replace("scores"); replace("chart"); replace("feed"); replace("dial"); replace("older");
    document.getElementById("older-box").hidden = true;
    closeEvidence();
    return;
  }
  replace("title", table.title);
  document.body.dataset.finished = table.api.finished;
  const words = table.words.map((line) => el("li", {}, line));
  if (table.api.finished) {
    words.unshift(el("li", {class: "winner"}, t("Game over: {names} won", {
      names: table.api.winners.map((s) => table.names[s]).join(", ")})));
  }
  replace("words", ...words);
  const dial = table.dial;
  replace("dial", dial ? t("Dial: {square}, {action}, step {step}", dial) : "");
  replace("scores", scoreTable(table.api, table.names));
  replace("chart", scoreChart(table.api, table.names));
  drawFeed();
}

// The table page opened with the table's token (/t/TOKEN/table) also hears of the game's
// camera events (its socket's "pictured" channel): each one, in the feed or before it, shows
// the picture it was made from on tap, read only. The public table (/) never does.
const tokenBase = /^\/t\/[^/]+\/table$/.test(window.location.pathname)
  ? window.location.pathname.replace(/table$/, "") : null;
let shownTable = null;  // the latest table message
let pictured = null;  // the latest "pictured" message: the game's camera events

function pictureButton(seq, text) {
  return el("button", {type: "button", class: "picture-button", "data-seq": seq,
                       title: t("See the picture of event {n}", {n: seq}),
                       onclick: () => showEvidence(seq, text)}, t("picture"));
}

function drawFeed() {
  const table = shownTable;
  if (!table || !table.api) return;
  const camera = new Map();
  if (pictured && pictured.session === table.session) {
    for (const event of pictured.events) camera.set(event.seq, event.text);
  }
  replace("feed", ...table.feed.slice().reverse().map((entry) =>
    el("li", {value: entry.n, ...(entry.undone ? {class: "undone"} : {})}, entry.text,
       ...(camera.has(entry.n) ? [" ", pictureButton(entry.n, entry.text)] : []))));
  // The camera's events older than the feed's latest few: listed under it, newest first.
  const first = table.feed.length ? table.feed[0].n : table.events + 1;
  const older = [...camera].filter(([seq]) => seq < first).reverse();
  replace("older", ...older.map(([seq, text]) =>
    el("li", {value: seq}, text, " ", pictureButton(seq, text))));
  document.getElementById("older-box").hidden = older.length === 0;
}

// An event's picture as the store keeps it, its readings as they stood when it was stored.
async function showEvidence(seq, text) {
  const status = document.getElementById("evidence-status");
  const answer = await fetch(`${tokenBase}camera/event/${seq}.json`,
                             {cache: "no-store", credentials: "omit"});
  let about = {};
  try { about = await answer.json(); } catch (e) { about = {error: answer.statusText}; }
  if (!answer.ok) {
    status.textContent = t("No picture: {why}", {why: about.error || answer.status});
    return;
  }
  status.textContent = "";
  replace("evidence-title", `#${seq}: ${text}`);
  document.getElementById("evidence-picture").src = `${tokenBase}camera/event/${seq}.jpg`;
  const svg = document.getElementById("evidence-readings");
  svg.setAttribute("viewBox", `0 0 ${about.width} ${about.height}`);
  svg.replaceChildren(...storedReadings(about, pictured.names || {}, pictured.states || {})
    .map((reading) => drawReading(reading, true)));
  const box = document.getElementById("evidence");
  box.hidden = false;
  document.body.dataset.evidence = seq;
  document.body.dataset.evidenceReadings = about.readings
    .map((r) => `${r.id || "?"}:${r.state}`).join(" ");
  box.scrollIntoView({block: "nearest"});
}

function closeEvidence() {
  document.getElementById("evidence").hidden = true;
  delete document.body.dataset.evidence;
  delete document.body.dataset.evidenceReadings;
}

document.getElementById("evidence-close").addEventListener("click", closeEvidence);

function showLinks(message) {
  document.getElementById("join").hidden = message.links.length === 0;
  replace("links", ...message.links.map((link) => {
    // The code (an SVG the server drew, segno), captioned with the seat's one name (a link
    // to its page).
    const box = el("div", {class: "link"});
    box.insertAdjacentHTML("beforeend", link.qr);
    box.append(el("div", {}, el("a", {href: link.url}, link.name)));
    return box;
  }));
}

// At / the public table; at /t/TOKEN/table (the table's token) its socket is the controls'
// own, which also gives the seats' join codes.
live(tokenBase ? "ws?pictures=1" : "ws", (message) => {
  if (message.kind === "links") showLinks(message);
  else if (message.kind === "pictured") { pictured = message; drawFeed(); }
  else showTable(message);
}, () => replace("notice", t("This table link no longer works: companion seats prints the new one.")));
