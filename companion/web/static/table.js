// The table page: the public state of the game now playing, kept live.
"use strict";

function showTable(table) {
  document.body.dataset.events = table.events ?? 0;
  document.body.dataset.session = table.session ?? "";
  replace("status", table.status);
  const screen = document.getElementById("screen");
  screen.hidden = !table.screen;  // the table's own screen: menus, the trap dial
  if (table.screen) screen.src = table.screen;
  replace("notice", table.notice || "");
  if (!table.api) {
    replace("words", el("li", {}, t("No game yet: choose one at the table.")));
    replace("scores"); replace("chart"); replace("feed"); replace("dial");
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
  replace("feed", ...table.feed.slice().reverse().map((entry) =>
    el("li", {value: entry.n}, entry.text)));
}

function showLinks(message) {
  document.getElementById("join").hidden = message.links.length === 0;
  replace("links", ...message.links.map((link) => {
    const box = el("div", {class: "link"}, el("div", {}, link.name));
    box.insertAdjacentHTML("beforeend", link.qr);  // an SVG the server drew (segno)
    box.append(el("div", {}, el("a", {href: link.url}, t("seat {n}", {n: link.seat + 1}))));
    return box;
  }));
}

// At / the public table; at /t/TOKEN/table (the table's token) its socket is the controls'
// own, which also gives the seats' join codes.
live("ws", (message) => {
  if (message.kind === "links") showLinks(message);
  else showTable(message);
}, () => replace("notice", t("This table link no longer works: companion seats prints the new one.")));
